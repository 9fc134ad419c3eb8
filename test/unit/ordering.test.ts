import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareOrdering,
  explainOrdering,
  explainOrderingSteps,
  movesText,
  SteppedSimulation,
  parseScenario,
  parseSteps,
  ScenarioError,
  type Delivery,
  type OrderingGeneration,
  type OrderingScenario,
} from '../../src/engine/ordering';
import { createSelector } from '../../src/engine/pulsar/keyShared/subscription';
import { utf8 } from '../../src/engine/bytes';
import { randInt, rng } from './helpers';

// Keys chosen by their hashes. The 3.x hash-range slot is hash % 65536; the 4.0 hash is the same
// with 0 turned into 1. With C1 alone, a joining C2 takes [0, 32768] in both generations.
const split4 = createSelector({ brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 });
const slot = (key: string) => split4.makeStickyKeyHash(utf8(key));
function keyWhere(pred: (slot: number) => boolean, prefix: string): string {
  for (let i = 0; ; i++) if (pred(slot(prefix + i))) return prefix + i;
}
const A = keyWhere((s) => s > 1 && s <= 32768, 'a'); // moves to C2 when C2 joins
const A2 = keyWhere((s) => s > 1 && s <= 32768 && s !== slot(A), 'b'); // moves too, another hash
const B = keyWhere((s) => s > 32768, 'k'); // stays with C1

const AUTO = { consistentHashing: false } as const;

function verdict(d: Delivery[] | undefined, id: string): Delivery {
  const x = d?.find((e) => e.message === id);
  assert.ok(x, `no delivery for ${id}`);
  return x;
}

