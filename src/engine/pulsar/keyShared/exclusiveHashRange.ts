/**
 * STICKY mode (`HashRangeExclusiveStickyKeyConsumerSelector`, the 3.x code that was run): each
 * consumer names its own inclusive ranges. Each range is stored as two map keys, start and end,
 * both pointing at the consumer; a slot belongs to a consumer only where the floor and the ceiling
 * entries are that same consumer. So a gap between two ranges of one consumer is that consumer's,
 * and a gap between different consumers belongs to nobody.
 *
 * The 4.x class was not checked; 4.x is modelled as this algorithm with the 4.x sticky-hash rule
 * (`hash % 65536`, 0 becomes 1).
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
  private rangeMap = new SortedIntMap<Consumer>();

  addConsumer(consumer: Consumer): void {
    this.changed();
    this.validate(consumer);
    for (const [start, end] of consumer.ranges!) {
      this.rangeMap.set(start, consumer);
      this.rangeMap.set(end, consumer);
    }
  }

  /** `validateKeySharedMeta`, with the broker's messages; checks against existing consumers only. */
  private validate(consumer: Consumer): void {
    if (consumer.ranges === undefined) throw new ConsumerAssignError('Must specify key shared meta for consumer.');
    if (consumer.ranges.length === 0) throw new ConsumerAssignError('Ranges for KeyShared policy must not be empty.');
    for (const [start, end] of consumer.ranges) {
      if (start > end) throw new ConsumerAssignError('Fixed hash range start > end');
      const ceiling = this.rangeMap.ceiling(start);
      const floor = this.rangeMap.floor(end);
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

  removeConsumer(consumer: Consumer): void {
    this.changed();
    const keys = this.rangeMap.keys();
    const owners = this.rangeMap.values();
    // The arrays are a snapshot of the order: deleting from the map does not change them.
    for (let i = 0; i < keys.length; i++) if (owners[i] === consumer) this.rangeMap.delete(keys[i]);
  }

  select(stickyKeyHash: number): Consumer | null {
    if (this.rangeMap.size === 0) return null;
    const slot = this.slotOf(stickyKeyHash);
    const floor = this.rangeMap.floor(slot);
    const ceiling = this.rangeMap.ceiling(slot);
    return floor && ceiling && floor[1] === ceiling[1] ? floor[1] : null;
  }

  protected computeSegmentTable(): SegmentTable {
    const [lo, hi] = this.keyHashRange;
    const keys = this.rangeMap.keys();
    const owners = this.rangeMap.values();
    const b = new SegmentTableBuilder([], keys.length * 2 + 1);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const c = owners[i];
      // The gap before this key: its consumer's where the previous key is the same consumer's.
      const gapStart = i > 0 ? keys[i - 1] + 1 : Number.NEGATIVE_INFINITY;
      b.pushList(Math.max(gapStart, lo), Math.min(key - 1, hi), i > 0 && owners[i - 1] === c ? only(c) : NOBODY);
      if (key >= lo && key <= hi) b.pushList(key, key, only(c));
    }
    b.pushList(keys.length > 0 ? Math.max(keys[keys.length - 1] + 1, lo) : lo, hi, NOBODY);
    return b.build();
  }

  clone(): ExclusiveHashRangeSelector {
    const c = new ExclusiveHashRangeSelector(this.brokerVersion, this.rangeSize);
    c.rangeMap = this.rangeMap.clone();
    this.shareMemosWith(c);
    return c;
  }
}

function conflict(c: Consumer): ConsumerAssignError {
  return new ConsumerAssignError(`Range conflict with consumer ${c.id}`);
}
