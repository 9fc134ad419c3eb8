/**
 * Consistent hashing as the 3.x broker does it (`ConsistentHashingStickyKeyConsumerSelector`
 * before PIP-379). Each consumer puts `replicaPoints` points on a ring over the 31-bit hash space,
 * at `Murmur3_32Hash(UTF-8(name + i))`. A point holds a list of consumers: consumers whose point
 * strings are equal (same-named consumers, or `consumer-1`+`10` and `consumer-11`+`0`) share it,
 * the list kept sorted by name, and a key picks `list[hash % list.size()]`.
 */
import { utf8 } from '../../bytes';
import { murmur3Masked } from '../murmur3';
import { suffixedPointHashes } from './pointHashes';
import { MAX_BATCH, addPoints, ceilingIndex, changePoints, EMPTY_RING, holdersAt, Members, pointColumns, ringSegmentTable, sortedPoints, type PointColumns, type RingChange, type RingColumns } from './ringPoints';
import {
  EMPTY_TABLE,
  only,
  type Consumer,
  type HashRange,
  type SegmentTable,
  type StickyKeyConsumerSelector,
} from './selector';
import { MemoisedSelector } from './memoisedSelector';
import { stickyKeyHash3 } from './stickyKeyHash';

const MAX_HASH = 0x7fffffff;

/** The hash of one point, `Murmur3_32Hash(UTF-8(name + i))` (the reference for `pointHashes`). */
export function ringPointHash3(name: string, i: number): number {
  return murmur3Masked(utf8(name + i));
}

/** A point's list after consumers put a point there one at a time, as `addConsumer` does. */
function join(current: readonly Consumer[] | undefined, added: readonly Consumer[]): readonly Consumer[] {
  let list = current;
  for (const c of added) {
    if (list === undefined) list = only(c);
    else if (!list.includes(c)) list = insertByName(list, c);
  }
  return list!;
}

/**
 * `list` (sorted by name) with `c` added and sorted again, as the broker's add-then-`sort` does:
 * Java's List.sort is stable, so `c` goes after every consumer whose name is not greater than its
 * own (same-named consumers keep their connection order).
 */
function insertByName(list: readonly Consumer[], c: Consumer): readonly Consumer[] {
  let k = list.length;
  while (k > 0 && list[k - 1].name > c.name) k--;
  const out = new Array<Consumer>(list.length + 1);
  for (let i = 0; i < k; i++) out[i] = list[i];
  out[k] = c;
  for (let i = k; i < list.length; i++) out[i + 1] = list[i];
  return out;
}

export class ConsistentHashing3Selector extends MemoisedSelector implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion = '3.0';
  readonly keyHashRange: HashRange = [0, MAX_HASH];
  readonly keyValues: HashRange = [0, MAX_HASH];
  /**
   * Point -> its consumers, sorted by name. Lists are never changed once on the ring (where the
   * broker's change in place, a change here puts a new list), so segments, snapshots and clones
   * share them.
   */
  private ring: RingColumns = EMPTY_RING;
  private members = new Members();
  /**
   * Changes not yet on `ring`, in order and all of one kind (joins, or leaves): applied as one
   * batch when the ring is next read.
   */
  private joins: RingChange[] = [];
  private leaves: RingChange[] = [];
  /** The point hashes of each name (a pure function of the name, so clones share it). */
  private pointHashCache = new Map<string, Int32Array>();

  constructor(readonly replicaPoints: number = 100) {
    super();
  }

  makeStickyKeyHash(bytes: Uint8Array, length: number = bytes.length): number {
    return stickyKeyHash3(bytes, length);
  }

  slotOf(stickyKeyHash: number): number {
    return stickyKeyHash;
  }

  /** The hashes of a name's points, `i` = 0 .. replicaPoints - 1 (computed once per name). */
  pointHashes(name: string): Int32Array {
    let hashes = this.pointHashCache.get(name);
    if (hashes === undefined) this.pointHashCache.set(name, (hashes = suffixedPointHashes(name, this.replicaPoints)));
    return hashes;
  }

  addConsumer(consumer: Consumer): void {
    this.changed();
    if (this.leaves.length > 0 || this.joins.length >= MAX_BATCH) this.applyPending();
    this.joins.push({ consumer, number: this.members.numberOf(consumer), hashes: this.pointHashes(consumer.name) });
  }

  removeConsumer(consumer: Consumer): void {
    this.changed();
    if (this.joins.length > 0) this.applyPending();
    this.leaves.push({ consumer, number: this.members.numberOf(consumer), hashes: this.pointHashes(consumer.name) });
  }

  /** The ring with every change applied. */
  private current(): RingColumns {
    if (this.joins.length > 0 || this.leaves.length > 0) this.applyPending();
    return this.ring;
  }

  private applyPending(): void {
    if (this.joins.length > 0) {
      this.ring = addPoints(this.ring, this.members, this.joins, join);
      this.joins = [];
    }
    if (this.leaves.length > 0) {
      // Each leaving consumer is taken out of the lists at its points; the lists keep their order,
      // so several leaving at once is the same as one after the other.
      const leaving = new Set(this.leaves.map((l) => l.consumer));
      const at = sortedPoints(this.leaves.map((l) => l.hashes));
      this.ring = changePoints(this.ring, this.members, at, (list) => {
        if (!list.some((c) => leaving.has(c))) return list;
        const rest = list.filter((c) => !leaving.has(c));
        return rest.length === 0 ? undefined : rest.length === 1 ? only(rest[0]) : rest;
      });
      this.leaves = [];
    }
  }

  select(stickyKeyHash: number): Consumer | null {
    const list = this.listAt(stickyKeyHash);
    return list ? list[stickyKeyHash % list.length] : null;
  }

  /** The consumers of the point a hash lands on (ceiling, wrapping to the first point). */
  listAt(hash: number): readonly Consumer[] | undefined {
    const ring = this.current();
    if (ring.keys.length === 0) return undefined;
    const i = ceilingIndex(ring.keys, hash);
    return holdersAt(ring, this.members, i < ring.keys.length ? i : 0);
  }

  protected computeSegmentTable(): SegmentTable {
    const cols = this.pointColumns();
    return cols.points.length === 0 ? EMPTY_TABLE : ringSegmentTable(cols, 0, MAX_HASH);
  }

  /** Every point with its consumers, ascending (for the ring view). */
  points(): Array<[number, readonly Consumer[]]> {
    const ring = this.current();
    const out: Array<[number, readonly Consumer[]]> = new Array(ring.keys.length);
    for (let i = 0; i < ring.keys.length; i++) out[i] = [ring.keys[i], holdersAt(ring, this.members, i)];
    return out;
  }

  /** The points and their consumer lists, without an object per point (see `PointColumns`). */
  pointColumns(): PointColumns {
    const ring = this.current();
    if (this.columnsMemo?.ring !== ring) this.columnsMemo = { ring, cols: pointColumns(ring, this.members, 'all') };
    return this.columnsMemo.cols;
  }

  private columnsMemo: { ring: RingColumns; cols: PointColumns } | null = null;

  clone(): ConsistentHashing3Selector {
    const c = new ConsistentHashing3Selector(this.replicaPoints);
    c.ring = this.ring;
    c.members = this.members.clone();
    c.joins = this.joins.slice();
    c.leaves = this.leaves.slice();
    c.pointHashCache = this.pointHashCache;
    this.shareMemosWith(c);
    return c;
  }
}
