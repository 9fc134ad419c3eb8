/**
 * Each consumer's share of a Key_Shared selector's key values, counted exactly from the
 * selector's segment table (pure: no `vscode`). A segment with one owner is that owner's; where
 * several consumers hold the same point, the broker's own rule decides:
 * - 3.x consistent hashing keeps every consumer of a point in one list and picks
 *   `list[hash % list.length]` (`ConsistentHashingStickyKeyConsumerSelector.select`), so each
 *   one gets the hashes of its residue;
 * - 4.x keeps the first consumer at a point and queues the others, which get nothing until it
 *   leaves (its segments list the selected consumer only); the hash-range selectors never share
 *   a slot. A list of several is read as "the first one selects" there.
 */
import type { Consumer, HashRange, StickyKeyConsumerSelector } from '../../engine/pulsar/keyShared/selector';

export interface SharedRange {
  start: number;
  end: number;
  /** Everyone holding the point, in the broker's order. */
  owners: readonly Consumer[];
  /** How many of the range's values go to the consumer this entry is listed under. */
  values: number;
}

export interface OwnerShare {
  /** Key values this consumer (or nobody) receives. */
  values: number;
  /** Ranges it receives whole, ascending, adjacent ones merged. */
  ranges: Array<[number, number]>;
  /** Ranges it holds together with others (3.x ring points held by several consumers). */
  shared: SharedRange[];
}

export interface Shares {
  /** The key values counted: `keyValues` unless a window was given. */
  within: HashRange;
  total: number;
  byConsumer: Map<Consumer, OwnerShare>;
  /** Values no consumer receives. */
  unowned: OwnerShare;
}

/** Values `x` in `[start, end]` (non-negative) with `x % modulus === residue`. */
export function residueCount(start: number, end: number, modulus: number, residue: number): number {
  const upTo = (n: number) => (n < residue ? 0 : Math.floor((n - residue) / modulus) + 1);
  return upTo(end) - upTo(start - 1);
}

/**
 * The selector's assignment as shares of `window` (default: every value a key can hash to, its
 * `keyValues`). Ranges are written as the broker reports them, over the whole `keyHashRange` (a
 * 4.x range may start at 0, a value no key hash takes; it is not counted).
 */
export function consumerShares(selector: StickyKeyConsumerSelector, window?: HashRange): Shares {
  const [lo, hi] = window ?? selector.keyValues;
  const [rlo, rhi] = window ?? selector.keyHashRange;
  const byConsumer = new Map<Consumer, OwnerShare>();
  const unowned: OwnerShare = { values: 0, ranges: [], shared: [] };
  const shareOf = (c: Consumer) => {
    let s = byConsumer.get(c);
    if (!s) byConsumer.set(c, (s = { values: 0, ranges: [], shared: [] }));
    return s;
  };
  const byResidue = selector.algorithm === 'consistentHashing' && selector.brokerVersion === '3.0';
  const t = selector.segmentTable();
  const add = (s: OwnerShare, start: number, end: number) => {
    s.values += Math.max(0, Math.min(end, hi) - Math.max(start, lo) + 1);
    addRange(s, start, end);
  };
  // Values no segment covers are nobody's too (a selector without consumers has no segments).
  let next = rlo;
  for (let i = 0; i < t.count; i++) {
    const start = Math.max(t.starts[i], rlo);
    const end = Math.min(t.ends[i], rhi);
    if (end < start) continue;
    if (start > next) add(unowned, next, start - 1);
    next = end + 1;
    const owners = t.owners[t.owner[i]];
    if (owners.length === 0) {
      add(unowned, start, end);
    } else if (owners.length === 1 || !byResidue) {
      add(shareOf(owners[0]), start, end);
      // 4.x: the queued consumers hold the point but receive nothing from it.
      for (let k = 1; k < owners.length; k++) shareOf(owners[k]).shared.push({ start, end, owners, values: 0 });
    } else {
      // 3.x ring: slots are the hashes themselves, and the key values are all of them.
      owners.forEach((c, k) => {
        const [a, b] = [Math.max(start, lo), Math.min(end, hi)];
        const values = b < a ? 0 : residueCount(a, b, owners.length, k);
        const s = shareOf(c);
        s.values += values;
        s.shared.push({ start, end, owners, values });
      });
    }
  }
  if (next <= rhi) add(unowned, next, rhi);
  // A range that holds no key value (4.x slot 0 alone) is not one.
  unowned.ranges = unowned.ranges.filter(([s, e]) => Math.min(e, hi) >= Math.max(s, lo));
  return { within: [lo, hi], total: hi - lo + 1, byConsumer, unowned };
}

/** Appends a range, merged with the last one where they touch. */
function addRange(s: OwnerShare, start: number, end: number): void {
  const last = s.ranges[s.ranges.length - 1];
  if (last && last[1] + 1 === start) last[1] = end;
  else s.ranges.push([start, end]);
}

/** A share as people read it: one decimal, more digits below 0.1% so that it never reads 0.0% while above nothing. */
export function percent(values: number, total: number): string {
  if (values === 0 || total === 0) return '0%';
  if (values === total) return '100%';
  const p = (100 * values) / total;
  if (p < 0.1) return `${p.toPrecision(2)}%`;
  // Never round a part up to 100.0% or down to 0.0%.
  const s = p.toFixed(1);
  return s === '100.0' ? '99.9%' : `${s}%`;
}
