/**
 * Where one consumer joining or leaving a consistent-hashing ring can change owners, found from
 * its points instead of by comparing the rings: a diff of a 100,000-point ring before and after a
 * step then sweeps about 100 arcs instead of every segment.
 *
 * A value's owner is the list at its ceiling point (wrapping past the last point to the first), so
 * it changes only where that point or its list changes. A join puts the consumer at its points, a
 * leave takes it from them, and no other point changes; so every value that changes lies in the arc
 * up to one of those points, `(previous point, p]`, or, where the first point changes, in the
 * wrap-around tail above the last point. In the assignment before the step the arc ending at `p`
 * (or holding `p`, for a new point) lies in the segment holding `p`, and the tail in the last
 * segment, which gives the windows: whole segments, so a little more than what changes.
 */
import { ConsistentHashing3Selector } from './consistentHashing3';
import { ConsistentHashing4Selector } from './consistentHashing4';
import { mergeRanges, tableIndexAt, type Consumer, type SegmentTable, type StickyKeyConsumerSelector } from './selector';

/**
 * The consumer's points on the ring as the selector holds them (3.x: from its name; 4.x: from its
 * name and the name index it holds, so ask before it leaves and after it joins), or undefined for
 * a selector that is not a ring or a consumer it does not hold.
 */
export function ringPointsOf(selector: StickyKeyConsumerSelector, consumer: Consumer): Int32Array | undefined {
  if (selector instanceof ConsistentHashing3Selector) return selector.pointHashes(consumer.name);
  if (selector instanceof ConsistentHashing4Selector) {
    const index = selector.nameIndexOf(consumer);
    return index >= 0 ? selector.pointHashes(consumer.name, index) : undefined;
  }
  return undefined;
}

/**
 * Ascending, disjoint ranges of `before` (the ring's assignment before the step) outside which the
 * step leaves every owner as it was, for a step that puts or takes a consumer at `points`; undefined
 * where `before` is empty (a first join changes everything).
 */
export function ringChangeWindows(before: SegmentTable, points: Int32Array): Array<[number, number]> | undefined {
  const n = before.count;
  if (n === 0) return undefined;
  const windows: Array<[number, number]> = [];
  let tail = false;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    const i = tableIndexAt(before, p);
    if (i < 0) return undefined;
    windows.push([before.starts[i], p]);
    // A point in the first segment may be (or become) the first point, which owns the tail.
    if (i === 0) tail = true;
  }
  if (tail) windows.push([before.starts[n - 1], before.ends[n - 1]]);
  return mergeRanges(windows, [-Infinity, Infinity]);
}
