/**
 * The shape shared by Pulsar's Key_Shared selectors (`StickyKeyConsumerSelector`): add, remove,
 * select, the key hash range, and the assignment as segments of that range.
 */
import { sameItems } from '../../sameItems';

/** A connected consumer. Identity is the object, as the broker compares `Consumer` instances. */
export interface Consumer {
  /** `name`, or `name#k` for the k-th consumer of that name (CONTRACT.md). */
  readonly id: string;
  readonly name: string;
  /** STICKY only: the inclusive hash ranges the consumer asked for. */
  readonly ranges?: readonly HashRange[];
}

/** The id of the k-th consumer (from 1) of `name`: the name, then `name#2`, `name#3`, ... (CONTRACT.md). */
export function consumerId(name: string, k: number): string {
  return k === 1 ? name : `${name}#${k}`;
}

/** An inclusive range of hash values or slots, `[start, end]`. */
export type HashRange = readonly [number, number];

/** A run of slots with the same owners, in the order the broker picks among them. */
export interface Segment {
  start: number;
  end: number;
  consumers: Consumer[];
}

/** The broker's `ConsumerAssignException`: the consumer is refused and nothing changes. */
export class ConsumerAssignError extends Error {}

export type BrokerVersion = '3.0' | '4.0';

export interface StickyKeyConsumerSelector {
  /** Short name of the algorithm, as the UI and the CLI name it. */
  readonly algorithm: 'autoSplit' | 'consistentHashing' | 'sticky';
  readonly brokerVersion: BrokerVersion;
  /** The slots `ranges` covers: `[lo, hi]`, inclusive. */
  readonly keyHashRange: HashRange;
  /**
   * The values a key's slot can really take (4.x never yields 0, "not set"); `movedFraction`
   * is measured over these.
   */
  readonly keyValues: HashRange;
  /** The broker's `makeStickyKeyHash(bytes)` for this selector and generation. */
  makeStickyKeyHash(bytes: Uint8Array, length?: number): number;
  /** The slot a sticky key hash is looked up at (3.0 hash-range selectors: `hash % rangeSize`). */
  slotOf(stickyKeyHash: number): number;
  /** Adds a consumer; throws `ConsumerAssignError` where the broker refuses it. */
  addConsumer(consumer: Consumer): void;
  /**
   * Adds consumers in order in one go where the selector can tell that the broker refuses none of
   * them (and the result is what adding them one at a time gives); false, changing nothing, where
   * it cannot (then `addConsumer` each).
   */
  addConsumersAtOnce?(consumers: readonly Consumer[]): boolean;
  removeConsumer(consumer: Consumer): void;
  /** The consumer a message with this sticky key hash is dispatched to, or null. */
  select(stickyKeyHash: number): Consumer | null;
  /**
   * The segment holding the hash (its owner's contiguous range), where a selector finds it without
   * its segment table; undefined where the table should answer.
   */
  rangeOf?(stickyKeyHash: number): [number, number] | null | undefined;
  /**
   * Ascending, merged segments covering `keyHashRange` as selection works. Memoised: the same
   * frozen array until the next add or remove, so callers must copy before changing anything.
   */
  segments(): Segment[];
  /**
   * The ranges the broker's assignment snapshot reports (4.x `ConsumerHashAssignmentsSnapshot`),
   * whose diff gives the impacted consumers. Same as `segments()` except where the broker's
   * bookkeeping reaches past the selectable slots (AUTO_SPLIT's top key, `rangeSize`).
   */
  snapshot(): Segment[];
  /**
   * `segments()` as columns (no object per segment): what bulk readers use, because a ring of
   * 100,000 points has about as many segments. Memoised like `segments()`; never changed later.
   */
  segmentTable(): SegmentTable;
  /** `snapshot()` as columns, memoised and never changed later. */
  snapshotTable(): SegmentTable;
  /**
   * An independent selector in the same state, as replaying the same history would leave it:
   * later changes to either do not show in the other. Consumers are shared (identity matters).
   */
  clone(): StickyKeyConsumerSelector;
}

