/**
 * What the host sends the panel so that it can draw a topic at once: the topic's view model as the
 * host's own topology holds it (the host routes with that topology and has worked out every
 * selector's assignment already), with the routes of the keys the panel shows. Without it the
 * panel would connect every consumer again before its first picture: for 1,000 consumers x 100
 * ring points that is most of the time to that picture.
 *
 * A frame is plain data and typed arrays (VS Code passes typed arrays to a webview as buffers, not
 * as JSON), and a topic with 2,147,483,647 partitions costs no more than one with 1: nothing in it
 * is per partition.
 */
import { KafkaTopicState, type RouteFields, type TopicState, type Topology } from '../../engine/topology';
import type { KeyInput } from '../protocol';
import { packBins, packRuns, seedBins, seedLayout, unpackBins, unpackRuns } from './layoutCache';
import { binPoints, RING_COLUMNS, ringModelOf, type RingArc, type RingModel } from './ring';
import { fullWindow, layoutSegments, type SegmentsModel } from './segments';
import { keyId, toShownKey, type KeyEntry } from './shownKeys';
import { markerOf, partitionScheme, selectorColumns, shownSelector, type KeyMarker, type SelectorColumns, type TopicViewModel } from './topicView';

export interface KeyRouteFrame {
  key: KeyInput;
  route: RouteFields;
  slot: number | null;
  segment: number;
  arc: RingArc | null;
}

/**
 * The whole space laid out as the panel's first picture draws it (packed, see `layoutCache.ts`):
 * the bar at the panel's width, the ring's band and points at its 720 angular columns.
 */
export interface FrameLayouts {
  width: number;
  bar: Int32Array;
  barBins: Int32Array | null;
  band: Int32Array | null;
  bandBins: Int32Array | null;
}

export interface TopicFrame {
  name: string;
  system: 'kafka' | 'pulsar';
  partitions: TopicViewModel['partitions'];
  selector: SelectorColumns | null;
  keys: KeyRouteFrame[];
  layouts?: FrameLayouts;
}

/**
 * The frames of every topic, with the routes of `keys` (those that are keys: bad hex is left out),
 * and with `width` the full space laid out for a panel that wide.
 */
export function buildFrames(topology: Topology, keys: readonly KeyInput[], width?: number): TopicFrame[] {
  const entries = keys.map(toShownKey);
  return topology.topics.map((t) => buildFrame(t, entries, width));
}

export function buildFrame(topic: TopicState, keys: readonly KeyEntry[], width?: number): TopicFrame {
  const partitions = topic.partitions > 0 ? { count: topic.partitions, scheme: partitionScheme(topic) } : null;
  const sel = selectorColumns(topic);
  const ring = sel?.ring ? ringModelOf(sel.ring, sel.segments.owners) : null;
  const routes: KeyRouteFrame[] = [];
  for (const k of keys) {
    if (!k.shown) continue;
    const m = markerOf(topic, shownSelector(topic), sel?.segments ?? null, ring, k.shown, 0);
    routes.push({ key: { format: k.input.format, value: k.input.value }, route: m.route, slot: m.slot, segment: m.segment, arc: m.arc });
  }
  const frame: TopicFrame = { name: topic.name, system: topic instanceof KafkaTopicState ? 'kafka' : 'pulsar', partitions, selector: sel, keys: routes };
  if (sel && width !== undefined && Number.isInteger(width) && width > 0) frame.layouts = layoutsOf(sel.segments, ring, width);
  return frame;
}

function layoutsOf(m: SegmentsModel, ring: RingModel | null, width: number): FrameLayouts {
  const full = fullWindow(m.space);
  return {
    width,
    bar: packRuns(layoutSegments(m, full, width)),
    barBins: ring ? packBins(binPoints(ring, full, width)) : null,
    band: ring ? packRuns(layoutSegments(m, full, RING_COLUMNS)) : null,
    bandBins: ring ? packBins(binPoints(ring, full, RING_COLUMNS)) : null,
  };
}

/** Puts a frame's layouts into the layout cache of the view made from it (bad ones are left out). */
function seedLayouts(f: TopicFrame, v: TopicViewModel): void {
  const l = f.layouts;
  const s = v.selector;
  if (!l || !s || !Number.isInteger(l.width) || l.width <= 0) return;
  const m = s.segments;
  const full = fullWindow(m.space);
  const bar = unpackRuns(l.bar, m);
  if (bar) seedLayout(m, full, l.width, bar);
  if (s.ring) {
    const n = s.ring.points.length;
    const band = l.band && unpackRuns(l.band, m);
    if (band) seedLayout(m, full, RING_COLUMNS, band);
    const barBins = l.barBins && unpackBins(l.barBins, m.owners.length, n);
    if (barBins) seedBins(s.ring, full, l.width, barBins);
    const bandBins = l.bandBins && unpackBins(l.bandBins, m.owners.length, n);
    if (bandBins) seedBins(s.ring, full, RING_COLUMNS, bandBins);
  }
}

/**
 * The view model of a frame for the panel's keys in its order, or undefined where the frame does
 * not route one of them (a key added after the host built it) or does not hold together (a stale
 * or foreign message): the panel then works the view out itself.
 */
export function viewOfFrame(f: TopicFrame, keys: readonly KeyEntry[]): TopicViewModel | undefined {
  if (!frameIsWhole(f)) return undefined;
  const byKey = new Map(f.keys.map((k) => [keyId(k.key), k]));
  const markers: KeyMarker[] = [];
  for (const k of keys) {
    if (!k.shown) continue;
    const r = byKey.get(keyId(k.input));
    if (!r) return undefined;
    markers.push({ n: markers.length + 1, label: k.shown.label, route: r.route, slot: r.slot, segment: r.segment, arc: r.arc });
  }
  const s = f.selector;
  const view: TopicViewModel = {
    name: f.name,
    system: f.system,
    partitions: f.partitions,
    selector: s ? { ...s, ring: s.ring ? ringModelOf(s.ring, s.segments.owners) : null } : null,
    markers,
  };
  seedLayouts(f, view);
  return view;
}

/** The columns have the lengths they claim and the owners they point at. */
function frameIsWhole(f: TopicFrame): boolean {
  if (!f || typeof f.name !== 'string' || !Array.isArray(f.keys)) return false;
  const s = f.selector;
  if (!s) return true;
  const m = s.segments;
  if (!m || !(m.starts instanceof Float64Array) || !(m.ends instanceof Float64Array) || !(m.owner instanceof Int32Array) || !Array.isArray(m.owners)) return false;
  // Lengths only: the host built the columns with the engine; a check per element would cost the
  // first picture a pass over 100,000 segments.
  if (m.starts.length !== m.count || m.ends.length !== m.count || m.owner.length !== m.count || m.owners.length === 0) return false;
  const r = s.ring;
  if (r) {
    if (!(r.points instanceof Int32Array) || !(r.owner instanceof Int32Array) || r.points.length !== r.owner.length) return false;
    if (r.queueStart && (!(r.queueStart instanceof Int32Array) || r.queueStart.length !== r.points.length + 1 || !(r.queueOwner instanceof Int32Array))) return false;
  }
  return true;
}
