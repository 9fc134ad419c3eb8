/**
 * The shape shared by Pulsar's Key_Shared selectors (`StickyKeyConsumerSelector`): add, remove,
 * select, the key hash range, and the assignment as segments of that range.
 */

/** A connected consumer. Identity is the object, as the broker compares `Consumer` instances. */
export interface Consumer {
  /** `name`, or `name#k` for the k-th consumer of that name (CONTRACT.md). */
  readonly id: string;
  readonly name: string;
  /** STICKY only: the inclusive hash ranges the consumer asked for. */
  readonly ranges?: readonly HashRange[];
}

/** An inclusive range of hash values or slots, `[start, end]`. */
export type HashRange = readonly [number, number];

/** A run of slots with the same owners, in the order the broker picks among them. */
export interface Segment {
  start: number;
  end: number;
  consumers: Consumer[];
}

/** The broker's `ConsumerAssignException`: the consumer is refused and nothing changes. */
export class ConsumerAssignError extends Error {}

export type BrokerVersion = '3.0' | '4.0';

export interface StickyKeyConsumerSelector {
  /** Short name of the algorithm, as the UI and the CLI name it. */
  readonly algorithm: 'autoSplit' | 'consistentHashing' | 'sticky';
  readonly brokerVersion: BrokerVersion;
  /** The slots `ranges` covers: `[lo, hi]`, inclusive. */
  readonly keyHashRange: HashRange;
  /**
   * The values a key's slot can really take (4.x never yields 0, "not set"); `movedFraction`
   * is measured over these.
   */
  readonly keyValues: HashRange;
  /** The broker's `makeStickyKeyHash(bytes)` for this selector and generation. */
  makeStickyKeyHash(bytes: Uint8Array, length?: number): number;
  /** The slot a sticky key hash is looked up at (3.0 hash-range selectors: `hash % rangeSize`). */
  slotOf(stickyKeyHash: number): number;
  /** Adds a consumer; throws `ConsumerAssignError` where the broker refuses it. */
  addConsumer(consumer: Consumer): void;
  removeConsumer(consumer: Consumer): void;
  /** The consumer a message with this sticky key hash is dispatched to, or null. */
  select(stickyKeyHash: number): Consumer | null;
  /**
   * Ascending, merged segments covering `keyHashRange` as selection works. Memoised: the same
   * frozen array until the next add or remove, so callers must copy before changing anything.
   */
  segments(): Segment[];
  /**
   * The ranges the broker's assignment snapshot reports (4.x `ConsumerHashAssignmentsSnapshot`),
   * whose diff gives the impacted consumers. Same as `segments()` except where the broker's
   * bookkeeping reaches past the selectable slots (AUTO_SPLIT's top key, `rangeSize`).
   */
  snapshot(): Segment[];
}

/**
 * Freezes computed segments (their consumer lists included) for memoisation: every caller then
 * shares one result, and a caller that tried to change it could not corrupt the next one's.
 */
export function frozenSegments(segments: Segment[]): Segment[] {
  for (const s of segments) {
    Object.freeze(s.consumers);
    Object.freeze(s);
  }
  return Object.freeze(segments) as Segment[];
}

/** Merges adjacent segments whose consumer lists are the same objects in the same order. */
export function mergeSegments(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    if (s.start > s.end) continue;
    const last = out[out.length - 1];
    if (last && last.end + 1 === s.start && sameConsumers(last.consumers, s.consumers)) last.end = s.end;
    else out.push({ start: s.start, end: s.end, consumers: s.consumers });
  }
  return out;
}

export function sameConsumers(a: readonly Consumer[], b: readonly Consumer[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** The segment holding `slot` (segments ascending and non-overlapping), or undefined. */
export function segmentAt(segments: readonly Segment[], slot: number): Segment | undefined {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid];
    if (slot < s.start) hi = mid - 1;
    else if (slot > s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}
