/**
 * A key hash space cut into owned segments (the hash-range bar, the band of the ring, the
 * before/after of a what-if), kept in typed arrays so that 100,000 segments cost little, and laid
 * out for a given zoom window and pixel width with one run per pixel column at most.
 */
import { tableOf, type Consumer, type HashRange, type Segment, type SegmentTable } from '../../engine/pulsar/keyShared/selector';
import { int32Column } from '../../engine/spareColumns';
import { OwnerTable, ownerIndexes, type OwnerInfo } from './owners';

export interface SegmentsModel {
  /** The slots the segments cover, `[lo, hi]` inclusive. */
  space: [number, number];
  /** The values a key can take (shares are measured over these). */
  keyValues: [number, number];
  count: number;
  /** Segment bounds: an int32 column where the space fits one (rings', a frame's), else doubles. */
  starts: Float64Array | Int32Array;
  ends: Float64Array | Int32Array;
  /** Index into `owners` (0: nobody). */
  owner: Int32Array;
  owners: OwnerInfo[];
}

/**
 * Every segments model, built here or from a host frame (`segmentsOfFrame`), is one of these: the
 * charts' code is optimised for the shape of the models it has drawn, and V8 deoptimised it each
 * time it met another shape (a frame's model in the first picture, a what-if's after it), which the
 * panel bench traced in the first what-if steps. Without `starts` (a frame's model, whose ends
 * are an int32 column) they are made from the ends, as int32, when first read: the first picture
 * draws from the frame's layouts and never reads them, and their loop runs cold there (8 ms for a
 * 100,000-point ring's in Chromium).
 */
export class Segments implements SegmentsModel {
  constructor(
    readonly space: [number, number],
    readonly keyValues: [number, number],
    readonly count: number,
    private startsColumn: Float64Array | Int32Array | undefined,
    readonly ends: Float64Array | Int32Array,
    readonly owner: Int32Array,
    readonly owners: OwnerInfo[],
  ) {}

  get starts(): Float64Array | Int32Array {
    if (this.startsColumn === undefined) {
      const { count, ends } = this;
      const starts = new Int32Array(count);
      starts[0] = this.space[0];
      for (let i = 1; i < count; i++) starts[i] = ends[i - 1] + 1;
      this.startsColumn = starts;
    }
    return this.startsColumn;
  }
}

/**
 * Builds the model from a selector's segments (ascending, non-overlapping; objects or the
 * selector's columns). Whatever the segments leave uncovered within `space` becomes "nobody"'s,
 * so the model always covers the space.
 */
export function buildSegments(
  segments: readonly Segment[] | SegmentTable,
  space: HashRange,
  keyValues: HashRange,
  table: OwnerTable,
  consumers: readonly Consumer[] = [],
): SegmentsModel {
  table.addConsumers(consumers);
  const src = Array.isArray(segments) ? tableOf(segments as readonly Segment[]) : (segments as SegmentTable);
  const [lo, hi] = space;
  const covering = coveringModel(src, lo, hi, keyValues, table);
  if (covering) return covering;
  const cap = src.count * 2 + 1;
  const starts = new Float64Array(cap);
  const ends = new Float64Array(cap);
  const owner = new Int32Array(cap);
  let n = 0;
  let next = lo;
  // Owner sets interned in the order their first segment comes, as one lookup per segment would.
  const index = new Int32Array(src.owners.length).fill(-1);
  for (let i = 0; i < src.count; i++) {
    const s = Math.max(src.starts[i], lo);
    const e = Math.min(src.ends[i], hi);
    if (e < s || e < next) continue;
    // Each piece pushed merges with the previous run where it continues it with the same owner
    // (a gap next to nobody's segment, say).
    if (s > next) {
      if (n > 0 && owner[n - 1] === 0 && ends[n - 1] + 1 === next) ends[n - 1] = s - 1;
      else {
        starts[n] = next;
        ends[n] = s - 1;
        owner[n++] = 0;
      }
    }
    const from = Math.max(s, next);
    const code = src.owner[i];
    const o = index[code] >= 0 ? index[code] : (index[code] = table.indexOf(src.owners[code]));
    if (n > 0 && owner[n - 1] === o && ends[n - 1] + 1 === from) ends[n - 1] = e;
    else {
      starts[n] = from;
      ends[n] = e;
      owner[n++] = o;
    }
    next = e + 1;
  }
  if (next <= hi) {
    if (n > 0 && owner[n - 1] === 0 && ends[n - 1] + 1 === next) ends[n - 1] = hi;
    else {
      starts[n] = next;
      ends[n] = hi;
      owner[n++] = 0;
    }
  }
  const model = new Segments([lo, hi], [keyValues[0], keyValues[1]], n, starts.subarray(0, n), ends.subarray(0, n), owner.subarray(0, n), table.owners);
  computeShares(model);
  return model;
}

