// The manifest's settings schema, the examples and the engine must agree: what the schema
// offers, the engine accepts; the example workspace holds the example settings.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from '../../src/engine/settings';
import { DEFAULT_HOVER_LANGUAGES } from '../../src/extension/constants';

const root = join(__dirname, '../../..');
/** The manifest as VS Code shows it in English: every `%key%` replaced by its package.nls.json text. */
function localized(value: unknown, nls: Record<string, string>): any {
  if (typeof value === 'string') return /^%[^%]+%$/.test(value) ? (nls[value.slice(1, -1)] ?? value) : value;
  if (Array.isArray(value)) return value.map((v) => localized(v, nls));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localized(v, nls)]));
  return value;
}
const rawPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pkg = localized(rawPkg, JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')));
const props = pkg.contributes.configuration.properties;
const topic = props['keyRouting.topics'].items.properties;
const sub = topic.subscription.properties;

const pulsar = (extra: Record<string, unknown>, subscription?: Record<string, unknown>) => ({
  'keyRouting.topics': [{ name: 'persistent://public/default/t', system: 'pulsar', ...extra, ...(subscription ? { subscription } : {}) }],
});

describe('manifest', () => {
  test('every enum value the schema offers is accepted by the engine', () => {
    for (const v of topic.hashingScheme.enum) assert.deepEqual(parseSettings(pulsar({ hashingScheme: v })).problems, [], v);
    for (const v of topic.brokerVersion.enum) assert.deepEqual(parseSettings(pulsar({ brokerVersion: v })).problems, [], v);
    for (const v of sub.keySharedMode.enum) assert.deepEqual(parseSettings(pulsar({}, { keySharedMode: v })).problems, [], v);
    for (const v of sub.type.enum) assert.deepEqual(parseSettings(pulsar({}, { type: v })).problems, [], v);
    for (const v of sub.hashRangeSize.enum) assert.deepEqual(parseSettings(pulsar({}, { hashRangeSize: v, consistentHashing: false })).problems, [], String(v));
    for (const v of topic.partitioner.enum) assert.deepEqual(parseSettings({ 'keyRouting.topics': [{ name: 'o', system: 'kafka', partitions: 1, partitioner: v }] }).problems, []);
    for (const v of topic.system.enum) assert.ok(['kafka', 'pulsar'].includes(v));
    const kafka = (extra: Record<string, unknown>) => ({ 'keyRouting.topics': [{ name: 'o', system: 'kafka', partitions: 1, ...extra }] });
    for (const v of topic.keySerializer.enum) assert.deepEqual(parseSettings(kafka({ keySerializer: v, schemaId: 1 })).problems, [], v);
    const [, kafkaProducers, pulsarProducers] = props['keyRouting.topics'].items.allOf.map((a: any) => a.then.properties?.producers?.items.enum);
    assert.deepEqual(kafkaProducers, topic.partitioner.enum);
    assert.deepEqual(pulsarProducers, topic.hashingScheme.enum);
    assert.deepEqual(parseSettings(kafka({ producers: kafkaProducers })).problems, []);
    assert.deepEqual(parseSettings(pulsar({ producers: pulsarProducers })).problems, []);
  });

  test('every client choice has a label and a description naming who uses it', () => {
    for (const e of [topic.partitioner, topic.hashingScheme, topic.keySerializer]) {
      assert.equal(e.enumItemLabels.length, e.enum.length);
      assert.equal(e.enumDescriptions.length, e.enum.length);
      e.enum.forEach((v: string, i: number) => assert.ok(e.enumItemLabels[i].startsWith(`${v}: `), v));
    }
    assert.match(topic.partitioner.enumItemLabels[topic.partitioner.enum.indexOf('librdkafka')], /librdkafka default \(consistent_random\): confluent-kafka-python\/-go\/\.NET, node-rdkafka/);
    assert.equal(topic.partitions.maximum, 2147483647);
    assert.equal(topic.schemaId.type, 'integer');
  });

  test('the schema defaults are the engine defaults', () => {
    assert.equal(topic.brokerVersion.default, '4.0');
    assert.equal(sub.consistentHashing.default, true);
    assert.equal(sub.replicaPoints.default, 100);
    assert.equal(sub.hashRangeSize.default, 65536);
    assert.equal(topic.hashingScheme.default, 'JavaStringHash');
  });

  test('the default hover languages are the constants the extension falls back to', () => {
    assert.deepEqual(props['keyRouting.hover.languages'].default, DEFAULT_HOVER_LANGUAGES);
  });

  test('activation is lazy: after startup and for a restored panel, never on opening a file', () => {
    // Commands and the side bar view activate the extension implicitly (VS Code 1.74+).
    assert.deepEqual(pkg.activationEvents, ['onStartupFinished', 'onWebviewPanel:keyRouting.panel']);
  });

  test('commands are in the Key Routing category and the context menu offers Show Route', () => {
    const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
    const ids = rawPkg.contributes.commands.map((c: { command: string; category: string }) => (assert.equal(c.category, '%category%'), c.command));
    assert.equal(nls.category, 'Key Routing');
    for (const id of ['keyRouting.addTopic', 'keyRouting.analyzeKeys', 'keyRouting.importTopology', 'keyRouting.openPanel', 'keyRouting.routeKey', 'keyRouting.showRoute']) assert.ok(ids.includes(id), id);
    assert.equal(pkg.contributes.menus['editor/context'][0].command, 'keyRouting.showRoute');
    assert.ok(pkg.contributes.menus['editor/context'][0].when);
  });

  test('the example workspace holds the example settings', () => {
    const cli = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));
    const ws = JSON.parse(readFileSync(join(root, 'examples/.vscode/settings.json'), 'utf8'));
    const why = 'examples/.vscode/settings.json and examples/settings.json differ (did a session of `npm start` edit them? `git checkout examples/` restores them)';
    assert.deepEqual(ws['keyRouting.topics'], cli['keyRouting.topics'], why);
    assert.deepEqual(ws['keyRouting.pulsarNamespaces'], cli['keyRouting.pulsarNamespaces'], why);
    assert.deepEqual(ws['keyRouting.kafkaGroups'], cli['keyRouting.kafkaGroups'], why);
  });
});
