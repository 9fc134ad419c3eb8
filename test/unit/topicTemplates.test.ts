import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings } from '../../src/engine/settings';
import { appendTopic, entryNames, starterTopic, TOPIC_KINDS, uniqueName } from '../../src/extension/topicTemplates';
import { buildModel } from '../../src/extension/settingsModel';
import { PulsarTopicState } from '../../src/engine/topology';

describe('Add Topic starter entries', () => {
  for (const k of TOPIC_KINDS) {
    test(`${k.kind}: a valid entry with no finding, of the kind it says`, () => {
      const entry = starterTopic(k.kind, k.defaultName);
      assert.deepEqual(parseSettings({ 'keyRouting.topics': [entry] }).problems, []);
      const m = buildModel([entry], undefined);
      assert.deepEqual(m.findings, []);
      const t = m.topology.topics[0];
      if (k.kind === 'kafka') assert.equal(t.config.system, 'kafka');
      else {
        assert.ok(t instanceof PulsarTopicState);
        const algorithm = t.subscription!.selector.algorithm;
        assert.equal(algorithm, { 'pulsar-auto-split': 'autoSplit', 'pulsar-consistent-hashing': 'consistentHashing', 'pulsar-sticky': 'sticky' }[k.kind]);
        assert.equal(t.subscription!.consumers.length, 2);
      }
    });
  }

  test('appending keeps every existing entry, invalid ones too', () => {
    const existing = [{ name: 'a', system: 'kafka', partitions: 1 }, { broken: true }];
    const r = appendTopic(existing, { name: 'b' });
    assert.ok(r.ok);
    assert.deepEqual(r.topics, [...existing, { name: 'b' }]);
    assert.deepEqual(appendTopic(undefined, { name: 'b' }), { ok: true, topics: [{ name: 'b' }] });
  });

  test('a value that is not a list is refused, not overwritten', () => {
    const r = appendTopic({ name: 'a' }, { name: 'b' });
    assert.equal(r.ok, false);
  });

  test('names are made unique', () => {
    assert.equal(uniqueName('orders', ['orders', 'orders-2']), 'orders-3');
    assert.equal(uniqueName('x', []), 'x');
    assert.deepEqual(entryNames([{ name: 'a' }, 3, { name: 4 }, { name: 'b' }]), ['a', 'b']);
  });
});
