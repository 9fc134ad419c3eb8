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
import { decodeUtf8 } from '../engine/bytes';
import { RANDOM, type Partitioner } from '../engine/kafka/partitioners';
import { countCongruent, maskedShare } from '../engine/kafka/partitioners/partitioner';
import { serializeKey, type KeySerializerName } from '../engine/kafka/serializers';
import type { Problem } from './figures';
import { KeyHasher, kafkaHashField, noNeeds, pulsarHashField, type HashField, type HashNeeds, type KeyHashes } from './keyHashes';
import { PartitionCounts } from './partitionCounts';

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
  readonly #table: Uint8Array | Uint16Array | Int32Array;
  readonly #lo: number;
  readonly #v4: boolean;
  readonly #range: readonly [number, number];

  constructor(
    private readonly selector: StickyKeyConsumerSelector,
    indexOf: (c: Consumer) => number,
    consumers: number,
  ) {
    const [lo, hi] = selector.keyHashRange;
    this.#lo = lo;
    this.#v4 = selector.brokerVersion === '4.0';
    this.#range = selector.keyHashRange;
    const size = hi - lo + 1;
    this.#table = consumers < 0xff ? new Uint8Array(size) : consumers < 0xffff ? new Uint16Array(size) : new Int32Array(size);
    for (const seg of selector.segments()) {
      if (seg.consumers.length > 1) throw new Error(`a ${selector.algorithm} selector has a shared segment [${seg.start}, ${seg.end}]; only the 3.0 ring shares points`);
      if (seg.consumers.length === 1) this.#table.fill(indexOf(seg.consumers[0]) + 1, seg.start - lo, seg.end - lo + 1);
    }
  }

  /** The hash-range selectors (rangeSize <= 65,536) and 4.0's ring; not 3.0's ring (2^31 values). */
  static fits(selector: StickyKeyConsumerSelector): boolean {
    return selector.keyHashRange[1] - selector.keyHashRange[0] + 1 <= MAX_TABLE_SLOTS;
  }

  ownerOf(murmur3Masked: number): number {
    const sticky = this.#v4 ? reduceIntoRange(murmur3Masked, this.#range) : murmur3Masked;
    return this.#table[this.selector.slotOf(sticky) - this.#lo] - 1;
  }
}

/**
 * The 3.0 ring over the 31-bit hash space: segments ascending, found through a bucket index (the
 * first segment reaching each 2^15-wide bucket) and a short forward scan instead of a binary search.
 * A point shared by several consumers picks `list[hash % list.length]`, as the selector does.
 */
export class RingLookup implements OwnerLookup {
  static readonly #SHIFT = 15;
  readonly #ends: Int32Array;
  /** Per segment: the owner index, -1 for none, or -2 - i for the shared list `lists[i]`. */
  readonly #owner: Int32Array;
  readonly #lists: Int32Array[] = [];
  readonly #bucket: Int32Array;

