/**
 * STICKY mode (`HashRangeExclusiveStickyKeyConsumerSelector`): each consumer names its own
 * inclusive ranges. Each range is stored as two map keys, start and end, both pointing at the
 * consumer; a slot can belong to a consumer only where the floor and the ceiling entries are that
 * same consumer, and a gap between different consumers belongs to nobody.
 *
 * 3.x (the code that was run): a gap between two ranges of one consumer is that consumer's too.
 * 4.x as apache/pulsar#24730 left it (4.0.7 on; 3.0.14 and 3.3.9 took the same fix): a slot is a
 * consumer's only inside one of its ranges, and a consumer whose own ranges overlap is refused.
 * Its map is keyed by range start; with no two ranges overlapping, "the range whose start is the
 * floor contains the slot" is the same as the two keys above plus that containment, which is how
 * it is written here.
 */
import {
  ConsumerAssignError,
  NOBODY,
  only,
  SegmentTableBuilder,
  type Consumer,
  type SegmentTable,
  type StickyKeyConsumerSelector,
} from './selector';
import { HashRangeSelector } from './hashRangeSelector';
import { SortedIntMap } from './sortedIntMap';

export class ExclusiveHashRangeSelector extends HashRangeSelector implements StickyKeyConsumerSelector {
  readonly algorithm = 'sticky';
  #rangeMap = new SortedIntMap<Consumer>();

  addConsumer(consumer: Consumer): void {
    this.changed();
    this.#validate(consumer);
    for (const [start, end] of consumer.ranges!) {
      this.#rangeMap.set(start, consumer);
      this.#rangeMap.set(end, consumer);
    }
  }

  /**
   * Consumers added at once where none of their ranges (all of them together) is reversed or
   * overlaps another, and none are here yet: every check `addConsumer` makes looks for a range
   * reversed or overlapping an earlier one (among the consumer's own too, on 4.x), so the broker
   * takes each in turn, and the map ends with every range's start and end, as one at a time. A
   * subscription of 2,000 consumers x 16 ranges checked one at a time took 50-60 ms (Node).
   */
  addConsumersAtOnce(consumers: readonly Consumer[]): boolean {
    const map = this.#rangeMap.size === 0 ? sortedMap(consumers) : null;
    if (map === null) return false;
    this.changed();
    this.#rangeMap = map;
    return true;
  }

