/**
 * What the simulation asks of a generation's ordering protection, and the cursor facts each
 * generation reads. One implementation per generation: `readPosition30.ts`,
 * `lastSentPosition31.ts`, `drainingHashes40.ts`.
 */
import type { Consumer } from '../pulsar/keyShared/selector';
import type { KeySharedMode } from '../pulsar/keyShared/subscription';
import type { DrainingHash, OrderingGeneration, ProtectionKind, RecentlyJoined, Verdict } from './types';

/** A message inside the simulation. */
export interface SimMessage {
  readonly id: string;
  readonly key: string;
  readonly position: number;
  readonly hash: number;
  readonly slot: number;
  status: 'acked' | 'pending' | 'replay' | 'unread';
  /** The consumer holding it unacknowledged (status 'pending'). */
  consumer?: Consumer;
  /** Sent to a consumer at least once (3.1's last sent position counts these). */
  sent: boolean;
}

/** The dispatcher and cursor state a guard reads. */
export interface CursorView {
  readonly messages: readonly SimMessage[];
  /** Live consumers, in connection order. */
  readonly live: readonly Consumer[];
  readonly keySharedMode: KeySharedMode;
  readonly allowOutOfOrderDelivery: boolean;
  readonly readPosition: number;
  markDeletePosition(): number;
  lastSentPosition(): number;
  /**
   * `ManagedCursor.getNumberOfEntriesSinceFirstNotAckedMessage`: entries in
   * (mark-delete, read position], i.e. the read position minus the mark-delete position.
   */
  entriesSinceFirstNotAcked(): number;
}

/** Hash ranges (selector slots) each consumer lost in a change (the broker's impacted consumers). */
export type LostRanges = ReadonlyMap<Consumer, ReadonlyArray<readonly [number, number]>>;

export interface JoinResult {
  heldAt?: RecentlyJoined;
  notHeldBecause?: string;
}

export interface OrderingGuard {
  readonly generation: OrderingGeneration;
  /** The protection this generation applies to this subscription, or 'none' with the reason. */
  protection(view: CursorView): { kind: ProtectionKind; note?: string };
  /** After the selector took the new consumer in. */
  onJoin(view: CursorView, consumer: Consumer, lost: LostRanges): JoinResult;
  /** After the selector dropped the consumer and its unacknowledged messages went to the replay queue. */
  onLeave(view: CursorView, consumer: Consumer, lost: LostRanges, hadPending: readonly SimMessage[]): void;
  /** A message that `consumer` held is acknowledged. */
  onAck(view: CursorView, message: SimMessage, consumer: Consumer): void;
  /** The last consumer left: the dispatcher forgets its state and the cursor rewinds. */
  reset(): void;
  /** Why `message` may not go to `consumer` now (this rule only), or null. Has no side effects. */
  check(view: CursorView, message: SimMessage, consumer: Consumer, replay: boolean): Verdict | null;
  /** The message is sent to `consumer` (4.0 drops a draining entry whose hash came back to its owner). */
  onSent(message: SimMessage, consumer: Consumer): void;
  /** A dispatch attempt was refused by this rule (4.0 counts blocked attempts). */
  onBlocked(message: SimMessage): void;
  draining(view: CursorView): DrainingHash[];
  recentlyJoined(): RecentlyJoined[];
}
