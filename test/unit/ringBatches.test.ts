import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { suffixedPointHashes } from '../../src/engine/pulsar/keyShared/pointHashes';
import { SortedIntMap } from '../../src/engine/pulsar/keyShared/sortedIntMap';
import { createSelector, KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import {
  ConsumerAssignError,
  segmentAt,
  segmentsOfTable,
  tableIndexAt,
  type Consumer,
  type HashRange,
  type Segment,
  type StickyKeyConsumerSelector,
} from '../../src/engine/pulsar/keyShared/selector';
import { diffOwnership } from '../../src/engine/whatIf';
import { murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { utf8 } from '../../src/engine/bytes';
import { randInt, randomString, ringPoints, rng } from './helpers';
import { ids, modelSegments, Ring3Model, Ring4Model } from './ringModels';

// The selectors keep their points as sorted columns changed in batches, memoise columns and
// tables, and clone. These tests hold them to plain one-change-at-a-time models of the brokers'
// data structures (written here from the broker's description, not from the engine), replay
// histories with reads at random moments (so batches of every size happen), and check clones
// against replays.

const layout = (segs: readonly Segment[]) => segs.map((s) => [s.start, s.end, ids(s.consumers)]);

/**
 * The segment a route names, read off the ring's columns, as the segment table has it (false where
 * the selector leaves it to the table).
 */
function rangeAsTable(s: ConsistentHashing3Selector | ConsistentHashing4Selector, h: number): boolean {
  const range = s.rangeOf(h);
  if (range === undefined) return false;
  const t = s.segmentTable();
  const at = tableIndexAt(t, h);
  assert.deepEqual(range, at >= 0 ? [t.starts[at], t.ends[at]] : null, `hash ${h}`);
  return true;
}

/** Names that collide on the 3.x ring (`consumer-1` + `10` is `consumer-11` + `0`) and repeat. */
function pickName(r: () => number): string {
  const p = r();
  if (p < 0.5) return `consumer-${randInt(r, 0, 30)}`;
  if (p < 0.8) return ['a', 'b', 'ключ', '😀', 'x\ud800'][randInt(r, 0, 4)];
  return randomString(r, 8);
}

describe('ring selectors against one-change-at-a-time models of the broker', () => {
  for (const version of ['3.0', '4.0'] as const) {
    test(`${version}: points, queues, selection and segments after every step of random histories, read at random moments`, () => {
      let ranges = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const r = rng(seed * 101 + (version === '3.0' ? 0 : 7));
        const points = randInt(r, 1, 60);
        const s = version === '3.0' ? new ConsistentHashing3Selector(points) : new ConsistentHashing4Selector(points);
        const m3 = new Ring3Model(points);
        const m4 = new Ring4Model(points);
        const live: Consumer[] = [];
        let n = 0;
        for (let step = 0; step < 120; step++) {
          if (live.length > 0 && r() < 0.35) {
            const c = live.splice(randInt(r, 0, live.length - 1), 1)[0];
            s.removeConsumer(c);
            m3.remove(c);
            m4.remove(c);
          } else {
            const c: Consumer = { id: `c${++n}`, name: pickName(r) };
            s.addConsumer(c);
            m3.add(c);
            m4.add(c);
            live.push(c);
          }
          // Read only now and then: several changes then go in as one batch.
          if (r() < 0.3 || step === 119) {
            if (s instanceof ConsistentHashing3Selector) {
              const expected = m3.sorted();
              assert.deepEqual(ringPoints(s).map(([p, l]) => [p, ids(l)]), expected.map(([p, l]) => [p, ids(l)]));
              assert.deepEqual(layout(s.segments()), layout(modelSegments(expected, 0, 0x7fffffff)));
              for (let k = 0; k < 50; k++) {
                const h = randInt(r, 0, 0x7fffffff);
                assert.equal(s.select(h), m3.select(h, expected));
                if (rangeAsTable(s, h)) ranges++;
              }
            } else {
              const expected = m4.sorted();
              assert.deepEqual(
                ringPoints(s).map(([p, sel, q]) => [p, sel.id, ids(q)]),
                expected.map(([p, sel, q]) => [p, sel.id, ids(q)]),
              );
              assert.deepEqual(layout(s.segments()), layout(modelSegments(expected.map(([p, sel]) => [p, [sel]]), 1, 65535)));
              for (let k = 0; k < 50; k++) {
                const h = randInt(r, -2, 65537);
                assert.equal(s.select(h), m4.select(h, expected));
                if (rangeAsTable(s, h)) ranges++;
              }
            }
          }
        }
      }
      assert.ok(ranges > 1000, `only ${ranges} segments read off the columns`);
    });
  }

  test('4.0: one consumer holds the whole space, whichever point a hash falls to', () => {
    const s = new ConsistentHashing4Selector(5);
    s.addConsumer({ id: 'only', name: 'only' });
    const [p] = ringPoints(s)[0];
    for (const h of [1, p - 1, p, p + 1, 65535]) if (h >= 1 && h <= 65535) assert.deepEqual(s.rangeOf(h), [1, 65535], `hash ${h}`);
    assert.equal(s.rangeOf(0), null);
    assert.equal(s.rangeOf(65536), null);
  });

  test('3.0: a route reads its segment off the points, and leaves a long run of shared points to the table', () => {
    const s = new ConsistentHashing3Selector(100);
    for (let i = 0; i < 300; i++) s.addConsumer({ id: `same-${i}`, name: 'orders' });
    // Every point holds the same 300 consumers: one segment, too long a run to walk per key.
    assert.equal(s.rangeOf(12345), undefined);
    s.addConsumer({ id: 'other', name: 'other' });
    const [p] = ringPoints(s).find(([, l]) => l[0].id === 'other')!;
    const t = s.segmentTable();
    for (const h of [p, p - 1, p + 1, 0, 0x7fffffff]) {
      const at = tableIndexAt(t, h);
      const range = s.rangeOf(h);
      if (h === p) assert.deepEqual(range, [t.starts[at], t.ends[at]]);
      if (range !== undefined) assert.deepEqual(range, [t.starts[at], t.ends[at]], `hash ${h}`);
    }
    assert.equal(s.rangeOf(-1), null);
    assert.equal(s.rangeOf(2 ** 31), null);
  });

  test('3.0: hundreds of same-named consumers joining in one batch (they share every point) leave each list as joins one at a time do', () => {
    const r = rng(4242);
    const s = new ConsistentHashing3Selector(20);
    const m = new Ring3Model(20);
    // Names that sort around each other and collide (`consumer-1` + `10` is `consumer-11` + `0`).
    const names = ['orders-app', 'orders-app', 'orders-app', 'a', 'consumer-1', 'consumer-11', 'ключ', 'Orders-app'];
    const live: Consumer[] = [];
    let n = 0;
    const check = () => {
      const expected = m.sorted();
      assert.deepEqual(ringPoints(s).map(([p, l]) => [p, ids(l)]), expected.map(([p, l]) => [p, ids(l)]));
      for (let k = 0; k < 200; k++) {
        const h = randInt(r, 0, 0x7fffffff);
        assert.equal(s.select(h), m.select(h, expected));
      }
    };
    for (const [joins, leaves] of [[300, 0], [0, 40], [150, 0], [1, 0]]) {
      for (let i = 0; i < leaves; i++) {
        const c = live.splice(randInt(r, 0, live.length - 1), 1)[0];
        s.removeConsumer(c);
        m.remove(c);
      }
      for (let i = 0; i < joins; i++) {
        const c: Consumer = { id: `c${++n}`, name: names[randInt(r, 0, names.length - 1)] };
        s.addConsumer(c);
        m.add(c);
        live.push(c);
      }
      check();
    }
    assert.ok(ringPoints(s).some(([, l]) => l.length > 100), 'points shared by more than 100 consumers');
  });

  test('4.0: a consumer holding a point twice (its own points collide) leaves it cleanly', () => {
    // Find a name whose 4.0 points collide among themselves at some point count.
    let name = '';
    let points = 0;
    for (let i = 0; !name; i++) {
      const hs = suffixedPointHashes(`n${i}\u00000\u0000`, 400, [1, 65535]);
      if (new Set(hs).size < hs.length) [name, points] = [`n${i}`, 400];
    }
    const s = new ConsistentHashing4Selector(points);
    const m = new Ring4Model(points);
    const a: Consumer = { id: 'a', name };
    const b: Consumer = { id: 'b', name: 'other' };
    for (const c of [a, b]) {
      s.addConsumer(c);
      m.add(c);
    }
    assert.ok(ringPoints(s).some(([, sel, q]) => sel === a && q.includes(a)));
    s.removeConsumer(a);
    m.remove(a);
    assert.deepEqual(
      ringPoints(s).map(([p, sel, q]) => [p, sel.id, ids(q)]),
      m.sorted().map(([p, sel, q]) => [p, sel.id, ids(q)]),
    );
  });

  test('4.0: a crowded ring through hundreds of changes, cloned on the way, equals the model, and its shared lists stay within twice the points that hold them', () => {
    // 300 consumers x 100 points in 65,535 hash values: about 10,000 points shared, a list each.
    // Changes append to the lists the ring's history shares (clones included), and a batch that
    // leaves more than half of them unheld starts arrays of its own: both paths are taken here.
    const shared = (x: ConsistentHashing4Selector) => (x as unknown as { current(): { holder: Int32Array; shared: readonly unknown[] } }).current();
    const r = rng(4711);
    const s = new ConsistentHashing4Selector(100);
    const m = new Ring4Model(100);
    const live: Consumer[] = [];
    let n = 0;
    const join = (x: ConsistentHashing4Selector, model: Ring4Model, list: Consumer[]) => {
      const c: Consumer = { id: `c${++n}`, name: `consumer-${n}` };
      x.addConsumer(c);
      model.add(c);
      list.push(c);
    };
    for (let i = 0; i < 300; i++) join(s, m, live);
    const check = (x: ConsistentHashing4Selector, model: Ring4Model) => {
      const expected = model.sorted();
      assert.deepEqual(
        ringPoints(x).map(([p, sel, q]) => [p, sel.id, ids(q)]),
        expected.map(([p, sel, q]) => [p, sel.id, ids(q)]),
      );
      assert.deepEqual(layout(x.segments()), layout(modelSegments(expected.map(([p, sel]) => [p, [sel]]), 1, 65535)));
    };
    check(s, m);
    const bounded = (x: ConsistentHashing4Selector) => {
      const ring = shared(x);
      let held = 0;
      for (const h of ring.holder) if (h < 0) held++;
      assert.ok(ring.shared.length <= 2 * held + 1024 + 200, `${ring.shared.length} shared lists for ${held} shared points`);
      return ring.shared;
    };
    const step = () => {
      if (r() < 0.5) {
        const c = live.splice(randInt(r, 0, live.length - 1), 1)[0];
        s.removeConsumer(c);
        m.remove(c);
      } else join(s, m, live);
    };
    // One change a batch (each read), a clone going its own way now and then.
    const first = bounded(s);
    for (let i = 0; i < 60; i++) {
      step();
      assert.equal(bounded(s), first, 'a batch of one change copied the shared lists');
      if (i % 20 === 5) {
        const other = s.clone();
        const otherModel = new Ring4Model(100);
        for (const c of live) otherModel.add(c);
        join(other, otherModel, []);
        check(other, otherModel);
      }
      if (i % 15 === 14) check(s, m);
    }
    // Two thirds leave in one batch: most lists are held by no point, and the ring starts its own.
    for (const c of live.splice(0, 200)) {
      s.removeConsumer(c);
      m.remove(c);
    }
    assert.notEqual(bounded(s), first, 'no batch started arrays of its own: the test proves nothing about that path');
    check(s, m);
    for (let i = 0; i < 30; i++) {
      step();
      bounded(s);
    }
    check(s, m);
  });

  test('4.0: the first selections search the segments, later ones use the slot table; both agree on every slot', () => {
    const s = new ConsistentHashing4Selector(30);
    for (let i = 0; i < 40; i++) s.addConsumer({ id: `c${i}`, name: `c${i % 25}` });
    const searched = Array.from({ length: 300 }, (_, i) => s.select(i * 219 + 1));
    const byTable = Array.from({ length: 300 }, (_, i) => s.select(i * 219 + 1));
    assert.deepEqual(byTable.map((c) => c?.id), searched.map((c) => c?.id));
    const t = s.segmentTable();
    for (let h = 0; h <= 65536; h++) {
      const i = tableIndexAt(t, h);
      assert.equal(s.select(h), i < 0 ? null : t.owners[t.owner[i]][0]);
    }
  });
});

test('point hashes from a prefix midstate equal Murmur3_32 of the whole string, reduced where asked', () => {
  const r = rng(5);
  const prefixes = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'ü', '😀', 'x\ud800', '\udc00', 'q'.repeat(29), 'ü'.repeat(27) + '\ud800'];
  for (let i = 0; i < 20; i++) prefixes.push(randomString(r, 40));
  for (const p of prefixes) {
    const count = randInt(r, 1, 1100);
    const hs = suffixedPointHashes(p, count);
    const reduced = suffixedPointHashes(p, count, [1, 65535]);
    assert.equal(hs.length, count);
    for (let i = 0; i < count; i++) {
      const h = murmur3Masked(utf8(p + i));
      assert.equal(hs[i], h, `${JSON.stringify(p)} + ${i}`);
      assert.equal(reduced[i], (h % 65535) + 1);
    }
  }
  // As many points as a for loop below `count` makes.
  assert.equal(suffixedPointHashes('x', 2.5).length, 3);
  assert.equal(suffixedPointHashes('x', 0).length, 0);
  assert.equal(suffixedPointHashes('x', -3).length, 0);
});

