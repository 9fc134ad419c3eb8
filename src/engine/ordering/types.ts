/**
 * The shapes of the Key_Shared ordering simulation: the scenario a user describes, what a change
 * does, and what the dispatcher may send next and why.
 *
 * Positions are the messages' indexes in the scenario (0, 1, 2, ...), standing for consecutive
 * entries of one ledger; every message before the first one listed is acknowledged.
 */
import type { HashRange } from '../pulsar/keyShared/selector';
import type { KeySharedMode } from '../pulsar/keyShared/subscription';
import type { TopologyEvent } from '../events';

/**
 * The broker generations whose ordering protection differs:
 * - '3.0': recently joined consumers held at the cursor's read position (up to Pulsar 3.x);
 * - '3.1': held at the dispatcher's last sent position (PIP-282, the fix for the race PR #20179
 *   described; ALGORITHMS.md calls this generation 3.1+);
 * - '4.0': draining hashes (PIP-379).
 */
export type OrderingGeneration = '3.0' | '3.1' | '4.0';
export const ORDERING_GENERATIONS: readonly OrderingGeneration[] = ['3.0', '3.1', '4.0'];

export interface ScenarioSubscription {
  keySharedMode?: KeySharedMode;
  /** `subscriptionKeySharedUseConsistentHashing`; default true. */
  consistentHashing?: boolean;
  replicaPoints?: number;
  hashRangeSize?: number;
  /** The subscription's `allowOutOfOrderDelivery`: every protection is off; default false. */
  allowOutOfOrderDelivery?: boolean;
}

export interface ScenarioMessage {
  /** A label for the message, unique in the scenario (e.g. "m1"). */
  id: string;
  /** The message's key (its ordering key, else its partition key), as text; UTF-8 on the wire. */
  key: string;
}

export interface OrderingScenario {
  generation: OrderingGeneration;
  subscription?: ScenarioSubscription;
  /** The consumers connected before the change, in the order they connected. */
  consumers: Array<{ name: string; ranges?: HashRange[] }>;
  /** Every message from the first unacknowledged one on, in publish order. */
  messages: ScenarioMessage[];
  /** Consumer id -> ids of the messages delivered to it and not acknowledged yet. */
  pending?: Record<string, string[]>;
  /** Ids of the messages acknowledged (individually; a prefix of them moves the mark-delete position). */
  acked?: string[];
  /**
   * The cursor's read position: the position of the next message the dispatcher reads. Messages
   * before it that are neither pending nor acknowledged were read but not sent yet (they wait in
   * the replay queue). Default: just after the last pending or acknowledged message.
   */
  readPosition?: number;
  /** Consumer id -> permits available for the next dispatch round (default: unlimited). */
  permits?: Record<string, number>;
  /** The change: `+NAME`, `+NAME:0-100,...` (STICKY) or `-ID`, as the CLI writes events. */
  event?: string | TopologyEvent;
}

/** What a message is at a moment of the simulation. */
export type MessageState =
  | { state: 'acked' }
  | { state: 'pending'; consumer: string }
  /** Read by the cursor and waiting in the replay (redelivery) queue. */
  | { state: 'replay' }
  | { state: 'unread' };

export interface MessageInfo {
  id: string;
  key: string;
  position: number;
  /** What the broker's `makeStickyKeyHash` returns for the key, in this generation. */
  stickyKeyHash: number;
  /** Where the selector looks the hash up (3.x hash-range selectors: `hash % rangeSize`). */
  slot: number;
  status: MessageState;
}

/** Hash ranges that changed owner in a change, from one owner set to another. */
export interface Move {
  /** Owner ids before (empty: nobody; several: a shared 3.0 ring point). */
  from: string[];
  to: string[];
  ranges: Array<[number, number]>;
  /** How many of the key hash values the ranges cover. */
  size: number;
}

