/**
 * Consistent hashing as the 4.x broker does it (PIP-379). Key hashes and ring points both live in
 * [1, 65535]. A consumer's points are at `makeStickyKeyHash(UTF-8(name \0 nameIndex \0 i))`, where
 * `nameIndex` is the lowest index not used by a live consumer of the same name
 * (`ConsumerNameIndexTracker`), so a consumer that leaves and rejoins gets its points back.
 * The first consumer at a point keeps it; later ones queue (FIFO) and are promoted when it leaves.
 */
import { utf8 } from '../../bytes';
import { murmur3Masked } from '../murmur3';
import { suffixedPointHashes } from './pointHashes';
import { ceilingIndex, leadAt, segmentAround } from './ringPoints';
import { RingSelector } from './ringSelector';
import { only, type Consumer, type HashRange, type StickyKeyConsumerSelector } from './selector';
import { DEFAULT_RANGE_SIZE, reduceIntoRange, STICKY_KEY_HASH_NOT_SET } from './stickyKeyHash';

const KEY_HASH_RANGE: HashRange = [STICKY_KEY_HASH_NOT_SET + 1, DEFAULT_RANGE_SIZE - 1];

/** Selections answered by a search before the 65,535-slot table is built (a panel routes ten keys; bulk routing routes millions). */
const SEARCHES_BEFORE_TABLE = 256;

/** The hash of one point (the reference for `pointHashes`). */
export function ringPointHash4(name: string, nameIndex: number, i: number): number {
  return reduceIntoRange(murmur3Masked(utf8(`${name}\0${nameIndex}\0${i}`)), KEY_HASH_RANGE);
}

/**
 * A point's `HashRingPointEntry` after consumers put a point there one at a time: the first one is
 * the selected consumer, the later ones collide and queue behind it in order. Kept as that one
 * sequence, `[selected, ...colliding]`.
 */
function join(current: readonly Consumer[] | undefined, added: readonly Consumer[]): readonly Consumer[] {
  if (current === undefined && added.length === 1) return only(added[0]);
  return current === undefined ? added.slice() : [...current, ...added];
}