/**
 * The model of a table that already covers `[lo, hi]` in contiguous segments with a different
 * owner set each from the next (a ring's): its columns are taken as they are and only the owners
 * mapped, with the shares summed in the same pass. Undefined when the table is not like that
 * (then the general path fills gaps and merges, with the same result where both apply).
 */
function coveringModel(src: SegmentTable, lo: number, hi: number, keyValues: HashRange, table: OwnerTable): SegmentsModel | undefined {
  const n = src.count;
  if (n === 0 || src.starts[0] !== lo || src.ends[n - 1] !== hi) return undefined;
  const { starts, ends } = src;
  // Checked before any owner is interned: a table with a gap or an empty segment goes to the
  // general path, which skips an empty segment's owner (interned here, it would be listed, at 0).
  for (let i = 0; i < n; i++) if ((i > 0 && starts[i] !== ends[i - 1] + 1) || starts[i] > ends[i]) return undefined;
  const index = ownerIndexes(src.owner, n, src.owners, table);
  const owner = int32Column(n);
  const values = new Float64Array(table.owners.length);
  const [vlo, vhi] = keyValues;
  for (let i = 0; i < n; i++) {
    const o = index[src.owner[i]];
    if (i > 0 && owner[i - 1] === o) return undefined;
    owner[i] = o;
    const s = starts[i] > vlo ? starts[i] : vlo;
    const e = ends[i] < vhi ? ends[i] : vhi;
    if (e >= s) values[o] += e - s + 1;
  }
  const total = vhi - vlo + 1;
  table.owners.forEach((o, i) => {
    o.values = values[i];
    o.share = o.values / total;
  });
  return new Segments([lo, hi], [keyValues[0], keyValues[1]], n, starts, ends, owner, table.owners);
}

function computeShares(m: SegmentsModel): void {
  // Summed per owner index first: one typed-array add per segment instead of a property update.
  const values = new Float64Array(m.owners.length);
  const [vlo, vhi] = m.keyValues;
  const { starts, ends, owner } = m;
  for (let i = 0; i < m.count; i++) {
    const s = Math.max(starts[i], vlo);
    const e = Math.min(ends[i], vhi);
    if (e >= s) values[owner[i]] += e - s + 1;
  }
  const total = vhi - vlo + 1;
  m.owners.forEach((o, i) => {
    o.values = values[i];
    o.share = o.values / total;
  });
}

