import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { ringChangeWindows, ringPointsOf } from '../../src/engine/pulsar/keyShared/ringChange';
import { computeMoves, movesAndLost } from '../../src/engine/ordering/simulation';
import type { Consumer } from '../../src/engine/pulsar/keyShared/selector';
import { diffOwnership } from '../../src/engine/whatIf';
import { randInt, rng } from './helpers';

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
        assert.deepEqual(diffOwnership(before, after, s.keyValues, within), diffOwnership(before, after, s.keyValues), at);
        assert.deepEqual(movesAndLost(before, after, s.keyValues, within), movesAndLost(before, after, s.keyValues), at);
        assert.deepEqual(computeMoves(before, after, s.keyValues), movesAndLost(before, after, s.keyValues, within).moves, at);
      }
    }
    // Most steps are swept by windows (only a join to an empty ring is not).
    assert.ok(windowed > 40 * 30 * 0.7, `${windowed} windowed`);
  });
}
