/**
 * AUTO_SPLIT hash ranges (`HashRangeAutoSplitStickyKeyConsumerSelector`), the same algorithm in
 * both generations: a sorted map from each range's inclusive upper bound to its consumer. The first
 * consumer holds the key `rangeSize` (a slot no hash reaches); every later one splits the largest
 * range and takes its lower half.
 */
import {
  ConsumerAssignError,
  only,
  SegmentTableBuilder,
  type BrokerVersion,
  type Consumer,
  type SegmentTable,
  type StickyKeyConsumerSelector,
} from './selector';
import { HashRangeSelector } from './hashRangeSelector';
import { DEFAULT_RANGE_SIZE } from './stickyKeyHash';

export class AutoSplitHashRangeSelector extends HashRangeSelector implements StickyKeyConsumerSelector {
  readonly algorithm = 'autoSplit';
  /** Upper bounds, ascending, with their consumers at the same index. */
  #uppers: number[] = [];
  #owners: Consumer[] = [];

  constructor(brokerVersion: BrokerVersion, rangeSize: number = DEFAULT_RANGE_SIZE) {
    super(brokerVersion, rangeSize);
    // The constructor's own checks, with its messages.
    if (rangeSize < 2) throw new ConsumerAssignError('range size must greater than 2');
    if ((rangeSize & (rangeSize - 1)) !== 0) throw new ConsumerAssignError('range size must be nth power with 2');
  }

  /**
   * A selector holding `entries` (upper bound, consumer; ascending, the last at `rangeSize`) as
   * its map: the state a broker reports, from which later adds and removes split and merge as
   * they would on the broker. The caller checks the entries (engine/observed/validate.ts).
   */
  static withState(brokerVersion: BrokerVersion, rangeSize: number, entries: ReadonlyArray<readonly [number, Consumer]>): AutoSplitHashRangeSelector {
    const s = new AutoSplitHashRangeSelector(brokerVersion, rangeSize);
    s.#uppers = entries.map((e) => e[0]);
    s.#owners = entries.map((e) => e[1]);
    return s;
  }

  addConsumer(consumer: Consumer): void {
    this.changed();
    if (this.#uppers.length === 0) {
      this.#uppers.push(this.rangeSize);
      this.#owners.push(consumer);
      return;
    }
    // findBiggestRange: the first range (ascending) with the largest `upper - lowerKeyOrZero`.
    // The first range is measured from 0, so it counts one slot less than it holds.
    let slots = 0;
    let biggest = -1;
    for (let i = 0; i < this.#uppers.length; i++) {
      const lower = i === 0 ? 0 : this.#uppers[i - 1];
      if (this.#uppers[i] - lower > slots) {
        slots = this.#uppers[i] - lower;
        biggest = i;
      }
    }
    // With every range of width <= 0 nothing is found and the broker falls back to the top key.
    if (biggest < 0) biggest = this.#uppers.length - 1;
    const upper = this.#uppers[biggest];
    const lower = biggest === 0 ? 0 : this.#uppers[biggest - 1];
    if (upper - lower <= 1) {
      throw new ConsumerAssignError(
        `No more range can assigned to new consumer, assigned consumers ${this.#uppers.length}`,
      );
    }
    const split = upper - ((upper - lower) >> 1);
    this.#uppers.splice(biggest, 0, split);
    this.#owners.splice(biggest, 0, consumer);
  }

  removeConsumer(consumer: Consumer): void {
    this.changed();
    const i = this.#owners.indexOf(consumer);
    if (i < 0) return;
    const top = this.#uppers.length - 1;
    if (i === top && this.#uppers.length > 1) {
      // The next-lower consumer moves up to the top key, so its range extends to rangeSize.
      this.#owners[top] = this.#owners[top - 1];
      this.#uppers.splice(top - 1, 1);
      this.#owners.splice(top - 1, 1);
    } else {
      // Its range merges into the consumer above it.
      this.#uppers.splice(i, 1);
      this.#owners.splice(i, 1);
    }
  }

  select(stickyKeyHash: number): Consumer | null {
    if (this.#uppers.length === 0) return null;
    const slot = this.slotOf(stickyKeyHash);
    // ceilingEntry(slot)
    let lo = 0;
    let hi = this.#uppers.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#uppers[mid] >= slot) hi = mid;
      else lo = mid + 1;
    }
    return this.#owners[lo];
  }

  protected computeSnapshotTable(): SegmentTable {
    // `[prevKey + 1, key]`, starting at 0; the top range ends at rangeSize, as the broker reports it.
    const b = new SegmentTableBuilder([], this.#uppers.length);
    for (let i = 0; i < this.#uppers.length; i++) b.pushList(i === 0 ? 0 : this.#uppers[i - 1] + 1, this.#uppers[i], only(this.#owners[i]));
    return b.build();
  }

  protected computeSegmentTable(): SegmentTable {
    // Selection never reaches the top key, so the last range stops at the key hash range's end.
    // (Clipped in place, not merged again: the same ranges as the snapshot otherwise.) Where the
    // last range is the top key alone (a consumer squeezed to [rangeSize, rangeSize] once the
    // ranges run out), its owner gets no selectable slot at all and the range is dropped.
    const snap = this.snapshotTable();
    const hi = this.keyHashRange[1];
    const count = snap.count > 0 && snap.starts[snap.count - 1] > hi ? snap.count - 1 : snap.count;
    const ends = snap.ends.slice(0, count);
    for (let i = 0; i < count; i++) if (ends[i] > hi) ends[i] = hi;
    return Object.freeze({ count, starts: snap.starts.slice(0, count), ends, owner: snap.owner.slice(0, count), owners: snap.owners });
  }

  clone(): AutoSplitHashRangeSelector {
    const c = new AutoSplitHashRangeSelector(this.brokerVersion, this.rangeSize);
    c.#uppers = this.#uppers.slice();
    c.#owners = this.#owners.slice();
    this.shareMemosWith(c);
    return c;
  }

  /** The upper bounds and their owners, ascending (for tests and the panel). */
  entries(): Array<[number, Consumer]> {
    return this.#uppers.map((u, i) => [u, this.#owners[i]]);
  }
}
