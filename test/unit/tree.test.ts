// The side bar's tree: consumer shares counted against the selectors' own `select` over every key
// value (or a window of the 3.x ring's 2^31), descriptions built from those counts, bundles against
// Node's own CRC-32, findings on the rows of their setting paths, and the what-if of removing a
// consumer against the selector before and after.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { buildModel, type SettingsModel } from '../../src/extension/settingsModel';
import { PulsarTopicState } from '../../src/engine/topology';
import type { Consumer, StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { ENGLISH } from '../../src/extension/localize';
import { consumerShares, percent, residueCount } from '../../src/extension/tree/shares';
import { buildTree, walk } from '../../src/extension/tree/tree';
import { childrenOf, contextValue, hasChildren, type TreeNode } from '../../src/extension/tree/nodes';
import { groupRemovalEffect, removalEffect } from '../../src/extension/tree/removal';
import { MAX_EXPANDED_CONSUMERS } from '../../src/extension/tree/topics';
import { randInt, rng } from './helpers';

const root = join(__dirname, '../../..');
const examples = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));
const TOPICS = 'keyRouting.topics';
const NS = 'keyRouting.pulsarNamespaces';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function selectorOf(m: SettingsModel, topic: string): StickyKeyConsumerSelector {
  const s = m.topology.topic(topic);
  assert.ok(s instanceof PulsarTopicState && s.subscription, `${topic} has a subscription`);
  return s.subscription.selector;
}

/** Who `select` gives each value of [lo, hi] to: counts by consumer id ('' for nobody) and the values by id. */
function bruteForce(sel: StickyKeyConsumerSelector, lo: number, hi: number): { counts: Map<string, number>; values: Map<string, number[]> } {
  const counts = new Map<string, number>();
  const values = new Map<string, number[]>();
  for (let v = lo; v <= hi; v++) {
    const id = sel.select(v)?.id ?? '';
    counts.set(id, (counts.get(id) ?? 0) + 1);
    let list = values.get(id);
    if (!list) values.set(id, (list = []));
    list.push(v);
  }
  return { counts, values };
}

/** Maximal runs of consecutive values. */
function runs(values: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const v of values) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 === v) last[1] = v;
    else out.push([v, v]);
  }
  return out;
}

function clip(ranges: ReadonlyArray<readonly [number, number]>, lo: number, hi: number): Array<[number, number]> {
  return ranges.map(([s, e]) => [Math.max(s, lo), Math.min(e, hi)] as [number, number]).filter(([s, e]) => e >= s);
}

/** A range as the broker reports it: a 4.x run from the lowest key value starts at the lowest slot, 0. */
function asReported(sel: StickyKeyConsumerSelector, [s, e]: [number, number]): string {
  return `[${s === sel.keyValues[0] ? sel.keyHashRange[0] : s}-${e}]`;
}

function sharesMatchSelect(sel: StickyKeyConsumerSelector, window?: [number, number]): void {
  const [lo, hi] = window ?? sel.keyValues;
  const shares = consumerShares(sel, [lo, hi]);
  const { counts, values } = bruteForce(sel, lo, hi);
  assert.equal(shares.total, hi - lo + 1);
  assert.equal(shares.unowned.values, counts.get('') ?? 0, 'unowned');
  for (const [c, s] of shares.byConsumer) {
    assert.equal(s.values, counts.get(c.id) ?? 0, c.id);
    // Whole ranges: exactly the runs select gives it (read within the key values), where it shares no point.
    if (s.shared.length === 0) assert.deepEqual(clip(s.ranges, lo, hi), runs(values.get(c.id) ?? []), c.id);
  }
  const ids = new Set([...shares.byConsumer.keys()].map((c) => c.id));
  for (const id of counts.keys()) if (id !== '') assert.ok(ids.has(id), `select gives values to ${id}, which has no share`);
}

const pulsar = (name: string, brokerVersion: string, subscription: Record<string, unknown>) => ({ name, system: 'pulsar', partitions: 0, brokerVersion, subscription });
const names = (...n: string[]) => n.map((name) => ({ name }));

