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
import type { OwnerInfo } from './owners';
import { fullWindow, layoutSegments, Segments, type SegmentsModel } from './segments';
import { keyId, toShownKey, type KeyEntry } from './shownKeys';
import { markerOf, partitionsModel, selectorColumns, shownSelector, type KeyMarker, type SelectorColumns, type TopicViewModel } from './topicView';
import { buildGroupView, groupsOf, MAX_COUNTED_PARTITIONS, type GroupViewModel } from './groupView';
import type { ConsumerGroupState } from '../../engine/kafka/consumerGroup';

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

/**
 * A selector frame's consumer ids, owner labels (index 0 is nobody) and the owners of several
 * consumers (a shared 3.0 ring point) as [owner index, ids] (an owner's ids are otherwise its label).
 */
type FrameNames = [string[], string[], Array<[number, string[]]>];

/**
 * The shown selector in as few bytes as the panel can rebuild it from: VS Code clones a message
 * into the webview more than once, and a ring of 100,000 points is megabytes as a segments model.
 * The model covers its space, so only the segment ends are sent (each start is the previous end +
 * 1). Owners are sent as columns, and the 4.x queues not at all (a tooltip reads them from the
 * panel's own topology once it has one).
 */
export interface SelectorFrame {
  algorithm: SelectorColumns['algorithm'];
  brokerVersion: SelectorColumns['brokerVersion'];
  /**
   * `FrameNames` as JSON: a message is cloned an object and a string at a time, and a workspace
   * of forty 1,000 x 100 rings sent 250,000 names and lists in its frames, 60% of the objects of a
   * message whose clone was 70 ms of a first picture of 106 (81 as strings). A string is copied
   * whole, and read when its topic is shown.
   */
  names: string;
  space: [number, number];
  keyValues: [number, number];
  ownerColors: Int16Array;
  ownerValues: Float64Array;
  /** Segment ends and owners (a ring's too: rebuilding them from its points was most of the panel's first picture). */
  ends: Int32Array;
  owner: Int32Array;
  ring: { points: Int32Array; owner: Int32Array } | null;
}

/**
 * A consumer group of a Kafka topic as the panel draws it (`buildGroupView` without the keys),
 * with the member owning each partition the frame's keys go to: the panel's first picture of a
 * group of 500 members on 10,000 partitions then assigns nothing itself (the assignor's run was
 * most of that picture).
 */
export interface GroupFrame {
  view: Omit<GroupViewModel, 'keys'>;
  /** [partition, member or null] for the partitions of the frame's keys. */
  keyMembers: Array<[number, string | null]>;
}

export interface TopicFrame {
  name: string;
  system: 'kafka' | 'pulsar';
  partitions: TopicViewModel['partitions'];
  selector: SelectorFrame | null;
  keys: KeyRouteFrame[];
  layouts?: FrameLayouts;
  /** Kafka: the groups consuming the topic, in the topology's order (absent past MAX_COUNTED_PARTITIONS: the panel asks its topology). */
  groups?: GroupFrame[];
}

export interface FrameOptions {
  /** The topic the panel shows: its frame comes first and is sent whatever the others cost. */
  shown?: string;
  /** Partition owners to look up (see `GROUP_FRAME_BUDGET`). */
  groupBudget?: number;
  /** Rows for the other topics' frames (see `FRAME_ROW_BUDGET`). */
  rowBudget?: number;
}

/**
 * The frames of the topics, with the routes of `keys` (those that are keys: bad hex is left out):
 * the shown topic's, with `width` its full space laid out for a panel that wide, then the others'
 * in the topology's order while they fit the row budget (a topic without a frame is drawn from the
 * panel's own topology, which its idle warm-up builds).
 */
export function buildFrames(topology: Topology, keys: readonly KeyInput[], width?: number, options: FrameOptions = {}): TopicFrame[] {
  const entries = keys.map(toShownKey);
  let budget = options.groupBudget ?? GROUP_FRAME_BUDGET;
  let rows = options.rowBudget ?? FRAME_ROW_BUDGET;
  const shown = topology.topics.filter((t) => t.name === options.shown);
  const frames: TopicFrame[] = [];
  for (const t of [...shown, ...topology.topics.filter((t) => t.name !== options.shown)]) {
    const counted = t instanceof KafkaTopicState && t.partitions <= MAX_COUNTED_PARTITIONS;
    const groups = counted ? groupsOf(topology, t.name) : [];
    let cost = entries.length;
    for (const g of groups) cost += g.members.size;
    if (frames.length > 0) {
      if (cost > rows) continue;
      rows -= cost;
    }
    // Only the shown topic's picture is drawn at once: laying out the others' rings (6 ms each for
    // 100,000 points) was most of the host's frames of a workspace of forty rings (440 ms a state).
    const f = buildFrame(t, entries, frames.length === 0 ? width : undefined);
    // Within the budget the host spends on owners per message; past it, the panel asks its own topology.
    const owners = groups.length * t.partitions;
    if (counted && owners <= budget) {
      budget -= owners;
      f.groups = groups.map((g) => groupFrame(g, t, f.keys));
    }
    frames.push(f);
  }
  return frames;
}

