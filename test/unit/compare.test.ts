import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compareStrategies, load, type StrategyResult } from '../../src/engine/strategyComparison';
import { KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import type { Consumer } from '../../src/engine/pulsar/keyShared/selector';
import { parseSettings } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { runWhatIf } from '../../src/engine/whatIf';
import { parseEvent } from '../../src/engine/events';
import { randInt, rng } from './helpers';

const names = (...n: string[]) => n.map((name) => ({ name }));
const pick = (r: { strategies: StrategyResult[] }, id: StrategyResult['strategy']) => r.strategies.find((s) => s.strategy === id)!;

/** max over mean of per-consumer counts of key values, counted slot by slot through `select`. */
function evenness(cfg: SelectorConfig, history: string[]): { shares: Record<string, number>; maxOverMean: number } {
  const sub = new KeySharedSubscription(cfg);
  for (const e of history) {
    const ev = parseEvent(e);
    assert.ok(ev.kind === 'connect' ? sub.connect(ev.name, ev.ranges).ok : ev.kind === 'disconnect' && sub.disconnect(ev.id).ok);
  }
  const s = sub.selector;
  const counts = new Map<Consumer, number>(sub.consumers.map((c) => [c, 0]));
  for (let h = s.keyValues[0]; h <= s.keyValues[1]; h++) {
    const c = s.select(h);
    if (c) counts.set(c, counts.get(c)! + 1);
  }
  const total = s.keyValues[1] - s.keyValues[0] + 1;
  const shares = Object.fromEntries([...counts].map(([c, n]) => [c.id, n / total]));
  const v = Object.values(shares);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return { shares, maxOverMean: Math.max(...v) / mean };
}

describe('strategy comparison: known answers', () => {
  test('auto-split moves one consumer’s share; with C1..C4 the load is even to one slot', () => {
    const r = compareStrategies({ consumers: names('C1', 'C2', 'C3'), event: '+C4' });
    assert.equal(r.event, '+C4');
    assert.deepEqual(r.strategies.map((s) => s.strategy), ['autoSplit', 'consistentHashing3', 'consistentHashing4', 'sticky']);
    const a = pick(r, 'autoSplit');
    // ALGORITHMS.md: C4 takes [32769, 49152] from C1.
    assert.deepEqual(a.lost, { C1: [[32769, 49152]] });
    assert.deepEqual(a.gained, { C4: [[32769, 49152]] });
    assert.equal(a.consumersLosing, 1);
    assert.equal(a.movedFraction, 16384 / 65535);
    // Before: C3 [0,16384], C2 [16385,32768], C1 [32769,65536]; 4.0 key values are 1..65535.
    assert.deepEqual(a.before.shares, { C1: 32767 / 65535, C2: 16384 / 65535, C3: 16384 / 65535 });
    assert.equal(a.before.maxOverMean, 32767 / (65535 / 3));
    assert.deepEqual(a.after.shares, { C1: 16383 / 65535, C2: 16384 / 65535, C3: 16384 / 65535, C4: 16384 / 65535 });
    assert.equal(a.after.maxOverMean, 16384 / (65535 / 4));
    assert.equal(a.after.unowned, 0);
    // 3.0 hash ranges count slots 0..65535.
    const a3 = pick(compareStrategies({ consumers: names('C1', 'C2', 'C3'), event: '+C4', brokerVersion: '3.0' }), 'autoSplit');
    assert.equal(a3.movedFraction, 16384 / 65536);
    // C3 [0, 16384] holds 16385 slots, one more than C2 and C4, two more than C1.
    assert.equal(a3.after.maxOverMean, 16385 / (65536 / 4));
  });

  test('consistent hashing: every consumer loses a little when one joins; shares match a slot-by-slot count', () => {
    const consumers = names('orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4');
    const r = compareStrategies({ consumers, event: '+orders-5' });
    const c4 = pick(r, 'consistentHashing4');
    assert.equal(c4.consumersLosing, 5);
    assert.deepEqual(Object.keys(c4.gained), ['orders-5']);
    const cfg4: SelectorConfig = { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, hashRangeSize: 65536 };
    const before = evenness(cfg4, consumers.map((c) => `+${c.name}`));
    const after = evenness(cfg4, [...consumers.map((c) => `+${c.name}`), '+orders-5']);
    assert.deepEqual(c4.before.shares, before.shares);
    assert.equal(c4.before.maxOverMean, before.maxOverMean);
    assert.deepEqual(c4.after.shares, after.shares);
    assert.equal(c4.after.maxOverMean, after.maxOverMean);
    // What the joiner gains is exactly what the moved fraction counts.
    assert.equal(c4.movedFraction, after.shares['orders-5']);
    const c3 = pick(r, 'consistentHashing3');
    assert.equal(c3.consumersLosing, 5);
    const sum = Object.values(c3.after.shares).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-12, String(sum));
  });

  test('3.0 ring: same-named consumers share every point and split its keys by hash parity', () => {
    const r = compareStrategies({ consumers: names('w'), event: '+w' });
    const c3 = pick(r, 'consistentHashing3');
    assert.deepEqual(c3.after.shares, { w: 0.5, 'w#2': 0.5 });
    assert.equal(c3.after.maxOverMean, 1);
    assert.deepEqual(c3.gained, { 'w#2': [[0, 2147483647]] });
    assert.deepEqual(c3.lost, {}, 'w keeps every point (now shared)');
    assert.equal(c3.movedFraction, 1, 'every point’s owner set changed');
    // 4.0 gives the second "w" its own points (name index 1).
    const c4 = pick(r, 'consistentHashing4');
    assert.ok(c4.after.shares['w#2'] > 0.3 && c4.after.shares['w#2'] < 0.7);
  });

  test('STICKY is manual: without ranges it is refused and says so; with ranges a join takes only what nobody owns', () => {
    const r = compareStrategies({ consumers: names('C1', 'C2'), event: '+C3' });
    const s = pick(r, 'sticky');
    assert.deepEqual(s.refused, [
      { name: 'C1', error: 'Must specify key shared meta for consumer.' },
      { name: 'C2', error: 'Must specify key shared meta for consumer.' },
    ]);
    assert.equal(s.error, 'Must specify key shared meta for consumer.');
    assert.match(s.note!, /manual/);
    assert.equal(s.after.maxOverMean, null);
    assert.equal(s.after.unowned, 1);

    const given = compareStrategies({
      consumers: [{ name: 'E1', ranges: [[0, 32767]] }, { name: 'E2', ranges: [[32768, 49151]] }],
      event: '+E3:49152-65535',
      brokerVersion: '3.0',
    });
    const g = pick(given, 'sticky');
    assert.equal(g.error, undefined);
    assert.deepEqual(g.lost, {});
    assert.deepEqual(g.gained, { E3: [[49152, 65535]] });
    assert.equal(g.consumersLosing, 0);
    assert.equal(g.movedFraction, 0.25);
    assert.equal(g.before.unowned, 0.25);
    assert.deepEqual(g.after.shares, { E1: 0.5, E2: 0.25, E3: 0.25 });
    assert.equal(g.after.maxOverMean, 0.5 / (1 / 3));
    // Only 3.x gives a consumer the gap between two of its ranges; the note says so there alone.
    assert.match(g.note!, /a join only takes what nobody owns \(or a gap between two ranges of one consumer, which is that consumer's on 3\.x\)/);
    const g4 = pick(compareStrategies({ consumers: [{ name: 'E1', ranges: [[0, 32767]] }], event: '+E3:49152-65535', brokerVersion: '4.0' }), 'sticky');
    assert.match(g4.note!, /a join only takes what nobody owns, a leave/);
    // The same ranges mean nothing to the other strategies: they assign by their own rules.
    // (Auto-split: E2 took [0, 32768]; of two equal ranges the lower one is split.)
    assert.deepEqual(pick(given, 'autoSplit').gained, { E3: [[0, 16384]] });
    const conflict = pick(compareStrategies({ consumers: [{ name: 'E1', ranges: [[0, 100]] }], event: '+E2:50-60' }), 'sticky');
    assert.equal(conflict.error, 'Range conflict with consumer E1');
    assert.equal(conflict.movedFraction, 0);
  });

  test('a leave: the leaver’s share moves; nobody else loses', () => {
    const r = compareStrategies({
      consumers: [{ name: 'E1', ranges: [[0, 32767]] }, { name: 'E2', ranges: [[32768, 65535]] }, { name: 'E3', ranges: [[40000, 40000]] }],
      event: '-E1',
      brokerVersion: '3.0',
    });
    for (const s of r.strategies) assert.equal(s.consumersLosing, 0, s.strategy);
    assert.deepEqual(pick(r, 'sticky').refused, [{ name: 'E3', error: 'Range conflict with consumer E2' }]);
    assert.equal(pick(r, 'sticky').after.unowned, 0.5);
    assert.deepEqual(pick(r, 'sticky').after.shares, { E2: 0.5 });
  });

  test('bad input', () => {
    assert.throws(() => compareStrategies({ consumers: [], event: 'partitions=3' }), /partition count change/);
    assert.throws(() => compareStrategies({ consumers: [], event: '+A', hashRangeSize: 1000 }), /hashRangeSize: range size must be nth power with 2/);
    assert.throws(() => compareStrategies({ consumers: [], event: 'A' }), /expected \+NAME/);
  });
});

test('each strategy’s moved fraction and ranges equal what-if on the same topic (random histories)', () => {
  const r = rng(2024);
  for (let round = 0; round < 8; round++) {
    const consumers = Array.from({ length: randInt(r, 1, 7) }, () => ({ name: `c${randInt(r, 0, 5)}` }));
    const event = r() < 0.6 ? `+c${randInt(r, 0, 6)}` : `-${consumers[0].name}`;
    for (const bv of ['3.0', '4.0'] as const) {
      const cmp = compareStrategies({ consumers, event, brokerVersion: bv, replicaPoints: 30 });
      const topics: Array<[StrategyResult['strategy'], Record<string, unknown>]> = [
        ['autoSplit', { brokerVersion: bv, subscription: { consistentHashing: false, consumers } }],
        ['consistentHashing3', { brokerVersion: '3.0', subscription: { replicaPoints: 30, consumers } }],
        ['consistentHashing4', { brokerVersion: '4.0', subscription: { replicaPoints: 30, consumers } }],
      ];
      for (const [id, t] of topics) {
        const { settings, problems } = parseSettings({ 'keyRouting.topics': [{ name: 't', system: 'pulsar', ...t }] });
        assert.deepEqual(problems, []);
        const topic = new Topology(settings, []).topics[0];
        const w = runWhatIf(topic, [parseEvent(event)], []);
        const s = pick(cmp, id);
        assert.equal(s.error, w.steps[0].error, `${id} ${event}`);
        assert.equal(s.movedFraction, w.steps[0].movedFraction, `${id} ${event}`);
        assert.deepEqual(s.lost, w.steps[0].lost);
        assert.deepEqual(s.gained, w.steps[0].gained);
        const shareSum = Object.values(s.after.shares).reduce((a, b) => a + b, 0);
        if (Object.keys(s.after.shares).length > 0) assert.ok(Math.abs(shareSum + s.after.unowned - 1) < 1e-9);
      }
    }
  }
});

test('load(): shares of a selector with no consumers', () => {
  const sub = new KeySharedSubscription({ brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 10, hashRangeSize: 65536 });
  assert.deepEqual(load(sub.selector, sub.consumers), { shares: {}, maxOverMean: null, unowned: 1 });
});
