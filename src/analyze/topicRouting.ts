/**
 * Bulk routing for the analyser: the same answers as `TopicState.route`, computed from hashes that
 * are taken once per key (murmur2, murmur3, Java's String.hashCode) and looked up in tables built
 * once per topology, so the per-key path neither allocates nor searches.
 *
 * Everything here is derived from the engine's own objects (the topic's partitions, the selector
 * serving each partition, the selector's `segments()`, `keyHashRange` and `slotOf`), and the unit
 * tests check it key by key against `route`.
 */
import { KafkaTopicState, PulsarTopicState, type TopicState } from '../engine/topology';
import type { Consumer, StickyKeyConsumerSelector } from '../engine/pulsar/keyShared/selector';
import { reduceIntoRange } from '../engine/pulsar/keyShared/stickyKeyHash';

/** The hashes of one key, filled in by the analyser (one object, reused). */
export interface KeyHashes {
  /** Kafka: murmur2 of the key bytes (signed 32-bit). */
  murmur2: number;
  /** Murmur3_32 of the key bytes, masked to 31 bits (`Murmur3_32Hash.makeHash`): the sticky key hash source. */
  murmur3: number;
  /** Pulsar producer routing, JavaStringHash scheme: `javaStringHash` of the routing key (masked). */
  routeJava: number;
  /** Pulsar producer routing, Murmur3_32Hash scheme: masked murmur3 of the routing key's UTF-8. */
  routeMurmur3: number;
}

/** Owner lookup for one selector: the consumer index for a masked murmur3 hash, or -1 (unowned). */
export interface OwnerLookup {
  ownerOf(murmur3Masked: number): number;
}

/**
 * The broker's `makeStickyKeyHash` from the masked Murmur3_32 of the key bytes: 3.x uses the hash
 * itself; 4.x (PIP-379) reduces it into the selector's key hash range, 0 becoming 1.
 */
export function stickyKeyHashFromMurmur3(selector: StickyKeyConsumerSelector, murmur3Masked: number): number {
  return selector.brokerVersion === '4.0' ? reduceIntoRange(murmur3Masked, selector.keyHashRange) : murmur3Masked;
}

/** Largest key hash space served by a flat table (the hash-range selectors and 4.0's ring: 65,536). */
const MAX_TABLE_SLOTS = 1 << 16;

/**
 * A table over every slot of the selector's key hash range: one array read per key. Used for the
 * AUTO_SPLIT and STICKY hash ranges of both generations and for 4.0 consistent hashing, whose
 * slots all fit in 65,536 entries. Only segments with a single owner occur in these selectors.
 */
export class SlotTableLookup implements OwnerLookup {
  /**
   * Owner index + 1 per slot (0: unowned), in the narrowest array that holds the consumer count:
   * 64 KiB for up to 254 consumers, so that the tables of several topics stay in cache.
   */
  private readonly table: Uint8Array | Uint16Array | Int32Array;
  private readonly lo: number;
  private readonly v4: boolean;
  private readonly range: readonly [number, number];

  constructor(
    private readonly selector: StickyKeyConsumerSelector,
    indexOf: (c: Consumer) => number,
    consumers: number,
  ) {
    const [lo, hi] = selector.keyHashRange;
    this.lo = lo;
    this.v4 = selector.brokerVersion === '4.0';
    this.range = selector.keyHashRange;
    const size = hi - lo + 1;
    this.table = consumers < 0xff ? new Uint8Array(size) : consumers < 0xffff ? new Uint16Array(size) : new Int32Array(size);
    for (const seg of selector.segments()) {
      if (seg.consumers.length > 1) throw new Error(`a ${selector.algorithm} selector has a shared segment [${seg.start}, ${seg.end}]; only the 3.0 ring shares points`);
      if (seg.consumers.length === 1) this.table.fill(indexOf(seg.consumers[0]) + 1, seg.start - lo, seg.end - lo + 1);
    }
  }

  /** The hash-range selectors (rangeSize <= 65,536) and 4.0's ring; not 3.0's ring (2^31 values). */
  static fits(selector: StickyKeyConsumerSelector): boolean {
    return selector.keyHashRange[1] - selector.keyHashRange[0] + 1 <= MAX_TABLE_SLOTS;
  }

