/**
 * A small model of one Key_Shared dispatcher, enough to say what each consumer may receive next
 * after a consumer joins or leaves, and why. Not a broker: one partition, one dispatch round reads
 * every unread message as one batch, and there are no timers, nacks, delayed or batched messages,
 * look-ahead limits, or 3.0's "stuck consumers" bookkeeping.
 *
 * A round follows the dispatcher's order: the replay queue first (messages read but not sent,
 * and those a leaving consumer had not acknowledged), then a normal read of the unread messages.
 * Each message goes to the consumer the real selector picks; it is held back when the consumer
 * has no permits, when a normal read meets a hash that still has messages waiting for redelivery,
 * when an earlier message of the same hash was held back in the round, and by the generation's
 * own protection (`OrderingGuard`).
 */
import { formatEvent, parseEvent, type TopologyEvent } from '../events';
import { utf8 } from '../bytes';
import { sameItems } from '../sameItems';
import { KeySharedSubscription, type SelectorConfig } from '../pulsar/keyShared/subscription';
import { columnsOf, ConsumerAssignError, firstEndingFrom, NOBODY, notIn, type Consumer, type Segment, type SegmentTable } from '../pulsar/keyShared/selector';
import { ringChangeWindows, ringPointsOf } from '../pulsar/keyShared/ringChange';
import type { CursorView, OrderingGuard, SimMessage } from './guard';
import { ReadPositionGuard } from './readPosition30';
import { LastSentPositionGuard } from './lastSentPosition31';
import { DrainingHashesGuard } from './drainingHashes40';
import {
  ORDERING_GENERATIONS,
  ScenarioError,
  type Delivery,
  type DispatchRound,
  type EventOutcome,
  type Move,
  type OrderingGeneration,
  type OrderingScenario,
  type Verdict,
} from './types';

export function createGuard(generation: OrderingGeneration): OrderingGuard {
  switch (generation) {
    case '3.0':
      return new ReadPositionGuard();
    case '3.1':
      return new LastSentPositionGuard();
    case '4.0':
      return new DrainingHashesGuard();
  }
}

export interface Round {
  deliveries: Delivery[];
  sent: Array<[SimMessage, Consumer]>;
  verdicts: Map<SimMessage, Verdict>;
}

export class OrderingSimulation {
  readonly generation: OrderingGeneration;
  readonly selectorConfig: SelectorConfig;
  readonly allowOutOfOrderDelivery: boolean;
  // Protected, not private: the command line's stepping (`SteppedSimulation`) changes them too.
  protected sub: KeySharedSubscription;
  /** Whether `sub` is this simulation's to change (a base is only read until the first change). */
  #owned = true;
  protected readonly guard: OrderingGuard;
  protected readonly msgs: SimMessage[];
  protected readonly byId = new Map<string, SimMessage>();
  protected readPos: number;
  protected readonly permits = new Map<string, number>();

