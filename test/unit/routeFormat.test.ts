import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTopicRoute, routeTable, shortNames, showKey, statusText, summarize, summarizeMany, type TopicRoute } from '../../src/extension/routeFormat';
import { buildModel, routeKeys } from '../../src/extension/settingsModel';
import { stringKey } from '../../src/engine/key';

const kafka: TopicRoute = { topic: 'orders', system: 'kafka', partition: 2, hash: 123, hasSubscription: false };
const pulsar: TopicRoute = { topic: 'persistent://public/default/payments', system: 'pulsar', partition: 3, stickyKeyHash: 20000, consumer: 'C2', range: [16385, 32768], hasSubscription: true };

describe('route summaries', () => {
  test('the issue\'s example line', () => {
    const names = shortNames([kafka.topic, pulsar.topic]);
    assert.equal(summarize({ label: 'user-1', routes: [kafka, pulsar] }, names), 'user-1 → orders p2 · payments p3 → C2 [16385-32768]');
  });

  test('unowned hashes, non-partitioned topics, stale entries', () => {
    assert.equal(formatTopicRoute({ ...pulsar, partition: null, consumer: null, range: null }, 'x'), 'x → nobody (hash 20000 unowned)');
    assert.equal(formatTopicRoute({ ...pulsar, partition: null, hasSubscription: false, consumer: null, range: null }, 'x'), 'x hash 20000');
    assert.equal(formatTopicRoute({ ...kafka, stale: true }, 'orders'), 'orders p2 (last good settings)');
  });

  test('short names stay unambiguous', () => {
    const m = shortNames(['persistent://a/b/t', 'persistent://c/d/t', 'persistent://public/default/u', 'orders']);
    assert.deepEqual([...m.values()], ['a/b/t', 'c/d/t', 'u', 'orders']);
  });

  test('keys with control characters or edge spaces are quoted; long keys cut', () => {
    assert.equal(showKey('a\tb'), '"a\\tb"');
    assert.equal(showKey(' a'), '" a"');
    assert.equal(showKey(''), '""');
    assert.equal(showKey('x'.repeat(100), 10), 'xxxxxxxxx…');
  });

  test('several keys: a count and where the table is', () => {
    assert.match(summarizeMany([{ label: 'a', routes: [] }, { label: 'b', routes: [] }], 3), /^2 keys routed on 3 topics; see the Key Routing output/);
  });

  test('the status text is bounded and says how many topics it left out', () => {
    const routes = Array.from({ length: 10 }, (_, i) => ({ ...kafka, topic: `topic-number-${i}` }));
    const names = shortNames(routes.map((r) => r.topic));
    const s = statusText({ label: 'user-1', routes }, names, 80);
    assert.ok(s.length <= 90, s);
    assert.match(s, /· \+\d+$/);
  });

  test('the table has one row per key per topic with the engine\'s values', () => {
    const settings = JSON.parse(readFileSync(join(__dirname, '../../../examples/settings.json'), 'utf8'));
    const model = buildModel(settings['keyRouting.topics'], undefined);
    const routed = routeKeys(model, ['user-1', 'user-2'].map((k) => ({ label: k, key: stringKey(k) })));
    const lines = routeTable(routed).split('\n');
    assert.match(lines[0], /^key\s+topic\s+partition\s+hash\s+consumer\s+range$/);
    const rows = lines.slice(2, 2 + 8);
    assert.equal(rows.length, 8);
    for (const [i, row] of rows.entries()) {
      const r = routed[Math.floor(i / 4)].routes[i % 4];
      const cells = row.split(/\s{2,}/);
      assert.equal(cells[1], r.topic);
      assert.equal(cells[2], r.partition === null ? '-' : String(r.partition));
      assert.equal(cells[3], String(r.system === 'kafka' ? r.hash : r.stickyKeyHash));
    }
  });
});