  ownerOf(murmur3Masked: number): number {
    const sticky = this.v4 ? reduceIntoRange(murmur3Masked, this.range) : murmur3Masked;
    return this.table[this.selector.slotOf(sticky) - this.lo] - 1;
  }
}

/**
 * The 3.0 ring over the 31-bit hash space: segments ascending, found through a bucket index (the
 * first segment reaching each 2^15-wide bucket) and a short forward scan instead of a binary search.
 * A point shared by several consumers picks `list[hash % list.length]`, as the selector does.
 */
export class RingLookup implements OwnerLookup {
  private static readonly SHIFT = 15;
  private readonly ends: Int32Array;
  /** Per segment: the owner index, -1 for none, or -2 - i for the shared list `lists[i]`. */
  private readonly owner: Int32Array;
  private readonly lists: Int32Array[] = [];
  private readonly bucket: Int32Array;

  constructor(selector: StickyKeyConsumerSelector, indexOf: (c: Consumer) => number) {
    const segs = selector.segments();
    this.ends = new Int32Array(segs.length);
    this.owner = new Int32Array(segs.length);
    segs.forEach((s, i) => {
      this.ends[i] = s.end;
      if (s.consumers.length === 0) this.owner[i] = -1;
      else if (s.consumers.length === 1) this.owner[i] = indexOf(s.consumers[0]);
      else {
        this.owner[i] = -2 - this.lists.length;
        this.lists.push(Int32Array.from(s.consumers, indexOf));
      }
    });
    const hi = selector.keyHashRange[1];
    const buckets = (hi >>> RingLookup.SHIFT) + 1;
    this.bucket = new Int32Array(buckets);
    let i = 0;
    for (let b = 0; b < buckets; b++) {
      const start = b << RingLookup.SHIFT;
      while (i < segs.length - 1 && segs[i].end < start) i++;
      this.bucket[b] = i;
    }
  }

  ownerOf(h: number): number {
    const ends = this.ends;
    let i = this.bucket[h >>> RingLookup.SHIFT];
    while (ends[i] < h) i++;
    const o = this.owner[i];
    if (o >= -1) return o;
    const list = this.lists[-2 - o];
    return list[h % list.length];
  }
}

export function ownerLookup(selector: StickyKeyConsumerSelector, indexOf: (c: Consumer) => number, consumers: number): OwnerLookup {
  return SlotTableLookup.fits(selector) ? new SlotTableLookup(selector, indexOf, consumers) : new RingLookup(selector, indexOf);
}

/**
 * Exact share of the selector's hash space per consumer index: the values a key's slot can take
 * (`keyValues`) that each consumer owns, over their number. A 3.0 ring point shared by n consumers
 * gives each the hashes h with `h % n` equal to its place in the list.
 */
export function hashSpaceShares(selector: StickyKeyConsumerSelector, indexOf: (c: Consumer) => number, consumers: number): Float64Array {
  const [vlo, vhi] = selector.keyValues;
  const out = new Float64Array(consumers);
  for (const seg of selector.segments()) {
    const s = Math.max(seg.start, vlo);
    const e = Math.min(seg.end, vhi);
    if (s > e) continue;
    const n = seg.consumers.length;
    if (n === 1) out[indexOf(seg.consumers[0])] += e - s + 1;
    else for (let j = 0; j < n; j++) out[indexOf(seg.consumers[j])] += countCongruent(s, e, j, n);
  }
  const size = vhi - vlo + 1;
  for (let i = 0; i < consumers; i++) out[i] /= size;
  return out;
}

/** How many h in [s, e] have h % n === j (s >= 0). */
export function countCongruent(s: number, e: number, j: number, n: number): number {
  const upTo = (x: number): number => (x < j ? 0 : Math.floor((x - j) / n) + 1);
  return upTo(e) - upTo(s - 1);
}

/** How many 31-bit hashes (0 .. 2^31 - 1) land on partition p of n under `hash % n`. */
export function partitionHashShare(p: number, n: number): number {
  return countCongruent(0, 0x7fffffff, p, n) / 0x80000000;
}