  /**
   * Builds the state before the change; throws `ScenarioError` naming what is wrong. With `base`,
   * the subscription starts as a clone of it (its consumers, ids and layouts, as its history left
   * them; `base` itself is left unchanged) instead of connecting `scenario.consumers`, which must
   * then be empty: the panel's topic has its subscription built already, and connecting 1,000
   * consumers again would cost more than the rest of the note.
   */
  constructor(scenario: OrderingScenario, base?: KeySharedSubscription) {
    if (!ORDERING_GENERATIONS.includes(scenario.generation)) {
      throw new ScenarioError(`generation must be one of ${ORDERING_GENERATIONS.join(', ')} (got ${JSON.stringify(scenario.generation)})`);
    }
    this.generation = scenario.generation;
    const s = scenario.subscription ?? {};
    const brokerVersion = scenario.generation === '4.0' ? '4.0' : '3.0';
    this.allowOutOfOrderDelivery = s.allowOutOfOrderDelivery ?? false;
    if (base) {
      if (base.config.brokerVersion !== brokerVersion) {
        throw new ScenarioError(`generation ${scenario.generation} needs a broker ${brokerVersion} subscription (got ${base.config.brokerVersion})`);
      }
      if (scenario.consumers.length > 0) throw new ScenarioError('consumers: a scenario that starts from a subscription takes its consumers from it');
      this.selectorConfig = base.config;
      // Read as it is; cloned before the first change (an adopted state replaces it unread).
      this.sub = base;
      this.#owned = false;
    } else {
      this.selectorConfig = {
        brokerVersion,
        keySharedMode: s.keySharedMode ?? 'AUTO_SPLIT',
        consistentHashing: s.consistentHashing ?? true,
        replicaPoints: s.replicaPoints ?? 100,
        hashRangeSize: s.hashRangeSize ?? 65536,
      };
      try {
        this.sub = new KeySharedSubscription(this.selectorConfig);
      } catch (e) {
        if (e instanceof ConsumerAssignError) throw new ScenarioError(`subscription.hashRangeSize: ${e.message}`);
        throw e;
      }
    }
    this.guard = createGuard(scenario.generation);

    scenario.consumers.forEach((c, i) => {
      const r = this.sub.connect(c.name, c.ranges);
      if (!r.ok) throw new ScenarioError(`consumers[${i}] (${c.name}): the broker refuses it: ${r.error}`);
    });

    const selector = this.sub.selector;
    this.msgs = scenario.messages.map((m, position) => {
      if (this.byId.has(m.id)) throw new ScenarioError(`messages[${position}]: the id ${JSON.stringify(m.id)} is used twice`);
      const hash = selector.makeStickyKeyHash(utf8(m.key));
      const msg: SimMessage = { id: m.id, key: m.key, position, hash, slot: selector.slotOf(hash), status: 'unread', sent: false };
      this.byId.set(m.id, msg);
      return msg;
    });

    for (const id of scenario.acked ?? []) {
      const m = this.message(id, 'acked');
      if (m.status === 'acked') throw new ScenarioError(`acked: ${id} is listed twice`);
      m.status = 'acked';
      m.sent = true;
    }
    for (const [consumerId, ids] of Object.entries(scenario.pending ?? {})) {
      const c = this.sub.consumers.find((x) => x.id === consumerId);
      if (!c) throw new ScenarioError(`pending.${consumerId}: no connected consumer has that id (ids: ${this.liveIds().join(', ') || 'none'})`);
      for (const id of ids) {
        const m = this.message(id, `pending.${consumerId}`);
        if (m.status !== 'unread') throw new ScenarioError(`pending.${consumerId}: ${id} is already ${m.status === 'acked' ? 'acknowledged' : `pending at ${m.consumer!.id}`}`);
        const owner = selector.select(m.hash);
        if (owner !== c) {
          throw new ScenarioError(
            `pending.${consumerId}: ${id} (key ${JSON.stringify(m.key)}, hash ${m.hash}) goes to ${owner?.id ?? 'no consumer'} before the change; ` +
              'a scenario starts from a steady state, where each unacknowledged message is at its key’s owner',
          );
        }
        m.status = 'pending';
        m.consumer = c;
        m.sent = true;
      }
    }
    const lastSent = this.msgs.reduce((p, m) => (m.sent ? Math.max(p, m.position) : p), -1);
    if (scenario.readPosition === undefined) this.readPos = lastSent + 1;
    else {
      const rp = scenario.readPosition;
      if (!Number.isInteger(rp) || rp < lastSent + 1 || rp > this.msgs.length) {
        throw new ScenarioError(
          `readPosition must be an integer from ${lastSent + 1} (after the last message sent) to ${this.msgs.length} (after the last message); got ${rp}`,
        );
      }
      this.readPos = rp;
    }
    for (const m of this.msgs) if (m.status === 'unread' && m.position < this.readPos) m.status = 'replay';
    for (const [id, n] of Object.entries(scenario.permits ?? {})) {
      if (!Number.isInteger(n) || n < 0) throw new ScenarioError(`permits.${id}: must be an integer >= 0 (got ${n})`);
      this.permits.set(id, n);
    }
  }