describe('tree: consumer shares are what select gives', () => {
  test('residueCount counts x in [start, end] with x % m === r', () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      const start = randInt(r, 0, 200);
      const end = randInt(r, start - 1, start + 200);
      const m = randInt(r, 1, 7);
      const k = randInt(r, 0, m - 1);
      let n = 0;
      for (let x = start; x <= end; x++) if (x % m === k) n++;
      assert.equal(residueCount(start, end, m, k), n, `${start}-${end} % ${m} == ${k}`);
    }
  });

  const configs: Array<[string, Record<string, unknown>]> = [
    ['4.0 AUTO_SPLIT', pulsar('t', '4.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: names('C1', 'C2', 'C3', 'C4', 'C5') })],
    ['3.0 AUTO_SPLIT, range size 1024', pulsar('t', '3.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, hashRangeSize: 1024, consumers: names('C1', 'C2', 'C3') })],
    ['4.0 consistent hashing, a repeated name', pulsar('t', '4.0', { consumers: names('worker', 'worker', 'auditor') })],
    ['4.0 consistent hashing, 200 consumers of 100 points (some collide)', pulsar('t', '4.0', { replicaPoints: 100, consumers: names(...Array.from({ length: 200 }, (_, i) => `c${i % 7}`)) })],
    ['4.0 STICKY with a gap', pulsar('t', '4.0', { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 100], [300, 65535]] }, { name: 'E2', ranges: [[101, 200]] }] })],
    ['3.0 STICKY', pulsar('t', '3.0', { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 16383], [32768, 49151]] }, { name: 'E2', ranges: [[16384, 32767]] }, { name: 'E3', ranges: [[49152, 60000]] }] })],
  ];
  for (const [title, topic] of configs) {
    test(title, () => {
      const sel = selectorOf(buildModel([topic], []), 't');
      sharesMatchSelect(sel);
    });
  }

  test('3.0 consistent hashing: shared ring points split by hash % n, in a window of the 2^31 ring', () => {
    // In 3.x two consumers of the same name hold the same points: every point is shared.
    const m = buildModel([pulsar('t', '3.0', { replicaPoints: 20, consumers: names('worker', 'worker', 'solo') })], []);
    const sel = selectorOf(m, 't');
    const shares = consumerShares(sel);
    const worker = [...shares.byConsumer.keys()].find((c) => c.id === 'worker')!;
    assert.ok(shares.byConsumer.get(worker)!.shared.length > 0, 'the repeated name shares points');
    // Windows at the bottom of the ring (where the last point wraps) and in the middle.
    sharesMatchSelect(sel, [0, (1 << 18) - 1]);
    sharesMatchSelect(sel, [0x40000000, 0x40000000 + (1 << 18) - 1]);
  });

  test('random subscriptions of every kind', () => {
    const r = rng(20240601);
    for (let i = 0; i < 12; i++) {
      const version = r() < 0.5 ? '3.0' : '4.0';
      const mode = r() < 0.7 ? 'AUTO_SPLIT' : 'STICKY';
      const ch = r() < 0.5;
      const n = randInt(r, 0, 9);
      const consumers =
        mode === 'STICKY'
          ? Array.from({ length: n }, (_, k) => ({ name: `s${k}`, ranges: [[k * 6000, k * 6000 + randInt(r, 0, 5999)]] }))
          : Array.from({ length: n }, () => ({ name: `c${randInt(r, 0, 4)}` }));
      const topic = pulsar('t', version, { keySharedMode: mode, consistentHashing: ch, replicaPoints: randInt(r, 1, 30), consumers });
      const sel = selectorOf(buildModel([topic], []), 't');
      sharesMatchSelect(sel, version === '3.0' && ch && mode === 'AUTO_SPLIT' ? [0, (1 << 17) - 1] : undefined);
    }
  });

  test('percent never rounds a part to 0% or 100%', () => {
    assert.equal(percent(16384, 65535), '25.0%');
    assert.equal(percent(1, 65535), '0.0015%');
    assert.equal(percent(65534, 65535), '99.9%');
    assert.equal(percent(65535, 65535), '100%');
    assert.equal(percent(0, 65535), '0%');
  });
});

/** The node with this id. */
function find(nodes: TreeNode[], id: string): TreeNode {
  const n = [...walk(nodes)].find((x) => x.id === id);
  assert.ok(n, `no node ${id}; ids: ${[...walk(nodes)].map((x) => x.id).slice(0, 40).join(', ')}`);
  return n;
}

