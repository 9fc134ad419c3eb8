/**
 * The 3.x protection (`PersistentStickyKeyDispatcherMultipleConsumers.recentlyJoinedConsumers`):
 * a consumer that joins while some read message is unacknowledged is recorded with a position,
 * and until the mark-delete position passes it, it only receives messages up to that position.
 * The generations differ in which position is recorded and when it counts as passed; see
 * `readPosition30.ts` and `lastSentPosition31.ts`.
 */
import type { Consumer } from '../pulsar/keyShared/selector';
import type { CursorView, JoinResult, LostRanges, OrderingGuard, SimMessage } from './guard';
import type { DrainingHash, OrderingGeneration, ProtectionKind, RecentlyJoined, Verdict } from './types';

export abstract class RecentlyJoinedGuard implements OrderingGuard {
  abstract readonly generation: OrderingGeneration;
  abstract readonly marker: 'readPosition' | 'lastSentPosition';
  /** Insertion-ordered, as the broker's LinkedHashMap: release walks it from the oldest. */
  #joined: Array<{ consumer: Consumer; position: number }> = [];

  /** Whether the dispatcher tracks joins at all for this subscription. */
  protected abstract tracks(view: CursorView): { yes: true } | { yes: false; why: string };
  /** The position recorded for a consumer joining now. */
  protected abstract positionWhenJoining(view: CursorView): number;
  /** Whether a recorded position is passed, given the mark-delete position. */
  protected abstract released(position: number, markDelete: number): boolean;
  /** Whether a message at `position` is past the (effective) recorded position. */
  protected abstract beyond(position: number, marker: number): boolean;

  protection(view: CursorView): { kind: ProtectionKind; note?: string } {
    const t = this.tracks(view);
    return t.yes ? { kind: this.marker } : { kind: 'none', note: t.why };
  }

  onJoin(view: CursorView, consumer: Consumer): JoinResult {
    const t = this.tracks(view);
    if (!t.yes) return { notHeldBecause: t.why };
    const position = this.positionWhenJoining(view);
    // "If this was the 1st consumer, or if all the messages are already acked, then we don't
    // need to do anything special."
    if (view.live.length <= 1) return { notHeldBecause: 'it is the only consumer' };
    if (view.entriesSinceFirstNotAcked() <= 1) {
      return { notHeldBecause: 'every message the cursor has read is acknowledged' };
    }
    this.#joined.push({ consumer, position });
    this.#prune(view);
    const still = this.#joined.find((j) => j.consumer === consumer);
    if (!still) return { notHeldBecause: `the mark-delete position has already reached its position (${position})` };
    return { heldAt: { consumer: consumer.id, position, marker: this.marker } };
  }

  onLeave(view: CursorView, consumer: Consumer, _lost: LostRanges): void {
    this.#joined = this.#joined.filter((j) => j.consumer !== consumer);
    // A lone consumer cannot receive a key out of order.
    if (view.live.length === 1) this.#joined = [];
    this.#prune(view);
  }

  onAck(view: CursorView): void {
    this.#prune(view);
  }

  reset(): void {
    this.#joined = [];
  }

  /** `removeConsumersFromRecentJoinedConsumers`: oldest first, stopping at the first one still held. */
  #prune(view: CursorView): void {
    const mdp = view.markDeletePosition();
    let i = 0;
    while (i < this.#joined.length && this.released(this.#joined[i].position, mdp)) i++;
    if (i > 0) this.#joined = this.#joined.slice(i);
  }

  check(view: CursorView, message: SimMessage, consumer: Consumer, replay: boolean): Verdict | null {
    const mine = this.#joined.find((j) => j.consumer === consumer);
    if (!mine) return null;
    let position = mine.position;
    // A replay must not hand a recently joined consumer what older consumers may still hold: the
    // oldest recorded position applies.
    if (replay && this.#joined[0].position < position) position = this.#joined[0].position;
    if (!this.beyond(message.position, position)) return null;
    return {
      kind: 'recentlyJoined',
      position,
      marker: this.marker,
      markDelete: view.markDeletePosition(),
      ownPosition: mine.position,
    };
  }

  onSent(): void {}

  onBlocked(): void {}

  draining(): DrainingHash[] {
    return [];
  }

  recentlyJoined(): RecentlyJoined[] {
    return this.#joined.map((j) => ({ consumer: j.consumer.id, position: j.position, marker: this.marker }));
  }
}