  protected message(id: string, where: string): SimMessage {
    const m = this.byId.get(id);
    if (!m) throw new ScenarioError(`${where}: no message has the id ${JSON.stringify(id)}`);
    return m;
  }

  /** The ids of the connected consumers, in connection order. */
  protected liveIds(): string[] {
    return this.sub.consumers.map((c) => c.id);
  }

  get consumers(): readonly Consumer[] {
    return this.sub.consumers;
  }

  /** The cursor and dispatcher facts the guards read. */
  protected view(): CursorView {
    const msgs = this.msgs;
    const markDeletePosition = (): number => {
      let p = -1;
      while (p + 1 < msgs.length && msgs[p + 1].status === 'acked') p++;
      return p;
    };
    return {
      messages: msgs,
      live: this.sub.consumers,
      keySharedMode: this.selectorConfig.keySharedMode,
      allowOutOfOrderDelivery: this.allowOutOfOrderDelivery,
      readPosition: this.readPos,
      markDeletePosition,
      lastSentPosition: () => {
        let p = -1;
        while (p + 1 < msgs.length && msgs[p + 1].sent) p++;
        return Math.max(p, markDeletePosition());
      },
      entriesSinceFirstNotAcked: () => this.readPos - markDeletePosition(),
    };
  }

  /**
   * Applies a consumer change; a change the broker refuses is reported and changes nothing.
   *
   * `next`, where given, is the subscription as the same history left it after this change (a
   * what-if ran these events from the same state), handed over: it is taken as this simulation's
   * state (and may be changed by later events) instead of connecting or disconnecting again, which
   * for a ring of 100,000 points is most of the cost.
   * The caller vouches for the history; as a guard, `next` is taken only where its consumers are
   * this subscription's with exactly that change made (one consumer more, or that one fewer),
   * otherwise the change is applied as usual.
   */
  apply(input: TopologyEvent | string, next?: KeySharedSubscription): EventOutcome {
    let event: TopologyEvent;
    try {
      event = typeof input === 'string' ? parseEvent(input) : input;
    } catch (e) {
      throw new ScenarioError(`event: ${(e as Error).message}`);
    }
    const view = this.view();
    const prot = this.guard.protection(view);
    const outcome: EventOutcome = { event: formatEvent(event), moves: [], protection: prot.kind, draining: [], newlyDraining: [], redelivered: [] };
    const drainingBefore = new Map(this.guard.draining(view).map((d) => [d.hash, d.pending]));
    if (prot.note) outcome.protectionNote = prot.note;
    if (event.kind === 'partitions') {
      outcome.error = 'the ordering simulation covers consumers joining and leaving one subscription; new partitions get their own dispatchers';
      return outcome;
    }
    // The broker's assignment snapshots before and after, as columns (never changed once taken).
    const before = this.sub.selector.snapshotTable();
    // A leaving consumer's ring points, asked before it leaves (a 4.x ring frees its name index).
    const leaving = event.kind === 'disconnect' ? this.sub.consumers.find((c) => c.id === event.id) : undefined;
    const leavingPoints = leaving && ringPointsOf(this.sub.selector, leaving);
    const adopted = next ? this.#adopt(event, next) : undefined;
    if (!adopted && !this.#owned) {
      this.sub = this.sub.clone();
      this.#owned = true;
    }
    const r = adopted ?? (event.kind === 'connect' ? this.sub.connect(event.name, event.ranges) : this.sub.disconnect(event.id));
    if (!r.ok) {
      outcome.error = r.error;
      outcome.draining = this.guard.draining(view);
      return outcome;
    }
    // Read after the change: an adopted state is another subscription object.
    const selector = this.sub.selector;
    const consumer = r.value;
    outcome.consumer = consumer.id;
    const after = selector.snapshotTable();
    const lost = new Map<Consumer, Array<[number, number]>>();
    // Only the arcs next to the consumer's points can change (see ringChange.ts).
    const points = event.kind === 'connect' ? ringPointsOf(selector, consumer) : leavingPoints;
    outcome.moves = sweepMoves(before, after, selector.keyValues, lost, points && ringChangeWindows(before, points));
    if (event.kind === 'connect') {
      const j = this.guard.onJoin(this.view(), consumer, lost);
      if (j.heldAt) {
        outcome.heldAt = j.heldAt;
        if (j.heldAt.marker === 'readPosition') {
          const held = j.heldAt.position;
          outcome.readNotSent = this.msgs
            .filter((m) => m.status === 'replay' && !m.sent && m.position < held && selector.select(m.hash) === consumer)
            .map((m) => m.id);
        }
      }
      if (j.notHeldBecause && prot.kind !== 'none') outcome.notHeldBecause = j.notHeldBecause;
    } else {
      // Its unacknowledged messages go back to the replay queue, to be redelivered in order.
      const had = this.msgs.filter((m) => m.status === 'pending' && m.consumer === consumer);
      for (const m of had) {
        m.status = 'replay';
        m.consumer = undefined;
      }
      if (this.sub.consumers.length === 0) this.#rewind();
      else {
        this.guard.onLeave(this.view(), consumer, lost, had);
        outcome.redelivered = had.map((m) => m.id);
      }
    }
    outcome.draining = this.guard.draining(this.view());
    outcome.newlyDraining = outcome.draining.filter((d) => (drainingBefore.get(d.hash) ?? 0) < d.pending).map((d) => d.hash);
    return outcome;
  }

