import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTopicRoute, routeTable, shortNames, statusText, summarize, type TopicRoute } from '../../src/extension/routeFormat';
import { buildModel, routeKeys } from '../../src/extension/settingsModel';
import { stringKey } from '../../src/engine/key';
import { importPulsarStats } from '../../src/import/pulsarStats';

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

describe('route summaries for client choices', () => {
  const model = buildModel(
    [
      { name: 'orders', system: 'kafka', partitions: 6, producers: ['java', 'librdkafka'] },
      { name: 'ids', system: 'kafka', partitions: 12, keySerializer: 'int' },
      { name: 'rd', system: 'kafka', partitions: 6, partitioner: 'librdkafka' },
    ],
    undefined,
  );
  const route = (key: string) => routeKeys(model, [{ label: key, key: stringKey(key) }])[0];
  const names = shortNames(['orders', 'ids', 'rd']);

  test('producers that disagree are named with their partitions: user-2 → orders p2 ⚠ librdkafka p4', () => {
    const k = route('user-2');
    assert.equal(formatTopicRoute(k.routes[0], 'orders'), 'orders p2 ⚠ librdkafka p4');
    // user-1: java and librdkafka both say 2, nothing to warn about.
    assert.equal(formatTopicRoute(route('user-1').routes[0], 'orders'), 'orders p2');
    assert.match(statusText(k, names), /^user-2: orders p2 ⚠ · ids ✗ · rd p4$/);
  });

  test('typed keys show their bytes; a key the serializer refuses shows why', () => {
    const ok = route('42').routes[1];
    assert.equal(formatTopicRoute(ok, 'ids'), `ids p${ok.partition} (bytes 0000002a)`);
    assert.equal(formatTopicRoute(route('abc').routes[1], 'ids'), 'ids ✗ "abc" is not an int (-2147483648..2147483647)');
  });

  test('no fixed partition: the empty key under librdkafka\'s default', () => {
    assert.equal(formatTopicRoute(route('').routes[2], 'rd'), 'rd (no fixed partition)');
    assert.match(statusText(route(''), names), /rd p\?$/);
  });

  test('the table gains bytes, producers and note columns where a route has them', () => {
    const lines = routeTable([route('42'), route('abc'), route('')]).split('\n');
    assert.match(lines[0], /^key\s+topic\s+partition\s+hash\s+consumer\s+range\s+bytes\s+producers\s+note$/);
    const cells = (i: number) => lines[i].split(/\s{2,}/);
    assert.equal(cells(3)[6], '0000002a'); // 42 on ids
    assert.match(cells(2)[7], /^java p\d, librdkafka p\d/); // 42 on orders
    assert.match(lines[6], /^abc\s+ids\s+-\s+-\s+-\s+-\s+-\s+-\s+error: "abc" is not an int/);
    assert.match(lines[10], /^""\s+rd\s+-\s+-\s+-\s+-\s+-\s+-\s+librdkafka's default partitioner/);
    assert.ok(lines.some((l) => l.startsWith('bytes: the serialized key')));
  });
});

describe('route summaries of a broker report', () => {
  // The 4.x stats fixture: C4 owns [16385, 40960]; hash 17872 still drains at C1 with 2 unacked messages.
  const stats = readFileSync(join(__dirname, '../../../test/unit/data/observed/pulsar-4.0-auto-split-draining.json'), 'utf8');
  const imported = importPulsarStats(stats, { source: 'stats.json', topic: 'persistent://public/default/shipments' });
  const model = buildModel(imported.topics, undefined);
  const routeOf = (key: string) => routeKeys(model, [{ label: key, key: stringKey(key) }])[0];
  /** The first key `k-<n>` whose sticky key hash passes `want` (worked out by the engine). */
  const keyWhere = (want: (hash: number) => boolean) => {
    for (let n = 0; n < 2_000_000; n++) if (want(routeOf(`k-${n}`).routes[0].stickyKeyHash!)) return `k-${n}`;
    throw new Error('no key found');
  };

  test('a consumer read off the report is marked observed', () => {
    const key = keyWhere((h) => h >= 40961);
    // The report's [40961, 65536] as routes show ranges: a 4.x key hash stops at 65535 (ALGORITHMS.md).
    assert.equal(summarize(routeOf(key), shortNames(['persistent://public/default/shipments'])), `${key} → shipments → C1 [40961-65535] (observed)`);
  });

  test('a draining hash names the consumer it waits for and its unacknowledged count', () => {
    const key = keyWhere((h) => h === 17872);
    const routed = routeOf(key);
    assert.equal(summarize(routed, shortNames(['persistent://public/default/shipments'])), `${key} → shipments → C4 [16385-40960] (observed) ⧗ draining at C1 (2 unacked)`);
    assert.match(routeTable([routed]), /C4 \(observed\) ⧗ draining at C1 \(2 unacked\)\s+16385-40960/);
  });
});
