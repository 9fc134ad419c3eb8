/**
 * Consistent hashing as the 4.x broker does it (PIP-379). Key hashes and ring points both live in
 * [1, 65535]. A consumer's points are at `makeStickyKeyHash(UTF-8(name \0 nameIndex \0 i))`, where
 * `nameIndex` is the lowest index not used by a live consumer of the same name
 * (`ConsumerNameIndexTracker`), so a consumer that leaves and rejoins gets its points back.
 * The first consumer at a point keeps it; later ones queue (FIFO) and are promoted when it leaves.
 */
import { utf8 } from '../../bytes';
import { murmur3Masked } from '../murmur3';
import {
  frozenSegments,
  mergeSegments,
  type Consumer,
  type HashRange,
  type Segment,
  type StickyKeyConsumerSelector,
} from './selector';
import { DEFAULT_RANGE_SIZE, reduceIntoRange, STICKY_KEY_HASH_NOT_SET } from './stickyKeyHash';
import { SortedIntMap } from './sortedIntMap';

const KEY_HASH_RANGE: HashRange = [STICKY_KEY_HASH_NOT_SET + 1, DEFAULT_RANGE_SIZE - 1];

export function ringPointHash4(name: string, nameIndex: number, i: number): number {
  return reduceIntoRange(murmur3Masked(utf8(`${name}\0${nameIndex}\0${i}`)), KEY_HASH_RANGE);
}

/** `HashRingPointEntry`: the selected consumer and the ones that collided with it, in order. */
interface PointEntry {
  selected: Consumer;
  colliding: Consumer[];
}

export class ConsistentHashing4Selector implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion = '4.0';
  readonly keyHashRange = KEY_HASH_RANGE;
  readonly keyValues = KEY_HASH_RANGE;
  private readonly ring = new SortedIntMap<PointEntry>();
  /** Name index of each live consumer. */
  private readonly nameIndexes = new Map<Consumer, number>();
  /** Indexes in use per consumer name. */
  private readonly usedIndexes = new Map<string, Set<number>>();
  /** Owner of each slot 1..65535 as an index into `slotOwners`, built lazily for fast select. */
  private slotTable: Int32Array | null = null;
  private slotOwners: Consumer[] = [];

  constructor(readonly replicaPoints: number = 100) {}

  makeStickyKeyHash(bytes: Uint8Array, length: number = bytes.length): number {
    return reduceIntoRange(murmur3Masked(bytes, length), KEY_HASH_RANGE);
  }

  slotOf(stickyKeyHash: number): number {
    return stickyKeyHash;
  }

  /** The name index the consumer holds, or -1. */
  nameIndexOf(consumer: Consumer): number {
    return this.nameIndexes.get(consumer) ?? -1;
  }

  addConsumer(consumer: Consumer): void {
    this.slotTable = null;
    this.segmentsMemo = null;
    // The tracker allocates the index on the first of the consumer's points (none for 0 points).
    if (this.replicaPoints <= 0) return;
    const index = this.allocateNameIndex(consumer);
    for (let i = 0; i < this.replicaPoints; i++) {
      const hash = ringPointHash4(consumer.name, index, i);
      const existing = this.ring.get(hash);
      if (existing === undefined) this.ring.set(hash, { selected: consumer, colliding: [] });
      else existing.colliding.push(consumer);
    }
  }

  removeConsumer(consumer: Consumer): void {
    const index = this.nameIndexes.get(consumer);
    if (index === undefined) return;
    this.slotTable = null;
    this.segmentsMemo = null;
    for (let i = 0; i < this.replicaPoints; i++) {
      const hash = ringPointHash4(consumer.name, index, i);
      const entry = this.ring.get(hash);
      if (entry === undefined) continue;
      if (entry.selected === consumer) {
        // The first colliding consumer (possibly this same consumer, for a point it holds twice)
        // is promoted; the entry goes when none is left.
        const next = entry.colliding.shift();
        if (next === undefined) this.ring.delete(hash);
        else entry.selected = next;
      } else {
        entry.colliding = entry.colliding.filter((c) => c !== consumer);
      }
    }
    this.nameIndexes.delete(consumer);
    const used = this.usedIndexes.get(consumer.name)!;
    used.delete(index);
    if (used.size === 0) this.usedIndexes.delete(consumer.name);
  }

  private allocateNameIndex(consumer: Consumer): number {
    let used = this.usedIndexes.get(consumer.name);
    if (used === undefined) this.usedIndexes.set(consumer.name, (used = new Set()));
    let index = 0;
    while (used.has(index)) index++;
    used.add(index);
    this.nameIndexes.set(consumer, index);
    return index;
  }

  select(stickyKeyHash: number): Consumer | null {
    if (this.ring.size === 0) return null;
    if (this.slotTable === null) this.buildSlotTable();
    return this.slotOwners[this.slotTable![stickyKeyHash]] ?? null;
  }

  /** The selection for every slot, so a bulk lookup is one array read instead of a search. */
  private buildSlotTable(): void {
    const table = new Int32Array(KEY_HASH_RANGE[1] + 1).fill(-1);
    const owners: Consumer[] = [];
    const ids = new Map<Consumer, number>();
    for (const seg of this.segments()) {
      const c = seg.consumers[0];
      let id = ids.get(c);
      if (id === undefined) {
        id = owners.length;
        owners.push(c);
        ids.set(c, id);
      }
      table.fill(id, seg.start, seg.end + 1);
    }
    this.slotTable = table;
    this.slotOwners = owners;
  }

  /** `segments()` memoised until the next add or remove: `route` asks for it on every key. */
  private segmentsMemo: Segment[] | null = null;

  segments(): Segment[] {
    return (this.segmentsMemo ??= frozenSegments(this.computeSegments()));
  }

  private computeSegments(): Segment[] {
    if (this.ring.size === 0) return [];
    const segs: Segment[] = [];
    let start = KEY_HASH_RANGE[0];
    for (const [point, entry] of this.ring.entries()) {
      segs.push({ start, end: point, consumers: [entry.selected] });
      start = point + 1;
    }
    // The wrap-around tail belongs to the first point's consumer.
    segs.push({ start, end: KEY_HASH_RANGE[1], consumers: [this.ring.first()![1].selected] });
    return mergeSegments(segs);
  }

  snapshot(): Segment[] {
    return this.segments();
  }

  /** Every point with its selected consumer and the queue behind it, ascending. */
  points(): Array<[number, Consumer, readonly Consumer[]]> {
    return [...this.ring.entries()].map(([p, e]) => [p, e.selected, e.colliding]);
  }
}
