/**
 * `import pulsar-stats` on the fixtures in data/observed (stats shaped as the broker classes write
 * them, from the histories below): what the settings get, routes against the replayed history,
 * what-ifs worked out by hand from the selectors' code (ALGORITHMS.md section 3), and the
 * messages for reports no broker could have written.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPulsarStats } from '../../src/import/pulsarStats';
import { ImportError } from '../../src/import/errors';
import { parseSettings } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { parseEvent } from '../../src/engine/events';
import { runWhatIf } from '../../src/engine/whatIf';
import type { SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { replay } from './brokerReports';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const read = (f: string) => readFileSync(join(DATA, f), 'utf8');
const TOPIC = 'persistent://public/default/orders';

function load(file: string, opts: { topic?: string; subscription?: string; base?: Record<string, unknown> } = {}) {
  const imported = importPulsarStats(read(file), { source: file, topic: opts.topic ?? TOPIC, ...opts });
  const { settings, problems } = parseSettings({ 'keyRouting.topics': imported.topics });
  assert.deepEqual(problems, []);
  const state = new Topology(settings, []).topics[0] as PulsarTopicState;
  return { imported, entry: imported.topics[0] as Record<string, any>, state };
}

const cfg = (v: '3.0' | '4.0', mode: 'AUTO_SPLIT' | 'STICKY', ch: boolean): SelectorConfig => ({ brokerVersion: v, keySharedMode: mode, consistentHashing: ch, replicaPoints: 100, hashRangeSize: 65536 });

const ids = (state: PulsarTopicState) => state.selectorFor(state.partitions > 0 ? 0 : null).segments().map((s) => [s.start, s.end, s.consumers.map((c) => c.id)]);

describe('import pulsar-stats: the fixtures', () => {
  test('3.x AUTO_SPLIT after a leave (+C1 +C2 +C3 -C2): the reported map, and what-ifs from it', () => {
    const { entry, state, imported } = load('pulsar-3.0-auto-split.json');
    assert.equal(entry.brokerVersion, '3.0');
    assert.deepEqual(entry.subscription.consumers, [{ name: 'C1' }, { name: 'C3' }]);
    assert.equal(entry.subscription.name, 'orders-sub', 'the only Key_Shared subscription, next to a Shared one');
    assert.equal(entry.subscription.consistentHashing, false);
    assert.deepEqual(entry.subscription.observed.consumers, [
      { name: 'C1', ranges: [[16385, 65536]] },
      { name: 'C3', ranges: [[0, 16384]] },
    ]);
    assert.deepEqual(imported.notes, []);
    assert.deepEqual(ids(state), [[0, 16384, ['C3']], [16385, 65535, ['C1']]]);
    // A fifth consumer splits the biggest range, C1's [16385, 65536], at 65536 - (49151 >> 1) = 40960.
    const w = runWhatIf(state.clone(), [parseEvent('+C4')], []);
    assert.deepEqual(w.steps[0].lost, { C1: [[16385, 40960]] });
    assert.deepEqual(w.steps[0].gained, { C4: [[16385, 40960]] });
    // Connecting C1 and C3 afresh would split at 32768: the history moved the split point.
    const g = state.observed!.info()[0];
    assert.equal(g.predicted.equal, false);
    assert.deepEqual(g.predicted.differences, [{ start: 16385, end: 32768, reported: ['C1'], other: ['C3'] }]);
    assert.match(g.predicted.reason, /connection history/);
    assert.ok(g.model.equal);
    // Removing C1, the top key's holder, gives C3 everything up to 65536.
    const r = runWhatIf(state.clone(), [parseEvent('-C1')], []);
    assert.deepEqual(r.steps[0].gained, { C3: [[16385, 65536]] });
  });

  test('4.x AUTO_SPLIT with draining hashes: the marks follow the broker’s tracker', () => {
    const { entry, state } = load('pulsar-4.0-auto-split-draining.json');
    assert.equal(entry.brokerVersion, '4.0');
    assert.deepEqual(entry.subscription.observed.consumers[0].drainingHashes, [
      { hash: 17872, unackMsgs: 2, blockedAttempts: 5 },
      { hash: 22049, unackMsgs: 3, blockedAttempts: 6 },
    ]);
    const history = replay(cfg('4.0', 'AUTO_SPLIT', false), ['+C1', '+C2', '+C3', '-C2', '+C4']);
    for (const key of ['order-0', 'order-1', 'order-2', 'user-1', '']) {
      const route = state.route(stringKey(key));
      const real = history.selector.select(history.selector.makeStickyKeyHash(stringKey(key).bytes));
      assert.equal(route.consumer, real!.id);
      assert.equal(route.observed, true);
    }
    // order-0 and order-1 hash into C4's [16385, 40960], taken from C1, which still holds messages.
    assert.deepEqual(state.route(stringKey('order-0')).draining, { consumer: 'C1', unackMsgs: 2 });
    assert.deepEqual(state.route(stringKey('order-1')).draining, { consumer: 'C1', unackMsgs: 3 });
    assert.equal(state.route(stringKey('order-2')).draining, undefined);
    // C4 leaving gives the hashes back to C1: a hash back at its draining consumer blocks nothing.
    const back = state.clone();
    assert.ok(back.apply(parseEvent('-C4')).ok);
    assert.equal(back.route(stringKey('order-0')).consumer, 'C1');
    assert.equal(back.route(stringKey('order-0')).draining, undefined);
    assert.equal(back.route(stringKey('order-0')).observed, undefined);
    // C1 closing drops its pending messages, and with them the draining entries.
    const gone = state.clone();
    assert.ok(gone.apply(parseEvent('-C1')).ok);
    assert.equal(gone.route(stringKey('order-0')).draining, undefined);
    // Another consumer joining elsewhere leaves the marks in place (C1 is still connected).
    const joined = state.clone();
    assert.ok(joined.apply(parseEvent('+C5')).ok);
    assert.deepEqual(joined.route(stringKey('order-1')).draining, { consumer: 'C1', unackMsgs: 3 });
    const info = state.observed!.info()[0];
    assert.deepEqual(info.draining.map((d) => [d.hash, d.consumer]), [[17872, 'C1'], [22049, 'C1']]);
  });

  test('3.x ring with a shared point (consumer-1 + "10" = consumer-11 + "0"): every hash as the replayed ring picks', () => {
    const { entry, state, imported } = load('pulsar-3.0-ring.json');
    assert.equal(entry.subscription.consistentHashing, true);
    assert.match(imported.notes.join('\n'), /replicaPoints is left at 100/);
    const history = replay(cfg('3.0', 'AUTO_SPLIT', true), ['+consumer-1', '+consumer-11', '+c']);
    const sel = state.selectorFor(null);
    // consumer-1's points 10..19 are consumer-11's 0..9: ten shared points.
    const shared = sel.segments().filter((s) => s.consumers.length > 1);
    assert.ok(shared.length >= 1);
    for (const s of shared) assert.deepEqual(s.consumers.map((c) => c.id), ['consumer-1', 'consumer-11']);
    // Every segment boundary and a spread inside the shared one, including the wrap-around above the last point.
    const probes = new Set<number>([0, 0x7fffffff]);
    for (const s of sel.segments()) [s.start, s.end, (s.start + s.end) >>> 1].forEach((h) => probes.add(h));
    for (let h = shared[0].start; h <= shared[0].end; h += Math.max(1, Math.floor((shared[0].end - shared[0].start) / 50))) probes.add(h);
    for (const h of probes) assert.equal(sel.select(h)?.id, history.selector.select(h)?.id, `hash ${h}`);
    assert.equal(state.observed!.note(), undefined, 'a 3.x ring rebuilds exactly');
  });

  test('4.x ring: c0 holds name index 1 (it connected while another c0 was connected); the rebuild reads it off the ranges', () => {
    const { state, entry } = load('pulsar-4.0-ring.json');
    assert.deepEqual(entry.subscription.consumers, [{ name: 'c0' }, { name: 'd' }]);
    const history = replay(cfg('4.0', 'AUTO_SPLIT', true), ['+c0', '+c0', '+d', '-c0']);
    const real = history.selector.segments().map((s) => [s.start, s.end, s.consumers.map((c) => (c.id === 'c0#2' ? 'c0' : c.id))]);
    assert.deepEqual(ids(state), real);
    assert.equal(state.observed!.note(), undefined);
    const g = state.observed!.info()[0];
    assert.ok(g.model.equal, 'the rebuilt ring is the reported one');
    assert.equal(g.predicted.equal, false, 'connecting c0 and d afresh gives c0 index 0: other points');
    // A new c0 takes the free index 0, on the broker (c0#3) and here (c0#2).
    const after = state.clone();
    assert.ok(after.apply(parseEvent('+c0')).ok);
    assert.ok(history.connect('c0').ok);
    const rename = (id: string) => ({ 'c0#2': 'c0', 'c0#3': 'c0#2' })[id] ?? id;
    assert.deepEqual(
      ids(after),
      history.selector.segments().map((s) => [s.start, s.end, s.consumers.map((c) => rename(c.id))]),
    );
  });

  for (const v of ['3.0', '4.0'] as const) {
    test(`${v} STICKY: the reported ranges become the consumers' ranges`, () => {
      const { entry, state } = load(`pulsar-${v}-sticky.json`);
      assert.equal(entry.subscription.keySharedMode, 'STICKY');
      assert.equal(entry.subscription.consistentHashing, undefined);
      assert.deepEqual(entry.subscription.consumers[2], { name: 'E3', ranges: [[49152, 60000], [60002, 65535]] });
      // The gap 60001 between two ranges of E3: on 3.x E3's (floor and ceiling are both E3), on
      // 4.x nobody's (in no range: apache/pulsar#24730). Either broker takes a consumer asking for
      // just that slot: it overlaps no range of E3's.
      if (v === '3.0') assert.deepEqual(ids(state).slice(-1), [[49152, 65535, ['E3']]]);
      else assert.deepEqual(ids(state).slice(-3), [[49152, 60000, ['E3']], [60001, 60001, []], [60002, 65535, ['E3']]]);
      const w = runWhatIf(state.clone(), [parseEvent('+E4:60001-60001')], []);
      assert.equal(w.steps[0].error, undefined);
      assert.deepEqual(w.steps[0].lost, v === '3.0' ? { E3: [[60001, 60001]] } : {});
      const clash = runWhatIf(state.clone(), [parseEvent('+E4:60000-60001')], []);
      assert.equal(clash.steps[0].error, 'Range conflict with consumer E3');
    });
  }

  test('4.x broker in classic mode: keyHashRanges strings, 4.x selectors', () => {
    const { entry, imported, state } = load('pulsar-4.0-classic-auto-split.json');
    assert.equal(entry.brokerVersion, '4.0');
    assert.match(imported.notes.join('\n'), /classic mode/);
    const history = replay(cfg('4.0', 'AUTO_SPLIT', false), ['+C1', '+C2', '+C3']);
    assert.deepEqual(ids(state), history.selector.segments().map((s) => [s.start, s.end, s.consumers.map((c) => c.id)]));
  });

  test('partitioned --per-partition: partitions that differ get one observed entry each', () => {
    const { entry, state } = load('pulsar-4.0-partitioned.json', { topic: undefined });
    assert.equal(entry.name, 'persistent://public/default/payments', 'the name comes from the partitions');
    assert.equal(entry.partitions, 3);
    assert.equal(entry.subscription.observed, undefined);
    assert.equal(entry.subscription.observedPartitions.length, 3);
    assert.deepEqual(entry.subscription.observedPartitions[1].consumers.map((c: { name: string }) => c.name), ['C1', 'C3', 'C2']);
    const p0 = replay(cfg('4.0', 'AUTO_SPLIT', false), ['+C1', '+C2', '+C3']);
    const p1 = replay(cfg('4.0', 'AUTO_SPLIT', false), ['+C1', '+C2', '+C3', '-C2', '+C2']);
    for (let i = 0; i < 400; i++) {
      const key = stringKey(`pay-${i}`);
      const route = state.route(key);
      const sel = (route.partition === 1 ? p1 : p0).selector;
      assert.equal(route.consumer, sel.select(sel.makeStickyKeyHash(key.bytes))!.id.replace('#2', ''), `pay-${i} on partition ${route.partition}`);
    }
    // Every partition takes a new consumer from its own state.
    const w = state.clone();
    assert.ok(w.apply(parseEvent('+C4')).ok);
    assert.ok(p0.connect('C4').ok && p1.connect('C4').ok);
    for (const p of [0, 1, 2]) {
      const real = (p === 1 ? p1 : p0).selector.segments().map((s) => [s.start, s.end, s.consumers.map((c) => c.id.replace('#2', ''))]);
      assert.deepEqual(w.selectorFor(p).segments().map((s) => [s.start, s.end, s.consumers.map((c) => c.id)]), real, `partition ${p}`);
    }
    assert.throws(() => importPulsarStats(read('pulsar-4.0-partitioned.json'), { source: 'p.json', topic: 'persistent://public/default/orders' }), /holds the partitions of persistent:\/\/public\/default\/payments, not of --topic/);
  });

  test('settings a report cannot tell are kept from the settings it adds to', () => {
    const base = { 'keyRouting.topics': [{ name: TOPIC, system: 'pulsar', hashingScheme: 'Murmur3_32Hash', brokerVersion: '3.0', subscription: { consistentHashing: true, replicaPoints: 40 } }] };
    const { entry, imported } = load('pulsar-4.0-auto-split-draining.json', { base });
    assert.equal(entry.hashingScheme, 'Murmur3_32Hash');
    assert.equal(entry.brokerVersion, '4.0', 'the report says 4.x');
    assert.equal(entry.subscription.consistentHashing, false, 'the ranges say hash ranges');
    assert.equal(entry.subscription.replicaPoints, undefined);
    assert.match(imported.notes.join('\n'), /hashingScheme Murmur3_32Hash kept/);
    assert.match(imported.notes.join('\n'), /consistentHashing false replaces true/);
  });
});

describe('import pulsar-stats: a large 3.x ring from a broker before 2.8', () => {
  test('1,000 consumers x 150 points and no keySharedMode: the mode is read off 137,000 ranges (as arguments to Math.max they overflowed the stack)', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `c${i}`);
    const ranges = new Map(names.map((n) => [n, [] as string[]]));
    const big = new ConsistentHashing3Selector(150);
    for (const name of names) big.addConsumer({ id: name, name });
    for (const seg of big.segments()) ranges.get(seg.consumers[0].id)!.push(`[${seg.start}, ${seg.end}]`);
    const total = [...ranges.values()].reduce((n, r) => n + r.length, 0);
    assert.ok(total > 125_000, `${total} ranges`);
    const stats = { subscriptions: { sub: { type: 'Key_Shared', consumers: names.map((consumerName) => ({ consumerName, keyHashRanges: ranges.get(consumerName) })) } } };
    const r = importPulsarStats(JSON.stringify(stats), { source: 'old.json', topic: TOPIC, base: { 'keyRouting.topics': [{ name: TOPIC, system: 'pulsar', brokerVersion: '3.0', subscription: { replicaPoints: 150 } }] } });
    const sub = (r.topics[0] as Record<string, any>).subscription;
    assert.equal(sub.keySharedMode, 'AUTO_SPLIT');
    assert.equal(sub.consistentHashing, true);
    assert.ok(r.notes.some((n) => /do not give keySharedMode \(brokers before 2\.8\): AUTO_SPLIT read off the ranges/.test(n)), r.notes.join('\n'));
  });
});

describe('import pulsar-stats: reports no broker wrote', () => {
  const cases: Array<[string, RegExp, { topic?: string; subscription?: string }?]> = [
    ['bad-pulsar-truncated.json', /^bad-pulsar-truncated\.json: is truncated: the JSON stops at line \d+, column \d+/],
    ['bad-pulsar-no-key-shared.json', /^bad-pulsar-no-key-shared\.json: has no Key_Shared subscription \(subscriptions: audit \(Shared\), archive \(Exclusive\)\)$/],
    ['bad-pulsar-two-key-shared.json', /^bad-pulsar-two-key-shared\.json: has 2 Key_Shared subscriptions \(orders-sub, billing-sub\): pick one with --subscription$/],
    ['bad-pulsar-two-key-shared.json', /has no subscription "nope" \(subscriptions: orders-sub \(Key_Shared\), billing-sub \(Key_Shared\)\)/, { subscription: 'nope' }],
    ['bad-pulsar-overlap.json', /^bad-pulsar-overlap\.json: subscriptions\["orders-sub"\]\.consumers\[1\] \("C2"\)\.keyHashRangeArrays\[0\]: \[16385, 32768\] overlaps \[0, 16400\] of subscriptions\["orders-sub"\]\.consumers\[2\] \("C3"\), but an AUTO_SPLIT hash-range selector always covers 0\.\.65536 once$/],
    ['bad-pulsar-gap.json', /^bad-pulsar-gap\.json: subscriptions\["orders-sub"\]\.consumers\[1\] \("C2"\)\.keyHashRangeArrays\[0\]: leaves \[16385, 16389\] to nobody before \[16390, 32768\]/],
    ['bad-pulsar-aggregated-partitioned.json', /holds partitioned-stats without --per-partition/],
    ['bad-pulsar-error.json', /is an error answer from the broker, not pulsar-admin topics stats.*: Topic persistent:\/\/public\/default\/orders not found$/],
    ['kafka-topics-describe.txt', /^kafka-topics-describe\.txt: is not JSON: it begins "Topic: orders/],
  ];
  for (const [file, message, opts] of cases) {
    test(`${file}${opts ? ` ${JSON.stringify(opts)}` : ''}`, () => {
      assert.throws(() => importPulsarStats(read(file), { source: file, topic: TOPIC, ...opts }), (e: Error) => {
        assert.ok(e instanceof ImportError);
        assert.match(e.message, message);
        assert.equal(e.message.split('\n').length, 1, 'one line');
        return true;
      });
    });
  }

  test('JSON that is not an object (null, a number, a string) is named as such, not as text that is not JSON', () => {
    for (const text of ['null', ' 42\n', '"Topic not found"', 'true']) {
      assert.throws(() => importPulsarStats(text, { source: 'stats.json', topic: TOPIC }), { message: /^stats\.json: is JSON but not an object; expected the JSON of pulsar-admin topics stats/ }, text);
    }
    assert.throws(() => importPulsarStats('Topic not found', { source: 'stats.json', topic: TOPIC }), { message: /^stats\.json: is not JSON: it begins "Topic not found"/ });
  });

  test('partitioned stats whose metadata counts partitions it has no stats for: the first missing are named, whatever the count', () => {
    // Every missing index was collected to name five: a count of 2,147,483,647 ran out of memory.
    const stats = JSON.parse(read('pulsar-4.0-partitioned.json'));
    for (const count of [5, 2147483647]) {
      stats.metadata.partitions = count;
      assert.throws(() => importPulsarStats(JSON.stringify(stats), { source: 'p.json' }), count === 5 ? /p\.json: metadata\.partitions is 5 but partitions has no stats for partition 3, 4$/ : /p\.json: metadata\.partitions is 2147483647 but partitions has no stats for partition 3, 4, 5, 6, 7, \.\.\.$/);
    }
  });

  test('the subscription picked by --subscription among several', () => {
    const { entry } = load('bad-pulsar-two-key-shared.json', { subscription: 'billing-sub' });
    assert.equal(entry.subscription.name, 'billing-sub');
  });

  test('a Kafka topic of the same name is not replaced by Pulsar stats', () => {
    const base = { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }] };
    assert.throws(() => importPulsarStats(read('pulsar-3.0-sticky.json'), { source: 's.json', topic: 'orders', base }), /s\.json: holds Pulsar stats, but the settings have orders as a "kafka" topic/);
  });

  test('a one-topic report needs --topic', () => {
    assert.throws(() => importPulsarStats(read('pulsar-3.0-sticky.json'), { source: 's.json' }), /--topic is required/);
  });

  test('odd ranges', () => {
    const stats = JSON.parse(read('pulsar-3.0-auto-split.json'));
    const c = stats.subscriptions['orders-sub'].consumers;
    c[0].keyHashRanges = ['0--65535'];
    assert.throws(() => importPulsarStats(JSON.stringify(stats), { source: 'x.json', topic: TOPIC }), /consumers\[0\]\.keyHashRanges\[0\] is "0--65535", not a range "\[start, end\]"/);
    // Two ranges for one consumer: a ring's report, which must then run from 0 without gaps.
    c[0].keyHashRanges = ['[16385, 65536]', '[70000, 70001]'];
    assert.throws(() => importPulsarStats(JSON.stringify(stats), { source: 'x.json', topic: TOPIC }), /consumers\[0\] \("C1"\)\.keyHashRanges\[1\]: leaves \[65537, 69999\] to nobody before \[70000, 70001\], but a 3\.x ring reports every hash from 0 to its last point/);
    c[0].keyHashRangeArrays = [[16385, 65536]];
    assert.throws(() => importPulsarStats(JSON.stringify(stats), { source: 'x.json', topic: TOPIC }), /mixes 4\.x keyHashRangeArrays/);
  });
});