describe('tree: the example topology', () => {
  const model = buildModel(examples[TOPICS], examples[NS]);
  const tree = buildTree(model, ENGLISH);

  test('sections, topics and their descriptions', () => {
    assert.deepEqual(tree.map((n) => n.label), ['Topics', 'Pulsar namespaces']);
    const orders = find(tree, 'topic:orders');
    assert.equal(orders.description, '6 partitions · java');
    assert.equal(orders.settingPath, 'keyRouting.topics[0]');
    assert.equal(find(tree, 'topic:persistent://public/default/payments').description, '4 partitions · JavaStringHash');
    assert.equal(find(tree, 'topic:persistent://public/default/shipments').description, 'non-partitioned');
    assert.equal(find(tree, 'topic:persistent://public/default/payments/subscription').description, 'auto-split ranges · broker 4.x · 4 consumers');
    assert.equal(find(tree, 'topic:persistent://public/default/invoices/subscription').description, 'sticky ranges · broker 3.x · 3 consumers');
  });

  test('a Kafka topic\'s tooltip gives its own client\'s formula (clientPartitioners.test.ts runs each)', () => {
    const tip = (n: TreeNode) => (typeof n.tooltip === 'function' ? n.tooltip() : n.tooltip);
    assert.match(tip(find(tree, 'topic:orders')), /partitioner `java`: the partition is `toPositive\(murmur2\(key\)\) % 6` over the key bytes\./);
    const topics = [
      { name: 'go', system: 'kafka', partitions: 12, partitioner: 'sarama' },
      { name: 'rd', system: 'kafka', partitions: 3, partitioner: 'librdkafka' },
      { name: 'rr', system: 'kafka', partitions: 4, partitioner: 'kafka-go' },
    ];
    const t = buildTree(buildModel(topics, []), ENGLISH);
    assert.match(tip(find(t, 'topic:go')), /partitioner `sarama`: the partition is `abs\(int32\(fnv1a\(key\)\)\) % 12` over the key bytes\./);
    assert.match(tip(find(t, 'topic:rd')), /`key\.length > 0 \? crc32\(key\) % 3 : random`/);
    assert.match(tip(find(t, 'topic:rr')), /partitioner `kafka-go`: the partition is `next\+\+ % 4`, whatever the key\./);
    for (const id of ['topic:go', 'topic:rd', 'topic:rr']) assert.doesNotMatch(tip(find(t, id)), /murmur2/, id);
  });

  test('each consumer: its share and ranges as select gives them', () => {
    for (const topic of ['payments', 'shipments', 'invoices']) {
      const name = `persistent://public/default/${topic}`;
      const sel = selectorOf(model, name);
      const [lo, hi] = sel.keyValues;
      const { counts, values } = bruteForce(sel, lo, hi);
      const sub = find(tree, `topic:${name}/subscription`);
      for (const c of sel.segments().flatMap((s) => s.consumers).filter((c, i, all) => all.indexOf(c) === i)) {
        const row = find(tree, `topic:${name}/consumer:${c.id}`);
        const mine = runs(values.get(c.id) ?? []);
        const where = mine.length === 1 ? asReported(sel, mine[0]) : `${mine.length} ranges`;
        assert.equal(row.description, `${percent(counts.get(c.id)!, hi - lo + 1)} · ${where}`, `${topic} ${c.id}`);
        assert.ok(sub.children.includes(row));
      }
    }
    // The brief's example, and the same fact from the other direction: C2 holds a quarter.
    assert.equal(find(tree, 'topic:persistent://public/default/payments/consumer:C2').description, '25.0% · [16385-32768]');
  });

  test('repeated consumer names get their ids; STICKY gaps show as nobody', () => {
    const sub = find(tree, 'topic:persistent://public/default/shipments/subscription');
    assert.deepEqual(sub.children.map((c) => c.label), ['worker', 'worker#2', 'auditor']);
    assert.equal(sub.children[1].settingPath, 'keyRouting.topics[2].subscription.consumers[1]');
    const nobody = find(tree, 'topic:persistent://public/default/invoices/unowned');
    // E3 ends at 60000: 60001-65535 is nobody's.
    assert.equal(nobody.description, `${percent(65535 - 60000, 65536)} · [60001-65535]`);
  });

  test('namespaces: bundles with their share of the ring and the topics hashing into them (Node\'s CRC-32)', () => {
    const ns = find(tree, 'ns:public/default');
    const brokerTopics = ['payments-partition-0', 'payments-partition-1', 'payments-partition-2', 'payments-partition-3', 'shipments', 'invoices'].map((t) => `persistent://public/default/${t}`);
    assert.equal(ns.description, `4 bundles · ${brokerTopics.length} topics`);
    assert.deepEqual(ns.children.map((b) => b.label), ['0x00000000_0x40000000', '0x40000000_0x80000000', '0x80000000_0xc0000000', '0xc0000000_0xffffffff']);
    for (const b of ns.children) {
      const index = ns.children.indexOf(b);
      const inside = brokerTopics.filter((t) => Math.floor(crc32(t) / 0x40000000) === index);
      assert.equal(b.description, `25.0% · ${inside.length === 1 ? '1 topic' : `${inside.length} topics`}`);
      assert.deepEqual(b.children.map((c) => c.copyText).sort(), inside.sort());
    }
    const other = find(tree, 'ns:tenant/ns');
    assert.deepEqual(other.children.map((b) => b.description), ['25.0% · 0 topics', '75.0% · 0 topics']);
    assert.equal(other.settingPath, 'keyRouting.pulsarNamespaces[1]');
  });

  test('ids are unique and rows say what they offer', () => {
    const ids = [...walk(tree)].map((n) => n.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(contextValue(find(tree, 'topic:orders')), 'topic kafka setting copy');
    assert.equal(contextValue(find(tree, 'topic:persistent://public/default/payments/consumer:C2')), 'consumer removable setting copy');
  });
});

describe('tree: range rows, built when their consumer is first expanded', () => {
  /** The consumer rows of a subscription topic `t`, and what `select` gives each value. */
  function consumersOf(topic: Record<string, unknown>) {
    const model = buildModel([topic], []);
    const tree = buildTree(model, ENGLISH);
    const sel = selectorOf(model, 't');
    const [lo, hi] = sel.keyValues;
    return { tree, sel, lo, hi, rows: find(tree, 'topic:t/subscription').children.filter((c) => c.kind === 'consumer') };
  }

  test('no range row exists until its consumer is asked for its rows; then each row is a run select gives', () => {
    const { tree, sel, lo, hi, rows } = consumersOf(pulsar('t', '4.0', { replicaPoints: 50, consumers: names('a', 'b', 'c') }));
    assert.equal([...walk(tree)].filter((n) => n.kind === 'range').length, 0, 'range rows built with the tree');
    const { values } = bruteForce(sel, lo, hi);
    for (const c of rows) {
      assert.ok(hasChildren(c) && c.children.length === 0, `${c.id} has rows to build`);
      const built = childrenOf(c);
      assert.equal(childrenOf(c), built, 'built once');
      assert.equal(c.later, undefined);
      const mine = runs(values.get(c.consumerId!) ?? []);
      assert.deepEqual(built.map((r) => `[${r.label}]`), mine.map((r) => asReported(sel, r)), c.id);
      for (const [i, r] of built.entries()) {
        assert.equal(r.kind, 'range');
        assert.equal(r.id, `${c.id}/range:${mine[i][0] === lo ? sel.keyHashRange[0] : mine[i][0]}`);
        assert.equal(r.description, percent(mine[i][1] - mine[i][0] + 1 + (mine[i][0] === lo ? lo - sel.keyHashRange[0] : 0), hi - sel.keyHashRange[0] + 1));
      }
    }
  });

  test('a consumer of one range has no rows under it; one of more than 200 shows 200 and counts the rest', () => {
    const single = consumersOf(pulsar('t', '4.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: names('C1', 'C2') }));
    for (const c of single.rows) assert.equal(hasChildren(c), false, c.id);
    const { sel, lo, hi, rows } = consumersOf(pulsar('t', '4.0', { replicaPoints: 400, consumers: names('a', 'b') }));
    const { values } = bruteForce(sel, lo, hi);
    for (const c of rows) {
      const mine = runs(values.get(c.consumerId!) ?? []);
      assert.ok(mine.length > 200, `${c.id} has ${mine.length} ranges`);
      const built = childrenOf(c);
      assert.equal(built.length, 201);
      assert.deepEqual(built.slice(0, 200).map((r) => `[${r.label}]`), mine.slice(0, 200).map((r) => asReported(sel, r)));
      assert.equal(built[200].kind, 'more');
      assert.equal(built[200].label, `… and ${mine.length - 200} more ranges (the panel draws them all)`);
    }
  });
});

describe('tree: a large subscription starts collapsed', () => {
  test('expanded up to MAX_EXPANDED_CONSUMERS consumers, collapsed above; its rows are there either way', () => {
    for (const n of [MAX_EXPANDED_CONSUMERS, MAX_EXPANDED_CONSUMERS + 1]) {
      const topic = pulsar('t', '4.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: names(...Array.from({ length: n }, (_, i) => `c${i}`)) });
      const sub = find(buildTree(buildModel([topic], []), ENGLISH), 'topic:t/subscription');
      assert.equal(sub.expanded, n <= MAX_EXPANDED_CONSUMERS, `${n} consumers`);
      assert.equal(sub.children.filter((c) => c.kind === 'consumer').length, n);
      assert.match(sub.description!, new RegExp(`${n} consumers$`));
    }
  });
});

describe('tree: settings findings on their rows', () => {
  test('a refused consumer, an unknown property, a dropped entry and a stale topic', () => {
    const good = buildModel(examples[TOPICS], examples[NS]);
    const raw = clone(examples[TOPICS]);
    raw[3].subscription.consumers.push({ name: 'E4', ranges: [[100, 200]] }); // overlaps E1: refused
    raw[0].partitionz = 3; // unknown property of orders
    raw[1].partitions = -1; // payments breaks: last good settings
    raw.push({ name: 'broken' }); // no system: dropped, no row
    const namespaces = clone(examples[NS]);
    namespaces.push({ name: 'x/y', bundles: 0 }); // dropped
    const m = buildModel(raw, namespaces, good);
    const tree = buildTree(m, ENGLISH);

    const refused = find(tree, 'topic:persistent://public/default/invoices/refused:3');
    assert.equal(refused.description, 'not connected: refused by the broker');
    assert.equal(refused.findings.length, 1);
    assert.match(refused.findings[0].message, /^the broker refuses consumer "E4"/);

    assert.deepEqual(find(tree, 'topic:orders').findings.map((f) => f.path), ['keyRouting.topics[0].partitionz']);
    const payments = find(tree, 'topic:persistent://public/default/payments');
    assert.match(payments.description!, /last good settings$/);
    assert.ok(payments.findings.some((f) => f.path === 'keyRouting.topics[1].partitions' && f.severity === 'error'));

    // Findings no row stands for go on top, each once; none is lost.
    assert.equal(tree[0].id, 'problems');
    const top = tree[0].children.map((c) => c.settingPath);
    assert.ok(top.includes('keyRouting.topics[4].system'), top.join(', '));
    assert.ok(top.includes('keyRouting.pulsarNamespaces[2].bundles'), top.join(', '));
    const placed = [...walk(tree)].flatMap((n) => n.findings).length + tree[0].children.length;
    assert.equal(placed, m.findings.length);
  });

  test('nothing configured: no rows; configured is false', () => {
    const m = buildModel([], []);
    assert.deepEqual(buildTree(m, ENGLISH), []);
    assert.equal(m.configured, false);
    assert.equal(buildModel(undefined, undefined).configured, false);
    assert.equal(buildModel([], [{ name: 'a/b', bundles: 2 }]).configured, true);
    // A broken setting is configured (its problems have rows), though nothing routes.
    const broken = buildModel('oops', undefined);
    assert.equal(broken.configured, true);
    assert.deepEqual(buildTree(broken, ENGLISH).map((n) => n.id), ['problems']);
  });
});

describe('tree: what if a consumer leaves', () => {
  const model = buildModel(examples[TOPICS], examples[NS]);

  /** Values whose selected consumer changes when `id` leaves, and who gets them, by select before and after. */
  function moved(topic: string, id: string): { moved: number; gains: Map<string, number> } {
    const state = model.topology.topic(topic)!.clone() as PulsarTopicState;
    const before = state.subscription!.selector.clone();
    const gone = state.apply({ kind: 'disconnect', id });
    assert.ok(gone.ok);
    const after = state.subscription!.selector;
    const [lo, hi] = before.keyValues;
    let n = 0;
    const gains = new Map<string, number>();
    for (let v = lo; v <= hi; v++) {
      const a = before.select(v);
      const b = after.select(v);
      if (a?.id !== b?.id) {
        n++;
        if (b) gains.set(b.id, (gains.get(b.id) ?? 0) + 1);
      }
    }
    return { moved: n, gains };
  }

  const hasQueues = (sel: StickyKeyConsumerSelector) => sel.segments().some((s) => s.consumers.length > 1);

  for (const [topic, id] of [
    ['persistent://public/default/payments', 'C2'],
    ['persistent://public/default/payments', 'C4'],
    ['persistent://public/default/shipments', 'worker#2'],
    ['persistent://public/default/invoices', 'E2'],
  ]) {
    test(`${topic.split('/').pop()} -${id}`, () => {
      const sel = selectorOf(model, topic);
      assert.ok(!hasQueues(sel), 'the example has no shared or queued points (there, owner-set changes and select changes are the same count)');
      const r = removalEffect(model, topic, id);
      const expected = moved(topic, id);
      assert.equal(r.error, undefined);
      assert.equal(r.moved, expected.moved);
      assert.deepEqual(new Map(r.gains.map((g) => [g.id, g.values])), expected.gains);
      assert.equal(r.total, sel.keyValues[1] - sel.keyValues[0] + 1);
    });
  }

  test('an unknown consumer or a topic without subscription says why', () => {
    assert.match(removalEffect(model, 'persistent://public/default/payments', 'nobody').error!, /no connected consumer/);
    assert.match(removalEffect(model, 'orders', 'x').error!, /no Key_Shared subscription/);
  });

  test('the settings model is not changed by a what-if', () => {
    const before = consumerShares(selectorOf(model, 'persistent://public/default/payments'));
    removalEffect(model, 'persistent://public/default/payments', 'C1');
    const after = consumerShares(selectorOf(model, 'persistent://public/default/payments'));
    assert.deepEqual([...after.byConsumer].map(([c, s]) => [c.id, s.values]), [...before.byConsumer].map(([c, s]: [Consumer, { values: number }]) => [c.id, s.values]));
  });
});

describe('tree: Kafka consumer groups, each member\'s partitions as the engine\'s group gives them', () => {
  const tip = (n: TreeNode) => (typeof n.tooltip === 'function' ? n.tooltip() : n.tooltip);
  const topics = [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'audit', system: 'kafka', partitions: 5 },
    { name: 'big', system: 'kafka', partitions: 1000 },
  ];
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}` }));
  const groups = [
    { name: 'billing', assignor: 'range', topics: ['orders'], members: ids('m', 3) },
    { name: 'mixed', assignor: 'cooperative-sticky', topics: ['orders', 'audit'], members: [{ id: 'a' }, { id: 'b', topics: ['audit'] }, { id: 'c' }] },
    { name: 'idle', assignor: 'range', topics: ['audit'], members: [] },
    { name: 'crowd', assignor: 'roundrobin', topics: ['big'], members: ids('w', 101) },
    { name: 'u', assignor: 'uniform', topics: ['orders'], members: ids('x', 2) },
  ];
  const model = buildModel(topics, [], undefined, groups);
  const tree = buildTree(model, ENGLISH);

  /** Partitions per member id over the group's topics, from the engine's ownerOf; '' for nobody. */
  function ownedBy(name: string): Map<string, Array<[string, number]>> {
    const g = model.topology.groups.find((x) => x.name === name)!;
    const out = new Map<string, Array<[string, number]>>();
    for (const t of g.config.topics) {
      for (let p = 0; p < model.topology.topic(t)!.partitions; p++) {
        const id = g.ownerOf(t, p) ?? '';
        if (!out.has(id)) out.set(id, []);
        out.get(id)!.push([t, p]);
      }
    }
    return out;
  }

  test('a section after the topics; a row per group with its assignor and members', () => {
    assert.deepEqual(tree.map((n) => n.label), ['Topics', 'Kafka consumer groups']);
    const section = find(tree, 'section:groups');
    assert.equal(section.settingPath, 'keyRouting.kafkaGroups');
    assert.deepEqual(section.children.map((n) => n.label), groups.map((g) => g.name));
    const billing = find(tree, 'group:billing');
    assert.equal(billing.description, 'range · 3 members');
    assert.equal(billing.settingPath, 'keyRouting.kafkaGroups[0]');
    assert.match(tip(billing), /\*\*billing\*\*: Kafka consumer group, range assignor, on `orders` \(6 partitions\)/);
    assert.equal(contextValue(billing), 'group setting copy');
    assert.equal(contextValue(find(tree, 'group:billing/member:m2')), 'member removable setting copy');
  });

  test('every member\'s count, share and partition list equal the engine\'s owners (range, cooperative-sticky, uniform)', () => {
    for (const name of ['billing', 'mixed', 'u']) {
      const g = find(tree, `group:${name}`);
      const owned = ownedBy(name);
      const total = [...owned.values()].reduce((n, l) => n + l.length, 0);
      const config = groups.find((x) => x.name === name)!;
      assert.deepEqual(g.children.map((m) => m.label), config.members.map((m) => m.id));
      config.members.forEach((m, j) => {
        const row = find(tree, `group:${name}/member:${m.id}`);
        const mine = owned.get(m.id) ?? [];
        assert.equal(row.description, `${mine.length === 1 ? '1 partition' : `${mine.length} partitions`} · ${percent(mine.length, total)}`, `${name} ${m.id}`);
        assert.equal(row.settingPath, `keyRouting.kafkaGroups[${groups.indexOf(config)}].members[${j}]`);
        for (const t of config.topics) {
          const ps = mine.filter(([x]) => x === t).map(([, p]) => p);
          const line = tip(row).split('\n\n').find((l) => l.startsWith(`\`${t}\`: partitions `));
          if (ps.length === 0) assert.equal(line, undefined, `${name} ${m.id} ${t}`);
          else assert.deepEqual(line!.replace(/^.*: partitions /, '').split(', ').flatMap((r) => { const [a, b] = r.split('-').map(Number); return Array.from({ length: (b ?? a) - a + 1 }, (_, k) => a + k); }), ps, `${name} ${m.id} ${t}`);
        }
      });
    }
    // b subscribes to audit only: orders is shared by a and c.
    assert.match(tip(find(tree, 'group:mixed/member:b')), /Its own subscription: `audit`/);
    assert.ok(ownedBy('mixed').get('b')!.every(([t]) => t === 'audit'));
  });

  test('a group without members: nobody consumes its partitions', () => {
    const idle = find(tree, 'group:idle');
    assert.equal(idle.description, 'range · 0 members');
    assert.deepEqual(idle.children.map((n) => [n.label, n.description]), [['nobody', '5 partitions · 100%']]);
    assert.match(tip(idle.children[0]), /`audit`: partitions 0-4/);
  });

  test('over 100 members: collapsed, every member listed with its partitions', () => {
    const crowd = find(tree, 'group:crowd');
    assert.equal(crowd.expanded, false);
    assert.equal(crowd.children.length, 101);
    assert.equal(find(tree, 'group:billing').expanded, true);
    // Round robin over 101 members: w1 gets 0, 101, 202, ... (10 partitions), each a run of its own.
    const w1 = find(tree, 'group:crowd/member:w1');
    assert.equal(w1.description, `10 partitions · ${percent(10, 1000)}`);
    assert.match(tip(w1), /`big`: partitions 0, 101, 202, 303, 404, 505, 606, 707, 808, 909$/m);
  });

  test('a range group on more partitions than are counted one by one: no counts, and no freeze', () => {
    // 2e9 partitions: going through them one by one (as the first form of this section did) froze
    // the extension host; the panel's group view counts up to MAX_COUNTED_PARTITIONS, and so does this.
    const m = buildModel([{ name: 'huge', system: 'kafka', partitions: 2_000_000_000 }], [], undefined, [{ name: 'g', assignor: 'range', topics: ['huge'], members: ids('h', 2) }]);
    const g = find(buildTree(m, ENGLISH), 'group:g');
    assert.deepEqual(g.children.map((n) => [n.label, n.description]), [['h1', '–'], ['h2', '–']]);
    assert.match(tip(g), /Its members' partitions are not counted: a topic has over 200,000\./);
    assert.doesNotMatch(tip(g.children[0]), /partitions \d/);
  });

  /** Who consumes each partition of the group's topics after `id` leaves, from a copy of the group's own ownerOf. */
  function movesWithout(name: string, id: string): { moved: number; total: number; gains: Map<string | null, string[]> } {
    const g = model.topology.groups.find((x) => x.name === name)!;
    const after = g.clone();
    assert.ok(after.apply({ kind: 'leave', id }).ok);
    const gains = new Map<string | null, string[]>();
    let moved = 0;
    let total = 0;
    for (const t of g.config.topics) {
      for (let p = 0; p < model.topology.topic(t)!.partitions; p++) {
        total++;
        const [a, b] = [g.ownerOf(t, p), after.ownerOf(t, p)];
        if (a === null || a === b) continue;
        moved++;
        gains.set(b, [...(gains.get(b) ?? []), `${t}-${p}`]);
      }
    }
    return { moved, total, gains };
  }

  test('what if a member leaves: range on 6 partitions by hand, m1 of m1..m3', () => {
    // Range gives m1 0-1, m2 2-3, m3 4-5; without m1, m2 takes 0-2 and m3 3-5: 0 and 1 go to m2, 3 to m3.
    const r = groupRemovalEffect(model, 'billing', 'm1');
    assert.equal(r.error, undefined);
    assert.deepEqual([r.moved, r.total], [3, 6]);
    assert.deepEqual(r.gains, [
      { id: 'm2', partitions: [{ topic: 'orders', partition: 0 }, { topic: 'orders', partition: 1 }] },
      { id: 'm3', partitions: [{ topic: 'orders', partition: 3 }] },
    ]);
    assert.match(r.rebalance!, /eager/i);
  });

  test('what if a member leaves: every member of range, cooperative-sticky, uniform and round-robin groups, against the group\'s owners after the leave', () => {
    for (const [name, members] of [['billing', ['m1', 'm2', 'm3']], ['mixed', ['a', 'b', 'c']], ['u', ['x1', 'x2']], ['crowd', ['w1', 'w50', 'w101']]] as const) {
      for (const id of members) {
        const r = groupRemovalEffect(model, name, id);
        const want = movesWithout(name, id);
        assert.equal(r.error, undefined, `${name} -${id}`);
        assert.deepEqual([r.moved, r.total], [want.moved, want.total], `${name} -${id}`);
        assert.deepEqual(new Map(r.gains.map((g) => [g.id, g.partitions.map((p) => `${p.topic}-${p.partition}`)])), want.gains, `${name} -${id}`);
        assert.ok(r.moved > 0, `${name} -${id} moves something`);
        // The most first, nobody last.
        for (let i = 1; i < r.gains.length; i++) assert.ok(r.gains[i].id === null || r.gains[i - 1].partitions.length >= r.gains[i].partitions.length);
      }
    }
  });

  test('what if the last member leaves: nobody consumes; an unknown member or a group too large to list says why', () => {
    const m = buildModel(topics, [], undefined, [{ name: 'solo', assignor: 'range', topics: ['orders'], members: [{ id: 'only' }] }]);
    const r = groupRemovalEffect(m, 'solo', 'only');
    assert.deepEqual([r.moved, r.total, r.gains.map((g) => [g.id, g.partitions.length])], [6, 6, [[null, 6]]]);
    // p2 subscribes to orders only: without p1, audit's five partitions go to nobody, listed after p2
    // though more (range over orders: p1 had 0-2, p2 3-5).
    const split = buildModel(topics, [], undefined, [{ name: 'split', assignor: 'range', topics: ['orders', 'audit'], members: [{ id: 'p1' }, { id: 'p2', topics: ['orders'] }] }]);
    assert.deepEqual(groupRemovalEffect(split, 'split', 'p1').gains.map((g) => [g.id, g.partitions.length]), [['p2', 3], [null, 5]]);
    assert.match(groupRemovalEffect(model, 'billing', 'nobody').error!, /nobody/);
    assert.match(groupRemovalEffect(model, 'gone', 'm1').error!, /no consumer group gone/);
    const huge = buildModel([{ name: 'huge', system: 'kafka', partitions: 2_000_000_000 }], [], undefined, [{ name: 'g', assignor: 'range', topics: ['huge'], members: ids('h', 2) }]);
    assert.match(groupRemovalEffect(huge, 'g', 'h1').error!, /listing every owner stops at/);
    // Past 50,000 partitions a range group is computed from its shares; up to 200,000 it is listed.
    // h1 0-19999, h2 20000-39999, h3 40000-59999; without h1: h2 0-29999, h3 30000-59999.
    const large = buildModel([{ name: 'large', system: 'kafka', partitions: 60_000 }], [], undefined, [{ name: 'g', assignor: 'range', topics: ['large'], members: ids('h', 3) }]);
    const r3 = groupRemovalEffect(large, 'g', 'h1');
    assert.equal(r3.error, undefined);
    assert.deepEqual([r3.moved, r3.total, r3.gains.map((g) => [g.id, g.partitions.length, g.partitions[0].partition])], [30_000, 60_000, [['h2', 20_000, 0], ['h3', 10_000, 30_000]]]);
    // The broker's report of a range group past 200,000 partitions is listed, but the step from it is
    // not: the toast cannot name what moves, and says why (it said that nothing moved).
    const reported = Array.from({ length: 250_000 }, (_, p) => (p < 125_000 ? 'h1' : 'h2'));
    const observed = buildModel([{ name: 'large', system: 'kafka', partitions: 250_000 }], [], undefined, [{ name: 'g', assignor: 'range', topics: ['large'], members: ids('h', 2), observed: { owners: { large: reported } } }]);
    const r4 = groupRemovalEffect(observed, 'g', 'h1');
    assert.match(r4.error ?? `no error: ${r4.moved} of ${r4.total} move`, /group g has 250000 partitions over its topics; listing every owner stops at 200000/);
  });

  test('what if a member leaves a group the broker reported: the sticky assignor starts from the reported owners', () => {
    // Reported unbalanced: a has 0-3, b 4-5, c nothing.
    const reported = buildModel(topics, [], undefined, [{ name: 'rep', assignor: 'cooperative-sticky', topics: ['orders'], members: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], observed: { at: 'now', owners: { orders: ['a', 'a', 'a', 'a', 'b', 'b'] } } }]);
    const g = reported.topology.group('rep')!;
    for (const id of ['a', 'b', 'c']) {
      const r = groupRemovalEffect(reported, 'rep', id);
      const after = g.clone();
      assert.ok(after.apply({ kind: 'leave', id }).ok);
      const moved = [0, 1, 2, 3, 4, 5].filter((p) => g.ownerOf('orders', p) !== after.ownerOf('orders', p));
      assert.deepEqual(r.gains.flatMap((x) => x.partitions.map((p) => p.partition)).sort((x, y) => x - y), moved, `-${id}`);
    }
    // Without b, three each: a keeps 0-2 (sticky) and gives up 3; c takes 3 and b's 4-5.
    assert.deepEqual(groupRemovalEffect(reported, 'rep', 'b').gains, [{ id: 'c', partitions: [3, 4, 5].map((partition) => ({ topic: 'orders', partition })) }]);
    // Without c, who had nothing, the reported state is rebalanced all the same: a gives one to b.
    assert.deepEqual(groupRemovalEffect(reported, 'rep', 'c').gains, [{ id: 'b', partitions: [{ topic: 'orders', partition: 3 }] }]);
  });

  test('a member\'s what-if leaves the settings\' group as it was', () => {
    const before = ownedBy('mixed');
    groupRemovalEffect(model, 'mixed', 'a');
    assert.deepEqual(ownedBy('mixed'), before);
    assert.deepEqual([...model.topology.group('mixed')!.members.keys()], ['a', 'b', 'c']);
  });

  test('the uniform assignor\'s note about topic ids is on its group row', () => {
    const u = find(tree, 'group:u');
    assert.ok(u.findings.some((f) => /topic ids/.test(f.message)), JSON.stringify(u.findings));
    assert.match(tip(u), /topic ids/);
  });
});
