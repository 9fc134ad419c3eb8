import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings } from '../../src/engine/settings';
import { Topology, type TopicState } from '../../src/engine/topology';
import { parseEvent } from '../../src/engine/events';
import { stringKey } from '../../src/engine/key';
import { diffOwnership, runWhatIf, takeSnapshot, type WhatIfResult } from '../../src/engine/whatIf';
import { KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { segmentAt, type Consumer, type HashRange, type Segment, type StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { javaHashCodeReference, murmur2Reference, randInt, rng } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);
// The npm port of the Java client's partitioner, an independent second opinion (untyped, CommonJS).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const javaClientPartition = (require('murmur2-partitioner') as { partition(key: string, n: number): number }).partition;

function topic(t: Record<string, unknown>): TopicState {
  const { settings, problems } = parseSettings({ 'keyRouting.topics': [{ name: 't', ...t }] });
  assert.deepEqual(problems, []);
  const refused: unknown[] = [];
  const topology = new Topology(settings, refused as never);
  assert.deepEqual(refused, []);
  return topology.topics[0];
}

function whatIf(t: TopicState, events: string[], keys: string[] = []): WhatIfResult {
  return runWhatIf(t, events.map(parseEvent), keys.map((k) => ({ shown: k, key: stringKey(k) })));
}

const autoSplit = (v: '3.0' | '4.0', consumers = ['C1']) =>
  topic({ system: 'pulsar', brokerVersion: v, subscription: { consistentHashing: false, consumers: consumers.map((name) => ({ name })) } });

describe('what-if: known answers (ALGORITHMS.md section 3)', () => {
  for (const v of ['3.0', '4.0'] as const) {
    test(`auto-split ${v}: the C1..C4 scenario, step by step`, () => {
      const r = whatIf(autoSplit(v), ['+C2', '+C3', '+C4', '-C4', '-C1']);
      const s = r.steps;
      assert.deepEqual(s.map((x) => x.event), ['+C2', '+C3', '+C4', '-C4', '-C1']);
      // Adding C2 makes C1 lose [0, 32768]; C2 takes exactly that.
      assert.deepEqual(s[0].lost, { C1: [[0, 32768]] });
      assert.deepEqual(s[0].gained, { C2: [[0, 32768]] });
      assert.deepEqual(s[1].lost, { C2: [[0, 16384]] });
      assert.deepEqual(s[1].gained, { C3: [[0, 16384]] });
      assert.deepEqual(s[2].lost, { C1: [[32769, 49152]] });
      assert.deepEqual(s[2].gained, { C4: [[32769, 49152]] });
      // Removing C4 gives C1 back [32769, 49152].
      assert.deepEqual(s[3].lost, { C4: [[32769, 49152]] });
      assert.deepEqual(s[3].gained, { C1: [[32769, 49152]] });
      // Removing C1 (it holds the top key) moves its range to C2, the next one down: C2 ends with [16385, 65536].
      assert.deepEqual(s[4].lost, { C1: [[32769, 65536]] });
      assert.deepEqual(s[4].gained, { C2: [[32769, 65536]] });
      // movedFraction: 4.0 keys take 1..65535 (0 is never a 4.0 hash); 3.0 slots take 0..65535.
      if (v === '4.0') {
        assert.equal(s[0].movedFraction, 32768 / 65535);
        assert.equal(s[1].movedFraction, 16384 / 65535);
        assert.equal(s[4].movedFraction, (65535 - 32769 + 1) / 65535);
      } else {
        assert.equal(s[0].movedFraction, 32769 / 65536);
        assert.equal(s[1].movedFraction, 16385 / 65536);
        assert.equal(s[4].movedFraction, (65535 - 32769 + 1) / 65536);
      }
      assert.equal(s[2].movedFraction, s[3].movedFraction);
      for (const x of s) assert.equal(x.error, undefined);
    });
  }

  test('auto-split: every change moves exactly one existing consumer’s share (random histories)', () => {
    for (const v of ['3.0', '4.0'] as const) {
      const r = rng(v === '3.0' ? 11 : 12);
      const sub = new KeySharedSubscription(cfg(v, 'AUTO_SPLIT', false));
      let n = 0;
      for (let step = 0; step < 200; step++) {
        const s = sub.selector;
        const before = takeSnapshot(s);
        const leaving = sub.consumers.length > 1 && r() < 0.4 ? sub.consumers[randInt(r, 0, sub.consumers.length - 1)] : undefined;
        const res = leaving ? sub.disconnect(leaving.id) : sub.connect(`c${n++}`);
        assert.ok(res.ok);
        const d = diffOwnership(before, takeSnapshot(s), s.keyValues);
        if (before.length === 0) continue;
        assert.equal(d.lost.size, 1, 'one consumer loses');
        assert.equal(d.gained.size, 1, 'one consumer gains');
        const [loser, lost] = [...d.lost][0];
        const [winner, gained] = [...d.gained][0];
        assert.deepEqual(lost, gained, 'what one loses the other gains');
        assert.equal(lost.length, 1, 'one contiguous range');
        if (leaving) {
          assert.equal(loser, leaving);
          // The leaver's whole range, to the neighbour above (or below, for the top range).
          assert.deepEqual(lost, ownedBy(before, leaving));
        } else {
          assert.equal(winner, res.ok ? res.value : undefined);
          // The new consumer takes the lower half of the loser's range; the loser keeps the upper half.
          const had = ownedBy(before, loser)[0];
          assert.equal(lost[0][0], had[0]);
          assert.equal(lost[0][1], had[1] - ((had[1] - (had[0] === 0 ? 0 : had[0] - 1)) >> 1));
        }
      }
    }
  });

  test('4.0 consistent hashing: a consumer that leaves and rejoins with the same name gets its points back', () => {
    const t = topic({ system: 'pulsar', brokerVersion: '4.0', subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] } });
    const sel = (t as unknown as { subscription: KeySharedSubscription }).subscription.selector;
    const before = rangesOf(sel.segments(), 'C2');
    assert.ok(before.length > 10);
    const r = whatIf(t, ['-C2', '+C2']);
    // The rejoined consumer is a new consumer (id C2#2) with the name index C2 had, so the same points.
    assert.deepEqual(rangesOf(sel.segments(), 'C2#2'), before);
    assert.deepEqual(r.steps[0].lost, { C2: before });
    assert.deepEqual(r.steps[1].gained, { 'C2#2': before });
    // What C1 and C3 gained when C2 left, they lose when it comes back.
    const gainedByOthers = r.steps[0].gained;
    assert.deepEqual(Object.keys(gainedByOthers).sort(), ['C1', 'C3']);
    assert.deepEqual(r.steps[1].lost, gainedByOthers);
    assert.equal(r.steps[0].movedFraction, r.steps[1].movedFraction);
  });

  test('3.0 consistent hashing: same-named consumers share every point; the ring segment lists are not aliased into the before-snapshot', () => {
    const t = topic({ system: 'pulsar', brokerVersion: '3.0', subscription: { consumers: [{ name: 'C1' }, { name: 'C1' }] } });
    const r = whatIf(t, ['-C1#2', '+C1', '+D']);
    assert.deepEqual(r.steps[0].lost, { 'C1#2': [[0, 2147483647]] });
    assert.deepEqual(r.steps[0].gained, {});
    assert.equal(r.steps[0].movedFraction, 1, 'every point’s owner set changed');
    // The rejoined consumer (C1#3) joins every point of C1: it gains the whole ring.
    assert.deepEqual(r.steps[1].gained, { 'C1#3': [[0, 2147483647]] });
    assert.deepEqual(r.steps[1].lost, {});
    assert.equal(r.steps[1].movedFraction, 1);
    // D takes arcs from both C1 and C1#3 (they own the same arcs).
    assert.deepEqual(r.steps[2].lost.C1, r.steps[2].lost['C1#3']);
    assert.deepEqual(r.steps[2].lost.C1, r.steps[2].gained.D);
  });

  test('rejected events are reported in their step and change nothing', () => {
    const t = topic({
      system: 'pulsar',
      brokerVersion: '3.0',
      subscription: { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 16383]] }] },
    });
    const r = whatIf(t, ['+E2:100-200', '+E2:20000-10', '+E3', '-nobody', '+E2:16384-32767', 'partitions=3'], ['a', 'b']);
    assert.equal(r.steps[0].error, 'Range conflict with consumer E1');
    assert.equal(r.steps[1].error, 'Fixed hash range start > end');
    assert.equal(r.steps[2].error, 'Must specify key shared meta for consumer.');
    assert.match(r.steps[3].error!, /nobody/);
    for (const s of r.steps.slice(0, 4)) {
      assert.deepEqual([s.lost, s.gained, s.movedFraction], [{}, {}, 0]);
    }
    // The refused E2s do not count for ids: the next E2 is plain "E2".
    assert.equal(r.steps[4].error, undefined);
    assert.deepEqual(r.steps[4].gained, { E2: [[16384, 32767]] });
    assert.deepEqual(r.steps[4].lost, {}, 'a STICKY join only takes unowned slots here');
    assert.equal(r.steps[4].movedFraction, 16384 / 65536);
    assert.match(r.steps[5].error!, /non-partitioned/);
    const k = topic({ system: 'kafka', partitions: 6 });
    const rk = whatIf(k, ['+C1', 'partitions=6', 'partitions=5'], ['a']);
    assert.match(rk.steps[0].error!, /Kafka/);
    assert.equal(rk.steps[1].error, 'Topic already has 6 partitions.');
    assert.equal(rk.steps[2].error, 'Topic currently has 6 partitions, which is higher than the requested 5.');
    assert.equal(rk.keys[0].moved, false);
  });
});