/**
 * Objects (a key's route, a group member's row) the frames of the topics not shown may hold in one
 * message. A workspace of 200 Kafka topics of 50 partitions under one 500-member group sent 10 MB
 * of frames (a route per key and a row per member for every topic): cloning it into the webview
 * and checking it took 140 ms of the panel's first picture. The shown topic's frame always goes.
 */
export const FRAME_ROW_BUDGET = 10_000;

/**
 * Partition owners (partitions x groups, over all topics) the host looks up for one message's
 * frames: a settings file of many large topics must not make each state message slow.
 */
export const GROUP_FRAME_BUDGET = 2_000_000;

function groupFrame(g: ConsumerGroupState, t: KafkaTopicState, keys: readonly KeyRouteFrame[]): GroupFrame {
  const view: Omit<GroupViewModel, 'keys'> & { keys?: unknown } = buildGroupView(g, t, []);
  delete view.keys;
  const keyMembers = new Map<number, string | null>();
  for (const k of keys) {
    const p = k.route.partition;
    if (p !== null && !keyMembers.has(p)) keyMembers.set(p, g.ownerOf(t.name, p));
  }
  return { view, keyMembers: [...keyMembers] };
}

/**
 * The group `name` of a frame, for the view's keys (as `buildGroupView` gives it from the
 * engine's group), or undefined where the frame has no such group or does not hold together (the
 * panel then asks its own topology).
 */
export function groupOfFrame(f: TopicFrame, name: string, markers: ReadonlyArray<Pick<KeyMarker, 'n' | 'label' | 'route'>>): GroupViewModel | undefined {
  const g = Array.isArray(f.groups) ? f.groups.find((x) => x?.view?.group === name) : undefined;
  if (!g || !Array.isArray(g.keyMembers) || !Array.isArray(g.view.members) || !Array.isArray(g.view.notes)) return undefined;
  const v = g.view;
  if (!(v.owner instanceof Int32Array) || v.owner.length !== v.partitions) return undefined;
  const byPartition = new Map(g.keyMembers);
  const members = v.members.map((m) => ({ ...m, keys: 0 }));
  const index = new Map(members.map((m, i) => [m.id, i]));
  const keys: GroupViewModel['keys'] = [];
  for (const k of markers) {
    const r = k.route as { partition: number | null; note?: string; error?: string };
    if (r.error !== undefined) keys.push({ n: k.n, label: k.label, partition: null, member: null, why: r.error });
    else if (r.partition === null) keys.push({ n: k.n, label: k.label, partition: null, member: null, why: r.note ?? 'no fixed partition' });
    else {
      if (!byPartition.has(r.partition)) return undefined;
      const member = byPartition.get(r.partition) ?? null;
      const i = member === null ? undefined : index.get(member);
      if (i !== undefined) members[i].keys++;
      keys.push({ n: k.n, label: k.label, partition: r.partition, member });
    }
  }
  return { ...v, members, notes: v.notes.slice(), keys };
}

export function buildFrame(topic: TopicState, keys: readonly KeyEntry[], width?: number): TopicFrame {
  const partitions = partitionsModel(topic);
  const sel = selectorColumns(topic, undefined, false);
  const ring = sel?.ring ? ringModelOf(sel.ring, sel.segments.owners) : null;
  const routes: KeyRouteFrame[] = [];
  for (const k of keys) {
    if (!k.shown) continue;
    const m = markerOf(topic, shownSelector(topic), sel?.segments ?? null, ring, k.shown, 0);
    routes.push({ key: { format: k.input.format, value: k.input.value }, route: m.route, slot: m.slot, segment: m.segment, arc: m.arc });
  }
  const frame: TopicFrame = { name: topic.name, system: topic instanceof KafkaTopicState ? 'kafka' : 'pulsar', partitions, selector: sel && selectorFrame(sel), keys: routes };
  if (sel && width !== undefined && Number.isInteger(width) && width > 0) frame.layouts = layoutsOf(sel.segments, ring, width);
  return frame;
}