/** Counts for one topic under one topology. */
export class TopicCounter {
  readonly system: 'kafka' | 'pulsar';
  readonly partitions: number;
  readonly partitionKeys: Float64Array;
  /** Consumers of the subscription, in connection order (ids unique within the topic). */
  readonly consumers: Consumer[] = [];
  readonly consumerKeys: Float64Array;
  unowned = 0;
  /** The last key's partition (-1: non-partitioned) and consumer (-1: none or unowned). */
  partition = -1;
  consumer = -1;
  private readonly javaScheme: boolean;
  /** Per partition (or [0] for a non-partitioned topic): the owner lookup of its selector. */
  private readonly lookups: OwnerLookup[] = [];
  /** The distinct selectors, for the hash-space shares. */
  readonly selectors: StickyKeyConsumerSelector[] = [];
  /** Per partition: index into `selectors` (one entry for a non-partitioned topic). */
  readonly selectorOfPartition: Int32Array;
  private readonly hasSubscription: boolean;

  constructor(readonly topic: TopicState) {
    this.partitions = topic.partitions;
    if (topic instanceof KafkaTopicState) {
      this.system = 'kafka';
      this.javaScheme = false;
      this.hasSubscription = false;
      this.selectorOfPartition = new Int32Array(0);
    } else if (topic instanceof PulsarTopicState) {
      this.system = 'pulsar';
      this.javaScheme = topic.config.hashingScheme === 'JavaStringHash';
      this.hasSubscription = topic.subscription !== undefined;
      const index = new Map<Consumer, number>();
      for (const c of topic.subscription?.consumers ?? []) {
        index.set(c, this.consumers.length);
        this.consumers.push(c);
      }
      const indexOf = (c: Consumer): number => {
        const i = index.get(c);
        if (i === undefined) throw new Error(`consumer ${c.id} is in a selector but not connected`);
        return i;
      };
      const slots = Math.max(1, this.partitions);
      this.selectorOfPartition = new Int32Array(slots);
      const built = new Map<StickyKeyConsumerSelector, OwnerLookup>();
      for (let p = 0; p < slots; p++) {
        const selector = topic.selectorFor(this.partitions > 0 ? p : null);
        let lookup = built.get(selector);
        if (lookup === undefined) {
          lookup = this.hasSubscription ? ownerLookup(selector, indexOf, this.consumers.length) : { ownerOf: () => -1 };
          built.set(selector, lookup);
          this.selectors.push(selector);
        }
        this.selectorOfPartition[p] = this.selectors.indexOf(selector);
        this.lookups.push(lookup);
      }
    } else {
      throw new Error(`unknown topic kind for ${topic.name}`);
    }
    this.partitionKeys = new Float64Array(this.partitions);
    this.consumerKeys = new Float64Array(this.consumers.length);
  }

  get hasConsumers(): boolean {
    return this.hasSubscription;
  }

  /** Routes one key and counts it. */
  add(h: KeyHashes): void {
    const n = this.partitions;
    if (this.system === 'kafka') {
      const p = (h.murmur2 & 0x7fffffff) % n;
      this.partition = p;
      this.partitionKeys[p]++;
      return;
    }
    // Both producer hashes are masked to 31 bits, so `%` is already signSafeMod.
    let p = -1;
    if (n > 0) {
      p = (this.javaScheme ? h.routeJava : h.routeMurmur3) % n;
      this.partitionKeys[p]++;
    }
    this.partition = p;
    if (!this.hasSubscription) return;
    const c = this.lookups[p < 0 ? 0 : p].ownerOf(h.murmur3);
    this.consumer = c;
    if (c < 0) this.unowned++;
    else this.consumerKeys[c]++;
  }

  /**
   * Expected share of keys per consumer under uniform hashing: each partition's selector weighs
   * 1/n (all partitions share the first selector unless partitions were added later).
   */
  consumerHashShares(): Float64Array {
    const index = new Map(this.consumers.map((c, i) => [c, i] as const));
    const indexOf = (c: Consumer): number => index.get(c)!;
    const per = this.selectors.map((s) => hashSpaceShares(s, indexOf, this.consumers.length));
    const out = new Float64Array(this.consumers.length);
    const slots = this.selectorOfPartition.length;
    for (let p = 0; p < slots; p++) {
      const shares = per[this.selectorOfPartition[p]];
      for (let i = 0; i < out.length; i++) out[i] += shares[i] / slots;
    }
    return out;
  }
}