  /**
   * Takes `after` as the state after `event` where it is exactly this subscription with that one
   * change made: the same consumers (the same objects, in order) plus the one that connected under
   * that name, or minus the one with that id. Undefined otherwise (the caller applies the event).
   */
  #adopt(event: TopologyEvent & { kind: 'connect' | 'disconnect' }, after: KeySharedSubscription): { ok: true; value: Consumer } | undefined {
    const now = this.sub.consumers;
    const next = after.consumers;
    if (after.config !== this.sub.config && JSON.stringify(after.config) !== JSON.stringify(this.sub.config)) return undefined;
    let changed: Consumer | undefined;
    if (event.kind === 'connect') {
      if (next.length !== now.length + 1) return undefined;
      changed = next[next.length - 1];
      if (changed.name !== event.name || now.includes(changed)) return undefined;
      for (let i = 0; i < now.length; i++) if (next[i] !== now[i]) return undefined;
    } else {
      if (next.length !== now.length - 1) return undefined;
      changed = now.find((c) => c.id === event.id);
      if (!changed) return undefined;
      let j = 0;
      for (const c of now) if (c !== changed && next[j++] !== c) return undefined;
    }
    // Read as it is, and cloned before a change of the simulation's own (an event not adopted):
    // the what-if may still show it, and a later note may go on from it.
    this.sub = after;
    this.#owned = false;
    return { ok: true, value: changed };
  }

  /** No consumer left: the dispatcher drops its state and the cursor rewinds to the mark-delete position. */
  #rewind(): void {
    this.guard.reset();
    for (const m of this.msgs) {
      if (m.status !== 'acked') {
        m.status = 'unread';
        m.consumer = undefined;
        m.sent = false;
      }
    }
    this.readPos = this.view().markDeletePosition() + 1;
  }

  /** What the next dispatch round would do, without doing it. */
  preview(): DispatchRound {
    return this.present(this.round().deliveries);
  }

  protected round(): Round {
    const selector = this.sub.selector;
    const view = this.view();
    const permits = new Map<Consumer, number>();
    const perm = (c: Consumer): number => {
      if (!permits.has(c)) permits.set(c, this.permits.get(c.id) ?? Number.POSITIVE_INFINITY);
      return permits.get(c)!;
    };
    const sent: Array<[SimMessage, Consumer]> = [];
    const verdicts = new Map<SimMessage, Verdict>();
    const owner = new Map<SimMessage, Consumer | null>();
    /**
     * First message held back per hash in the current read: later ones of that hash wait behind
     * it (a fresh map for each read, as the dispatcher keeps one per read).
     */
    let heldHash = new Map<number, string>();
    const decide = (m: SimMessage, v: Verdict | null, c: Consumer | null): void => {
      owner.set(m, c);
      if (v === null && c !== null) {
        permits.set(c, perm(c) - 1);
        sent.push([m, c]);
        verdicts.set(m, { kind: 'allowed', redelivery: m.status === 'replay' });
      } else {
        verdicts.set(m, v ?? { kind: 'noConsumer' });
        if (!heldHash.has(m.hash)) heldHash.set(m.hash, m.id);
      }
    };

    // Replay read: oldest first. Replays are not checked against the replay queue itself.
    for (const m of this.msgs) {
      if (m.status !== 'replay') continue;
      const c = selector.select(m.hash);
      decide(m, this.#common(m, c, heldHash, perm) ?? this.guard.check(view, m, c!, true), c);
    }
    // What still waits for redelivery, by hash: a normal read does not send those hashes.
    const waiting = new Map<number, string[]>();
    for (const m of this.msgs) {
      if (m.status === 'replay' && verdicts.get(m)!.kind !== 'allowed') waiting.set(m.hash, [...(waiting.get(m.hash) ?? []), m.id]);
    }

    heldHash = new Map();
    // Normal read of the rest, as one batch, oldest first. (3.0 applies the replay-queue rule to
    // all of a consumer's messages in a read at once; with the whole backlog read as one batch
    // that only changes which reason is shown, never the outcome, so it is not modelled.)
    for (const m of this.msgs) {
      if (m.status !== 'unread') continue;
      const c = selector.select(m.hash);
      let v = this.#common(m, c, heldHash, perm);
      if (v === null) {
        const replayRule: Verdict | null = waiting.has(m.hash) ? { kind: 'behindReplay', waiting: waiting.get(m.hash)! } : null;
        // 3.1 checks the joining position first, then the replay queue; 3.0 and 4.0 the replay
        // queue first, then their own rule. (Only the reason shown depends on the order.)
        const own = this.guard.check(view, m, c!, false);
        v = this.generation === '3.1' ? (own ?? replayRule) : (replayRule ?? own);
      }
      decide(m, v, c);
    }

    const deliveries = this.msgs
      .filter((m) => verdicts.has(m))
      .sort((a, b) => rank(a) - rank(b) || a.position - b.position)
      .map((m) => {
        const c = owner.get(m) ?? null;
        const d: Delivery = { message: m.id, key: m.key, position: m.position, stickyKeyHash: m.hash, consumer: c?.id ?? null, verdict: verdicts.get(m)! };
        const v = verdicts.get(m)!;
        if (v.kind === 'allowed') {
          const broken = this.#earlierOfKey(m, c!, sent);
          if (broken) d.outOfOrder = broken;
        }
        return d;
      });
    return { deliveries, sent, verdicts };
  }

  /** The checks every generation makes before its own: the round's held hashes, an owner, permits. */
  #common(m: SimMessage, c: Consumer | null, heldHash: Map<number, string>, perm: (c: Consumer) => number): Verdict | null {
    const earlier = heldHash.get(m.hash);
    if (earlier !== undefined) return { kind: 'behindBlocked', earlier };
    if (c === null) return { kind: 'noConsumer' };
    if (perm(c) <= 0) return { kind: 'noPermits' };
    return null;
  }

  /** An earlier message of the same key that is unacknowledged elsewhere or not sent: order breaks. */
  #earlierOfKey(m: SimMessage, c: Consumer, sent: Array<[SimMessage, Consumer]>): { earlier: string; at: string | null } | undefined {
    const sentNow = new Map(sent);
    for (const e of this.msgs) {
      if (e.position >= m.position || e.key !== m.key || e.status === 'acked') continue;
      const at = e.status === 'pending' ? e.consumer! : sentNow.get(e);
      if (at === undefined) return { earlier: e.id, at: null };
      if (at !== c) return { earlier: e.id, at: at.id };
    }
    return undefined;
  }

  protected present(deliveries: Delivery[]): DispatchRound {
    const byConsumer: Record<string, Delivery[]> = {};
    for (const c of this.sub.consumers) byConsumer[c.id] = [];
    for (const d of deliveries) if (d.consumer !== null) (byConsumer[d.consumer] ??= []).push(d);
    return { deliveries, byConsumer };
  }

}