export class ConsistentHashing4Selector extends RingSelector implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion = '4.0';
  readonly keyHashRange = KEY_HASH_RANGE;
  readonly keyValues = KEY_HASH_RANGE;
  /** Name index of each live consumer. */
  #nameIndexes = new Map<Consumer, number>();
  /** Indexes in use per consumer name. */
  #usedIndexes = new Map<string, Set<number>>();
  /** Owner of each slot 1..65535 as an index into `slotOwners`, built lazily for fast select. */
  #slotTable: Int32Array | null = null;
  #slotOwners: Consumer[] = [];

  /** `[selected, ...colliding]` at each point; the selected consumer owns its segment. */
  constructor(replicaPoints: number = 100) {
    super(replicaPoints, join, 'first');
  }

  makeStickyKeyHash(bytes: Uint8Array, length: number = bytes.length): number {
    return reduceIntoRange(murmur3Masked(bytes, length), KEY_HASH_RANGE);
  }

  slotOf(stickyKeyHash: number): number {
    return stickyKeyHash;
  }

  /** The name index the consumer holds, or -1. */
  nameIndexOf(consumer: Consumer): number {
    return this.#nameIndexes.get(consumer) ?? -1;
  }

  /** The points of a name at a name index, `i` = 0 .. replicaPoints - 1 (computed once per pair). */
  pointHashes(name: string, nameIndex: number): Int32Array {
    const prefix = `${name}\0${nameIndex}\0`;
    let hashes = this.pointHashCache.get(prefix);
    if (hashes === undefined) {
      hashes = suffixedPointHashes(prefix, this.replicaPoints, KEY_HASH_RANGE);
      this.pointHashCache.set(prefix, hashes);
    }
    return hashes;
  }

  addConsumer(consumer: Consumer): void {
    this.changed();
    // The tracker allocates the index on the first of the consumer's points (none for 0 points).
    if (this.replicaPoints <= 0) return;
    this.queueJoin(consumer, this.pointHashes(consumer.name, this.#allocateNameIndex(consumer)));
  }

  /**
   * The broker, per point of a leaving consumer: if it is the selected one, the first colliding
   * consumer is promoted (possibly itself again, for a point it holds twice), else it leaves the
   * queue; either way every place it held goes and the others keep their order.
   */
  removeConsumer(consumer: Consumer): void {
    const index = this.#nameIndexes.get(consumer);
    if (index === undefined) return;
    this.changed();
    this.queueLeave(consumer, this.pointHashes(consumer.name, index));
    this.#nameIndexes.delete(consumer);
    const used = this.#usedIndexes.get(consumer.name)!;
    used.delete(index);
    if (used.size === 0) this.#usedIndexes.delete(consumer.name);
  }

  #allocateNameIndex(consumer: Consumer): number {
    let used = this.#usedIndexes.get(consumer.name);
    if (used === undefined) this.#usedIndexes.set(consumer.name, (used = new Set()));
    let index = 0;
    while (used.has(index)) index++;
    used.add(index);
    this.#nameIndexes.set(consumer, index);
    return index;
  }

  /** Selections since the last change: a few are searched, many pay for the slot table. */
  #selects = 0;

  select(stickyKeyHash: number): Consumer | null {
    if (this.#slotTable === null) {
      if (this.#selects++ < SEARCHES_BEFORE_TABLE) {
        // The first point at or after the slot, wrapping to the first point, as the segments
        // have it (none outside 1..65535): a search of the ring's columns, with no segment table
        // made. A what-if step routes a few keys on every partition's selector after the change.
        const ring = this.current();
        const n = ring.keys.length;
        if (n === 0 || !Number.isInteger(stickyKeyHash) || stickyKeyHash < KEY_HASH_RANGE[0] || stickyKeyHash > KEY_HASH_RANGE[1]) return null;
        const i = ceilingIndex(ring.keys, stickyKeyHash);
        return this.members.singles[leadAt(ring, i < n ? i : 0)][0];
      }
      this.#buildSlotTable();
    }
    return this.#slotOwners[this.#slotTable![stickyKeyHash]] ?? null;
  }

  /**
   * The segment holding the slot, as the segment table has it, read off the ring's columns while
   * selections are still searched (a what-if step routes a few keys on every partition's selector:
   * a table each was most of their routing): the points around the slot's with the same selected
   * consumer, the values above the last point being the first point's, but a segment of their own.
   */
  rangeOf(stickyKeyHash: number): [number, number] | null | undefined {
    if (this.#slotTable !== null) return undefined;
    const ring = this.current();
    const { keys } = ring;
    const n = keys.length;
    const [lo, hi] = KEY_HASH_RANGE;
    if (n === 0 || !Number.isInteger(stickyKeyHash) || stickyKeyHash < lo || stickyKeyHash > hi) return null;
    const i = ceilingIndex(keys, stickyKeyHash);
    const owner = leadAt(ring, i < n ? i : 0);
    return segmentAround(keys, i, (j) => leadAt(ring, j) === owner, lo, hi);
  }

  /** The selection for every slot, so a bulk lookup is one array read instead of a search. */
  #buildSlotTable(): void {
    const table = new Int32Array(KEY_HASH_RANGE[1] + 1).fill(-1);
    const owners: Consumer[] = [];
    const ids = new Map<Consumer, number>();
    const t = this.segmentTable();
    for (let i = 0; i < t.count; i++) {
      const c = t.owners[t.owner[i]][0];
      let id = ids.get(c);
      if (id === undefined) {
        id = owners.length;
        owners.push(c);
        ids.set(c, id);
      }
      table.fill(id, t.starts[i], t.ends[i] + 1);
    }
    this.#slotTable = table;
    this.#slotOwners = owners;
  }

  protected changed(): void {
    super.changed();
    this.#slotTable = null;
    this.#selects = 0;
  }

  clone(): ConsistentHashing4Selector {
    const c = new ConsistentHashing4Selector(this.replicaPoints);
    this.copyRingTo(c);
    c.#nameIndexes = new Map(this.#nameIndexes);
    c.#usedIndexes = new Map([...this.#usedIndexes].map(([name, used]) => [name, new Set(used)]));
    // Built once and never changed: shared until either side changes and drops it.
    c.#slotTable = this.#slotTable;
    c.#slotOwners = this.#slotOwners;
    return c;
  }
}
