// The sample topology the extension ships is examples/settings.json, and the confirmation before
// writing it lists every entry and says when it replaces something.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from '../../src/engine/settings';
import { ENGLISH } from '../../src/extension/localize';
import { describeSampleWrite, SAMPLE_SETTINGS, sampleSettingsText } from '../../src/extension/sampleSettings';

const root = join(__dirname, '../../..');
const examples = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));

describe('sample settings', () => {
  test('the bundled sample is examples/settings.json, and valid', () => {
    assert.deepEqual(SAMPLE_SETTINGS, examples);
    assert.deepEqual(parseSettings(SAMPLE_SETTINGS).problems, []);
  });

  test('the document "Open Sample Settings" shows holds the same settings', () => {
    const text = sampleSettingsText(ENGLISH);
    assert.match(text, /^\/\/ /);
    assert.deepEqual(JSON.parse(text.replace(/^\/\/.*$/gm, '')), examples);
    assert.ok(text.split('\n').every((l) => l.length <= 110), 'lines stay readable');
  });

  test('the confirmation lists every entry written', () => {
    const c = describeSampleWrite(ENGLISH, {});
    assert.equal(c.replaces, false);
    assert.equal(c.action, 'Write Sample Settings');
    for (const t of examples['keyRouting.topics']) assert.ok(c.detail.includes(`  ${t.name}: `), t.name);
    for (const n of examples['keyRouting.pulsarNamespaces']) assert.ok(c.detail.includes(`  ${n.name}: `), n.name);
    assert.ok(examples['keyRouting.kafkaGroups'].length > 0, 'the example has a consumer group');
    for (const g of examples['keyRouting.kafkaGroups']) assert.ok(c.detail.includes(`  ${g.name}: `), g.name);
    assert.doesNotMatch(c.detail, /REPLACES/);
    assert.match(c.detail, /  orders: Kafka, 6 partitions/);
    assert.match(c.detail, /  persistent:\/\/public\/default\/invoices: Pulsar, non-partitioned, Key_Shared STICKY with 3 consumers/);
    assert.match(c.detail, /\nkeyRouting\.kafkaGroups:\n  billing: range assignor, 3 members on orders$/);
  });

  test('it says what it replaces, and the button says Replace', () => {
    const c = describeSampleWrite(ENGLISH, { 'keyRouting.topics': [{ name: 'a' }, { name: 'b' }, { name: 'c' }], 'keyRouting.pulsarNamespaces': [] });
    assert.equal(c.replaces, true);
    assert.equal(c.action, 'Replace Settings');
    assert.match(c.detail, /REPLACES the workspace's current keyRouting\.topics \(3 entries\)\./);
    const both = describeSampleWrite(ENGLISH, { 'keyRouting.topics': 'broken', 'keyRouting.pulsarNamespaces': [{ name: 'a/b' }] });
    assert.match(both.detail, /keyRouting\.topics \(1 entry\) and keyRouting\.pulsarNamespaces \(1 entry\)/);
    // A workspace with only a consumer group loses it too: the sample writes its own group.
    const groups = describeSampleWrite(ENGLISH, { 'keyRouting.kafkaGroups': [{ name: 'g1' }, { name: 'g2' }] });
    assert.equal(groups.replaces, true);
    assert.match(groups.detail, /REPLACES the workspace's current keyRouting\.kafkaGroups \(2 entries\)\./);
  });
});