function rank(m: SimMessage): number {
  return m.status === 'replay' ? 0 : 1;
}

/**
 * The change between two assignments as moves from one owner set to another, each with its
 * ranges (merged where contiguous) and how many key hash values they cover. Moves come in the
 * order their first range starts; an interval whose owner set is the same on both sides (in any
 * order) is no move.
 *
 * One sweep over both tables (a ring of 100,000 points has about as many segments), as the diff
 * in `whatIf.ts` makes: each elementary interval lies between two consecutive boundaries of either
 * side, where both owner lists are constant. The move of a pair of owner lists is looked up by
 * their codes, so the ids are compared only once per pair of lists.
 */
export function computeMoves(before: readonly Segment[] | SegmentTable, after: readonly Segment[] | SegmentTable, keyValues: readonly [number, number]): Move[] {
  return sweepMoves(before, after, keyValues);
}

/** `computeMoves` and, from the same sweep, what each consumer lost (as `diffOwnership` gives it). */
export function movesAndLost(
  before: readonly Segment[] | SegmentTable,
  after: readonly Segment[] | SegmentTable,
  keyValues: readonly [number, number],
  /** Ranges outside which nothing changed, as `diffOwnership` takes them: only these are swept. */
  within?: ReadonlyArray<readonly [number, number]>,
): { moves: Move[]; lost: Map<Consumer, Array<[number, number]>> } {
  const lost = new Map<Consumer, Array<[number, number]>>();
  return { moves: sweepMoves(before, after, keyValues, lost, within), lost };
}