describe('what-if: partition count changes', () => {
  const keys = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? `user-${i}` : i % 3 === 1 ? `order-${i * 7919}` : `ключ-${i}`));

  test('Kafka 6 -> 7 moves exactly the keys whose murmur2 % 7 differs from % 6', () => {
    const r = whatIf(topic({ system: 'kafka', partitions: 6 }), ['partitions=7'], keys);
    let moved = 0;
    r.keys.forEach((k, i) => {
      const h = murmur2Reference(enc(keys[i])) & 0x7fffffff;
      const expect = h % 7 !== h % 6;
      // and the Java-compatible npm partitioner agrees on both counts
      assert.equal(k.before.partition, javaClientPartition(keys[i], 6));
      assert.equal(k.after.partition, javaClientPartition(keys[i], 7));
      assert.equal(k.moved, expect, keys[i]);
      if (expect) moved++;
    });
    assert.equal(r.steps[0].movedFraction, moved / keys.length);
    assert.deepEqual([r.steps[0].lost, r.steps[0].gained], [{}, {}]);
    // Most keys move (about 6/7 of them).
    assert.ok(moved / keys.length > 0.8 && moved / keys.length < 0.92, String(moved / keys.length));
  });

  test('Pulsar 4 -> 5 partitions moves the keys whose JavaStringHash % 5 differs from % 4; new partitions get a fresh selector', () => {
    const t = topic({ system: 'pulsar', partitions: 4, brokerVersion: '4.0', subscription: { consistentHashing: false, consumers: [{ name: 'A' }, { name: 'B' }] } });
    const r = whatIf(t, ['-A', 'partitions=5'], keys);
    let moved = 0;
    r.keys.forEach((k, i) => {
      const h = javaHashCodeReference(keys[i]) & 0x7fffffff;
      assert.equal(k.before.partition, h % 4);
      assert.equal(k.after.partition, h % 5);
      if (h % 5 !== h % 4) moved++;
      // After -A only B is left, on the old partitions' selector and on the new partition's.
      assert.equal(k.after.consumer, 'B');
    });
    assert.equal(r.steps[1].movedFraction, moved / keys.length);
    // Without keys the share of moved keys is 0 (there is nothing to count).
    assert.equal(whatIf(topic({ system: 'kafka', partitions: 1 }), ['partitions=2']).steps[0].movedFraction, 0);
  });
});