  constructor(selector: StickyKeyConsumerSelector, indexOf: (c: Consumer) => number) {
    const segs = selector.segments();
    this.#ends = new Int32Array(segs.length);
    this.#owner = new Int32Array(segs.length);
    segs.forEach((s, i) => {
      this.#ends[i] = s.end;
      if (s.consumers.length === 0) this.#owner[i] = -1;
      else if (s.consumers.length === 1) this.#owner[i] = indexOf(s.consumers[0]);
      else {
        this.#owner[i] = -2 - this.#lists.length;
        this.#lists.push(Int32Array.from(s.consumers, indexOf));
      }
    });
    const hi = selector.keyHashRange[1];
    const buckets = (hi >>> RingLookup.#SHIFT) + 1;
    this.#bucket = new Int32Array(buckets);
    let i = 0;
    for (let b = 0; b < buckets; b++) {
      const start = b << RingLookup.#SHIFT;
      while (i < segs.length - 1 && segs[i].end < start) i++;
      this.#bucket[b] = i;
    }
  }

  ownerOf(h: number): number {
    const ends = this.#ends;
    let i = this.#bucket[h >>> RingLookup.#SHIFT];
    while (ends[i] < h) i++;
    const o = this.#owner[i];
    if (o >= -1) return o;
    const list = this.#lists[-2 - o];
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

export { countCongruent };

/** How many 31-bit hashes (0 .. 2^31 - 1) land on partition p of n under `hash % n`. */
export const partitionHashShare = maskedShare;

/** `partition` after a key the topic's key serializer refused. */
export const KEY_ERROR = -2;

/** Counts for one topic under one topology. */
export class TopicCounter {
  readonly system: 'kafka' | 'pulsar';
  readonly partitions: number;
  /** Keys per partition (sparse above DENSE_PARTITIONS partitions). */
  readonly partitionKeys: PartitionCounts;
  /** Consumers of the subscription, in connection order (ids unique within the topic). */
  readonly consumers: Consumer[] = [];
  readonly consumerKeys: Float64Array;
  unowned = 0;
  /** Kafka: keys the client puts on no fixed partition (librdkafka's empty key, kafka-go). */
  randomKeys = 0;
  /** Keys the topic's key serializer refused: how many, and the first ones. */
  keyErrors = 0;
  readonly firstKeyErrors: Problem[] = [];
  /** With `producers`: the producers' names, and the keys on which they disagree. */
  readonly producerNames: string[] | null;
  disagreeKeys = 0;
  /**
   * The last key's partition (-1: non-partitioned, or no fixed partition; KEY_ERROR: refused by
   * the key serializer) and consumer (-1: none or unowned).
   */
  partition = -1;
  consumer = -1;
  /** The hashes this topic reads from the analyser's shared hasher (none for typed Kafka keys). */
  readonly needs: HashNeeds = noNeeds();
  /** Where each partitioning (the topic's own first, then each producer's) reads its hash. */
  readonly #fields: Array<HashField | null>;
  readonly #partitioners: Partitioner[] = [];
  /** Typed Kafka keys: the serializer, and a hasher of its bytes. */
  readonly #serializer: KeySerializerName | null = null;
  readonly #schemaId: number = 0;
  readonly #own: KeyHasher | null = null;
  /** Pulsar: the first partition of each selector group, and the owner lookup of its selector. */
  readonly #groupFirst: number[] = [];
  readonly #lookups: OwnerLookup[] = [];
  /** The distinct selectors (one per group), for the hash-space shares. */
  readonly selectors: StickyKeyConsumerSelector[] = [];
  readonly #hasSubscription: boolean;

  constructor(
    readonly topic: TopicState,
    /** Whether key bytes came as hex (a `bytes` key serializer then takes them as they are). */
    private readonly hexInput = false,
    private readonly maxKeyErrors = 100,
  ) {
    this.partitions = topic.partitions;
    if (topic instanceof KafkaTopicState) {
      this.system = 'kafka';
      this.#hasSubscription = false;
      const c = topic.config;
      this.#partitioners = [topic.partitioner, ...(topic.producers ?? [])];
      this.#fields = this.#partitioners.map((p) => kafkaHashField(p.hashFunction));
      this.producerNames = topic.producers ? topic.producers.map((p) => p.name) : null;
      // A typed key is hashed from its serialized bytes, which differ from topic to topic.
      if (c.keySerializer !== undefined && c.keySerializer !== 'string') {
        this.#serializer = c.keySerializer;
        this.#schemaId = c.schemaId ?? 0;
        const own = noNeeds();
        for (const f of this.#fields) if (f) own[f] = true;
        this.#own = new KeyHasher(own);
      } else {
        for (const f of this.#fields) if (f) this.needs[f] = true;
      }
    } else if (topic instanceof PulsarTopicState) {
      this.system = 'pulsar';
      this.#hasSubscription = topic.subscription !== undefined;
      const schemes = [topic.config.hashingScheme, ...(topic.config.producers ?? [])];
      this.#fields = schemes.map(pulsarHashField);
      this.producerNames = topic.config.producers ? [...topic.config.producers] : null;
      this.needs.murmur3 = true;
      if (this.partitions > 0) for (const f of this.#fields) this.needs[f!] = true;
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
      // One lookup per selector group, never one per partition (a topic may have 2^31-1).
      for (const g of topic.selectorGroups()) {
        this.#groupFirst.push(g.first);
        this.selectors.push(g.selector);
        this.#lookups.push(this.#hasSubscription ? ownerLookup(g.selector, indexOf, this.consumers.length) : { ownerOf: () => -1 });
      }
    } else {
      throw new Error(`unknown topic kind for ${topic.name}`);
    }
    this.partitionKeys = new PartitionCounts(this.partitions);
    this.consumerKeys = new Float64Array(this.consumers.length);
  }

  get hasConsumers(): boolean {
    return this.#hasSubscription;
  }

  /** Routes one key and counts it: `h` holds the shared hashes of `bytes[0..length)`. */
  add(h: KeyHashes, bytes: Uint8Array, length: number, text: string | null, line: number): void {
    const n = this.partitions;
    if (this.system === 'kafka') {
      let hs = h;
      let len = length;
      if (this.#own !== null) {
        const view = bytes.subarray(0, length);
        const s = serializeKey(this.#serializer!, { bytes: view, text: text ?? decodeUtf8(view), hex: this.hexInput }, this.#schemaId);
        if (!s.ok) {
          this.keyErrors++;
          if (this.firstKeyErrors.length < this.maxKeyErrors) this.firstKeyErrors.push({ line, message: s.error });
          this.partition = KEY_ERROR;
          return;
        }
        this.#own.fill(s.bytes, s.bytes.length, null);
        hs = this.#own.hashes;
        len = s.bytes.length;
      }
      const fields = this.#fields;
      const parts = this.#partitioners;
      const first = parts[0].partition(fields[0] === null ? 0 : hs[fields[0]], len, n);
      this.partition = first;
      if (first === RANDOM) this.randomKeys++;
      else this.partitionKeys.add(first);
      if (this.producerNames !== null && parts.length > 2) {
        // Producers are parts[1..]: they disagree where one has no fixed partition or two differ.
        const p1 = parts[1].partition(fields[1] === null ? 0 : hs[fields[1]], len, n);
        let disagree = p1 === RANDOM;
        for (let i = 2; i < parts.length && !disagree; i++) {
          const f = fields[i];
          disagree = parts[i].partition(f === null ? 0 : hs[f], len, n) !== p1;
        }
        if (disagree) this.disagreeKeys++;
      }
      return;
    }
    // Every Pulsar producer hash is masked to 31 bits, so `%` is already signSafeMod (and the C++
    // client's one-partition shortcut gives 0 as `% 1` does).
    const fields = this.#fields;
    let p = -1;
    if (n > 0) {
      p = h[fields[0]!] % n;
      this.partitionKeys.add(p);
      if (fields.length > 2) {
        const p1 = h[fields[1]!] % n;
        let disagree = false;
        for (let i = 2; i < fields.length && !disagree; i++) disagree = h[fields[i]!] % n !== p1;
        if (disagree) this.disagreeKeys++;
      }
    }
    this.partition = p;
    if (!this.#hasSubscription) return;
    let g = this.#groupFirst.length - 1;
    while (g > 0 && this.#groupFirst[g] > p) g--;
    const c = this.#lookups[g].ownerOf(h.murmur3);
    this.consumer = c;
    if (c < 0) this.unowned++;
    else this.consumerKeys[c]++;
  }

  /** Expected share of keys per partition under an even spread of the client's hash. */
  partitionHashShare(p: number): number {
    if (this.system === 'kafka') return this.#partitioners[0].hashShare(p, this.partitions);
    return maskedShare(p, this.partitions);
  }

  /**
   * Expected share of keys per consumer under uniform hashing: each selector group weighs its
   * share of the partitions (all partitions share the first selector unless partitions were added
   * later).
   */
  consumerHashShares(): Float64Array {
    const index = new Map(this.consumers.map((c, i) => [c, i] as const));
    const indexOf = (c: Consumer): number => index.get(c)!;
    const out = new Float64Array(this.consumers.length);
    const slots = Math.max(1, this.partitions);
    this.selectors.forEach((s, g) => {
      const end = g + 1 < this.#groupFirst.length ? this.#groupFirst[g + 1] : slots;
      const weight = (end - this.#groupFirst[g]) / slots;
      const shares = hashSpaceShares(s, indexOf, this.consumers.length);
      for (let i = 0; i < out.length; i++) out[i] += shares[i] * weight;
    });
    return out;
  }
}
