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
import { ceilingIndex, codeAt, holdersAt, sameOwners, segmentAround } from './ringPoints';
import { RingSelector } from './ringSelector';
import { type Consumer, type HashRange, type StickyKeyConsumerSelector } from './selector';
import { stickyKeyHash3 } from './stickyKeyHash';

const MAX_HASH = 0x7fffffff;
/** Ranges read off the points before the segment table is built (a what-if step routes 100 keys; bulk routing millions). */
const WALKS_BEFORE_TABLE = 256;
/** Points merged into one range past which the table answers (same-named consumers share every point). */
const LONG_RUN = 64;

/** The hash of one point, `Murmur3_32Hash(UTF-8(name + i))` (the reference for `pointHashes`). */
export function ringPointHash3(name: string, i: number): number {
  return murmur3Masked(utf8(name + i));
}

/**
 * A point's list after consumers put a point there one at a time, as `addConsumer` does: each
 * added, then the list sorted by name again, stably (Java's List.sort), so a newcomer goes after
 * every consumer whose name is not greater than its own. Many at once (1,000 same-named consumers
 * connecting together share every point: 380 ms to open, inserted one by one) are put at the end
 * and sorted once, stably, which leaves the same order.
 */
function join(current: readonly Consumer[] | undefined, added: readonly Consumer[]): readonly Consumer[] {
  const list = current ? current.slice() : [];
  const many = added.length > 16;
  const seen = many ? new Set(list) : undefined;
  for (const c of added) {
    if (seen ? seen.has(c) : list.includes(c)) continue;
    seen?.add(c);
    let k = list.length;
    if (!many) while (k > 0 && list[k - 1].name > c.name) k--;
    list.splice(k, 0, c);
  }
  // Java's String.compareTo order (UTF-16 units), which JavaScript's `<` on strings is too.
  return many ? list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : list;
}

export class ConsistentHashing3Selector extends RingSelector implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion = '3.0';
  readonly keyHashRange: HashRange = [0, MAX_HASH];
  readonly keyValues: HashRange = [0, MAX_HASH];

  /** A point's consumers are sorted by name; each of them owns its segment. */
  constructor(replicaPoints: number = 100) {
    super(replicaPoints, join, 'all');
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
    this.queueJoin(consumer, this.pointHashes(consumer.name));
  }

  removeConsumer(consumer: Consumer): void {
    this.changed();
    this.queueLeave(consumer, this.pointHashes(consumer.name));
  }

  select(stickyKeyHash: number): Consumer | null {
    const list = this.listAt(stickyKeyHash);
    return list ? list[stickyKeyHash % list.length] : null;
  }

  /**
   * The segment holding the hash, as the segment table has it, read off the point columns: a what-if
   * step routes the keys on every partition's selector after the change, and a table each was a
   * fifth of a step on a reported ring of four partitions. The table answers where same-named
   * consumers share every point (a long run) and once many keys are routed (a search each is quicker).
   */
  rangeOf(stickyKeyHash: number): [number, number] | null | undefined {
    if (this.#walks++ >= WALKS_BEFORE_TABLE) return undefined;
    const cols = this.pointColumns();
    const { points } = cols;
    const n = points.length;
    if (n === 0 || !Number.isInteger(stickyKeyHash) || stickyKeyHash < 0 || stickyKeyHash > MAX_HASH) return null;
    const i = ceilingIndex(points, stickyKeyHash);
    const owner = codeAt(cols, i < n ? i : 0);
    // Points merge as `ringSegmentTable` merges them.
    return segmentAround(points, i, (j) => sameOwners(cols, codeAt(cols, j), owner), 0, MAX_HASH, LONG_RUN);
  }

  /** Segments read off the points since the last change. */
  #walks = 0;

  protected changed(): void {
    super.changed();
    this.#walks = 0;
  }

  /** The consumers of the point a hash lands on (ceiling, wrapping to the first point). */
  listAt(hash: number): readonly Consumer[] | undefined {
    const ring = this.current();
    if (ring.keys.length === 0) return undefined;
    const i = ceilingIndex(ring.keys, hash);
    return holdersAt(ring, this.members, i < ring.keys.length ? i : 0);
  }

  clone(): ConsistentHashing3Selector {
    const c = new ConsistentHashing3Selector(this.replicaPoints);
    this.copyRingTo(c);
    return c;
  }
}
