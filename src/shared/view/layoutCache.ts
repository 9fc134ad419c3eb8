/**
 * Layouts of a segments model (runs per pixel column) and bins of a ring's points, kept per model
 * for the windows and widths last asked for: redrawing a chart at a window it showed before (a
 * theme change, "0" after a zoom) makes no pass over the segments. The host's frames seed the
 * full-space layouts for the panel's width, so that its first picture makes none at all.
 *
 * Packed form (what a frame carries): runs as an Int32Array of `x0, x1, owner, mixed, first,
 * last` per run, bins as `bin, count, owner, mixed, first` per bin.
 */
import { binPoints, type PointBin, type RingModel } from './ring';
import { fullWindow, isFullWindow, layoutSegments, zoomWindow, type Run, type SegmentsModel, type ZoomWindow } from './segments';

/**
 * Layouts kept per model: the full space at each width for the model's life (the picture "0" and
 * the ring's band come back to), and the last few zoom windows.
 */
const KEEP = 8;

interface Kept<T> {
  full: Map<string, T>;
  recent: Map<string, T>;
}

const runsCache = new WeakMap<SegmentsModel, Kept<Run[]>>();
const binsCache = new WeakMap<Int32Array, Kept<PointBin[]>>();

function keptOf<K extends object, T>(cache: WeakMap<K, Kept<T>>, owner: K): Kept<T> {
  let kept = cache.get(owner);
  if (!kept) cache.set(owner, (kept = { full: new Map(), recent: new Map() }));
  return kept;
}

function lookup<T>(kept: Kept<T>, key: string, full: boolean): T | undefined {
  const map = full ? kept.full : kept.recent;
  const value = map.get(key);
  if (value !== undefined && !full) {
    // Most recently used last: the first entry is the one to drop.
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function remember<T>(kept: Kept<T>, key: string, full: boolean, value: T): T {
  const map = full ? kept.full : kept.recent;
  map.delete(key);
  map.set(key, value);
  if (!full && map.size > KEEP) map.delete(map.keys().next().value as string);
  return value;
}

/** `layoutSegments(m, w, width)`, from the cache where it was made (or seeded) before. */
export function layoutOf(m: SegmentsModel, w: ZoomWindow, width: number): Run[] {
  const kept = keptOf(runsCache, m);
  const key = `${w.from}:${w.to}:${width}`;
  const full = isFullWindow(w, m.space);
  return lookup(kept, key, full) ?? remember(kept, key, full, layoutSegments(m, w, width));
}

/** `binPoints(ring, w, bins)`, from the cache where it was made (or seeded) before. */
export function binsOf(ring: RingModel, w: ZoomWindow, bins: number): PointBin[] {
  // Keyed by the point column, which ring models over the same points share.
  const kept = keptOf(binsCache, ring.points);
  const key = `${w.from}:${w.to}:${bins}:${ring.owner.length}`;
  const full = isFullWindow(w, ring.space);
  return lookup(kept, key, full) ?? remember(kept, key, full, binPoints(ring, w, bins));
}

/**
 * Throwaway layouts at a few zoom levels, for an idle moment after the first picture: the layout
 * loops then run optimised code with feedback for every branch (wide and narrow columns) when the
 * user first zooms, instead of cold code that deoptimises at each new zoom level. Once a model: a
 * panel drawn again from a new message has new models, and its first zoom would meet cold code.
 */
const warmed = new WeakSet<SegmentsModel>();
export function warmLayouts(m: SegmentsModel, ring: RingModel | null | undefined, width: number): void {
  if (warmed.has(m)) return;
  warmed.add(m);
  let w = fullWindow(m.space);
  for (let i = 0; i < 12; i++) {
    w = zoomWindow(w, m.space, 0.5, w.from + (w.to - w.from) * 0.3);
    layoutSegments(m, w, width);
    if (ring) binPoints(ring, w, width);
  }
}

export function seedLayout(m: SegmentsModel, w: ZoomWindow, width: number, runs: Run[]): void {
  remember(keptOf(runsCache, m), `${w.from}:${w.to}:${width}`, isFullWindow(w, m.space), runs);
}

export function seedBins(ring: RingModel, w: ZoomWindow, bins: number, list: PointBin[]): void {
  remember(keptOf(binsCache, ring.points), `${w.from}:${w.to}:${bins}:${ring.owner.length}`, isFullWindow(w, ring.space), list);
}

export function packRuns(runs: readonly Run[]): Int32Array {
  const out = new Int32Array(runs.length * 6);
  runs.forEach((r, i) => out.set([r.x0, r.x1, r.owner, r.mixed ? 1 : 0, r.first, r.last], i * 6));
  return out;
}

/** Undefined where the columns are not whole runs with owners and segments the model has. */
export function unpackRuns(a: Int32Array, m: SegmentsModel): Run[] | undefined {
  if (!(a instanceof Int32Array) || a.length % 6 !== 0) return undefined;
  // Pushed, not `new Array(n)`: a holey array beside layoutSegments' packed ones would make V8
  // deoptimise the charts' drawing on each zoom that meets the other kind (seen in --trace-deopt).
  const out: Run[] = [];
  for (let j = 0; j < a.length; j += 6) {
    const r: Run = { x0: a[j], x1: a[j + 1], owner: a[j + 2], mixed: a[j + 3] === 1, first: a[j + 4], last: a[j + 5] };
    if (r.owner < 0 || r.owner >= m.owners.length || r.first < 0 || r.last >= m.count || r.first > r.last) return undefined;
    out.push(r);
  }
  return out;
}

export function packBins(bins: readonly PointBin[]): Int32Array {
  const out = new Int32Array(bins.length * 5);
  bins.forEach((b, i) => out.set([b.bin, b.count, b.owner, b.mixed ? 1 : 0, b.first], i * 5));
  return out;
}

export function unpackBins(a: Int32Array, owners: number, points: number): PointBin[] | undefined {
  if (!(a instanceof Int32Array) || a.length % 5 !== 0) return undefined;
  const out: PointBin[] = [];
  for (let j = 0; j < a.length; j += 5) {
    const b: PointBin = { bin: a[j], count: a[j + 1], owner: a[j + 2], mixed: a[j + 3] === 1, first: a[j + 4] };
    if (b.owner < 0 || b.owner >= owners || b.first < 0 || b.first >= points) return undefined;
    out.push(b);
  }
  return out;
}