// ---- Properties over random histories, every selector kind, both generations ----

function cfg(v: '3.0' | '4.0', mode: 'AUTO_SPLIT' | 'STICKY', ring: boolean, hashRangeSize = 65536): SelectorConfig {
  return { brokerVersion: v, keySharedMode: mode, consistentHashing: ring, replicaPoints: ring && v === '3.0' ? 20 : 100, hashRangeSize };
}

const kinds: Array<[string, SelectorConfig]> = [
  ['auto-split 3.0', cfg('3.0', 'AUTO_SPLIT', false)],
  ['auto-split 4.0', cfg('4.0', 'AUTO_SPLIT', false)],
  ['auto-split 3.0, range 256', cfg('3.0', 'AUTO_SPLIT', false, 256)],
  ['ring 3.0', cfg('3.0', 'AUTO_SPLIT', true)],
  ['ring 4.0', cfg('4.0', 'AUTO_SPLIT', true)],
  ['sticky 3.0', cfg('3.0', 'STICKY', false)],
  ['sticky 4.0', cfg('4.0', 'STICKY', false)],
];

function ownedBy(segs: readonly Segment[], c: Consumer): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const s of segs) {
    if (!s.consumers.includes(c)) continue;
    const last = out[out.length - 1];
    if (last && last[1] + 1 === s.start) last[1] = s.end;
    else out.push([s.start, s.end]);
  }
  return out;
}

