/**
 * A hash ring's points as sorted columns, changed in batches. The broker's `TreeMap` takes one put
 * per point; here a batch of consumers joining (1,000 consumers x 100 points when the panel opens)
 * is one radix sort and one merge, and the columns hold numbers, not an object per point:
 * `holder[i]` is the number of the point's only consumer (the common case), or `~k` for the
 * list `shared[k]` where several consumers meet at the point.
 *
 * Columns are immutable once built (a batch builds new ones), so selectors, their clones and the
 * tables they hand out share them freely. The shared lists are the exception that keeps that true:
 * they are only ever appended to (see `RingColumns.shared`).
 */
import { int32Column } from '../../spareColumns';
import { only, type Consumer, type SegmentTable } from './selector';
import { sameItems } from '../../sameItems';
import { ListNumbers } from './listNumbers';

export interface RingColumns {
  /** Point hashes, ascending, distinct (non-negative integers below 2^31). */
  readonly keys: Int32Array;
  /** Per point: a consumer number (see `Members`), or `~k` for `shared[k]`. */
  readonly holder: Int32Array;
  /**
   * The points' lists of two or more consumers. Append-only: the columns a batch makes keep the
   * lists they carry over at their numbers and add new ones at the end, and no entry ever changes,
   * so the rings of one history (and their clones' rings) share these arrays. Numbers that none of
   * a ring's points hold are other rings' lists, or lists no point holds any more. (A 4.x ring of
   * 100,000 points has about 30,000 such lists in its 65,535 hash values: copying them into fresh
   * arrays was two thirds of a consumer's join.)
   */
  readonly shared: ReadonlyArray<readonly Consumer[]>;
  /** The number of each shared list's first consumer (appended to with `shared`). */
  readonly sharedLead: readonly number[];
}

export const EMPTY_RING: RingColumns = Object.freeze({ keys: new Int32Array(0), holder: new Int32Array(0), shared: Object.freeze([]), sharedLead: Object.freeze([]) });

/** The number of the first consumer at point `i` (the selected one, in a 4.x ring). */
export function leadAt(ring: RingColumns, i: number): number {
  const h = ring.holder[i];
  return h >= 0 ? h : ring.sharedLead[~h];
}

/** Numbers for the consumers a selector has seen, in the order it first saw them. */
export class Members {
  readonly #consumers: Consumer[] = [];
  /** `only(consumers[i])`, the shared one-consumer list. */
  readonly #singleLists: Array<readonly Consumer[]> = [];
  readonly #numbers = new Map<Consumer, number>();

  get count(): number {
    return this.#consumers.length;
  }

  numberOf(c: Consumer): number {
    let n = this.#numbers.get(c);
    if (n === undefined) {
      n = this.#consumers.length;
      this.#consumers.push(c);
      this.#singleLists.push(only(c));
      this.#numbers.set(c, n);
    }
    return n;
  }

  /** The one-consumer lists, by number (shared: do not change). */
  get singles(): ReadonlyArray<readonly Consumer[]> {
    return this.#singleLists;
  }