describe('SortedIntMap', () => {
  const entries = (m: SortedIntMap<string>) => [...m.keys()].map((k, i): [number, string] => [k, m.values()[i]]);

  test('keys() and values() equal a plain sorted model after random puts, deletes and re-puts, with clones independent', () => {
    const r = rng(77);
    const m = new SortedIntMap<string>();
    const model = new Map<number, string>();
    const clones: Array<[SortedIntMap<string>, Array<[number, string]>]> = [];
    const sorted = (x: Map<number, string>) => [...x].sort((a, b) => a[0] - b[0]);
    for (let step = 0; step < 3000; step++) {
      const k = randInt(r, 0, 400);
      const p = r();
      if (p < 0.5) {
        m.set(k, `v${step}`);
        model.set(k, `v${step}`);
      } else if (p < 0.8) {
        m.delete(k);
        model.delete(k);
      }
      if (r() < 0.1) {
        assert.deepEqual(entries(m), sorted(model));
        assert.equal(m.size, model.size);
        const probe = randInt(r, -5, 405);
        const exp = sorted(model);
        assert.deepEqual(m.ceiling(probe), exp.find(([x]) => x >= probe));
        assert.deepEqual(m.floor(probe), [...exp].reverse().find(([x]) => x <= probe));
      }
      if (r() < 0.01) clones.push([m.clone(), sorted(model)]);
    }
    // Clones kept what they had when taken, whatever happened to the original since.
    for (const [c, expected] of clones) assert.deepEqual(entries(c), expected);
  });

  test('ceiling and floor between changes, as a STICKY subscription checks each consumer before adding it, equal a plain sorted model', () => {
    // A lookup after each change, with the order built only now and then: the keys added since it
    // was built are looked at beside it (fewer than 64) or merged first (more), and replaced values
    // and deletes are seen either way.
    const r = rng(78);
    const m = new SortedIntMap<string>();
    // The model: the keys ascending (kept so by inserting in place) and their values.
    const keys: number[] = [];
    const values = new Map<number, string>();
    const at = (x: number) => {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const entry = (i: number): [number, string] | undefined => (i >= 0 && i < keys.length ? [keys[i], values.get(keys[i])!] : undefined);
    for (let step = 0; step < 4000; step++) {
      const k = randInt(r, 0, 20_000);
      const p = r();
      if (p < 0.8 || (p < 0.85 && keys.length === 0)) {
        if (!values.has(k)) keys.splice(at(k), 0, k);
        m.set(k, `v${step}`);
        values.set(k, `v${step}`);
      } else if (p < 0.85) {
        // A key already there gets a new value.
        const old = keys[randInt(r, 0, keys.length - 1)];
        m.set(old, `w${step}`);
        values.set(old, `w${step}`);
      } else if (p < 0.9) {
        if (values.delete(k)) keys.splice(at(k), 1);
        m.delete(k);
      } else if (p < 0.91) m.keys();
      // Half the probes at a key or next to one, where ceiling and floor differ by one.
      const probe = keys.length > 0 && r() < 0.5 ? keys[randInt(r, 0, keys.length - 1)] + randInt(r, -1, 1) : randInt(r, -5, 20_005);
      assert.deepEqual(m.ceiling(probe), entry(at(probe)), `ceiling(${probe}) at step ${step}`);
      assert.deepEqual(m.floor(probe), entry(at(probe + 1) - 1), `floor(${probe}) at step ${step}`);
    }
    assert.deepEqual(entries(m), keys.map((x) => [x, values.get(x)]));
  });

  test('lookups after batches of sets of every size (the latest keys, the sorted run, the base), with clones taken between them, equal a plain sorted model', () => {
    // Batches of 1-300 sets between lookups: the latest keys are compared one by one, go into the
    // run in batches, and the run into the base when it grows; clones share the base and the run.
    // A delete now and then sends everything into the base before the next lookup.
    const r = rng(79);
    const sorted = (x: Map<number, string>) => [...x].sort((a, b) => a[0] - b[0]);
    const m = new SortedIntMap<string>();
    const model = new Map<number, string>();
    const clones: Array<[SortedIntMap<string>, Map<number, string>]> = [];
    const check = (map: SortedIntMap<string>, exp: Array<[number, string]>, probe: number, at: string) => {
      assert.deepEqual(map.ceiling(probe), exp.find(([x]) => x >= probe), `ceiling(${probe}) ${at}`);
      assert.deepEqual(map.floor(probe), [...exp].reverse().find(([x]) => x <= probe), `floor(${probe}) ${at}`);
    };
    for (let batch = 0; batch < 400; batch++) {
      const sets = randInt(r, 1, r() < 0.2 ? 300 : 40);
      const latest: number[] = [];
      for (let i = 0; i < sets; i++) {
        const k = randInt(r, 0, 50_000);
        latest.push(k);
        m.set(k, `v${batch}.${i}`);
        model.set(k, `v${batch}.${i}`);
      }
      if (r() < 0.05 && model.size > 0) {
        const k = [...model.keys()][randInt(r, 0, model.size - 1)];
        m.delete(k);
        model.delete(k);
      }
      assert.equal(m.size, model.size);
      const exp = sorted(model);
      for (let p = 0; p < 4; p++) {
        const probe = exp.length > 0 && r() < 0.5 ? exp[randInt(r, 0, exp.length - 1)][0] + randInt(r, -1, 1) : randInt(r, -5, 50_005);
        check(m, exp, probe, `after batch ${batch}`);
      }
      if (r() < 0.15) {
        // Each key just set (those not merged into the base yet among them) found in the clone.
        const c = m.clone();
        clones.push([c, new Map(model)]);
        for (const k of latest) check(c, exp, k, `in a clone taken after batch ${batch}`);
      }
      // A clone changed on its own sees its own changes only.
      if (clones.length > 0 && r() < 0.2) {
        const [c, cm] = clones[randInt(r, 0, clones.length - 1)];
        const k = randInt(r, 0, 50_000);
        c.set(k, `c${batch}`);
        cm.set(k, `c${batch}`);
        const ce = sorted(cm);
        check(c, ce, k + randInt(r, -2, 2), `in a clone after batch ${batch}`);
        check(c, ce, ce[randInt(r, 0, ce.length - 1)][0] + randInt(r, -1, 1), `in a clone after batch ${batch}`);
      }
    }
    assert.deepEqual(entries(m), sorted(model));
    for (const [c, cm] of clones) assert.deepEqual(entries(c), sorted(cm));
  });
});

const CONFIGS: Array<[string, SelectorConfig]> = [
  ['auto-split 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['auto-split 4.0, range 64', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 64 }],
  ['ring 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 25, hashRangeSize: 65536 }],
  ['ring 4.0', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 25, hashRangeSize: 65536 }],
  ['sticky 3.0', { brokerVersion: '3.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['sticky 4.0', { brokerVersion: '4.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
];

type Op = ['+', Consumer] | ['-', Consumer];

function randomOps(r: () => number, cfg: SelectorConfig, count: number, live: Consumer[], first: number): Op[] {
  const ops: Op[] = [];
  let n = first;
  for (let i = 0; i < count; i++) {
    if (live.length > 0 && r() < 0.35) ops.push(['-', live.splice(randInt(r, 0, live.length - 1), 1)[0]]);
    else {
      const start = randInt(r, 0, 65000);
      const ranges: HashRange[] = [[start, start + randInt(r, 0, 400)]];
      const c: Consumer = { id: `k${++n}`, name: pickName(r), ranges: cfg.keySharedMode === 'STICKY' ? ranges : undefined };
      ops.push(['+', c]);
      live.push(c);
    }
  }
  return ops;
}

function apply(s: StickyKeyConsumerSelector, ops: readonly Op[]): void {
  for (const [op, c] of ops) {
    if (op === '-') s.removeConsumer(c);
    else {
      try {
        s.addConsumer(c);
      } catch (e) {
        if (!(e instanceof ConsumerAssignError)) throw e;
      }
    }
  }
}

function state(s: StickyKeyConsumerSelector, r: () => number): unknown {
  const probes = Array.from({ length: 64 }, () => randInt(r, 0, s.keyHashRange[1]));
  return { segments: layout(s.segments()), snapshot: layout(s.snapshot()), select: probes.map((h) => s.select(h)?.id ?? null) };
}

describe('clone() equals replaying the history', () => {
  for (const [label, cfg] of CONFIGS) {
    test(`${label}: a clone changed further equals a fresh selector fed the whole history; the original stays as it was`, () => {
      const r = rng(label.length * 31 + 9);
      for (let round = 0; round < 5; round++) {
        const live: Consumer[] = [];
        const prefix = randomOps(r, cfg, randInt(r, 0, 40), live, 0);
        const original = createSelector(cfg);
        apply(original, prefix);
        if (r() < 0.5) original.segments(); // sometimes read first: memos and columns then exist
        const clone = original.clone();
        const more = randomOps(r, cfg, randInt(r, 1, 30), live, 1000);
        apply(clone, more);
        const replayAll = createSelector(cfg);
        apply(replayAll, [...prefix, ...more]);
        const replayPrefix = createSelector(cfg);
        apply(replayPrefix, prefix);
        const seed = randInt(r, 1, 1e6);
        assert.deepEqual(state(clone, rng(seed)), state(replayAll, rng(seed)));
        assert.deepEqual(state(original, rng(seed)), state(replayPrefix, rng(seed)));
      }
    });
  }

  test('clones of a selector whose joins are still queued share one ring: the points go on it once', () => {
    // The panel's what-if and its ordering note each clone a topology nothing has read yet; each
    // clone used to apply the queued joins (100,000 points on the production-scale rings) again.
    const ringOf = (s: object) => (s as unknown as { ring: unknown }).ring;
    for (const make of [() => new ConsistentHashing3Selector(20), () => new ConsistentHashing4Selector(20)]) {
      const s = make();
      for (let i = 0; i < 30; i++) s.addConsumer({ id: `c${i}`, name: `c${i}` });
      const a = s.clone();
      const b = s.clone();
      a.segments();
      b.segments();
      assert.equal(ringOf(a), ringOf(b));
      assert.equal(ringOf(a), ringOf(s));
      a.addConsumer({ id: 'extra', name: 'extra' });
      assert.deepEqual(layout(b.segments()), layout(s.segments()));
      assert.notDeepEqual(layout(a.segments()), layout(s.segments()));
    }
  });

  test('a subscription clone keeps ids, name counts and selectors, and goes its own way', () => {
    const cfg = CONFIGS[3][1];
    const sub = new KeySharedSubscription(cfg);
    for (const n of ['a', 'b', 'a', 'c']) sub.connect(n);
    sub.disconnect('a#2');
    const copy = sub.clone();
    assert.equal(copy.connect('a').ok && copy.consumers.at(-1)!.id, 'a#3');
    assert.deepEqual(sub.consumers.map((c) => c.id), ['a', 'b', 'c']);
    assert.deepEqual(copy.consumers.map((c) => c.id), ['a', 'b', 'c', 'a#3']);
    const replay = new KeySharedSubscription(cfg);
    for (const n of ['a', 'b', 'a', 'c']) replay.connect(n);
    replay.disconnect('a#2');
    replay.connect('a');
    assert.deepEqual(layout(copy.selector.segments()), layout(replay.selector.segments()));
  });
});

describe('segment tables', () => {
  for (const [label, cfg] of CONFIGS) {
    test(`${label}: the tables are the segments and snapshot as columns; lookups and diffs agree`, () => {
      const r = rng(label.length * 13 + 1);
      const s = createSelector(cfg);
      const live: Consumer[] = [];
      let before: Segment[] = s.snapshot();
      let beforeTable = s.snapshotTable();
      for (let step = 0; step < 40; step++) {
        apply(s, randomOps(r, cfg, 1, live, step * 10));
        assert.deepEqual(layout(segmentsOfTable(s.segmentTable())), layout(s.segments()));
        assert.deepEqual(layout(segmentsOfTable(s.snapshotTable())), layout(s.snapshot()));
        const t = s.segmentTable();
        for (let k = 0; k < 30; k++) {
          const slot = randInt(r, -1, s.keyHashRange[1] + 1);
          const i = tableIndexAt(t, slot);
          const seg = segmentAt(s.segments(), slot);
          assert.deepEqual(i < 0 ? undefined : [t.starts[i], t.ends[i]], seg && [seg.start, seg.end]);
        }
        // The diff reads tables and segment arrays alike; a table taken earlier still shows the earlier state.
        const a = diffOwnership(before, s.snapshot(), s.keyValues);
        const b = diffOwnership(beforeTable, s.snapshotTable(), s.keyValues);
        assert.equal(a.movedSize, b.movedSize);
        assert.deepEqual([...a.lost].map(([c, x]) => [c.id, x]), [...b.lost].map(([c, x]) => [c.id, x]));
        assert.deepEqual([...a.gained].map(([c, x]) => [c.id, x]), [...b.gained].map(([c, x]) => [c.id, x]));
        before = s.snapshot();
        beforeTable = s.snapshotTable();
      }
    });
  }
});

describe('STICKY consumers connected at once', () => {
  // A subscription's configured consumers go into a STICKY selector in one go where none of their
  // ranges overlaps another (`addConsumersAtOnce`); the broker checks them one at a time. Both
  // must give the same consumers, refusals, ids and layout, including after later changes.
  type Config = { name: string; ranges?: HashRange[] };

  /** Consumers over a space of `room` slots: mostly disjoint ranges, now and then a reversed, an overlapping, an empty or no list. */
  function randomConsumers(r: () => number, room: number, flaws: boolean): Config[] {
    // Disjoint ranges: cut points in the space, ranges between them, one for each consumer and the
    // rest in random consumers' hands.
    const cuts = [...new Set(Array.from({ length: randInt(r, 0, 120) }, () => randInt(r, 0, room - 1)))].sort((a, b) => a - b);
    const n = Math.min(randInt(r, 0, 40), cuts.length >> 1);
    const lists: HashRange[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i + 1 < cuts.length && n > 0; i += 2) {
      const end = r() < 0.3 ? cuts[i] : cuts[i + 1];
      lists[i / 2 < n ? i / 2 : randInt(r, 0, n - 1)].push([cuts[i], end]);
    }
    // Shuffled within each consumer: the broker takes a consumer's ranges in any order.
    for (const l of lists) l.sort(() => r() - 0.5);
    const out: Config[] = lists.map((ranges) => ({ name: ['a', 'b', 'c', `n${randInt(r, 0, 9)}`, 'ключ'][randInt(r, 0, 4)], ranges }));
    if (flaws && n > 0) {
      const c = out[randInt(r, 0, n - 1)];
      const p = r();
      if (p < 0.25) c.ranges = undefined;
      else if (p < 0.4) c.ranges = [];
      else if (p < 0.6) c.ranges = [...(c.ranges ?? []), [500, 499]];
      else {
        // Overlapping another's range or its own.
        const other = out[randInt(r, 0, n - 1)].ranges?.[0];
        if (other) c.ranges = [...(c.ranges ?? []), [other[1], Math.min(room - 1, other[1] + randInt(r, 0, 50))]];
      }
    }
    return out;
  }

  const slots = (s: StickyKeyConsumerSelector) => layout(s.segments());

  for (const brokerVersion of ['3.0', '4.0'] as const) {
    test(`${brokerVersion}: the same outcomes, ids, layout and selection as connecting one at a time, then the same after joins and leaves`, () => {
      const cfg: SelectorConfig = { brokerVersion, keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 };
      const r = rng(brokerVersion === '3.0' ? 301 : 401);
      let atOnce = 0;
      for (let round = 0; round < 300; round++) {
        const list = randomConsumers(r, randInt(r, 2, 2000), round % 3 === 0);
        const bulk = new KeySharedSubscription(cfg);
        const outcomes = bulk.connectAll(list);
        const single = new KeySharedSubscription(cfg);
        const expected = list.map((c) => single.connect(c.name, c.ranges));
        const show = (o: ReturnType<KeySharedSubscription['connect']>) => (o.ok ? o.value.id : `refused: ${o.error}`);
        assert.deepEqual(outcomes.map(show), expected.map(show), `round ${round}`);
        assert.deepEqual(bulk.consumers.map((c) => c.id), single.consumers.map((c) => c.id));
        assert.deepEqual(slots(bulk.selector), slots(single.selector), `round ${round}`);
        for (let k = 0; k < 20; k++) {
          const slot = randInt(r, 0, 65535);
          assert.equal(bulk.selector.select(slot)?.id, single.selector.select(slot)?.id, `select(${slot}) in round ${round}`);
        }
        if (list.length > 1 && outcomes.every((o) => o.ok)) atOnce++;
        // Later changes go one at a time on both.
        for (let step = 0; step < 4; step++) {
          const live = single.consumers;
          if (live.length > 0 && r() < 0.5) {
            const id = live[randInt(r, 0, live.length - 1)].id;
            assert.equal(show(bulk.disconnect(id)), show(single.disconnect(id)));
          } else {
            const start = randInt(r, 0, 65000);
            const ranges: HashRange[] = [[start, start + randInt(r, 0, 300)]];
            // A configured name too: its id counts the earlier consumers of that name.
            const name = ['late', 'a', 'b', 'n1'][randInt(r, 0, 3)];
            assert.equal(show(bulk.connect(name, ranges)), show(single.connect(name, ranges)));
          }
          assert.deepEqual(slots(bulk.selector), slots(single.selector), `round ${round}, step ${step}`);
        }
      }
      // Most rounds are the at-once kind: the test covers that path, not only the fallback.
      assert.ok(atOnce > 100, `${atOnce} rounds connected at once`);
    });
  }

  test('taken at once only where no range overlaps, none is reversed and every consumer has ranges; the map as one at a time', () => {
    const take = (ranges: Array<HashRange[] | undefined>) => {
      const s = createSelector({ brokerVersion: '4.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 });
      return s.addConsumersAtOnce!(ranges.map((rs, i) => ({ id: `c${i}`, name: `c${i}`, ranges: rs })));
    };
    assert.equal(take([[[0, 9], [20, 29]], [[10, 19], [30, 30]]]), true);
    assert.equal(take([[[0, 9]], [[9, 19]]]), false, 'one shared slot');
    assert.equal(take([[[0, 100]], [[40, 50]]]), false, 'inside another');
    assert.equal(take([[[0, 9], [5, 6]]]), false, 'its own ranges');
    assert.equal(take([[[0, 9]], [[20, 10]]]), false, 'reversed');
    assert.equal(take([[[0, 9]], []]), false, 'no ranges');
    assert.equal(take([[[0, 9]], undefined]), false, 'no list');
    // Not into a selector that has consumers already.
    const s = createSelector({ brokerVersion: '4.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 });
    s.addConsumer({ id: 'x', name: 'x', ranges: [[100, 200]] });
    assert.equal(s.addConsumersAtOnce!([{ id: 'y', name: 'y', ranges: [[0, 9]] }]), false);
  });
});