/** 4.0: a hash the broker holds back until its previous owner acknowledges what it has of it. */
export interface DrainingHash {
  hash: number;
  /** The consumer that still has unacknowledged messages of the hash. */
  consumer: string;
  /** Its unacknowledged messages of the hash (the entry's reference count). */
  pending: number;
  messages: string[];
  /** Dispatch attempts the hash has blocked so far (the broker's `blockedAttempts`). */
  blockedAttempts: number;
}

/** 3.x: a recently joined consumer and the position it is held at. */
export interface RecentlyJoined {
  consumer: string;
  position: number;
  marker: 'readPosition' | 'lastSentPosition';
}

export type ProtectionKind = 'drainingHashes' | 'lastSentPosition' | 'readPosition' | 'none';

export interface EventOutcome {
  event: string;
  /** The id of the consumer that joins or leaves (absent where the change was refused). */
  consumer?: string;
  /** The broker's reason where it refused the change (nothing changed). */
  error?: string;
  moves: Move[];
  /** The mechanism that protects per-key order in this generation and setup. */
  protection: ProtectionKind;
  /** Why there is no protection, where `protection` is 'none'. */
  protectionNote?: string;
  /** 4.0: the draining hashes after the change (those it registered, and earlier ones still draining). */
  draining: DrainingHash[];
  /** 4.0: the hashes of `draining` this change registered. */
  newlyDraining: number[];
  /** 3.x: the position the joining consumer is held at, if it is held. */
  heldAt?: RecentlyJoined;
  /**
   * 3.0: messages read but never sent, before the joining consumer's position, whose hash it now
   * owns: they can reach it at once (the race PR #20179 describes).
   */
  readNotSent?: string[];
  /** 3.x: why the joining consumer is not held although the generation tracks joins. */
  notHeldBecause?: string;
  /** A leaving consumer's unacknowledged messages, now waiting for redelivery. */
  redelivered: string[];
}

export type Verdict =
  | { kind: 'allowed'; redelivery: boolean }
  | { kind: 'noConsumer' }
  | { kind: 'noPermits' }
  /**
   * 4.0: the hash is draining at another consumer. `pending` is the broker's reference count;
   * `holding` the messages of the hash that consumer really still holds (fewer where the count
   * went wrong, apache/pulsar#23845).
   */
  | { kind: 'draining'; at: string; pending: number; holding: number }
  /** 3.x: the consumer joined recently and the message is past its position. */
  | { kind: 'recentlyJoined'; position: number; marker: 'readPosition' | 'lastSentPosition'; markDelete: number; ownPosition: number }
  /** A normal read does not send a hash that has messages waiting for redelivery. */
  | { kind: 'behindReplay'; waiting: string[] }
  /** An earlier message of the same hash is held back in this round. */
  | { kind: 'behindBlocked'; earlier: string };

export interface Delivery {
  message: string;
  key: string;
  position: number;
  stickyKeyHash: number;
  /** The consumer the selector picks, or null where nobody owns the hash. */
  consumer: string | null;
  verdict: Verdict;
  /**
   * Set where sending it now breaks per-key order: an earlier message of the same key is still
   * unacknowledged at another consumer, or not sent yet.
   */
  outOfOrder?: { earlier: string; at: string | null };
}

export interface DispatchRound {
  /** Every message not sent yet, in the order the dispatcher considers them (replay first). */
  deliveries: Delivery[];
  /** Per consumer id (connected ones, in connection order), its deliveries. */
  byConsumer: Record<string, Delivery[]>;
}

export interface SimulationState {
  generation: OrderingGeneration;
  consumers: string[];
  messages: MessageInfo[];
  /** Last position of the acknowledged prefix (-1: none). */
  markDeletePosition: number;
  readPosition: number;
  /** 3.1: the highest position up to which every message has been sent. */
  lastSentPosition?: number;
  draining: DrainingHash[];
  recentlyJoined: RecentlyJoined[];
}

/** A scenario that cannot be simulated (names the field and what is wrong). */
export class ScenarioError extends Error {}
