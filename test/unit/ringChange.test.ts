import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { ringChangeWindows, ringPointsOf } from '../../src/engine/pulsar/keyShared/ringChange';
import { computeMoves, movesAndLost } from '../../src/engine/ordering/simulation';
import { mergeRanges, tableIndexAt, type Consumer, type SegmentTable } from '../../src/engine/pulsar/keyShared/selector';
import { diffOwnership } from '../../src/engine/whatIf';
import { randInt, ringPoints, rng } from './helpers';

// The diff of a ring step swept only over the windows next to the consumer's points equals the
// diff over the whole ring, for random join/leave histories on both generations: few points (so
// the first and last points and the wrap-around change often), repeated names (3.x shared points,
// 4.x name indexes and queues) and a prefix pair whose 3.x point strings meet.
const NAMES = ['a', 'a', 'b', 'c-1', 'c-11', 'dup', 'dup', 'é'];

for (const [label, make] of [
  ['3.0', (points: number) => new ConsistentHashing3Selector(points)],
  ['4.0', (points: number) => new ConsistentHashing4Selector(points)],
] as const) {
  test(`${label} ring: a step's diff over the windows at the consumer's points equals the whole diff`, () => {
    const r = rng(label === '3.0' ? 301 : 401);
    let windowed = 0;
    for (let history = 0; history < 40; history++) {
      const s = make(randInt(r, 1, 6));
      const live: Consumer[] = [];
      const counts = new Map<string, number>();
      // The whole history as one what-if (as a what-if built afresh takes its moved share): the
      // state before its first step against the latest, over the union of every step's windows so far.
      const start = s.snapshotTable();
      let sofar: Array<[number, number]> | undefined = [];
      for (let step = 0; step < 30; step++) {
        const before = s.snapshotTable();
        let points: Int32Array | undefined;
        if (live.length === 0 || r() < 0.55) {
          const name = NAMES[randInt(r, 0, NAMES.length - 1)];
          const k = (counts.get(name) ?? 0) + 1;
          counts.set(name, k);
          const c: Consumer = { id: k === 1 ? name : `${name}#${k}`, name };
          s.addConsumer(c);
          live.push(c);
          points = ringPointsOf(s, c);
        } else {
          const c = live.splice(randInt(r, 0, live.length - 1), 1)[0];
          points = ringPointsOf(s, c);
          s.removeConsumer(c);
        }
        const after = s.snapshotTable();
        const within = points && ringChangeWindows(before, points);
        if (within) windowed++;
        const at = `history ${history}, step ${step}`;
        const d = diffOwnership(before, after, s.keyValues, within);
        assert.deepEqual(d, diffOwnership(before, after, s.keyValues), at);
        assert.deepEqual(d.changed, mergeRanges([...d.lost.values(), ...d.gained.values()].flat(), [-Infinity, Infinity]), at);
        assert.deepEqual(diffOwnership(before, after, s.keyValues, within, false), { ...d, lost: new Map(), gained: new Map() }, at);
        assert.deepEqual(movesAndLost(before, after, s.keyValues, within), movesAndLost(before, after, s.keyValues), at);
        assert.deepEqual(computeMoves(before, after, s.keyValues), movesAndLost(before, after, s.keyValues, within).moves, at);
        sofar = within && sofar ? mergeRanges([...sofar, ...within], [-Infinity, Infinity]) : undefined;
        const whole = diffOwnership(start, after, s.keyValues);
        assert.deepEqual(diffOwnership(start, after, s.keyValues, sofar, false), { ...whole, lost: new Map(), gained: new Map() }, `${at}, from the start`);
      }
    }
    // Most steps are swept by windows (only a join to an empty ring is not).
    assert.ok(windowed > 40 * 30 * 0.7, `${windowed} windowed`);
  });
}

/** The diff by brute force: every run between two boundaries of either table, owners compared as plain lists. */
function plainDiff(before: SegmentTable, after: SegmentTable) {
  const cuts = new Set<number>();
  for (const t of [before, after]) for (let i = 0; i < t.count; i++) cuts.add(t.starts[i]).add(t.ends[i] + 1);
  const sorted = [...cuts].sort((a, b) => a - b);
  const ownersAt = (t: SegmentTable, x: number) => {
    const i = tableIndexAt(t, x);
    return i < 0 ? [] : t.owners[t.owner[i]];
  };
  const lost = new Map<string, Array<[number, number]>>();
  const gained = new Map<string, Array<[number, number]>>();
  const changed: Array<[number, number]> = [];
  const add = (m: Map<string, Array<[number, number]>> | Array<[number, number]>, id: string, s: number, e: number) => {
    const list = Array.isArray(m) ? m : m.get(id) ?? (m.set(id, []), m.get(id)!);
    const last = list.at(-1);
    if (last && last[1] + 1 >= s) last[1] = e;
    else list.push([s, e]);
  };
  for (let k = 0; k + 1 < sorted.length; k++) {
    const [s, e] = [sorted[k], sorted[k + 1] - 1];
    const b = ownersAt(before, s);
    const a = ownersAt(after, s);
    const gone = b.filter((c) => !a.includes(c));
    const come = a.filter((c) => !b.includes(c));
    for (const c of gone) add(lost, c.id, s, e);
    for (const c of come) add(gained, c.id, s, e);
    if (gone.length + come.length > 0) add(changed, '', s, e);
  }
  return { lost, gained, changed };
}

test('3.0 ring: points that dozens of same-named consumers share diff as plain list differences', () => {
  const r = rng(303);
  const s = new ConsistentHashing3Selector(4);
  const live: Consumer[] = [];
  let n = 0;
  const join = (name: string) => {
    const c: Consumer = { id: `${name}#${++n}`, name };
    s.addConsumer(c);
    live.push(c);
  };
  for (let i = 0; i < 40; i++) join('dup');
  join('a');
  join('zz');
  for (let step = 0; step < 30; step++) {
    const before = s.snapshotTable();
    if (r() < 0.5) join(r() < 0.7 ? 'dup' : `other-${step}`);
    else s.removeConsumer(live.splice(randInt(r, 0, live.length - 1), 1)[0]);
    const after = s.snapshotTable();
    const d = diffOwnership(before, after, s.keyValues);
    const byId = (m: Map<Consumer, Array<[number, number]>>) => new Map([...m].map(([c, rs]) => [c.id, rs]));
    assert.deepEqual({ lost: byId(d.lost), gained: byId(d.gained), changed: d.changed }, plainDiff(before, after), `step ${step}`);
    assert.deepEqual(diffOwnership(before, after, s.keyValues, undefined, false), { ...d, lost: new Map(), gained: new Map() }, `step ${step}`);
    // The ordering note's sweep: the same losses, and its moves cover exactly the changed runs.
    const ml = movesAndLost(before, after, s.keyValues);
    assert.deepEqual(byId(ml.lost), byId(d.lost), `step ${step}`);
    assert.deepEqual(mergeRanges(ml.moves.flatMap((m) => m.ranges), [-Infinity, Infinity]), d.changed, `step ${step}`);
  }
  assert.ok(ringPoints(s).every(([, list]) => list.length > 16 || list[0].name !== 'dup'), 'the shared lists are long');
});