  /** `validateKeySharedMeta`, with the broker's messages; checks against existing consumers only. */
  #validate(consumer: Consumer): void {
    const ranges = consumer.ranges;
    if (ranges === undefined) throw new ConsumerAssignError('Must specify key shared meta for consumer.');
    if (ranges.length === 0) throw new ConsumerAssignError('Ranges for KeyShared policy must not be empty.');
    if (this.brokerVersion === '4.0') return this.#validate4(ranges);
    for (const [start, end] of ranges) {
      if (start > end) throw new ConsumerAssignError('Fixed hash range start > end');
      const ceiling = this.#rangeMap.ceiling(start);
      const floor = this.#rangeMap.floor(end);
      if (floor && floor[0] >= start) throw conflict(floor[1]);
      if (ceiling && ceiling[0] <= end) throw conflict(ceiling[1]);
      // Inside the span of one consumer: a conflict only if it overlaps one of its ranges.
      if (ceiling && floor && ceiling[1] === floor[1]) {
        for (const [s, e] of ceiling[1].ranges ?? []) {
          if (Math.min(end, e) >= Math.max(start, s)) throw conflict(ceiling[1]);
        }
      }
    }
  }

  /** The 4.x checks: its own ranges in start order (a stable sort, as Java's), then the existing consumers'. */
  #validate4(ranges: ReadonlyArray<readonly [number, number]>): void {
    const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
    sorted.forEach(([start, end], i) => {
      if (start > end) throw new ConsumerAssignError(`Fixed hash range start > end for range: [${start},${end}]`);
      const next = sorted[i + 1];
      // Overlap as the broker tests it (a reversed next range fails its own start > end after).
      if (next && next[0] <= Math.min(end, next[1])) throw new ConsumerAssignError(`Consumer's own ranges conflict: [${start},${end}] overlaps with [${next[0]},${next[1]}]`);
    });
    // The existing range holding `start`, else the first that starts in [start, end].
    for (const [start, end] of ranges) {
      const ceiling = this.#rangeMap.ceiling(start);
      if (ceiling && (ceiling[0] <= end || covers(ceiling[1], start))) throw conflict(ceiling[1]);
    }
  }

  removeConsumer(consumer: Consumer): void {
    this.changed();
    const keys = this.#rangeMap.keys();
    const owners = this.#rangeMap.values();
    // The arrays are a snapshot of the order: deleting from the map does not change them.
    for (let i = 0; i < keys.length; i++) if (owners[i] === consumer) this.#rangeMap.delete(keys[i]);
  }

  select(stickyKeyHash: number): Consumer | null {
    if (this.#rangeMap.size === 0) return null;
    const slot = this.slotOf(stickyKeyHash);
    const floor = this.#rangeMap.floor(slot);
    const ceiling = this.#rangeMap.ceiling(slot);
    return floor && ceiling && floor[1] === ceiling[1] && this.#owns(floor[1], slot) ? floor[1] : null;
  }

  protected computeSegmentTable(): SegmentTable {
    const [lo, hi] = this.keyHashRange;
    const keys = this.#rangeMap.keys();
    const owners = this.#rangeMap.values();
    const b = new SegmentTableBuilder([], keys.length * 2 + 1);
    // A range's two keys come one after the other: the code of the last consumer's list is kept
    // rather than looked up twice a key (64,000 keys: a what-if step reads a new table).
    let last: Consumer | undefined;
    let lastCode = 0;
    const codeOf = (c: Consumer) => (c === last ? lastCode : ((last = c), (lastCode = b.code(only(c)))));
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const c = owners[i];
      // The gap before this key: its consumer's where the previous key is the same consumer's
      // (and on 4.x, inside one of its ranges: then the whole gap is).
      const gapStart = i > 0 ? keys[i - 1] + 1 : Number.NEGATIVE_INFINITY;
      const start = Math.max(gapStart, lo);
      const end = Math.min(key - 1, hi);
      if (start <= end) b.push(start, end, i > 0 && owners[i - 1] === c && this.#owns(c, gapStart) ? codeOf(c) : b.code(NOBODY));
      if (key >= lo && key <= hi) b.push(key, key, codeOf(c));
    }
    b.pushList(keys.length > 0 ? Math.max(keys[keys.length - 1] + 1, lo) : lo, hi, NOBODY);
    return b.build();
  }

  /** Whether `slot`, between two keys of `c`, is `c`'s: always on 3.x, inside one of its ranges on 4.x. */
  #owns(c: Consumer, slot: number): boolean {
    return this.brokerVersion !== '4.0' || covers(c, slot);
  }

  clone(): ExclusiveHashRangeSelector {
    const c = new ExclusiveHashRangeSelector(this.brokerVersion, this.rangeSize);
    c.#rangeMap = this.#rangeMap.clone();
    this.shareMemosWith(c);
    return c;
  }
}

/**
 * The map that adding `consumers` one at a time makes (each range's start and end, ascending, to
 * its consumer), where every consumer has ranges, none reversed, and no two of all of them
 * overlap; else null.
 */
function sortedMap(consumers: readonly Consumer[]): SortedIntMap<Consumer> | null {
  const all: Array<[number, number, Consumer]> = [];
  for (const c of consumers) {
    if (!c.ranges?.length) return null;
    for (const [start, end] of c.ranges) {
      if (!(start <= end)) return null;
      all.push([start, end, c]);
    }
  }
  all.sort((a, b) => a[0] - b[0]);
  // Ascending starts, each after the previous range's end: the ends ascend too, so no range
  // overlaps any earlier one.
  const keys: number[] = [];
  const owners: Consumer[] = [];
  let lastEnd = -Infinity;
  for (const [start, end, c] of all) {
    if (start <= lastEnd) return null;
    keys.push(start);
    owners.push(c);
    // A one-slot range is one key.
    if (end !== start) {
      keys.push(end);
      owners.push(c);
    }
    lastEnd = end;
  }
  return new SortedIntMap(Int32Array.from(keys), owners);
}

function conflict(c: Consumer): ConsumerAssignError {
  return new ConsumerAssignError(`Range conflict with consumer ${c.id}`);
}

function covers(c: Consumer, slot: number): boolean {
  return (c.ranges ?? []).some(([s, e]) => s <= slot && slot <= e);
}
