/**
 * `computeMoves` on the selectors' column tables against the version it replaced (kept here as the
 * reference: cuts from every segment boundary, one owner lookup per elementary interval), over
 * random connection histories of every selector kind; and the ordering simulation started from a
 * clone of a subscription against the one that connects the same consumers again.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeMoves, movesAndLost } from '../../src/engine/ordering/simulation';
import { explainWhatIf } from '../../src/engine/ordering/whatIfExplain';
import { OrderingSimulation } from '../../src/engine/ordering';
import type { Move } from '../../src/engine/ordering/types';
import { KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import type { HashRange, Segment, SegmentTable } from '../../src/engine/pulsar/keyShared/selector';
import { parseSettings } from '../../src/engine/settings';
import { Topology, PulsarTopicState } from '../../src/engine/topology';
import { parseEvent } from '../../src/engine/events';
import { stringKey } from '../../src/engine/key';
import { diffOwnership, runWhatIf } from '../../src/engine/whatIf';
import { randInt, rng } from './helpers';

/** The computeMoves the panel used before the column sweep, unchanged. */
function computeMovesReference(before: readonly Segment[], after: readonly Segment[], keyValues: readonly [number, number]): Move[] {
  const cuts = [...new Set([...before, ...after].flatMap((s) => [s.start, s.end + 1]))].sort((a, b) => a - b);
  const moves = new Map<string, Move>();
  let bi = 0;
  let ai = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i];
    const end = cuts[i + 1] - 1;
    while (bi < before.length && before[bi].end < start) bi++;
    while (ai < after.length && after[ai].end < start) ai++;
    const b = bi < before.length && before[bi].start <= start ? before[bi].consumers : [];
    const a = ai < after.length && after[ai].start <= start ? after[ai].consumers : [];
    if (b.length === a.length && b.every((c) => a.includes(c))) continue;
    const from = b.map((c) => c.id);
    const to = a.map((c) => c.id);
    const k = JSON.stringify([from, to]);
    let mv = moves.get(k);
    if (!mv) moves.set(k, (mv = { from, to, ranges: [], size: 0 }));
    const last = mv.ranges[mv.ranges.length - 1];
    if (last && last[1] + 1 === start) last[1] = end;
    else mv.ranges.push([start, end]);
    const lo = Math.max(start, keyValues[0]);
    const hi = Math.min(end, keyValues[1]);
    if (hi >= lo) mv.size += hi - lo + 1;
  }
  return [...moves.values()];
}

function cfg(v: '3.0' | '4.0', mode: 'AUTO_SPLIT' | 'STICKY', ring: boolean, points = 100, hashRangeSize = 65536): SelectorConfig {
  return { brokerVersion: v, keySharedMode: mode, consistentHashing: ring, replicaPoints: points, hashRangeSize };
}

const kinds: Array<[string, SelectorConfig]> = [
  ['auto-split 3.0', cfg('3.0', 'AUTO_SPLIT', false)],
  ['auto-split 4.0', cfg('4.0', 'AUTO_SPLIT', false)],
  ['auto-split 4.0, range 512', cfg('4.0', 'AUTO_SPLIT', false, 100, 512)],
  ['ring 3.0', cfg('3.0', 'AUTO_SPLIT', true, 20)],
  // Few points on a 16-bit ring: points collide, so 4.0 queues consumers behind others.
  ['ring 4.0', cfg('4.0', 'AUTO_SPLIT', true, 300)],
  ['sticky 3.0', cfg('3.0', 'STICKY', false)],
  ['sticky 4.0', cfg('4.0', 'STICKY', false)],
];

