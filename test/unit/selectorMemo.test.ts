import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createSelector, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { ConsumerAssignError, type Consumer, type HashRange, type Segment, type StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { randInt, rng } from './helpers';

// Selectors memoise segments() (and AUTO_SPLIT its snapshot()) between changes, because `route`
// asks for them on every key. These tests replay random histories and check, after every step,
// that the memoised answer equals the answer of a fresh selector fed the same live history, that it
// is frozen, and that it is reused until the next change.

const layout = (segs: readonly Segment[]) => segs.map((s) => [s.start, s.end, s.consumers.map((c) => c.id).join('+')]);

const CONFIGS: Array<[string, SelectorConfig]> = [
  ['auto-split 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['auto-split 4.0', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['ring 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 20, hashRangeSize: 65536 }],
  ['ring 4.0', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 20, hashRangeSize: 65536 }],
  ['sticky 3.0', { brokerVersion: '3.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['sticky 4.0', { brokerVersion: '4.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
];

/** Replays adds (and removes) of the same consumer objects on a fresh selector. */
function replay(cfg: SelectorConfig, history: Array<['+' | '-', Consumer]>): StickyKeyConsumerSelector {
  const s = createSelector(cfg);
  for (const [op, c] of history) {
    if (op === '-') s.removeConsumer(c);
    else {
      try {
        s.addConsumer(c);
      } catch (e) {
        if (!(e instanceof ConsumerAssignError)) throw e;
      }
    }
  }
  return s;
}

describe('segments() memoisation in the selectors', () => {
  for (const [label, cfg] of CONFIGS) {
    test(`${label}: equal to a fresh selector after every change, frozen, reused until the next change`, () => {
      const r = rng(label.length * 7919 + 3);
      const s = createSelector(cfg);
      const history: Array<['+' | '-', Consumer]> = [];
      const live: Consumer[] = [];
      let n = 0;
      for (let step = 0; step < 60; step++) {
        const first = s.segments();
        // Reused while nothing changes (and AUTO_SPLIT's snapshot too).
        assert.equal(s.segments(), first);
        assert.equal(s.snapshot(), s.snapshot());
        assert.ok(Object.isFrozen(first) && first.every((g) => Object.isFrozen(g) && Object.isFrozen(g.consumers)));
        assert.deepEqual(layout(first), layout(replay(cfg, history).segments()));
        assert.deepEqual(layout(s.snapshot()), layout(replay(cfg, history).snapshot()));
        if (live.length > 0 && r() < 0.35) {
          const c = live.splice(randInt(r, 0, live.length - 1), 1)[0];
          s.removeConsumer(c);
          history.push(['-', c]);
        } else {
          const name = `c${randInt(r, 0, 9)}`;
          const start = randInt(r, 0, 65000);
          const ranges: HashRange[] = [[start, start + randInt(r, 0, 500)]];
          const c: Consumer = { id: `${name}#${++n}`, name, ranges: cfg.keySharedMode === 'STICKY' ? ranges : undefined };
          try {
            s.addConsumer(c);
            live.push(c);
          } catch (e) {
            if (!(e instanceof ConsumerAssignError)) throw e;
          }
          history.push(['+', c]);
        }
        // After a change (or a refusal) the answer is recomputed, not the old array.
        assert.notEqual(s.segments(), first);
      }
    });
  }

  test('a caller cannot change the memoised segments', () => {
    const s = createSelector(CONFIGS[0][1]);
    s.addConsumer({ id: 'C1', name: 'C1' });
    s.addConsumer({ id: 'C2', name: 'C2' });
    const segs = s.segments();
    assert.throws(() => {
      'use strict';
      (segs[0] as { end: number }).end = 5;
    }, TypeError);
    assert.throws(() => (segs as Segment[]).push({ start: 0, end: 0, consumers: [] }), TypeError);
    assert.deepEqual(layout(s.segments()), [[0, 32768, 'C2'], [32769, 65535, 'C1']]);
  });
});