/**
 * Ascending, non-overlapping segments as parallel columns: segment `i` is
 * `[starts[i], ends[i]]`, owned by the list `owners[owner[i]]` (consumers in the order the broker
 * picks among them; several segments share a list). Tables are immutable once built: every holder
 * may keep one across later selector changes. Bounds are in an `Int32Array` where they fit one
 * (a ring's), else in a `Float64Array`.
 */
export interface SegmentTable {
  readonly count: number;
  readonly starts: Float64Array | Int32Array;
  readonly ends: Float64Array | Int32Array;
  readonly owner: Int32Array;
  readonly owners: ReadonlyArray<readonly Consumer[]>;
}

export const EMPTY_TABLE: SegmentTable = Object.freeze({
  count: 0,
  starts: new Float64Array(0),
  ends: new Float64Array(0),
  owner: new Int32Array(0),
  owners: Object.freeze([]) as ReadonlyArray<readonly Consumer[]>,
});

/**
 * Builds a `SegmentTable` in one pass, merging as it goes exactly as `mergeSegments` does: an
 * empty segment (start > end) is skipped, and a segment that continues the previous one with the
 * same consumers in the same order extends it.
 *
 * Owners are given as codes into `owners`. Codes below `distinctBelow` stand for lists known to
 * differ from every other code's (a ring's one-consumer lists), so only other pairs are compared
 * element by element.
 */
export class SegmentTableBuilder {
  #starts: Float64Array;
  #ends: Float64Array;
  #owner: Int32Array;
  #n = 0;

  constructor(
    private readonly owners: Array<readonly Consumer[]> = [],
    capacity = 16,
    private readonly distinctBelow = 0,
  ) {
    this.#starts = new Float64Array(Math.max(1, capacity));
    this.#ends = new Float64Array(Math.max(1, capacity));
    this.#owner = new Int32Array(Math.max(1, capacity));
  }

  /** The code of a list (by identity: a list added twice gets two codes, compared when merging). */
  readonly #codes = new Map<readonly Consumer[], number>();
  code(list: readonly Consumer[]): number {
    let c = this.#codes.get(list);
    if (c === undefined) {
      c = this.owners.length;
      this.owners.push(list);
      this.#codes.set(list, c);
    }
    return c;
  }

  pushList(start: number, end: number, consumers: readonly Consumer[]): void {
    if (start > end) return;
    this.push(start, end, this.code(consumers));
  }