describe('4.0 draining hashes', () => {
  const base: OrderingScenario = {
    generation: '4.0',
    subscription: AUTO,
    consumers: [{ name: 'C1' }],
    messages: [
      { id: 'm1', key: A },
      { id: 'm2', key: A },
      { id: 'm3', key: B },
      { id: 'm4', key: A },
      { id: 'm5', key: B },
      { id: 'm6', key: A2 },
    ],
    pending: { C1: ['m1', 'm2', 'm3'] },
    event: '+C2',
  };

  test('a moved hash with 2 unacknowledged messages at C1 is blocked for C2 until both are acknowledged, then allowed', () => {
    const sim = new SteppedSimulation(base);
    const o = sim.apply('+C2');
    assert.equal(o.protection, 'drainingHashes');
    assert.deepEqual(o.moves, [{ from: ['C1'], to: ['C2'], ranges: [[0, 32768]], size: 32768 }]);
    assert.deepEqual(o.draining, [{ hash: slot(A), consumer: 'C1', pending: 2, messages: ['m1', 'm2'], blockedAttempts: 0 }]);
    let next = sim.preview();
    assert.deepEqual(verdict(next.byConsumer.C2, 'm4').verdict, { kind: 'draining', at: 'C1', pending: 2, holding: 2 });
    // A hash that did not move is never blocked; a moved hash with nothing pending goes at once.
    assert.deepEqual(verdict(next.byConsumer.C1, 'm5').verdict, { kind: 'allowed', redelivery: false });
    assert.deepEqual(verdict(next.byConsumer.C2, 'm6').verdict, { kind: 'allowed', redelivery: false });
    sim.ack('m1');
    next = sim.preview();
    assert.deepEqual(verdict(next.byConsumer.C2, 'm4').verdict, { kind: 'draining', at: 'C1', pending: 1, holding: 1 });
    sim.ack('m3'); // another hash: changes nothing for m4
    assert.deepEqual(verdict(sim.preview().byConsumer.C2, 'm4').verdict, { kind: 'draining', at: 'C1', pending: 1, holding: 1 });
    sim.ack('m2');
    next = sim.preview();
    assert.deepEqual(verdict(next.byConsumer.C2, 'm4').verdict, { kind: 'allowed', redelivery: false });
    assert.deepEqual(sim.state().draining, []);
    for (const d of next.deliveries) assert.equal(d.outOfOrder, undefined);
  });

  test('a blocked message waits in the replay queue, counts a blocked attempt, and goes out after the acks', () => {
    const sim = new SteppedSimulation(base);
    sim.apply('+C2');
    const r = sim.dispatch();
    assert.deepEqual(
      r.deliveries.map((d) => [d.message, d.consumer, d.verdict.kind]),
      [['m4', 'C2', 'draining'], ['m5', 'C1', 'allowed'], ['m6', 'C2', 'allowed']],
    );
    const st = sim.state();
    assert.deepEqual(st.draining[0].blockedAttempts, 1);
    assert.deepEqual(st.messages.find((m) => m.id === 'm4')!.status, { state: 'replay' });
    assert.deepEqual(st.messages.find((m) => m.id === 'm6')!.status, { state: 'pending', consumer: 'C2' });
    assert.equal(st.readPosition, 6);
    sim.ack(['m1', 'm2']);
    const again = sim.dispatch();
    assert.deepEqual(again.deliveries.map((d) => [d.message, d.consumer, d.verdict]), [['m4', 'C2', { kind: 'allowed', redelivery: true }]]);
  });

  test('a new message of a draining hash waits behind the blocked one in the replay queue', () => {
    const steps = explainOrderingSteps(base, [{ dispatch: true }, { publish: [{ id: 'm7', key: A }] }, { ack: ['m1', 'm2'] }]);
    const afterPublish = steps.steps[1].round;
    assert.deepEqual(verdict(afterPublish.byConsumer.C2, 'm4').verdict.kind, 'draining');
    assert.deepEqual(verdict(afterPublish.byConsumer.C2, 'm7').verdict, { kind: 'behindReplay', waiting: ['m4'] });
    const afterAcks = steps.steps[2].round;
    assert.deepEqual(afterAcks.byConsumer.C2.map((d) => [d.message, d.verdict.kind]), [['m4', 'allowed'], ['m7', 'allowed']]);
  });

  test('a hash that comes back to its original owner is not blocked there, and its entry is dropped when it is sent', () => {
    const sim = new SteppedSimulation({ ...base, event: undefined });
    sim.apply('+C2');
    const back = sim.apply('-C2');
    assert.deepEqual(back.moves, [{ from: ['C2'], to: ['C1'], ranges: [[0, 32768]], size: 32768 }]);
    assert.equal(back.draining.length, 1, 'the entry is still there, owned by C1');
    assert.deepEqual(verdict(sim.preview().byConsumer.C1, 'm4').verdict, { kind: 'allowed', redelivery: false });
    sim.dispatch();
    assert.deepEqual(sim.state().draining, [], 'dropped, although m1 and m2 are still unacknowledged');
  });

  test('4.0 over-counts a hash that comes back to its owner and moves again, and the hash stays blocked (apache/pulsar#23845)', () => {
    const steps = explainOrderingSteps(
      { ...base, messages: [{ id: 'm1', key: A }, { id: 'm2', key: A }], pending: { C1: ['m1'] }, event: '+C2' },
      [{ event: '-C2' }, { event: '+C3' }, { ack: ['m1'] }, { event: '-C1' }],
    );
    assert.deepEqual(steps.initial.event!.draining.map((d) => [d.consumer, d.pending]), [['C1', 1]]);
    // Back at C1 with nothing dispatched: the entry stays. Moving away again adds m1 a second time.
    assert.deepEqual(steps.steps[1].event!.draining.map((d) => [d.consumer, d.pending, d.messages]), [['C1', 2, ['m1']]]);
    assert.deepEqual(steps.steps[1].event!.newlyDraining, [slot(A)]);
    assert.deepEqual(steps.steps[0].event!.newlyDraining, [], 'the hash coming back registers nothing');
    assert.ok(steps.steps[0].explanation.includes(`Still draining from earlier changes: hash ${slot(A)} at C1 (1 pending).`));
    // After C1 acknowledges m1 the entry still counts 1, and m2 waits for a message C1 does not hold.
    assert.deepEqual(steps.steps[2].state.draining.map((d) => [d.consumer, d.pending, d.messages]), [['C1', 1, []]]);
    assert.deepEqual(verdict(steps.steps[2].round.byConsumer.C3, 'm2').verdict, { kind: 'draining', at: 'C1', pending: 1, holding: 0 });
    assert.ok(steps.steps[2].explanation.some((l) => l.includes('apache/pulsar#23845')));
    // Even C1 leaving does not release it: delivery of that hash is stuck.
    assert.deepEqual(verdict(steps.steps[3].round.byConsumer.C3, 'm2').verdict, { kind: 'draining', at: 'C1', pending: 1, holding: 0 });
  });

  test('a consumer that leaves: its unacknowledged messages are redelivered first, in order, to the new owner', () => {
    const s: OrderingScenario = {
      generation: '4.0',
      subscription: AUTO,
      consumers: [{ name: 'C1' }, { name: 'C2' }],
      messages: [
        { id: 'm1', key: A },
        { id: 'm2', key: B },
        { id: 'm3', key: A },
        { id: 'm4', key: B },
      ],
      pending: { C2: ['m1'], C1: ['m2'] },
      event: '-C2',
    };
    const r = explainOrdering(s);
    assert.deepEqual(r.event!.redelivered, ['m1']);
    assert.deepEqual(r.event!.moves, [{ from: ['C2'], to: ['C1'], ranges: [[0, 32768]], size: 32768 }]);
    assert.deepEqual(
      r.next.deliveries.map((d) => [d.message, d.consumer, d.verdict]),
      [
        ['m1', 'C1', { kind: 'allowed', redelivery: true }],
        ['m3', 'C1', { kind: 'allowed', redelivery: false }],
        ['m4', 'C1', { kind: 'allowed', redelivery: false }],
      ],
    );
    assert.ok(r.explanation.includes('C2 leaves with 1 unacknowledged message (m1): it is redelivered first, to the new owner of its hash, and newer messages of that hash wait behind it.'));
    // With one permit, the redelivery goes and the rest waits for permits.
    const p = explainOrdering({ ...s, permits: { C1: 1 } });
    assert.deepEqual(p.next.deliveries.map((d) => d.verdict.kind), ['allowed', 'noPermits', 'noPermits']);
  });

  test('the last consumer leaving rewinds the cursor; the next consumer gets everything unacknowledged, unheld', () => {
    const steps = explainOrderingSteps({ ...base, event: '-C1' }, [{ event: '+C9' }]);
    assert.deepEqual(steps.initial.state.readPosition, 0);
    assert.ok(steps.initial.next.deliveries.every((d) => d.verdict.kind === 'noConsumer' || d.verdict.kind === 'behindBlocked'));
    const join = steps.steps[0];
    assert.deepEqual(join.event!.draining, []);
    assert.deepEqual(join.round.byConsumer.C9.map((d) => d.message), ['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    assert.ok(join.round.deliveries.every((d) => d.verdict.kind === 'allowed'));
  });

  test('a move of one hash reads in the singular, of several or of ranges in the plural', () => {
    assert.deepEqual(
      movesText([
        { from: ['C1'], to: ['C2'], ranges: [[669, 669]], size: 1 },
        { from: [], to: ['C3'], ranges: [[31, 31]], size: 1 },
        { from: ['C4'], to: [], ranges: [[5, 5]], size: 1 },
        { from: ['C1'], to: ['C2'], ranges: [[7, 7], [9, 9]], size: 2 },
        { from: [], to: ['C3'], ranges: [[40, 41]], size: 2 },
        { from: ['C4'], to: [], ranges: [[50, 60]], size: 11 },
      ]),
      [
        'Hash 669 moves from C1 to C2.',
        'Hash 31 had no consumer and now goes to C3.',
        'Hash 5 leaves C4 and has no consumer now: its messages are not delivered until a consumer owns it.',
        'Hashes 7, 9 move from C1 to C2.',
        'Hashes [40, 41] had no consumer and now go to C3.',
        'Hashes [50, 60] leave C4 and have no consumer now: their messages are not delivered until a consumer owns them.',
      ],
    );
  });

  test('explanation lines', () => {
    const r = explainOrdering(base);
    assert.deepEqual(r.explanation.slice(0, 3), [
      'Hashes [0, 32768] move from C1 to C2.',
      `Hash ${slot(A)} drains at C1: its new owner receives no message of it until C1 acknowledges its 2 pending messages of that hash (m1 and m2).`,
      'Every other moved hash has nothing unacknowledged at its previous owner, so its new owner receives it at once.',
    ]);
    assert.ok(r.explanation.includes('C1 may receive next m5.'));
    assert.ok(r.explanation.includes(`C2 may receive next m6. Held back: m4: hash ${slot(A)} drains at C1 (2 unacknowledged messages of it there).`));
  });
});

describe('3.x recently joined consumers', () => {
  // C1 holds m0..m2 (sent, unacknowledged); m3 (key A) will belong to C2.
  const held: Omit<OrderingScenario, 'generation'> = {
    subscription: AUTO,
    consumers: [{ name: 'C1' }],
    messages: [
      { id: 'm0', key: B },
      { id: 'm1', key: B },
      { id: 'm2', key: B },
      { id: 'm3', key: A },
      { id: 'm4', key: B },
    ],
    pending: { C1: ['m0', 'm1', 'm2'] },
    event: '+C2',
  };

  for (const g of ['3.0', '3.1'] as const) {
    test(`${g}: C2 is held until every message before its position is acknowledged`, () => {
      const sim = new SteppedSimulation({ ...held, generation: g });
      const o = sim.apply('+C2');
      // 3.0: the read position (3); 3.1: the last sent position (2). Same release point here.
      assert.deepEqual(o.heldAt, g === '3.0' ? { consumer: 'C2', position: 3, marker: 'readPosition' } : { consumer: 'C2', position: 2, marker: 'lastSentPosition' });
      assert.deepEqual(verdict(sim.preview().byConsumer.C2, 'm3').verdict, {
        kind: 'recentlyJoined',
        position: o.heldAt!.position,
        marker: o.heldAt!.marker,
        markDelete: -1,
        ownPosition: o.heldAt!.position,
      });
      assert.deepEqual(verdict(sim.preview().byConsumer.C1, 'm4').verdict.kind, 'allowed');
      sim.ack(['m0', 'm1']);
      assert.equal(verdict(sim.preview().byConsumer.C2, 'm3').verdict.kind, 'recentlyJoined');
      assert.equal(sim.state().recentlyJoined.length, 1);
      sim.ack('m2');
      assert.deepEqual(verdict(sim.preview().byConsumer.C2, 'm3').verdict, { kind: 'allowed', redelivery: false });
      assert.deepEqual(sim.state().recentlyJoined, []);
    });

    test(`${g}: not held when every message read is acknowledged, nor when it is the only consumer`, () => {
      const acked = explainOrdering({ ...held, generation: g, pending: {}, acked: ['m0', 'm1', 'm2'] });
      assert.equal(acked.event!.heldAt, undefined);
      assert.equal(acked.event!.notHeldBecause, 'every message the cursor has read is acknowledged');
      assert.equal(verdict(acked.next.byConsumer.C2, 'm3').verdict.kind, 'allowed');
      const alone = explainOrdering({ ...held, generation: g, consumers: [], pending: {}, event: '+C2' });
      assert.equal(alone.event!.notHeldBecause, 'it is the only consumer');
    });
  }

  test('the race PR #20179 describes: a read but unsent message slips through in 3.0, not in 3.1 or 4.0', () => {
    // m0 (key A) is unacknowledged at C1; m1 (key A) was read but not sent (read position 2).
    const s: Omit<OrderingScenario, 'generation'> = {
      subscription: AUTO,
      consumers: [{ name: 'C1' }],
      messages: [
        { id: 'm0', key: A },
        { id: 'm1', key: A },
        { id: 'm2', key: A },
      ],
      pending: { C1: ['m0'] },
      readPosition: 2,
      event: '+C2',
    };
    const r = compareOrdering(s);
    const g30 = r['3.0'];
    assert.deepEqual(g30.event!.heldAt, { consumer: 'C2', position: 2, marker: 'readPosition' });
    assert.deepEqual(g30.event!.readNotSent, ['m1']);
    const m1 = verdict(g30.next.byConsumer.C2, 'm1');
    assert.deepEqual(m1.verdict, { kind: 'allowed', redelivery: true });
    assert.deepEqual(m1.outOfOrder, { earlier: 'm0', at: 'C1' });
    assert.equal(verdict(g30.next.byConsumer.C2, 'm2').verdict.kind, 'recentlyJoined');
    assert.ok(g30.explanation.some((l) => l.includes('the race PR #20179 describes')));
    assert.ok(g30.explanation.includes(`Sending m1 to C2 now breaks the order of key ${JSON.stringify(A)}: m0 is still unacknowledged at C1.`));

    const g31 = r['3.1'];
    assert.deepEqual(g31.event!.heldAt, { consumer: 'C2', position: 0, marker: 'lastSentPosition' });
    assert.deepEqual(g31.next.byConsumer.C2.map((d) => d.verdict.kind), ['recentlyJoined', 'recentlyJoined']);

    const g40 = r['4.0'];
    assert.deepEqual(g40.event!.draining.map((d) => [d.consumer, d.pending, d.messages]), [['C1', 1, ['m0']]]);
    assert.deepEqual(g40.next.byConsumer.C2.map((d) => d.verdict), [
      { kind: 'draining', at: 'C1', pending: 1, holding: 1 },
      { kind: 'behindReplay', waiting: ['m1'] },
    ]);
    for (const g of ['3.1', '4.0'] as const) for (const d of r[g].next.deliveries) assert.equal(d.outOfOrder, undefined);
  });

  test('3.1: a message sent past an unsent one is beyond the last sent position, so the new owner is not held for it', () => {
    // m0 (key B, C1's) was read but not sent; m1 (key A) was sent to C1 and is unacknowledged.
    const r = compareOrdering({
      subscription: AUTO,
      consumers: [{ name: 'C1' }],
      messages: [
        { id: 'm0', key: B },
        { id: 'm1', key: A },
        { id: 'm2', key: A },
      ],
      pending: { C1: ['m1'] },
      readPosition: 2,
      event: '+C2',
    });
    // 3.1: last sent position -1 = mark-delete: released at once, m2 overtakes m1.
    assert.equal(r['3.1'].event!.heldAt, undefined);
    assert.equal(r['3.1'].event!.notHeldBecause, 'the mark-delete position has already reached its position (-1)');
    assert.deepEqual(verdict(r['3.1'].next.byConsumer.C2, 'm2').outOfOrder, { earlier: 'm1', at: 'C1' });
    // 3.0 holds C2 at the read position; 4.0 drains m1's hash.
    assert.equal(verdict(r['3.0'].next.byConsumer.C2, 'm2').verdict.kind, 'recentlyJoined');
    assert.equal(verdict(r['4.0'].next.byConsumer.C2, 'm2').verdict.kind, 'draining');
  });

  test('3.1: for replays the oldest recently joined consumer’s position applies', () => {
    // With C1 alone, C2 takes [0, 32768]; then C3 takes [0, 16384] from C2.
    const low = keyWhere((s) => s > 1 && s <= 16384, 'q');
    const steps = explainOrderingSteps(
      {
        generation: '3.1',
        subscription: AUTO,
        consumers: [{ name: 'C1' }],
        messages: [
          { id: 'm0', key: B },
          { id: 'm1', key: B },
          { id: 'm2', key: low },
          { id: 'm3', key: B },
        ],
        pending: { C1: ['m0'] },
        event: '+C2',
      },
      [{ dispatch: true }, { event: '+C3' }, { ack: ['m0'] }, { ack: ['m1'] }],
    );
    assert.deepEqual(steps.initial.event!.heldAt, { consumer: 'C2', position: 0, marker: 'lastSentPosition' });
    // The round sends m1 and m3 to C1 and parks m2 (C2's, past position 0).
    assert.deepEqual(steps.steps[0].round.deliveries.map((d) => [d.message, d.verdict.kind]), [['m1', 'allowed'], ['m2', 'recentlyJoined'], ['m3', 'allowed']]);
    const c3 = steps.steps[1];
    assert.deepEqual(c3.event!.heldAt, { consumer: 'C3', position: 1, marker: 'lastSentPosition' });
    assert.deepEqual(verdict(c3.round.byConsumer.C3, 'm2').verdict, { kind: 'recentlyJoined', position: 0, marker: 'lastSentPosition', markDelete: -1, ownPosition: 1 });
    // m0 acknowledged: C2 is released (position 0); C3 still holds at 1.
    assert.deepEqual(steps.steps[2].state.recentlyJoined, [{ consumer: 'C3', position: 1, marker: 'lastSentPosition' }]);
    assert.deepEqual(verdict(steps.steps[2].round.byConsumer.C3, 'm2').verdict, { kind: 'recentlyJoined', position: 1, marker: 'lastSentPosition', markDelete: 0, ownPosition: 1 });
    assert.deepEqual(verdict(steps.steps[3].round.byConsumer.C3, 'm2').verdict, { kind: 'allowed', redelivery: true });
  });

  test('a held consumer that leaves is forgotten; with one consumer left nothing is held', () => {
    const steps = explainOrderingSteps({ ...held, generation: '3.1' }, [{ event: '+C3' }, { event: '-C2' }, { event: '-C3' }]);
    assert.deepEqual(steps.steps[0].state.recentlyJoined.map((j) => j.consumer), ['C2', 'C3']);
    assert.deepEqual(steps.steps[1].state.recentlyJoined.map((j) => j.consumer), ['C3']);
    assert.deepEqual(steps.steps[2].state.recentlyJoined, []);
  });
});

describe('which protection applies', () => {
  // E1 owns [0, 100] and [200, 300]; the gap between them is E1's too on 3.x (its STICKY
  // selection), nobody's on 4.x (apache/pulsar#24730).
  const gapKey = keyWhere((s) => s === 150, 'g');
  const sticky = (g: OrderingGeneration, key = gapKey) =>
    explainOrdering({
      generation: g,
      subscription: { keySharedMode: 'STICKY' },
      consumers: [{ name: 'E1', ranges: [[0, 100], [200, 300]] }, { name: 'E0', ranges: [[301, 65535]] }],
      messages: [
        { id: 'm1', key },
        { id: 'm2', key },
      ],
      pending: { E1: ['m1'] },
      event: '+E2:150-150',
    });

  test('STICKY: 3.0 holds the joining consumer at the read position; 3.1 tracks nothing; on 4.0 no consumer held the gap', () => {
    const r30 = sticky('3.0');
    // E2's single slot splits E1's gap: the slots beside it now lie between different consumers
    // and belong to nobody (the 3.x floor/ceiling rule).
    assert.deepEqual(r30.event!.moves, [
      { from: ['E1'], to: [], ranges: [[101, 149], [151, 199]], size: 98 },
      { from: ['E1'], to: ['E2'], ranges: [[150, 150]], size: 1 },
    ]);
    assert.equal(r30.event!.protection, 'readPosition');
    assert.equal(verdict(r30.next.byConsumer.E2, 'm2').verdict.kind, 'recentlyJoined');
    const r31 = sticky('3.1');
    assert.equal(r31.event!.protection, 'none');
    assert.match(r31.event!.protectionNote!, /STICKY/);
    const m2 = verdict(r31.next.byConsumer.E2, 'm2');
    assert.equal(m2.verdict.kind, 'allowed');
    assert.deepEqual(m2.outOfOrder, { earlier: 'm1', at: 'E1' });
    // On 4.x the key's slot lies in no range, so no consumer can have held m1 before the change.
    assert.throws(() => sticky('4.0'), /m1 \(key "g\d+", hash 150\) goes to no consumer before the change/);
    // A 4.x join takes only what nobody holds, and the broker tracks no draining hashes for STICKY.
    const r40 = sticky('4.0', keyWhere((s) => s === 50, 'r'));
    assert.deepEqual(r40.event!.moves, [{ from: [], to: ['E2'], ranges: [[150, 150]], size: 1 }]);
    assert.equal(r40.event!.protection, 'none');
    assert.match(r40.event!.protectionNote!, /STICKY/);
    assert.equal(verdict(r40.next.byConsumer.E1, 'm2').verdict.kind, 'allowed');
  });

  test('allowOutOfOrderDelivery turns every protection off', () => {
    for (const g of ['3.0', '3.1', '4.0'] as const) {
      const r = explainOrdering({
        generation: g,
        subscription: { ...AUTO, allowOutOfOrderDelivery: true },
        consumers: [{ name: 'C1' }],
        messages: [
          { id: 'm1', key: A },
          { id: 'm2', key: A },
        ],
        pending: { C1: ['m1'] },
        event: '+C2',
      });
      assert.equal(r.event!.protection, 'none');
      assert.equal(r.event!.protectionNote, 'the subscription allows out-of-order delivery');
      assert.equal(verdict(r.next.byConsumer.C2, 'm2').verdict.kind, 'allowed');
    }
  });

  test('a refused change is reported and changes nothing', () => {
    const r = explainOrdering({
      generation: '4.0',
      subscription: { keySharedMode: 'STICKY' },
      consumers: [{ name: 'E1', ranges: [[0, 100]] }],
      messages: [],
      event: '+E2:50-60',
    });
    assert.equal(r.event!.error, 'Range conflict with consumer E1');
    assert.deepEqual(r.event!.moves, []);
    assert.equal(r.explanation[0], '+E2:50-60: the broker refuses it (Range conflict with consumer E1); nothing changes.');
  });
});

describe('scenario errors name the field', () => {
  const ok: OrderingScenario = { generation: '4.0', consumers: [{ name: 'C1' }], messages: [{ id: 'm1', key: 'x' }, { id: 'm2', key: 'y' }] };
  const bad = (patch: Partial<OrderingScenario>, re: RegExp) => assert.throws(() => new SteppedSimulation({ ...ok, ...patch }), (e: unknown) => e instanceof ScenarioError && re.test(e.message));

  test('inconsistent states', () => {
    bad({ messages: [{ id: 'm', key: 'a' }, { id: 'm', key: 'b' }] }, /messages\[1\]: the id "m" is used twice/);
    bad({ pending: { C9: ['m1'] } }, /pending\.C9: no connected consumer has that id/);
    bad({ pending: { C1: ['zz'] } }, /pending\.C1: no message has the id "zz"/);
    bad({ pending: { C1: ['m1'] }, acked: ['m1'] }, /pending\.C1: m1 is already acknowledged/);
    bad({ readPosition: 5 }, /readPosition must be an integer from 0/);
    bad({ pending: { C1: ['m2'] }, readPosition: 1 }, /readPosition must be an integer from 2/);
  });

  test('a pending message must sit at its key’s owner; refused consumers; bad events; bad acks', () => {
    const two: OrderingScenario = { generation: '4.0', subscription: AUTO, consumers: [{ name: 'C1' }, { name: 'C2' }], messages: [{ id: 'm1', key: B }] };
    assert.throws(() => new SteppedSimulation({ ...two, pending: { C2: ['m1'] } }), /pending\.C2: m1 .* goes to C1 before the change/);
    assert.throws(
      () => new SteppedSimulation({ generation: '3.0', subscription: { keySharedMode: 'STICKY' }, consumers: [{ name: 'E', ranges: [[5, 1]] }], messages: [] }),
      /consumers\[0\] \(E\): the broker refuses it: Fixed hash range start > end/,
    );
    const sim = new SteppedSimulation(two);
    assert.throws(() => sim.apply('C3'), /event: event "C3": expected/);
    assert.throws(() => sim.ack('m1'), /ack: m1 is not delivered and unacknowledged \(it is unread\)/);
    assert.match(sim.apply('partitions=4').error!, /new partitions/);
    assert.throws(() => new SteppedSimulation({ ...two, generation: '5.0' as OrderingGeneration }), /generation must be one of 3\.0, 3\.1, 4\.0/);
  });

  test('parseScenario and parseSteps check the JSON shape', () => {
    const e = (raw: unknown, re: RegExp) => assert.throws(() => parseScenario(raw), (x: unknown) => x instanceof ScenarioError && re.test(x.message));
    e(null, /must be a JSON object/);
    e({ generation: '4.0' }, /consumers: must be an array/);
    e({ generation: '4.0', consumers: [{}], messages: [] }, /consumers\[0\]: must be an object with a non-empty "name"/);
    e({ generation: '4.0', consumers: [], messages: [{ id: 1, key: 'x' }] }, /messages\[0\]/);
    e({ generation: '4.0', consumers: [], messages: [], pending: { C1: 'm1' } }, /pending\.C1: must be an array/);
    e({ generation: '4.0', consumers: [], messages: [], subscription: { keySharedMode: 'X' } }, /subscription\.keySharedMode/);
    e({ generation: '4.0', consumers: [], messages: [], permits: { C1: -1 } }, /permits\.C1/);
    e({ consumers: [], messages: [] }, /generation: must be one of/);
    assert.equal(parseScenario({ consumers: [], messages: [] }, '3.1').generation, '3.1');
    assert.throws(() => parseSteps([{ ack: ['m1'], dispatch: true }]), /steps\[0\]: must be/);
    assert.deepEqual(parseSteps([{ ack: ['m1'] }, { dispatch: true }, { event: '+C2' }, { publish: [{ id: 'm9', key: 'k' }] }]), [
      { ack: ['m1'] },
      { dispatch: true },
      { event: '+C2' },
      { publish: [{ id: 'm9', key: 'k' }] },
    ]);
  });
});

// ---- Properties over random walks ----

const configs: Array<[string, OrderingScenario['subscription']]> = [
  ['auto-split hash ranges', { consistentHashing: false }],
  ['consistent hashing', { consistentHashing: true, replicaPoints: 20 }],
];

for (const [label, subscription] of configs) {
  test(`4.0 ${label}: random walks never break per-key order; only moved hashes with pending messages drain`, () => {
    const r = rng(label.length * 31337);
    for (let walk = 0; walk < 12; walk++) {
      const keys = Array.from({ length: 6 }, (_, i) => `key-${walk}-${i}`);
      const sim = new SteppedSimulation({ generation: '4.0', subscription, consumers: [{ name: 'c0' }, { name: 'c1' }], messages: [] });
      const everMoved = new Set<number>();
      let n = 0;
      let names = 2;
      for (let step = 0; step < 40; step++) {
        const p = r();
        if (p < 0.3) {
          sim.publish(Array.from({ length: randInt(r, 1, 4) }, () => ({ id: `m${n++}`, key: keys[randInt(r, 0, keys.length - 1)] })));
        } else if (p < 0.55) {
          for (const d of sim.dispatch().deliveries) assert.equal(d.outOfOrder, undefined, `walk ${walk} step ${step}: ${JSON.stringify(d)}`);
        } else if (p < 0.8) {
          const pending = sim.state().messages.filter((m) => m.status.state === 'pending');
          if (pending.length) sim.ack(pending.filter(() => r() < 0.5).map((m) => m.id));
        } else {
          const live = sim.consumers;
          const leave = live.length > 1 && r() < 0.5;
          const o = sim.apply(leave ? `-${live[randInt(r, 0, live.length - 1)].id}` : `+c${names++ % 5}`);
          assert.equal(o.error, undefined);
          for (const m of sim.state().messages) if (o.moves.some((mv) => mv.ranges.some(([a, b]) => a <= m.slot && m.slot <= b))) everMoved.add(m.stickyKeyHash);
        }
        const st = sim.state();
        for (const d of st.draining) {
          assert.ok(everMoved.has(d.hash), 'only a hash that moved drains');
          // The count covers at least what the consumer still holds of the hash (more where the
          // hash came back to it and moved again: apache/pulsar#23845, tested below).
          assert.ok(d.pending > 0 && d.pending >= d.messages.length);
        }
        for (const d of sim.preview().deliveries) {
          if (d.verdict.kind === 'draining') assert.ok(everMoved.has(d.stickyKeyHash));
          if (!everMoved.has(d.stickyKeyHash)) assert.notEqual(d.verdict.kind, 'draining');
        }
      }
    }
  });
}

test('3.x random walks: a recently joined consumer never gets a message past its position, and is released by acks alone', () => {
  for (const g of ['3.0', '3.1'] as const) {
    const r = rng(g === '3.0' ? 5 : 6);
    for (let walk = 0; walk < 12; walk++) {
      const sim = new SteppedSimulation({ generation: g, subscription: AUTO, consumers: [{ name: 'c0' }], messages: [] });
      let n = 0;
      let names = 1;
      for (let step = 0; step < 40; step++) {
        const p = r();
        if (p < 0.3) sim.publish(Array.from({ length: randInt(r, 1, 4) }, () => ({ id: `m${n++}`, key: `k${randInt(r, 0, 7)}` })));
        else if (p < 0.55) {
          const joined = new Map(sim.state().recentlyJoined.map((j) => [j.consumer, j.position]));
          for (const d of sim.dispatch().deliveries) {
            if (d.verdict.kind !== 'allowed' || !joined.has(d.consumer!)) continue;
            const at = joined.get(d.consumer!)!;
            assert.ok(g === '3.0' ? d.position < at : d.position <= at, `${g}: ${d.message} at ${d.position} reached ${d.consumer} held at ${at}`);
          }
        } else if (p < 0.8) {
          const pending = sim.state().messages.filter((m) => m.status.state === 'pending');
          sim.ack(pending.filter(() => r() < 0.5).map((m) => m.id));
        } else {
          const live = sim.consumers;
          const leave = live.length > 1 && r() < 0.4;
          sim.apply(leave ? `-${live[randInt(r, 0, live.length - 1)].id}` : `+c${names++}`);
        }
        // Held consumers are exactly those whose position the mark-delete position has not passed.
        const st = sim.state();
        for (const j of st.recentlyJoined) assert.ok(g === '3.0' ? j.position > st.markDeletePosition + 1 : j.position > st.markDeletePosition);
      }
    }
  }
});