/** The same list, or one consumer on both sides (the ring's one-consumer lists differ by table). */
function sameOwners(x: readonly Consumer[], y: readonly Consumer[]): boolean {
  return x === y || (x.length === 1 && y.length === 1 && x[0] === y[0]);
}

/**
 * `computeMoves`, and with `lost` in the same sweep what each consumer lost (the ranges where it
 * owned before and not after, adjacent ones merged), as `diffOwnership` gives it.
 */
function sweepMoves(
  before: readonly Segment[] | SegmentTable,
  after: readonly Segment[] | SegmentTable,
  keyValues: readonly [number, number],
  lost?: Map<Consumer, Array<[number, number]>>,
  within?: ReadonlyArray<readonly [number, number]>,
): Move[] {
  const b = Array.isArray(before) ? columnsOf(before as readonly Segment[]) : (before as SegmentTable);
  const a = Array.isArray(after) ? columnsOf(after as readonly Segment[]) : (after as SegmentTable);
  const moves: Move[] = [];
  const bn = b.count;
  const an = a.count;
  if (bn === 0 && an === 0) return moves;
  // Codes of "nobody" on either side: one past the last list code.
  const bNone = b.owners.length;
  const aNone = a.owners.length;
  /** Per pair of codes (before * (aNone + 1) + after): the move, or null where the sets are equal. */
  const byCodes = new Map<number, Move | null>();
  /** Per pair of codes with a move: the consumers of `before` not in `after`. */
  const leaving = new Map<number, Consumer[]>();
  /** Per pair of id sequences, for lists that differ as objects but not in ids. */
  const byIds = new Map<string, Move>();
  /** The last pair of lists looked up by content, with its move and the consumers leaving. */
  let lastPair: { from: readonly Consumer[]; to: readonly Consumer[]; mv: Move | null; gone: Consumer[] } | undefined;
  const first = Math.min(bn > 0 ? b.starts[0] : Infinity, an > 0 ? a.starts[0] : Infinity);
  const end0 = Math.max(bn > 0 ? b.ends[bn - 1] : -Infinity, an > 0 ? a.ends[an - 1] : -Infinity);
  // The whole span, or each window in turn (ascending: ranges merge with the last one as before).
  for (const [lo, hi] of within ?? [[first, end0] as const]) {
    let pos = Math.max(lo, first);
    const last = Math.min(hi, end0);
    let bi = within ? firstEndingFrom(b, pos) : 0;
    let ai = within ? firstEndingFrom(a, pos) : 0;
    while (pos <= last) {
      while (bi < bn && b.ends[bi] < pos) bi++;
      while (ai < an && a.ends[ai] < pos) ai++;
      // Where a segment on each side starts here, ends at the same place and has the same owner
      // list, nothing moves over it: skipped without a lookup (a step leaves most of a ring's
      // 100,000 segments as they were).
      if (bi < bn && ai < an && b.starts[bi] === pos && a.starts[ai] === pos && b.ends[bi] === a.ends[ai] && sameOwners(b.owners[b.owner[bi]], a.owners[a.owner[ai]])) {
        pos = b.ends[bi] + 1;
        continue;
      }
      const bIn = bi < bn && b.starts[bi] <= pos;
      const aIn = ai < an && a.starts[ai] <= pos;
      let end = last;
      if (bi < bn) end = Math.min(end, bIn ? b.ends[bi] : b.starts[bi] - 1);
      if (ai < an) end = Math.min(end, aIn ? a.ends[ai] : a.starts[ai] - 1);
      const bc = bIn ? b.owner[bi] : bNone;
      const ac = aIn ? a.owner[ai] : aNone;
      const pair = bc * (aNone + 1) + ac;
      let mv = byCodes.get(pair);
      if (mv === undefined) {
        const from = bIn ? b.owners[bc] : NOBODY;
        const to = aIn ? a.owners[ac] : NOBODY;
        // Where many same-named consumers share each 3.x point, arc after arc holds lists of the
        // same consumers as other objects: the last pair's move, checked consumer by consumer,
        // instead of a set and a key of a thousand ids for each.
        if (lastPair && sameItems(from, lastPair.from) && sameItems(to, lastPair.to)) mv = lastPair.mv;
        else {
          const gone = from.length === to.length && sameItems(from, to) ? [] : notIn(from, to);
          if (from.length === to.length && gone.length === 0) mv = null;
          else {
            const fromIds = from.map((c) => c.id);
            const toIds = to.map((c) => c.id);
            const key = JSON.stringify([fromIds, toIds]);
            mv = byIds.get(key);
            if (!mv) {
              byIds.set(key, (mv = { from: fromIds, to: toIds, ranges: [], size: 0 }));
              moves.push(mv);
            }
          }
          lastPair = { from, to, mv, gone };
        }
        if (lost && mv) leaving.set(pair, lastPair.gone);
        byCodes.set(pair, mv);
      }
      if (mv !== null) {
        if (lost) {
          for (const c of leaving.get(pair)!) {
            let list = lost.get(c);
            if (!list) lost.set(c, (list = []));
            const r = list[list.length - 1];
            if (r && r[1] + 1 >= pos) r[1] = Math.max(r[1], end);
            else list.push([pos, end]);
          }
        }
        const r = mv.ranges[mv.ranges.length - 1];
        if (r && r[1] + 1 === pos) r[1] = end;
        else mv.ranges.push([pos, end]);
        const lo = Math.max(pos, keyValues[0]);
        const hi = Math.min(end, keyValues[1]);
        if (hi >= lo) mv.size += hi - lo + 1;
      }
      pos = end + 1;
    }
  }
  return moves;
}

