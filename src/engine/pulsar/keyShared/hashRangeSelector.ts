/**
 * What the two hash-range selectors share (AUTO_SPLIT's `HashRangeAutoSplitStickyKeyConsumerSelector`
 * and STICKY's `HashRangeExclusiveStickyKeyConsumerSelector`): a space of `rangeSize` slots and the
 * generation's sticky key hash. 3.x hashes with `Murmur3_32Hash` unreduced and selects at
 * `hash % rangeSize`; 4.x reduces the hash into the range first (0 becomes 1, so slot 0 holds no key).
 */
import type { BrokerVersion, HashRange } from './selector';
import { MemoisedSelector } from './memoisedSelector';
import { DEFAULT_RANGE_SIZE, stickyKeyHash3, stickyKeyHash4 } from './stickyKeyHash';

export abstract class HashRangeSelector extends MemoisedSelector {
  readonly keyHashRange: HashRange;
  readonly keyValues: HashRange;

  constructor(
    readonly brokerVersion: BrokerVersion,
    readonly rangeSize: number = DEFAULT_RANGE_SIZE,
  ) {
    super();
    this.keyHashRange = [0, rangeSize - 1];
    this.keyValues = brokerVersion === '4.0' ? [1, rangeSize - 1] : [0, rangeSize - 1];
  }

  makeStickyKeyHash(bytes: Uint8Array, length: number = bytes.length): number {
    return this.brokerVersion === '4.0' ? stickyKeyHash4(this.keyHashRange, bytes, length) : stickyKeyHash3(bytes, length);
  }

  slotOf(stickyKeyHash: number): number {
    return this.brokerVersion === '4.0' ? stickyKeyHash : stickyKeyHash % this.rangeSize;
  }
}