function rangesOf(segs: readonly Segment[], id: string): Array<[number, number]> {
  const c = segs.flatMap((s) => s.consumers).find((x) => x.id === id);
  return c ? ownedBy(segs, c) : [];
}

/** Owner of every slot of `range` by asking `select`, the selector's own dispatch decision. */
function ownerTable(s: StickyKeyConsumerSelector, range: HashRange): Array<Consumer | null> {
  const out: Array<Consumer | null> = [];
  for (let slot = range[0]; slot <= range[1]; slot++) out.push(s.select(slot));
  return out;
}

/** Per slot of `range`, the one consumer whose ranges hold it (asserting no two do), or null. */
function fill(m: Map<Consumer, Array<[number, number]>>, range: HashRange): Array<Consumer | null> {
  const out: Array<Consumer | null> = new Array(range[1] - range[0] + 1).fill(null);
  for (const [c, ranges] of m) {
    for (const [x, y] of ranges) {
      for (let p = Math.max(x, range[0]); p <= Math.min(y, range[1]); p++) {
        assert.equal(out[p - range[0]], null, `slot ${p} listed for two consumers`);
        out[p - range[0]] = c;
      }
    }
  }
  return out;
}

function covers(ranges: ReadonlyArray<readonly [number, number]> | undefined, x: number): boolean {
  return (ranges ?? []).some(([a, b]) => a <= x && x <= b);
}

/** Distinct points worth probing for a ring over 2^31 values: every boundary and a few inside. */
function probes(a: Segment[], b: Segment[], r: () => number, hi: number): number[] {
  const set = new Set<number>();
  for (const s of [...a, ...b]) for (const x of [s.start, s.end, s.end + 1, s.start - 1]) if (x >= 0 && x <= hi) set.add(x);
  for (let i = 0; i < 200; i++) set.add(randInt(r, 0, hi));
  return [...set];
}

for (const [label, config] of kinds) {
  test(`what-if properties, ${label}: lost and gained are exactly the owner changes; movedFraction counts them; undo restores`, () => {
    const r = rng(label.length * 104729 + label.charCodeAt(0));
    const sub = new KeySharedSubscription(config);
    const names = ['a', 'b', 'c', 'consumer-1', 'consumer-11', 'd', 'e'];
    const ring3 = config.consistentHashing && config.brokerVersion === '3.0' && config.keySharedMode === 'AUTO_SPLIT';
    let steps = 0;
    for (let step = 0; step < 40; step++) {
      const s = sub.selector;
      const before = takeSnapshot(s);
      const tableBefore = ring3 ? [] : ownerTable(s, s.keyHashRange);
      let joined: Consumer | undefined;
      if (sub.consumers.length > 0 && r() < 0.3) {
        assert.ok(sub.disconnect(sub.consumers[randInt(r, 0, sub.consumers.length - 1)].id).ok);
      } else {
        let ranges: HashRange[] | undefined;
        if (config.keySharedMode === 'STICKY') {
          const a = randInt(r, 0, 65000);
          ranges = [[a, Math.min(65535, a + randInt(r, 0, 4000))]];
          if (r() < 0.3) ranges.push([Math.min(65535, ranges[0][1] + randInt(r, 2, 50)), 65535]);
        }
        const res = sub.connect(names[randInt(r, 0, names.length - 1)], ranges);
        if (!res.ok) continue;
        joined = res.value;
      }
      steps++;
      const after = takeSnapshot(s);
      const d = diffOwnership(before, after, s.keyValues);
      const lost = new Map([...d.lost].map(([c, x]) => [c, x]));
      const gained = new Map([...d.gained].map(([c, x]) => [c, x]));

      if (!ring3) {
        // Oracle: the owner of every slot as `select` decides it, before and after.
        const tableAfter = ownerTable(s, s.keyHashRange);
        let changed = 0;
        const lostAt = fill(lost, s.keyHashRange);
        const gainedAt = fill(gained, s.keyHashRange);
        for (let i = 0; i < tableAfter.length; i++) {
          const slot = s.keyHashRange[0] + i;
          const b = tableBefore[i];
          const a = tableAfter[i];
          if (b !== a && slot >= s.keyValues[0] && slot <= s.keyValues[1]) changed++;
          // lost(c) holds the slot iff c owned it before and not after; gained the reverse.
          assert.equal(lostAt[i], b !== a ? b : null, `${label} step ${step}: lost at ${slot}`);
          assert.equal(gainedAt[i], b !== a ? a : null, `${label} step ${step}: gained at ${slot}`);
          // The exact balance: where the slot is owned before and after, it is in someone's lost
          // iff it is in someone's gained. Only a slot that becomes unowned (STICKY removal, the
          // last consumer leaving) is in lost alone; only one that becomes owned is in gained alone.
          if (b !== null && a !== null) assert.equal(lostAt[i] !== null, gainedAt[i] !== null);
        }
        // movedFraction: the covered size of the changed ranges over the key values.
        assert.equal(d.movedSize, changed, `${label} step ${step}: moved size`);
      } else {
        // 3.0 ring over 2^31 values: check owner sets at every boundary and at random points.
        for (const x of probes(before, after, r, s.keyHashRange[1])) {
          const b = segmentAt(before, x)?.consumers ?? [];
          const a = segmentAt(after, x)?.consumers ?? [];
          for (const c of new Set([...b, ...a])) {
            assert.equal(covers(lost.get(c), x), b.includes(c) && !a.includes(c));
            assert.equal(covers(gained.get(c), x), a.includes(c) && !b.includes(c));
          }
        }
        let changed = 0;
        const cuts = [...new Set([...before, ...after].flatMap((q) => [q.start, q.end + 1]))].sort((p, q) => p - q);
        for (let i = 0; i + 1 < cuts.length; i++) {
          const b = segmentAt(before, cuts[i])?.consumers ?? [];
          const a = segmentAt(after, cuts[i])?.consumers ?? [];
          if (b.length !== a.length || b.some((c) => !a.includes(c))) changed += cuts[i + 1] - cuts[i];
        }
        assert.equal(d.movedSize, changed);
      }
      // Each consumer's lost ranges were its own before and are not after; gained the reverse.
      for (const [c, ranges] of lost) for (const [x, y] of ranges) for (const p of [x, y]) assert.ok(segmentAt(before, p)!.consumers.includes(c));
      for (const [c, ranges] of gained) for (const [x, y] of ranges) for (const p of [x, y]) assert.ok(segmentAt(after, p)!.consumers.includes(c));

      if (joined && r() < 0.5) {
        // Undo: removing the consumer that just joined restores the earlier layout, and the two
        // steps mirror each other.
        assert.ok(sub.disconnect(joined.id).ok);
        const back = takeSnapshot(s);
        assert.deepEqual(layout(back), layout(before));
        const undo = diffOwnership(after, back, s.keyValues);
        assert.deepEqual(ids(undo.lost), ids(d.gained));
        assert.deepEqual(ids(undo.gained), ids(d.lost));
        assert.equal(undo.movedSize, d.movedSize);
      }
    }
    assert.ok(steps > 15, `${label}: only ${steps} accepted steps`);
  });
}

