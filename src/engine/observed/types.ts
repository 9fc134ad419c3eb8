/**
 * What a broker reported about a live Key_Shared subscription (CONTRACT.md section 4), as the
 * settings' `observed` / `observedPartitions` blocks carry it: the consumers in connectedSince
 * order, each with the hash ranges the broker's stats list for it (in the selector's slot space,
 * as `ranges` prints) and, from a 4.x broker, its draining hashes.
 */
import type { BrokerVersion, HashRange, StickyKeyConsumerSelector } from '../pulsar/keyShared/selector';
import type { SelectorConfig } from '../pulsar/keyShared/subscription';

/** One entry of a 4.x consumer's `drainingHashes` (`DrainingHashImpl`). */
export interface DrainingHash {
  /** The sticky key hash that is draining (1..65535). */
  hash: number;
  /** Messages of that hash the consumer has not acknowledged yet. */
  unackMsgs: number;
  /** How often the hash has blocked a delivery to another consumer. */
  blockedAttempts: number;
}

export interface ObservedConsumer {
  name: string;
  /** Inclusive ranges as reported; none for a consumer the report gives no range. */
  ranges: HashRange[];
  drainingHashes: DrainingHash[];
}

export interface ObservedState {
  /** When the broker reported it (ISO 8601), if known. */
  at?: string;
  /** In connectedSince order. */
  consumers: ObservedConsumer[];
  /** The block's setting path, for messages. */
  path: string;
}

/** The selector a report came from, as far as its layout rules go. */
export interface SelectorShape {
  algorithm: StickyKeyConsumerSelector['algorithm'];
  brokerVersion: BrokerVersion;
  /** The hash-range selectors' range size (the AUTO_SPLIT top key). */
  hashRangeSize: number;
}

export function shapeOf(cfg: SelectorConfig): SelectorShape {
  const algorithm = cfg.keySharedMode === 'STICKY' ? 'sticky' : cfg.consistentHashing ? 'consistentHashing' : 'autoSplit';
  return { algorithm, brokerVersion: cfg.brokerVersion, hashRangeSize: cfg.hashRangeSize };
}

/** The largest 3.x ring hash (`Murmur3_32Hash` is masked to 31 bits). */
export const RING3_MAX = 0x7fffffff;
/** 4.x key hashes and ring points: 1..65535. */
export const RING4_RANGE: HashRange = [1, 65535];