/** The index of the segment holding `slot`, or -1 outside the space. */
export function segmentIndexAt(m: SegmentsModel, slot: number): number {
  let lo = 0;
  let hi = m.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (slot < m.starts[mid]) hi = mid - 1;
    else if (slot > m.ends[mid]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** What hovering a segment shows. */
export interface SegmentInfo {
  index: number;
  range: [number, number];
  owner: OwnerInfo;
  /** This segment's key values over all key values. */
  share: number;
}

export function segmentInfo(m: SegmentsModel, index: number): SegmentInfo {
  const s = m.starts[index];
  const e = m.ends[index];
  const [vlo, vhi] = m.keyValues;
  const inValues = Math.max(0, Math.min(e, vhi) - Math.max(s, vlo) + 1);
  return { index, range: [s, e], owner: m.owners[m.owner[index]], share: inValues / (vhi - vlo + 1) };
}

// ---------------------------------------------------------------------------------------------
// Zoom windows

/** A visible part of a hash space, `[from, to]` inclusive. */
export interface ZoomWindow {
  from: number;
  to: number;
}

export function fullWindow(space: readonly [number, number]): ZoomWindow {
  return { from: space[0], to: space[1] };
}

/** Whether `w` shows the whole of `space` (not zoomed). */
export function isFullWindow(w: ZoomWindow, space: readonly [number, number]): boolean {
  return w.from === space[0] && w.to === space[1];
}

/** Narrows (factor < 1) or widens the window around `center`, kept inside the space and at least `minSpan` wide. */
export function zoomWindow(w: ZoomWindow, space: readonly [number, number], factor: number, center = (w.from + w.to) / 2, minSpan = 16): ZoomWindow {
  const full = space[1] - space[0] + 1;
  const span = Math.min(full, Math.max(minSpan, Math.round((w.to - w.from + 1) * factor)));
  // The centre value keeps its relative place (measured at the middle of the value).
  const rel = (center + 0.5 - w.from) / (w.to - w.from + 1);
  let from = Math.round(center + 0.5 - rel * span);
  from = Math.max(space[0], Math.min(from, space[1] - span + 1));
  return { from, to: from + span - 1 };
}

/** Moves the window by `fraction` of its span. */
export function panWindow(w: ZoomWindow, space: readonly [number, number], fraction: number): ZoomWindow {
  const span = w.to - w.from + 1;
  let from = Math.round(w.from + span * fraction);
  from = Math.max(space[0], Math.min(from, space[1] - span + 1));
  return { from, to: from + span - 1 };
}

/** A window of `span` values centred on `value`. */
export function windowAround(value: number, space: readonly [number, number], span: number): ZoomWindow {
  return zoomWindow({ from: value, to: value }, space, 1, value, span);
}

/** Normalises a window from untrusted state (a saved view): inside the space, from <= to. */
export function clampWindow(w: ZoomWindow | undefined, space: readonly [number, number]): ZoomWindow {
  if (!w || !Number.isFinite(w.from) || !Number.isFinite(w.to)) return fullWindow(space);
  const from = Math.max(space[0], Math.min(Math.round(w.from), space[1]));
  const to = Math.max(from, Math.min(Math.round(w.to), space[1]));
  return { from, to };
}

/** The x (in pixels, fractional) where a value starts in the window. */
export function xOf(value: number, w: ZoomWindow, width: number): number {
  return ((value - w.from) * width) / (w.to - w.from + 1);
}

/** The value under pixel x. */
export function valueAt(x: number, w: ZoomWindow, width: number): number {
  const v = w.from + Math.floor((x / width) * (w.to - w.from + 1));
  return Math.max(w.from, Math.min(w.to, v));
}

// ---------------------------------------------------------------------------------------------
// Layout: decimation to pixel columns

/** A drawn run of the bar: `[x0, x1)` in pixels. */
export interface Run {
  x0: number;
  x1: number;
  /** The owner drawn (for a mixed column: the one holding most of it). */
  owner: number;
  /** More than one owner falls in this column at this zoom. */
  mixed: boolean;
  /** The segments it stands for, `[first, last]`. */
  first: number;
  last: number;
}

/**
 * Lays the segments of `w` out over `width` pixels. A segment at least a column wide is one run;
 * columns that several segments share become one "mixed" run each, drawn in the owner holding
 * most of the column. So the output has at most about `2 * width` runs whatever the count of
 * segments, and the work is linear in the visible segments.
 */
export function layoutSegments(m: SegmentsModel, w: ZoomWindow, width: number): Run[] {
  const runs: Run[] = [];
  if (m.count === 0 || width <= 0) return runs;
  const span = w.to - w.from + 1;
  const { starts, ends, owner } = m;
  // One pass, no closures or calls per segment (100,000 segments go through here on first paint).
  // The column being accumulated from partial segments: cover per owner in a flat array, with the
  // owners touched listed, so 100 segments per column cost no allocation.
  let col = -1;
  const cover = new Float64Array(m.owners.length);
  const touched = new Int32Array(m.owners.length);
  let nTouched = 0;
  let colFirst = 0;
  let colLast = 0;
  let i = Math.max(0, segmentIndexAt(m, w.from));
  for (; i <= m.count; i++) {
    // i === count: flush the last column.
    const inView = i < m.count && starts[i] <= w.to;
    // Multiply before dividing: (span * width) / span is exactly width, so the runs end at width.
    const a = inView ? ((Math.max(starts[i], w.from) - w.from) * width) / span : 0;
    const b = inView ? ((Math.min(ends[i], w.to) + 1 - w.from) * width) / span : 0;
    const o = inView ? owner[i] : 0;
    const ca = Math.floor(a);
    const cb = Math.ceil(b) - 1; // last column touched
    // What to do, in order: add a head piece to the current column (or start one), push full
    // columns as a run (flushing the column first), add a tail piece.
    let headAmount = -1;
    let fullFrom = 0;
    let fullTo = -1;
    let tailAmount = -1;
    if (!inView) {
      // Flush only.
    } else if (ca === cb) {
      // Inside one column, or exactly filling it.
      if (b - a >= 1 && col !== ca) {
        fullFrom = ca;
        fullTo = ca;
      } else headAmount = b - a;
    } else {
      // The partial head column, the full middle columns, the partial tail column.
      fullFrom = ca;
      if (a > ca || col === ca) {
        headAmount = ca + 1 - a;
        fullFrom = ca + 1;
      }
      fullTo = b < cb + 1 ? cb - 1 : cb;
      if (fullTo < cb) tailAmount = b - cb;
    }
    if (headAmount >= 0) {
      if (ca !== col) {
        if (col >= 0) {
          pushColumn(runs, col, cover, touched, nTouched, colFirst, colLast);
          nTouched = 0;
        }
        col = ca;
        colFirst = i;
      }
      colLast = i;
      if (cover[o] === 0) touched[nTouched++] = o;
      // A sliver too thin to register still counts as present.
      cover[o] += headAmount > 0 ? headAmount : Number.MIN_VALUE;
    }
    if (fullTo >= fullFrom || !inView) {
      if (col >= 0) {
        pushColumn(runs, col, cover, touched, nTouched, colFirst, colLast);
        nTouched = 0;
        col = -1;
      }
      if (!inView) break;
      pushRun(runs, { x0: fullFrom, x1: fullTo + 1, owner: o, mixed: false, first: i, last: i });
    }
    if (tailAmount >= 0) {
      if (cb !== col) {
        if (col >= 0) {
          pushColumn(runs, col, cover, touched, nTouched, colFirst, colLast);
          nTouched = 0;
        }
        col = cb;
        colFirst = i;
      }
      colLast = i;
      if (cover[o] === 0) touched[nTouched++] = o;
      cover[o] += tailAmount > 0 ? tailAmount : Number.MIN_VALUE;
    }
  }
  return runs;
}

/** Closes a column shared by several segments: one run in the owner holding most of it. */
function pushColumn(runs: Run[], col: number, cover: Float64Array, touched: Int32Array, n: number, first: number, last: number): void {
  let best = touched[0];
  for (let t = 0; t < n; t++) if (cover[touched[t]] > cover[best]) best = touched[t];
  pushRun(runs, { x0: col, x1: col + 1, owner: best, mixed: n > 1, first, last });
  for (let t = 0; t < n; t++) cover[touched[t]] = 0;
}

function pushRun(runs: Run[], r: Run): void {
  const last = runs[runs.length - 1];
  if (last && last.x1 === r.x0 && last.owner === r.owner && last.mixed === r.mixed) {
    last.x1 = r.x1;
    last.last = r.last;
    return;
  }
  runs.push(r);
}

/** The run under pixel x, for hovering. */
export function runAt(runs: readonly Run[], x: number): Run | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (x < runs[mid].x0) hi = mid - 1;
    else if (x >= runs[mid].x1) lo = mid + 1;
    else return runs[mid];
  }
  return undefined;
}
