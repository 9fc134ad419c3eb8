/**
 * The consistent-hashing ring: every consumer's points, and for a key the arc from its hash
 * clockwise to the point that owns it (wrapping past the top of the space to the first point).
 * Points are binned per angle (or per pixel column of a zoomed strip) for drawing, so 100,000
 * points cost one pass.
 */
import { ConsistentHashing3Selector } from '../../engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../engine/pulsar/keyShared/consistentHashing4';
import { ceilingIndex } from '../../engine/pulsar/keyShared/ringPoints';
import type { StickyKeyConsumerSelector } from '../../engine/pulsar/keyShared/selector';
import { int32Column } from '../../engine/spareColumns';
import { ownerIndexes, type OwnerInfo, type OwnerTable } from './owners';
import type { ZoomWindow } from './segments';

/** Angular columns the ring is drawn in (half a degree each). */
export const RING_COLUMNS = 720;

export interface RingModel {
  space: [number, number];
  /** Point hashes, ascending. */
  points: Int32Array;
  /** Owner index (into the shared owner table) of each point. */
  owner: Int32Array;
  /** 4.x: the consumers queued behind a point's holder (promoted when it leaves), by point index. */
  queued(point: number): string[];
}

export function isRingSelector(s: StickyKeyConsumerSelector): s is ConsistentHashing3Selector | ConsistentHashing4Selector {
  return s instanceof ConsistentHashing3Selector || s instanceof ConsistentHashing4Selector;
}

/** A ring's points as plain columns; the 4.x queues (consumers waiting behind a point's holder) flat. */
export interface RingColumnsModel {
  space: [number, number];
  points: Int32Array;
  /** Owner index (into the shared owner table) of each point. */
  owner: Int32Array;
  /** Point `i`'s queue is `queueOwner[queueStart[i] .. queueStart[i + 1])` (owner indexes); null without queues. */
  queueStart: Int32Array | null;
  queueOwner: Int32Array | null;
  /** Instead of the columns (a model made where the selector is at hand): the queue read from it when asked. */
  queuedFromSelector?: (point: number) => string[];
}

/**
 * The ring's columns. With `queues` false the 4.x queues are not gathered into columns (a pass over
 * every point) but read from the selector when a tooltip asks: for models that never leave the page.
 */
export function buildRingColumns(selector: ConsistentHashing3Selector | ConsistentHashing4Selector, table: OwnerTable, queues = true): RingColumnsModel {
  const space: [number, number] = [selector.keyHashRange[0], selector.keyHashRange[1]];
  // The selector's columns are never changed: the model may hold them. Owner sets are interned in
  // the order their first point comes, as one lookup per point would.
  const cols = selector.pointColumns();
  const { points, holder, sharedCode, lists } = cols;
  const index = ownerIndexes(holder, points.length, lists, table, sharedCode);
  const owner = int32Column(points.length);
  for (let i = 0; i < points.length; i++) {
    const h = holder[i];
    owner[i] = index[h >= 0 ? h : sharedCode[~h]];
  }
  let queueStart: Int32Array | null = null;
  let queueOwner: Int32Array | null = null;
  if (selector instanceof ConsistentHashing4Selector && !queues) {
    return { space, points, owner, queueStart, queueOwner, queuedFromSelector: (i) => (i >= 0 && i < points.length ? cols.holders(i).slice(1).map((c) => c.id) : []) };
  }
  if (selector instanceof ConsistentHashing4Selector) {
    // Only points where others collided have a queue: the lists of those alone are read.
    queueStart = new Int32Array(points.length + 1);
    const flat: number[] = [];
    for (let i = 0; i < points.length; i++) {
      queueStart[i] = flat.length;
      if (holder[i] < 0) {
        const list = cols.holders(i);
        for (let j = 1; j < list.length; j++) flat.push(table.indexOfOne(list[j]));
      }
    }
    queueStart[points.length] = flat.length;
    queueOwner = Int32Array.from(flat);
  }
  return { space, points, owner, queueStart, queueOwner };
}

/** The ring model over its columns, the queued consumers named from `owners`. */
export function ringModelOf(cols: RingColumnsModel, owners: readonly OwnerInfo[]): RingModel {
  const { queueStart, queueOwner } = cols;
  const queued = (i: number): string[] => {
    if (cols.queuedFromSelector) return cols.queuedFromSelector(i);
    if (!queueStart || !queueOwner || i < 0 || i + 1 >= queueStart.length) return [];
    const out: string[] = [];
    for (let j = queueStart[i]; j < queueStart[i + 1]; j++) out.push(owners[queueOwner[j]]?.label ?? '?');
    return out;
  };
  return { space: cols.space, points: cols.points, owner: cols.owner, queued };
}

/** The index of the point a hash lands on: the first point >= hash, wrapping to the first. -1 for an empty ring. */
export function owningPoint(ring: RingModel, hash: number): number {
  const n = ring.points.length;
  if (n === 0) return -1;
  const i = ceilingIndex(ring.points, hash);
  return i < n ? i : 0;
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

/** The angles a key's arc runs between on the ring: from its hash clockwise past its point (at least a sliver). */
export function arcAngles(arc: { from: number; to: number; wraps: boolean }, space: readonly [number, number]): [number, number] {
  const a0 = angleOf(arc.from, space);
  let a1 = angleOf(arc.to + 1, space);
  if (arc.wraps) a1 += 2 * Math.PI;
  return [a0, Math.max(a1, a0 + 0.004)];
}

/** The pieces of the space a key's arc covers on a bar: one, or two where it wraps past the top. */
export function arcPieces(arc: { from: number; to: number; wraps: boolean }, space: readonly [number, number]): Array<[number, number]> {
  return arc.wraps ? [[arc.from, space[1]], [space[0], arc.to]] : [[arc.from, arc.to]];
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
  const { points, owner } = ring;
  const n = points.length;
  if (n === 0 || bins <= 0) return out;
  const span = w.to - w.from + 1;
  // Points per owner in the current bin, in a flat array with the owners touched listed; one pass
  // with no call per point (100,000 points go through here on first paint).
  let owners = 0;
  for (let i = 0; i < n; i++) if (owner[i] >= owners) owners = owner[i] + 1;
  const counts = new Int32Array(owners);
  const touched = new Int32Array(owners);
  for (let i = ceilingIndex(points, w.from); i < n && points[i] <= w.to; ) {
    const bin = Math.min(bins - 1, Math.floor(((points[i] - w.from) * bins) / span));
    // The bin's points are those below the next bin's first value. A loop per bin: a step's first
    // call runs cold (100,000 points), and a tight inner loop is what cold code does fastest.
    const end = w.from + Math.ceil(((bin + 1) * span) / bins);
    const first = i;
    let nTouched = 0;
    for (; i < n && points[i] < end; i++) if (counts[owner[i]]++ === 0) touched[nTouched++] = owner[i];
    // Drawn in the owner with most points in the bin.
    let best = touched[0];
    for (let t = 0; t < nTouched; t++) if (counts[touched[t]] > counts[best]) best = touched[t];
    out.push({ bin, count: i - first, owner: best, mixed: nTouched > 1, first });
    for (let t = 0; t < nTouched; t++) counts[touched[t]] = 0;
  }
  return out;
}