/** Snapshots of a random history: after every accepted event, as segments and as columns. */
function history(config: SelectorConfig, seed: number, events: number): Array<{ segments: Segment[]; table: SegmentTable }> {
  const r = rng(seed);
  const sub = new KeySharedSubscription(config);
  // Same names again and again: 3.0 rings share every point of same-named consumers.
  const names = ['a', 'b', 'c', 'a', 'consumer-1', 'consumer-11', 'd'];
  const out = [{ segments: sub.selector.snapshot(), table: sub.selector.snapshotTable() }];
  for (let i = 0; i < events; i++) {
    if (sub.consumers.length > 0 && r() < 0.35) {
      assert.ok(sub.disconnect(sub.consumers[randInt(r, 0, sub.consumers.length - 1)].id).ok);
    } else {
      let ranges: HashRange[] | undefined;
      if (config.keySharedMode === 'STICKY') {
        const a = randInt(r, 0, 65000);
        ranges = [[a, Math.min(65535, a + randInt(r, 0, 6000))]];
        if (r() < 0.3) ranges.push([Math.min(65535, ranges[0][1] + randInt(r, 2, 50)), 65535]);
      }
      if (!sub.connect(names[randInt(r, 0, names.length - 1)], ranges).ok) continue;
    }
    out.push({ segments: sub.selector.snapshot(), table: sub.selector.snapshotTable() });
  }
  return out;
}

describe('computeMoves on column tables equals the interval-by-interval reference', () => {
  for (const [label, config] of kinds) {
    test(label, () => {
      const keyValues = new KeySharedSubscription(config).selector.keyValues;
      for (let seed = 1; seed <= 4; seed++) {
        const snaps = history(config, seed * 7919 + label.length, 30);
        const r = rng(seed);
        let nonEmpty = 0;
        for (let i = 1; i < snaps.length; i++) {
          // Each step, and a random earlier state against this one (several steps at once).
          for (const j of [i - 1, randInt(r, 0, i - 1)]) {
            const want = computeMovesReference(snaps[j].segments, snaps[i].segments, keyValues);
            assert.deepEqual(computeMoves(snaps[j].table, snaps[i].table, keyValues), want, `${label} seed ${seed}: ${j} -> ${i} (tables)`);
            assert.deepEqual(computeMoves(snaps[j].segments, snaps[i].segments, keyValues), want, `${label} seed ${seed}: ${j} -> ${i} (segments)`);
            // What each consumer lost, from the same sweep, is the diff's (same consumers, same order).
            const both = movesAndLost(snaps[j].table, snaps[i].table, keyValues);
            assert.deepEqual(both.moves, want);
            assert.deepEqual([...both.lost], [...diffOwnership(snaps[j].table, snaps[i].table, keyValues).lost]);
            // Backwards too: every lost range is a gained one.
            assert.deepEqual(computeMoves(snaps[i].table, snaps[j].table, keyValues), computeMovesReference(snaps[i].segments, snaps[j].segments, keyValues));
            if (want.length > 0) nonEmpty++;
          }
        }
        assert.ok(nonEmpty > 10, `${label}: the history moved something`);
      }
    });
  }

  test('segments given as plain objects: gaps, a segment on one side only, lists equal in another order', () => {
    const c = (id: string) => ({ id, name: id });
    const [x, y, z] = [c('x'), c('y'), c('z')];
    const before: Segment[] = [
      { start: 0, end: 9, consumers: [x] },
      { start: 20, end: 29, consumers: [x, y] },
      { start: 40, end: 49, consumers: [z] },
    ];
    const after: Segment[] = [
      { start: 5, end: 24, consumers: [y] },
      { start: 25, end: 29, consumers: [y, x] },
      { start: 50, end: 59, consumers: [z] },
    ];
    const want = computeMovesReference(before, after, [0, 65535]);
    assert.deepEqual(computeMoves(before, after, [0, 65535]), want);
    // Known answer, read off the two layouts by hand.
    assert.deepEqual(want, [
      { from: ['x'], to: [], ranges: [[0, 4]], size: 5 },
      { from: ['x'], to: ['y'], ranges: [[5, 9]], size: 5 },
      { from: [], to: ['y'], ranges: [[10, 19]], size: 10 },
      { from: ['x', 'y'], to: ['y'], ranges: [[20, 24]], size: 5 },
      { from: ['z'], to: [], ranges: [[40, 49]], size: 10 },
      { from: [], to: ['z'], ranges: [[50, 59]], size: 10 },
    ]);
    assert.deepEqual(computeMoves([], [], [0, 10]), []);
  });
});

