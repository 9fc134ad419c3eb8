/**
 * Consistent hashing as the 3.x broker does it (`ConsistentHashingStickyKeyConsumerSelector`
 * before PIP-379). Each consumer puts `replicaPoints` points on a ring over the 31-bit hash space,
 * at `Murmur3_32Hash(UTF-8(name + i))`. A point holds a list of consumers: consumers whose point
 * strings are equal (same-named consumers, or `consumer-1`+`10` and `consumer-11`+`0`) share it,
 * the list kept sorted by name, and a key picks `list[hash % list.size()]`.
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
import { stickyKeyHash3 } from './stickyKeyHash';
import { SortedIntMap } from './sortedIntMap';

const MAX_HASH = 0x7fffffff;

export function ringPointHash3(name: string, i: number): number {
  return murmur3Masked(utf8(name + i));
}

export class ConsistentHashing3Selector implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion = '3.0';
  readonly keyHashRange: HashRange = [0, MAX_HASH];
  readonly keyValues: HashRange = [0, MAX_HASH];
  private readonly ring = new SortedIntMap<Consumer[]>();

  constructor(readonly replicaPoints: number = 100) {}

  makeStickyKeyHash(bytes: Uint8Array, length: number = bytes.length): number {
    return stickyKeyHash3(bytes, length);
  }

  slotOf(stickyKeyHash: number): number {
    return stickyKeyHash;
  }

  addConsumer(consumer: Consumer): void {
    this.segmentsMemo = null;
    for (let i = 0; i < this.replicaPoints; i++) {
      const hash = ringPointHash3(consumer.name, i);
      const list = this.ring.get(hash);
      if (list === undefined) {
        this.ring.set(hash, [consumer]);
      } else if (!list.includes(consumer)) {
        list.push(consumer);
        // Java's List.sort is stable: same-named consumers keep their connection order.
        list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
    }
  }

  removeConsumer(consumer: Consumer): void {
    this.segmentsMemo = null;
    for (let i = 0; i < this.replicaPoints; i++) {
      const hash = ringPointHash3(consumer.name, i);
      const list = this.ring.get(hash);
      if (list === undefined) continue;
      const rest = list.filter((c) => c !== consumer);
      if (rest.length === 0) this.ring.delete(hash);
      else this.ring.set(hash, rest);
    }
  }

  select(stickyKeyHash: number): Consumer | null {
    const list = this.listAt(stickyKeyHash);
    return list ? list[stickyKeyHash % list.length] : null;
  }

  /** The consumers of the point a hash lands on (ceiling, wrapping to the first point). */
  listAt(hash: number): Consumer[] | undefined {
    if (this.ring.size === 0) return undefined;
    return (this.ring.ceiling(hash) ?? this.ring.first())![1];
  }

  /** `segments()` memoised until the next add or remove: `route` asks for it on every key. */
  private segmentsMemo: Segment[] | null = null;

  segments(): Segment[] {
    return (this.segmentsMemo ??= frozenSegments(this.computeSegments()));
  }

  private computeSegments(): Segment[] {
    if (this.ring.size === 0) return [];
    const segs: Segment[] = [];
    let start = 0;
    // Copies of the point lists: addConsumer changes them in place, as the broker does, and a
    // caller's earlier result must not change with them.
    for (const [point, list] of this.ring.entries()) {
      segs.push({ start, end: point, consumers: [...list] });
      start = point + 1;
    }
    // Above the last point a key wraps to the first point's consumers.
    segs.push({ start, end: MAX_HASH, consumers: [...this.ring.first()![1]] });
    return mergeSegments(segs);
  }

  snapshot(): Segment[] {
    return this.segments();
  }

  /** Every point with its consumers, ascending (for the ring view). */
  points(): Array<[number, Consumer[]]> {
    return [...this.ring.entries()];
  }
}