function layout(segs: readonly Segment[]): Array<[number, number, string[]]> {
  return segs.map((s) => [s.start, s.end, s.consumers.map((c) => c.id)]);
}

function ids(m: Map<Consumer, Array<[number, number]>>): Record<string, Array<[number, number]>> {
  return Object.fromEntries([...m].map(([c, x]) => [c.id, x]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
}

test('runWhatIf’s movedFraction is the moved size over the key values, for every step of a mixed history', () => {
  const t = topic({ system: 'pulsar', brokerVersion: '4.0', subscription: { consumers: [{ name: 'x' }, { name: 'y' }] } });
  const sel = (t as unknown as { subscription: KeySharedSubscription }).subscription.selector;
  const events = ['+z', '+x', '-y', '+w', '-x#2', '-x', '-z', '-w'];
  const before = takeSnapshot(sel);
  const r = whatIf(t, events);
  // Replaying the same history by hand gives the same diffs.
  const sub = new KeySharedSubscription(cfg('4.0', 'AUTO_SPLIT', true));
  sub.connect('x');
  sub.connect('y');
  assert.deepEqual(layout(takeSnapshot(sub.selector)), layout(before));
  r.steps.forEach((step, i) => {
    const snap = takeSnapshot(sub.selector);
    const e = parseEvent(events[i]);
    assert.ok(e.kind === 'connect' ? sub.connect(e.name).ok : e.kind === 'disconnect' && sub.disconnect(e.id).ok);
    const d = diffOwnership(snap, takeSnapshot(sub.selector), sub.selector.keyValues);
    assert.equal(step.movedFraction, d.movedSize / 65535);
    assert.deepEqual(step.lost, ids(d.lost));
  });
  // The last consumer leaving: it loses everything and nobody gains.
  assert.deepEqual(r.steps[7].lost, { w: [[1, 65535]] });
  assert.deepEqual(r.steps[7].gained, {});
  assert.equal(r.steps[7].movedFraction, 1);
});