describe('the ordering simulation started from a clone of a subscription', () => {
  const settingsOf = (version: '3.0' | '4.0', mode: 'AUTO_SPLIT' | 'STICKY', ring: boolean, n: number) =>
    parseSettings({
      'keyRouting.topics': [
        {
          name: 't',
          system: 'pulsar',
          brokerVersion: version,
          subscription: {
            type: 'Key_Shared',
            keySharedMode: mode,
            consistentHashing: ring,
            replicaPoints: 50,
            consumers: Array.from({ length: n }, (_, i) => (mode === 'STICKY' ? { name: `c${i % 3}`, ranges: [[i * 1000, i * 1000 + 999]] } : { name: `c${i % 3}` })),
          },
        },
      ],
    }).settings;

  for (const [version, mode, ring] of [
    ['3.0', 'AUTO_SPLIT', true],
    ['4.0', 'AUTO_SPLIT', true],
    ['4.0', 'AUTO_SPLIT', false],
    ['3.0', 'STICKY', false],
  ] as const) {
    test(`${version} ${mode}${ring ? ' ring' : ''}: the notes equal those of the consumers connected again, and the base is left as it was`, () => {
      const settings = settingsOf(version, mode, ring, 7);
      const topic = new Topology(settings, []).topics[0] as PulsarTopicState;
      const keys = Array.from({ length: 30 }, (_, i) => ({ shown: `k${i}`, key: stringKey(`k${i}`) }));
      const events = ['+c1', '-c0', '+new', mode === 'STICKY' ? '+s:60000-60100' : '-c2#2', '-nobody'].map(parseEvent);
      const clone = topic.clone();
      const states: Array<KeySharedSubscription | undefined> = [];
      const result = runWhatIf(clone, events, keys, (i, t) => (states[i] = (t as PulsarTopicState).subscription!.clone()));
      const owned = keys.map((k, i) => ({ ...k, owner: result.keys[i].before.consumer ?? null }));
      const layout = topic.subscription!.selector.snapshotTable();
      const fresh = explainWhatIf(topic.config, topic.subscription!.consumers, events, owned, result);
      const fromBase = explainWhatIf(topic.config, topic.subscription!.consumers, events, owned, result, topic.subscription);
      assert.deepEqual(fromBase, fresh);
      // Taking each step's state from the what-if instead of applying the event again.
      assert.deepEqual(explainWhatIf(topic.config, topic.subscription!.consumers, events, owned, result, topic.subscription, states), fresh);
      // States of another history are not taken (the events are applied instead): the same notes.
      const other = topic.clone();
      const wrong: Array<KeySharedSubscription | undefined> = [];
      runWhatIf(other, ['+zz', '+c1', '-c0', '+new', '+q'].map(parseEvent), [], (i, t) => (wrong[i] = (t as PulsarTopicState).subscription!.clone()));
      assert.deepEqual(explainWhatIf(topic.config, topic.subscription!.consumers, events, owned, result, topic.subscription, wrong), fresh);
      assert.ok(fresh.steps.some((s) => s.moves.length > 0));
      assert.equal(topic.subscription!.selector.snapshotTable(), layout, 'the base subscription did not change');
    });
  }

  test('a base of another broker generation, or with consumers listed as well, is refused with a message', () => {
    const base = new KeySharedSubscription(cfg('3.0', 'AUTO_SPLIT', true));
    assert.throws(() => new OrderingSimulation({ generation: '4.0', consumers: [], messages: [] }, base), /generation 4\.0 needs a broker 4\.0 subscription/);
    assert.throws(() => new OrderingSimulation({ generation: '3.1', consumers: [{ name: 'x' }], messages: [] }, base), /consumers: a scenario that starts from a subscription/);
  });
});