  push(start: number, end: number, code: number): void {
    if (start > end) return;
    const n = this.#n;
    if (n > 0 && this.#ends[n - 1] + 1 === start) {
      const last = this.#owner[n - 1];
      if (last === code || (last >= this.distinctBelow && code >= this.distinctBelow && sameItems(this.owners[last], this.owners[code]))) {
        this.#ends[n - 1] = end;
        return;
      }
    }
    if (n === this.#starts.length) this.#grow();
    this.#starts[n] = start;
    this.#ends[n] = end;
    this.#owner[n] = code;
    this.#n = n + 1;
  }

  #grow(): void {
    const n = this.#n;
    const s = new Float64Array(n * 2);
    s.set(this.#starts);
    this.#starts = s;
    const e = new Float64Array(n * 2);
    e.set(this.#ends);
    this.#ends = e;
    const o = new Int32Array(n * 2);
    o.set(this.#owner);
    this.#owner = o;
  }

  build(): SegmentTable {
    const n = this.#n;
    return Object.freeze({
      count: n,
      starts: this.#starts.slice(0, n),
      ends: this.#ends.slice(0, n),
      owner: this.#owner.slice(0, n),
      owners: Object.freeze(this.owners),
    });
  }
}

/** Segments as columns, as given (not merged): for readers that take either form. */
export function tableOf(segments: readonly Segment[]): SegmentTable {
  const n = segments.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const owner = new Int32Array(n);
  const owners: Array<readonly Consumer[]> = new Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = segments[i].start;
    ends[i] = segments[i].end;
    owner[i] = i;
    owners[i] = segments[i].consumers;
  }
  return { count: n, starts, ends, owner, owners };
}

/** The tables frozen segment arrays were made from, so readers given the array can use the columns. */
const tablesOfSegments = new WeakMap<readonly Segment[], SegmentTable>();

/** The table's segments as frozen objects (the `segments()` form). */
export function segmentsOfTable(t: SegmentTable): Segment[] {
  const out: Segment[] = new Array(t.count);
  for (let i = 0; i < t.count; i++) {
    out[i] = Object.freeze({ start: t.starts[i], end: t.ends[i], consumers: Object.freeze(t.owners[t.owner[i]]) as Consumer[] });
  }
  Object.freeze(out);
  tablesOfSegments.set(out, t);
  return out;
}

/** The columns of segments: the table they were made from, or the segments as given (not merged). */
export function columnsOf(segments: readonly Segment[]): SegmentTable {
  return tablesOfSegments.get(segments) ?? tableOf(segments);
}

/** A frozen empty owner list (a gap nobody owns). */
export const NOBODY: readonly Consumer[] = Object.freeze([]);

const onlyLists = new WeakMap<Consumer, readonly Consumer[]>();

/**
 * The frozen one-element list `[c]`, the same array every time: segments owned by one consumer
 * share it instead of allocating a list per segment (a ring has 100,000 of them).
 */
export function only(c: Consumer): readonly Consumer[] {
  let list = onlyLists.get(c);
  if (list === undefined) onlyLists.set(c, (list = Object.freeze([c])));
  return list;
}

/**
 * The consumers of `x` that `y` does not hold, in `x`'s order. Where both lists are long (a 3.x
 * point that hundreds of same-named consumers share) `y` is looked up in a set: `includes` per
 * consumer made the diffs of such points quadratic.
 */
export function notIn(x: readonly Consumer[], y: readonly Consumer[]): Consumer[] {
  if (x.length > 16 && y.length > 16) {
    const set = new Set(y);
    return x.filter((c) => !set.has(c));
  }
  return x.filter((c) => !y.includes(c));
}

/** The index of the segment holding `slot`, or -1. */
export function tableIndexAt(t: SegmentTable, slot: number): number {
  let lo = 0;
  let hi = t.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (slot < t.starts[mid]) hi = mid - 1;
    else if (slot > t.ends[mid]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Sorted, overlapping and adjacent ranges merged, clipped to `[lo, hi]`. */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>, [lo, hi]: readonly [number, number]): Array<[number, number]> {
  // Sorted before clipping, which keeps the order of starts; no array per range. Most come in one
  // or two ascending runs (a what-if's moved ranges: 20,000 after 20 joins on a ring of 100 x 1,000
  // points), which the sort merges in a pass: 0.6 ms there, where clipping into new arrays, then
  // sorting, took 3-4.
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const s = Math.max(r[0], lo);
    const e = Math.min(r[1], hi);
    if (s > e) continue;
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** The parts of `runs` outside `windows` (both ascending and disjoint). */
export function rangesOutside(runs: ReadonlyArray<readonly [number, number]>, windows: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let j = 0;
  for (let [s, e] of runs) {
    while (j < windows.length && windows[j][1] < s) j++;
    for (let i = j; s <= e; i++) {
      if (i >= windows.length || windows[i][0] > e) {
        out.push([s, e]);
        break;
      }
      if (windows[i][0] > s) out.push([s, windows[i][0] - 1]);
      s = windows[i][1] + 1;
    }
  }
  return out;
}

/** The index of the first segment that ends at or after `pos` (ends ascend), or `t.count`. */
export function firstEndingFrom(t: SegmentTable, pos: number): number {
  let lo = 0;
  let hi = t.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t.ends[mid] < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Merges adjacent segments whose consumer lists are the same objects in the same order. */
export function mergeSegments(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    if (s.start > s.end) continue;
    const last = out[out.length - 1];
    if (last && last.end + 1 === s.start && sameItems(last.consumers, s.consumers)) last.end = s.end;
    else out.push({ start: s.start, end: s.end, consumers: s.consumers });
  }
  return out;
}

/** The segment holding `slot` (segments ascending and non-overlapping), or undefined. */
export function segmentAt(segments: readonly Segment[], slot: number): Segment | undefined {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid];
    if (slot < s.start) hi = mid - 1;
    else if (slot > s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}
