/**
 * 4.0 (PIP-379, `DrainingHashesTracker`): when a change takes hash ranges from a consumer, each of
 * its unacknowledged messages whose sticky key hash is in a lost range adds a reference to a
 * draining entry for that hash, owned by that consumer. While the entry exists, a message of that
 * hash is not dispatched to any other consumer (each refusal counts a blocked attempt); if the
 * hash comes back to the owner, the entry is dropped and dispatch goes on. Acknowledgements (and
 * the owner leaving) release references; at zero the hash is unblocked.
 *
 * So a new owner waits per hash, only as long as the previous owner holds messages of that hash,
 * instead of for the whole subscription's mark-delete position.
 *
 * Faithful to the 4.0 code in one more way: an entry is dropped only when a message of its hash
 * is dispatched to its owner, so if a hash comes back to its owner and moves away again before
 * that, the owner's pending messages are added a second time. The count then never returns to
 * zero and the hash stays blocked, even after the owner leaves (apache/pulsar#23845, fixed in later
 * releases, whose impacted-consumer result also lists ranges a consumer gets back).
 *
 * Tracked only for AUTO_SPLIT subscriptions that keep order (`drainingHashesRequired`). Hash 0 is
 * reserved ("not set"): the tracker refuses to add it and never blocks it.
 */
import type { Consumer } from '../pulsar/keyShared/selector';
import { STICKY_KEY_HASH_NOT_SET } from '../pulsar/keyShared/stickyKeyHash';
import type { CursorView, JoinResult, LostRanges, OrderingGuard, SimMessage } from './guard';
import type { DrainingHash, ProtectionKind, RecentlyJoined, Verdict } from './types';

interface Entry {
  consumer: Consumer;
  refCount: number;
  blocked: number;
}

export class DrainingHashesGuard implements OrderingGuard {
  readonly generation = '4.0';
  readonly #entries = new Map<number, Entry>();

  protection(view: CursorView): { kind: ProtectionKind; note?: string } {
    if (view.allowOutOfOrderDelivery) return { kind: 'none', note: 'the subscription allows out-of-order delivery' };
    if (view.keySharedMode !== 'AUTO_SPLIT') {
      return { kind: 'none', note: 'STICKY subscriptions do not track draining hashes, as each consumer names its own ranges' };
    }
    return { kind: 'drainingHashes' };
  }

  #active(view: CursorView): boolean {
    return this.protection(view).kind === 'drainingHashes';
  }

  onJoin(view: CursorView, consumer: Consumer, lost: LostRanges): JoinResult {
    if (this.#active(view)) this.#register(view, consumer, lost);
    return {};
  }

  onLeave(view: CursorView, consumer: Consumer, lost: LostRanges, hadPending: readonly SimMessage[]): void {
    if (!this.#active(view)) return;
    // Its pending acks are removed as it closes: its own draining entries lose their references.
    for (const m of hadPending) this.#reduce(consumer, m.hash);
    // A removal can also move hashes between the remaining consumers.
    this.#register(view, consumer, lost);
  }

  /** `registerDrainingHashes`: every impacted consumer except the one joining or leaving. */
  #register(view: CursorView, skip: Consumer, lost: LostRanges): void {
    for (const [c, ranges] of lost) {
      if (c === skip) continue;
      for (const m of view.messages) {
        if (m.status !== 'pending' || m.consumer !== c || m.hash === STICKY_KEY_HASH_NOT_SET) continue;
        if (ranges.some(([a, b]) => a <= m.slot && m.slot <= b)) this.#add(c, m.hash);
      }
    }
  }

  #add(c: Consumer, hash: number): void {
    if (hash === STICKY_KEY_HASH_NOT_SET) throw new Error('Sticky hash cannot be 0');
    const e = this.#entries.get(hash);
    if (e === undefined) this.#entries.set(hash, { consumer: c, refCount: 1, blocked: 0 });
    else if (e.consumer !== c) throw new Error(`Consumer ${e.consumer.id} is already draining hash ${hash}; the simulation reached a state the broker rejects`);
    else e.refCount++;
  }

  #reduce(c: Consumer, hash: number): void {
    const e = this.#entries.get(hash);
    if (e === undefined || hash === STICKY_KEY_HASH_NOT_SET) return;
    if (e.consumer !== c) throw new Error(`Consumer ${e.consumer.id} is already draining hash ${hash}; ${c.id} cannot release it`);
    if (--e.refCount === 0) this.#entries.delete(hash);
  }

  onAck(view: CursorView, message: SimMessage, consumer: Consumer): void {
    if (this.#active(view)) this.#reduce(consumer, message.hash);
  }

  reset(): void {
    this.#entries.clear();
  }

  check(view: CursorView, message: SimMessage, consumer: Consumer): Verdict | null {
    if (message.hash === STICKY_KEY_HASH_NOT_SET) return null;
    const e = this.#entries.get(message.hash);
    // No entry: not draining. Back at the owner: the entry is dropped, dispatch goes on.
    if (e === undefined || e.consumer === consumer) return null;
    const holding = view.messages.filter((m) => m.status === 'pending' && m.consumer === e.consumer && m.hash === message.hash).length;
    return { kind: 'draining', at: e.consumer.id, pending: e.refCount, holding };
  }

  onSent(message: SimMessage, consumer: Consumer): void {
    const e = this.#entries.get(message.hash);
    if (e !== undefined && e.consumer === consumer) this.#entries.delete(message.hash);
  }

  onBlocked(message: SimMessage): void {
    const e = this.#entries.get(message.hash);
    if (e !== undefined) e.blocked++;
  }

  draining(view: CursorView): DrainingHash[] {
    return [...this.#entries]
      .sort((a, b) => a[0] - b[0])
      .map(([hash, e]) => ({
        hash,
        consumer: e.consumer.id,
        pending: e.refCount,
        messages: view.messages.filter((m) => m.status === 'pending' && m.consumer === e.consumer && m.hash === hash).map((m) => m.id),
        blockedAttempts: e.blocked,
      }));
  }

  recentlyJoined(): RecentlyJoined[] {
    return [];
  }
}