  clone(): Members {
    const m = new Members();
    m.#consumers.push(...this.#consumers);
    m.#singleLists.push(...this.#singleLists);
    for (const [c, n] of this.#numbers) m.#numbers.set(c, n);
    return m;
  }
}

/** The consumers at a point. */
export function holdersAt(ring: RingColumns, members: Members, i: number): readonly Consumer[] {
  const h = ring.holder[i];
  return h >= 0 ? members.singles[h] : ring.shared[~h];
}

/** Consumers per batch: a point's hash (below 2^31) and its consumer's place share one double. */
const BATCH_SCALE = 2 ** 21;
/** The same for 16-bit hashes in an int32: 15 bits for the place. */
const SMALL_SCALE = 2 ** 15;
export const MAX_BATCH = BATCH_SCALE;

/** A consumer joining or leaving, with its number and the hashes of its points in point order. */
export interface RingChange {
  readonly consumer: Consumer;
  readonly number: number;
  readonly hashes: Int32Array;
}

/**
 * The ring after the consumers of `batch` joined in order. `join(current, added)` gives a point's
 * list from its current one (undefined for a new point) and the consumers that put a point there,
 * in joining order (one twice if two of its points share the hash), exactly as putting them one
 * at a time would leave it. `added` is reused after the call: `join` copies what it keeps. A new point of one consumer is that consumer's without asking `join`.
 */
export function addPoints(
  ring: RingColumns,
  members: Members,
  batch: readonly RingChange[],
  join: (current: readonly Consumer[] | undefined, added: readonly Consumer[]) => readonly Consumer[],
): RingColumns {
  let m = 0;
  let max = 0;
  for (const c of batch) {
    m += c.hashes.length;
    for (let i = 0; i < c.hashes.length; i++) if (c.hashes[i] > max) max = c.hashes[i];
  }
  if (batch.length > BATCH_SCALE) throw new RangeError(`at most ${BATCH_SCALE} consumers per batch`);
  // Each occurrence is (hash, place in the batch) packed into one number and sorted natively, so
  // the consumers at one point come in batch order. 16-bit hashes (4.x) and a batch of up to 2^15
  // fit an int32, which cold code handles without boxing doubles; 31-bit ones take a double.
  const small = max < 1 << 16 && batch.length <= SMALL_SCALE;
  const scale = small ? SMALL_SCALE : BATCH_SCALE;
  const occ = small ? new Int32Array(m) : new Float64Array(m);
  let o = 0;
  for (let b = 0; b < batch.length; b++) {
    const hashes = batch[b].hashes;
    if (small) for (let i = 0; i < hashes.length; i++) occ[o++] = (hashes[i] << 15) | b;
    else for (let i = 0; i < hashes.length; i++) occ[o++] = hashes[i] * BATCH_SCALE + b;
  }
  occ.sort();
  const numbers = new Int32Array(batch.length);
  for (let b = 0; b < batch.length; b++) numbers[b] = batch[b].number;
  const { keys, holder } = ring;
  const n = keys.length;
  const outKeys = int32Column(n + m);
  const outHolder = int32Column(n + m);
  const shared = new SharedLists(ring, members);
  let r = 0;
  let i = 0;
  let j = 0;
  // The consumers at one point, reused (`join` copies what it keeps).
  const added: Consumer[] = [];
  while (j < m) {
    const h = Math.floor(occ[j] / scale);
    while (i < n && keys[i] < h) {
      const hh = holder[i];
      outKeys[r] = keys[i++];
      outHolder[r++] = hh;
    }
    // The occurrences of h are occ[j .. g), their places ascending.
    const next = (h + 1) * scale;
    let g = j + 1;
    while (g < m && occ[g] < next) g++;
    const here = i < n && keys[i] === h;
    outKeys[r] = h;
    if (!here && g === j + 1) {
      outHolder[r++] = numbers[occ[j] - h * scale];
    } else {
      added.length = 0;
      for (let x = j; x < g; x++) added.push(batch[occ[x] - h * scale].consumer);
      const list = join(here ? holdersAt(ring, members, i) : undefined, added);
      // The lead is the first added consumer's number where the list starts with it (no lookup).
      const first = numbers[occ[j] - h * scale];
      outHolder[r++] = list.length === 1 ? members.numberOf(list[0]) : shared.add(list, !here && list[0] === added[0] ? first : -1);
    }
    if (here) i++;
    j = g;
  }
  while (i < n) {
    const hh = holder[i];
    outKeys[r] = keys[i++];
    outHolder[r++] = hh;
  }
  return shared.columns(outKeys.subarray(0, r), outHolder.subarray(0, r));
}

/**
 * The ring after the consumers of `batch` left: each is taken out of the list at each of its
 * points, the others keeping their order (a point left with nobody goes). Both generations' rings
 * lose a consumer this way (3.x: the sorted list; 4.x: the selected consumer, the first colliding
 * one then promoted), so several leaving at once is the same as one after the other.
 */
export function removePoints(ring: RingColumns, members: Members, batch: readonly RingChange[]): RingColumns {
  const leaving = new Set(batch.map((l) => l.consumer));
  return changePoints(ring, members, sortedPoints(batch.map((l) => l.hashes)), (list) => {
    if (!list.some((c) => leaving.has(c))) return list;
    const rest = list.filter((c) => !leaving.has(c));
    return rest.length === 0 ? undefined : rest.length === 1 ? only(rest[0]) : rest;
  });
}

/**
 * The ring after `leave(list)` at the given points (ascending; a point may repeat): it returns the
 * point's new list, or undefined when the point goes.
 */
export function changePoints(
  ring: RingColumns,
  members: Members,
  points: Int32Array,
  leave: (current: readonly Consumer[]) => readonly Consumer[] | undefined,
): RingColumns {
  const { keys, holder } = ring;
  const outKeys = int32Column(keys.length);
  const outHolder = int32Column(keys.length);
  const shared = new SharedLists(ring, members);
  let r = 0;
  let p = 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    while (p < points.length && points[p] < k) p++;
    if (p < points.length && points[p] === k) {
      const list = leave(holdersAt(ring, members, i));
      if (list === undefined || list.length === 0) continue;
      outKeys[r] = k;
      outHolder[r++] = list.length === 1 ? members.numberOf(list[0]) : shared.add(list);
    } else {
      const hh = holder[i];
      outKeys[r] = k;
      outHolder[r++] = hh;
    }
  }
  return shared.columns(outKeys.subarray(0, r), outHolder.subarray(0, r));
}