function selectorFrame(sel: SelectorColumns): SelectorFrame {
  const m = sel.segments;
  const owners = m.owners;
  const ownerIds: Array<[number, string[]]> = [];
  owners.forEach((o, i) => {
    if (o.ids.length !== 1 || o.ids[0] !== o.label) ownerIds.push([i, o.ids.slice()]);
  });
  return {
    algorithm: sel.algorithm,
    brokerVersion: sel.brokerVersion,
    names: JSON.stringify([sel.consumers, owners.map((o) => o.label), ownerIds]),
    space: [m.space[0], m.space[1]],
    keyValues: [m.keyValues[0], m.keyValues[1]],
    ownerColors: Int16Array.from(owners, (o) => o.color),
    ownerValues: Float64Array.from(owners, (o) => o.values),
    ends: copyOf(new Int32Array(m.ends.length), m.ends),
    owner: m.owner.slice(),
    ring: sel.ring ? { points: sel.ring.points, owner: sel.ring.owner } : null,
  };
}

/** A selector frame's names, or undefined where they are not three lists. */
function namesOf(f: SelectorFrame): FrameNames | undefined {
  try {
    const names = JSON.parse(f.names) as FrameNames;
    return Array.isArray(names) && names.length === 3 && names.every(Array.isArray) ? names : undefined;
  } catch {
    return undefined;
  }
}

/** The segments model of a frame (see `SelectorFrame`), or undefined where its columns do not hold together. */
function segmentsOfFrame(f: SelectorFrame, [, labels, ownerIds]: FrameNames): SegmentsModel | undefined {
  const [lo, hi] = f.space;
  const n = labels.length;
  if (n === 0 || !(f.ownerColors instanceof Int16Array) || !(f.ownerValues instanceof Float64Array) || f.ownerColors.length !== n || f.ownerValues.length !== n) return undefined;
  const total = f.keyValues[1] - f.keyValues[0] + 1;
  // Pushed, not `new Array(n)`: a holey array would give the panel's charts a second kind of
  // owners array to optimise for besides the OwnerTable's (V8 deoptimises them on meeting it).
  const owners: OwnerInfo[] = [];
  for (let i = 0; i < n; i++) {
    const label = labels[i];
    owners.push({ ids: i === 0 ? [] : [label], label, color: f.ownerColors[i], values: f.ownerValues[i], share: f.ownerValues[i] / total });
  }
  for (const [i, ids] of ownerIds) if (owners[i] && Array.isArray(ids)) owners[i].ids = ids;
  if (f.ring && (!(f.ring.points instanceof Int32Array) || !(f.ring.owner instanceof Int32Array) || f.ring.points.length !== f.ring.owner.length)) return undefined;
  if (!(f.ends instanceof Int32Array) || !(f.owner instanceof Int32Array) || f.ends.length !== f.owner.length || f.ends.length === 0) return undefined;
  if (f.ends[f.ends.length - 1] !== hi) return undefined;
  // The frame's own columns (the message's copy, never changed); the starts are made from its ends
  // when first read (see Segments).
  return new Segments([lo, hi], [f.keyValues[0], f.keyValues[1]], f.ends.length, undefined, f.ends, f.owner, owners);
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
  let selector: TopicViewModel['selector'] = null;
  if (s) {
    const names = namesOf(s);
    const segments = names && segmentsOfFrame(s, names);
    if (!segments) return undefined;
    const ring = s.ring ? ringModelOf({ space: [s.space[0], s.space[1]], points: s.ring.points, owner: s.ring.owner, queueStart: null, queueOwner: null }, segments.owners) : null;
    selector = { algorithm: s.algorithm, brokerVersion: s.brokerVersion, consumers: names[0], segments, ring };
  }
  const view: TopicViewModel = { name: f.name, system: f.system, partitions: f.partitions, selector, markers };
  seedLayouts(f, view);
  return view;
}

/** The frame is the shape the host sends (its columns are checked as the model is made). */
function frameIsWhole(f: TopicFrame): boolean {
  if (!f || typeof f.name !== 'string' || !Array.isArray(f.keys)) return false;
  const s = f.selector;
  return !s || (Array.isArray(s.space) && Array.isArray(s.keyValues) && typeof s.names === 'string');
}

/**
 * `into` with the values of `from` (converted as a typed array store converts them). `set` copies
 * natively, where `TypedArray.from` and the typed array constructors walk the source through the
 * iteration protocol: for the 91,000 segment ends of a ring, 0.06 ms against 2-3 ms.
 */
function copyOf<T extends Int32Array | Float64Array>(into: T, from: Int32Array | Float64Array): T {
  into.set(from);
  return into;
}
