/**
 * The consistent-hashing ring: every consumer's points, and for a key the arc from its hash
 * clockwise to the point that owns it (wrapping past the top of the space to the first point).
 * Points are binned per angle (or per pixel column of a zoomed strip) for drawing, so 100,000
 * points cost one pass.
 */
import { ConsistentHashing3Selector } from '../../engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../engine/pulsar/keyShared/consistentHashing4';
import type { StickyKeyConsumerSelector } from '../../engine/pulsar/keyShared/selector';
import type { OwnerTable } from './owners';
import type { ZoomWindow } from './segments';

export interface RingModel {
  space: [number, number];
  /** Point hashes, ascending. */
  points: Float64Array;
  /** Owner index (into the shared owner table) of each point. */
  owner: Int32Array;
  /** 4.x: consumers queued behind a point's holder (promoted when it leaves), by point index. */
  queued: Map<number, string[]>;
}

export function isRingSelector(s: StickyKeyConsumerSelector): s is ConsistentHashing3Selector | ConsistentHashing4Selector {
  return s instanceof ConsistentHashing3Selector || s instanceof ConsistentHashing4Selector;
}

export function buildRing(selector: ConsistentHashing3Selector | ConsistentHashing4Selector, table: OwnerTable): RingModel {
  const space: [number, number] = [selector.keyHashRange[0], selector.keyHashRange[1]];
  const queued = new Map<number, string[]>();
  if (selector instanceof ConsistentHashing3Selector) {
    const pts = selector.points();
    const points = new Float64Array(pts.length);
    const owner = new Int32Array(pts.length);
    for (let i = 0; i < pts.length; i++) {
      points[i] = pts[i][0];
      owner[i] = table.indexOf(pts[i][1]);
    }
    return { space, points, owner, queued };
  }
  const pts = selector.points();
  const points = new Float64Array(pts.length);
  const owner = new Int32Array(pts.length);
  for (let i = 0; i < pts.length; i++) {
    const [p, selected, colliding] = pts[i];
    points[i] = p;
    owner[i] = table.indexOfOne(selected);
    if (colliding.length > 0) queued.set(i, colliding.map((c) => c.id));
  }
  return { space, points, owner, queued };
}

/** The index of the point a hash lands on: the first point >= hash, wrapping to the first. -1 for an empty ring. */
export function owningPoint(ring: RingModel, hash: number): number {
  const n = ring.points.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ring.points[mid] < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo < n ? lo : 0;
}

/** The arc a key travels: from its hash clockwise to its point. */
export interface RingArc {
  from: number;
  to: number;
  /** The arc passes the top of the space (hash above the last point). */
  wraps: boolean;
  /** Hash values on the arc, both ends included. */
  length: number;
}

export function arcOf(ring: RingModel, hash: number): RingArc | null {
  const i = owningPoint(ring, hash);
  if (i < 0) return null;
  const to = ring.points[i];
  const wraps = to < hash;
  const size = ring.space[1] - ring.space[0] + 1;
  return { from: hash, to, wraps, length: wraps ? size - (hash - to) + 1 : to - hash + 1 };
}

/** Angle in radians, clockwise from 12 o'clock, of a value's start. */
export function angleOf(value: number, space: readonly [number, number]): number {
  return ((value - space[0]) / (space[1] - space[0] + 1)) * 2 * Math.PI;
}

/** Points gathered into one bin (an angle step or a pixel column). */
export interface PointBin {
  bin: number;
  count: number;
  /** The owner with most points in the bin. */
  owner: number;
  mixed: boolean;
  /** First point index in the bin. */
  first: number;
}

/** Bins the points inside `w` into `bins` equal steps; empty bins are left out. */
export function binPoints(ring: RingModel, w: ZoomWindow, bins: number): PointBin[] {
  const out: PointBin[] = [];
  const n = ring.points.length;
  if (n === 0 || bins <= 0) return out;
  const span = w.to - w.from + 1;
  // Points per owner in the current bin, in a flat array with the owners touched listed.
  let owners = 0;
  for (let i = 0; i < n; i++) if (ring.owner[i] >= owners) owners = ring.owner[i] + 1;
  const counts = new Int32Array(owners);
  const touched: number[] = [];
  let cur: PointBin | null = null;
  const close = (): void => {
    if (!cur) return;
    let best = touched[0];
    for (const o of touched) if (counts[o] > counts[best]) best = o;
    cur.owner = best;
    cur.mixed = touched.length > 1;
    out.push(cur);
    for (const o of touched) counts[o] = 0;
    touched.length = 0;
    cur = null;
  };
  let i = lowerBound(ring.points, w.from);
  for (; i < n && ring.points[i] <= w.to; i++) {
    const b = Math.min(bins - 1, Math.floor(((ring.points[i] - w.from) * bins) / span));
    if (!cur || cur.bin !== b) {
      close();
      cur = { bin: b, count: 0, owner: 0, mixed: false, first: i };
    }
    cur.count++;
    const o = ring.owner[i];
    if (counts[o]++ === 0) touched.push(o);
  }
  close();
  return out;
}

function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