/**
 * The shared lists of the columns a batch makes from `ring`'s: its own arrays, appended to (the
 * points it keeps hold their numbers). Where more than half of the entries are held by no point
 * of the new columns (lists replaced, points gone, other rings' lists), the new columns get
 * arrays of their own, numbered as their points come: the memory stays within about twice what
 * the points hold.
 *
 * A class, not an object of two closures made per batch: `addPoints` and `changePoints` call
 * `add` in their loop over every point, and each batch's new closures were another call target
 * there, which threw away their optimised code (V8's "wrong call target") at a what-if step.
 */
class SharedLists {
  readonly #lists: Array<readonly Consumer[]>;
  readonly #leads: number[];

  constructor(
    ring: RingColumns,
    private readonly members: Members,
  ) {
    // The empty ring's arrays are frozen and every selector's: a history starts its own. (Compared,
    // not asked with Object.isFrozen: about 1 ms a call on a 30,000-entry array in Chromium.)
    const own = ring.shared !== EMPTY_RING.shared;
    this.#lists = (own ? ring.shared : []) as Array<readonly Consumer[]>;
    this.#leads = (own ? ring.sharedLead : []) as number[];
  }

  add(list: readonly Consumer[], lead = -1): number {
    this.#lists.push(list);
    this.#leads.push(lead >= 0 ? lead : this.members.numberOf(list[0]));
    return ~(this.#lists.length - 1);
  }

  columns(keys: Int32Array, holder: Int32Array): RingColumns {
    const lists = this.#lists;
    const leads = this.#leads;
    let held = 0;
    for (let i = 0; i < holder.length; i++) if (holder[i] < 0) held++;
    if (lists.length <= 2 * held + COMPACT_SLACK) return { keys, holder, shared: lists, sharedLead: leads };
    const compactLists: Array<readonly Consumer[]> = [];
    const compactLeads: number[] = [];
    for (let i = 0; i < holder.length; i++) {
      const h = holder[i];
      if (h >= 0) continue;
      compactLists.push(lists[~h]);
      compactLeads.push(leads[~h]);
      holder[i] = ~(compactLists.length - 1);
    }
    return { keys, holder, shared: compactLists, sharedLead: compactLeads };
  }
}

/** Entries held by no point that the shared lists may carry beyond as many as the points hold. */
const COMPACT_SLACK = 1024;

/**
 * A ring's points as a selector hands them out, without an object per point: point `i` is owned
 * by the list `lists[code]`, where `code` is `holder[i]` when that is >= 0 and
 * `sharedCode[~holder[i]]` otherwise. Codes below `distinct` stand for lists known to differ from
 * every other code's. Never changed later.
 */
export interface PointColumns {
  readonly points: Int32Array;
  readonly holder: Int32Array;
  readonly sharedCode: Int32Array;
  readonly lists: ReadonlyArray<readonly Consumer[]>;
  readonly distinct: number;
  /** Every consumer at point `i`, in the ring's order (4.x: `[selected, ...colliding]`). */
  holders(i: number): readonly Consumer[];
}

/**
 * The columns with each point owned by all its consumers (3.x: a key picks among them) or only by
 * the first (4.x: the selected one, the others queue).
 */
export function pointColumns(ring: RingColumns, members: Members, owner: 'all' | 'first'): PointColumns {
  const singles = members.count;
  const sharedCode = new Int32Array(ring.shared.length);
  if (owner === 'all') {
    const first = firstEqual(ring.shared);
    for (let k = 0; k < sharedCode.length; k++) sharedCode[k] = singles + first[k];
  } else for (let k = 0; k < sharedCode.length; k++) sharedCode[k] = ring.sharedLead[k];
  return {
    points: ring.keys,
    holder: ring.holder,
    sharedCode,
    lists: owner === 'all' ? [...members.singles, ...ring.shared] : members.singles.slice(),
    distinct: singles,
    holders: (i) => holdersAt(ring, members, i),
  };
}

/** The code of the list that owns point `i` (see `PointColumns`). */
export function codeAt(cols: PointColumns, i: number): number {
  const h = cols.holder[i];
  return h >= 0 ? h : cols.sharedCode[~h];
}

/**
 * Whether two codes stand for the same consumers in the same order, where adjacent segments merge
 * (codes below `distinct` differ from every other code).
 */
export function sameOwners(cols: PointColumns, a: number, b: number): boolean {
  return a === b || (a >= cols.distinct && b >= cols.distinct && sameItems(cols.lists[a], cols.lists[b]));
}

/**
 * Per shared list, the number of the first list equal to it (the same consumers in the same
 * order), so that a ring's points with equal lists have one code: a view interns each code once,
 * and 500 names used twice on a 3.0 ring make 50,000 lists of 500 contents. Kept per array, which
 * is only ever appended to, so a what-if step numbers the lists it added alone.
 */
function firstEqual(shared: ReadonlyArray<readonly Consumer[]>): readonly number[] {
  let known = firstEqualOf.get(shared);
  if (known === undefined) firstEqualOf.set(shared, (known = { numbers: new ListNumbers(), first: [] }));
  for (let k = known.first.length; k < shared.length; k++) known.first.push(known.numbers.numberOf(shared[k], k));
  return known.first;
}

const firstEqualOf = new WeakMap<ReadonlyArray<readonly Consumer[]>, { numbers: ListNumbers; first: number[] }>();

/**
 * The segments of a ring over `[lo, hi]`: each point owns the values from the previous point
 * (exclusive, or `lo`) up to itself, and the values above the last point wrap to the first point.
 * Adjacent segments with the same consumers in the same order merge, as `SegmentTableBuilder`
 * merges them.
 */
export function ringSegmentTable(cols: PointColumns, lo: number, hi: number): SegmentTable {
  const { points: keys, lists: owners } = cols;
  const n = keys.length;
  // Both rings' spaces fit an int32, which takes half the memory of a double: the table of a
  // 100,000-point ring is made again on every what-if step, and fresh memory costs more to touch
  // than to fill (it is the larger part of such a step in a webview).
  const int32 = lo >= -(2 ** 31) && hi < 2 ** 31;
  const starts = int32 ? int32Column(n + 1) : new Float64Array(n + 1);
  const ends = int32 ? int32Column(n + 1) : new Float64Array(n + 1);
  const owner = int32Column(n + 1);
  let c = 0;
  let start = lo;
  for (let i = 0; i <= n; i++) {
    // i === n: the wrap-around tail, the first point's.
    const end = i < n ? keys[i] : hi;
    const code = codeAt(cols, i < n ? i : 0);
    if (i === n && start > end) break;
    if (c > 0 && sameOwners(cols, owner[c - 1], code)) {
      ends[c - 1] = end;
      start = end + 1;
      continue;
    }
    starts[c] = start;
    ends[c] = end;
    owner[c++] = code;
    start = end + 1;
  }
  return Object.freeze({ count: c, starts: starts.subarray(0, c), ends: ends.subarray(0, c), owner: owner.subarray(0, c), owners: Object.freeze(owners.slice()) });
}

/**
 * The segment `ringSegmentTable` makes around point `i` (`i === keys.length`: the values above the
 * last point, the first point's), read off the columns: the points next to it whose owner `same(j)`
 * says is point i's merge with it. Undefined once more than `limit` points merge (then the table,
 * built once, is cheaper than walking them for every key).
 */
export function segmentAround(keys: Int32Array, i: number, same: (j: number) => boolean, lo: number, hi: number, limit = Infinity): [number, number] | undefined {
  const n = keys.length;
  let j = i - 1;
  while (j >= 0 && same(j)) if (--limit < 0) return undefined; else j--;
  const start = j >= 0 ? keys[j] + 1 : lo;
  if (i === n) return [start, hi];
  let k = i + 1;
  while (k < n && same(k)) if (--limit < 0) return undefined; else k++;
  return [start, k < n ? keys[k - 1] : same(0) ? hi : keys[n - 1]];
}

/** The index of the least key >= `hash`, or `keys.length`. */
export function ceilingIndex(keys: Int32Array, hash: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The points of the `hashes` lists, ascending, each once. */
export function sortedPoints(hashes: readonly Int32Array[]): Int32Array {
  let m = 0;
  for (const h of hashes) m += h.length;
  const all = new Int32Array(m);
  let o = 0;
  for (const h of hashes) {
    all.set(h, o);
    o += h.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < m; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.slice(0, n);
}
