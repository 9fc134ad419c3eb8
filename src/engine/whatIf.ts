/**
 * What moves when the topology changes: for each event, the hash ranges each consumer lost and
 * gained, the share of the key hash space whose owners changed, and for given keys the route
 * before and after.
 *
 * `lost` is what Pulsar 4.x reports as the impacted consumers (`ImpactedConsumersResult`): the
 * diff of the selector's assignment snapshots before and after, per consumer that owned a range
 * before, with overlapping and adjacent ranges merged. The same diff is applied to 3.x selectors.
 */
import { formatEvent, type TopologyEvent } from './events';
import type { MessageKey } from './key';
import { sameItems } from './sameItems';
import { columnsOf, firstEndingFrom, notIn, type Consumer, type HashRange, type Segment, type SegmentTable, type StickyKeyConsumerSelector } from './pulsar/keyShared/selector';
import { PulsarTopicState, type RouteFields, type TopicState } from './topology';
import type { KeySharedSubscription } from './pulsar/keyShared/subscription';
import { ringChangeWindows, ringPointsOf } from './pulsar/keyShared/ringChange';

export type RangesById = Record<string, Array<[number, number]>>;

export interface WhatIfStep {
  event: string;
  lost: RangesById;
  gained: RangesById;
  movedFraction: number;
  error?: string;
}

export interface OwnershipDiff {
  lost: Map<Consumer, Array<[number, number]>>;
  gained: Map<Consumer, Array<[number, number]>>;
  /** How many of the values in `measure` changed their owner set. */
  movedSize: number;
  /**
   * Where the owner set changed: the union of every range in `lost` and `gained`, ascending and
   * merged. Same-named consumers sharing a 3.x point each lose its arc, so the union is asked of
   * this (one range per arc) rather than of `lost` and `gained` (one per consumer and arc).
   */
  changed: Array<[number, number]>;
}

/**
 * Diffs two assignments. Each elementary interval where the owner sets differ adds to `lost`
 * for the consumers no longer in it and to `gained` for the new ones; ranges per consumer come
 * out ascending with adjacent ones merged (as `mergeOverlappingRanges` does).
 */
export function diffOwnership(
  before: readonly Segment[] | SegmentTable,
  after: readonly Segment[] | SegmentTable,
  measure: HashRange,
  /**
   * Ascending, disjoint ranges outside which the owner sets are known to be the same on both
   * sides (the changes of the steps in between): only these are swept, with the same result.
   * Tables without empty segments (start > end) only, as selectors make them.
   */
  within?: ReadonlyArray<readonly [number, number]>,
  /**
   * False: only `movedSize` and `changed` (`lost` and `gained` stay empty), which is all a whole
   * what-if's moved share and ranges need; where hundreds of same-named consumers share each 3.x
   * point, listing each one's lost arcs cost most of a step.
   */
  perConsumer = true,
): OwnershipDiff {
  return diffTables(asTable(before), asTable(after), measure, within, perConsumer);
}

function asTable(x: readonly Segment[] | SegmentTable): SegmentTable {
  return Array.isArray(x) ? columnsOf(x as readonly Segment[]) : (x as SegmentTable);
}

const NONE: readonly Consumer[] = [];

/**
 * The diff as one sweep over both tables (ascending, non-overlapping), from the first boundary of
 * either to the last: each elementary interval is a run between two consecutive boundaries
 * (a segment's start or end + 1, on either side), where both sides' owners are constant.
 */
function diffTables(before: SegmentTable, after: SegmentTable, measure: HashRange, within: ReadonlyArray<readonly [number, number]> | undefined, perConsumer: boolean): OwnershipDiff {
  const diff: OwnershipDiff = { lost: new Map(), gained: new Map(), movedSize: 0, changed: [] };
  const bn = before.count;
  const an = after.count;
  if (bn === 0 && an === 0) return diff;
  if (!within) {
    // (An empty table's least start is Infinity and greatest end -Infinity.)
    const first = Math.min(min(before.starts, bn), min(after.starts, an));
    const last = Math.max(max(before.ends, bn), max(after.ends, an));
    sweep(before, after, measure, first, last, 0, 0, diff, perConsumer);
    return diff;
  }
  // Each window whole: where it reaches past both tables' segments, nobody owns anything on either
  // side and the sweep crosses that stretch in one run. (Bounding the windows by the tables' first
  // start and last end took two scans of the tables, 5 ms a step on a ring of a million points.)
  // Segments ending before the window are skipped by search rather than one by one.
  for (const [lo, hi] of within) sweep(before, after, measure, lo, hi, firstEndingFrom(before, lo), firstEndingFrom(after, lo), diff, perConsumer);
  return diff;
}


/**
 * Adds the changes over `[pos, last]` to `diff`, starting at segments `bi` and `ai` (none of the
 * earlier ones reaching `pos`). Windows must come ascending: ranges merge with the last one.
 */
function sweep(before: SegmentTable, after: SegmentTable, measure: HashRange, pos: number, last: number, bi: number, ai: number, diff: OwnershipDiff, perConsumer: boolean): void {
  const bn = before.count;
  const an = after.count;
  while (pos <= last) {
    // Skip segments that end before `pos` (and any with start > end, which cover nothing).
    while (bi < bn && before.ends[bi] < pos) bi++;
    while (ai < an && after.ends[ai] < pos) ai++;
    // A segment on each side from here to the same end with the same owners: nothing changed over
    // it (most of a ring after one step), skipped at once.
    if (bi < bn && ai < an && before.starts[bi] === pos && after.starts[ai] === pos && before.ends[bi] === after.ends[ai]) {
      const b = before.owners[before.owner[bi]];
      const a = after.owners[after.owner[ai]];
      if (b === a || (b.length === 1 && a.length === 1 && b[0] === a[0])) {
        pos = before.ends[bi] + 1;
        continue;
      }
    }
    const bIn = bi < bn && before.starts[bi] <= pos;
    const aIn = ai < an && after.starts[ai] <= pos;
    // The run ends before the next boundary on either side.
    let end = last;
    if (bi < bn) end = Math.min(end, bIn ? before.ends[bi] : before.starts[bi] - 1);
    if (ai < an) end = Math.min(end, aIn ? after.ends[ai] : after.starts[ai] - 1);
    const b = bIn ? before.owners[before.owner[bi]] : NONE;
    const a = aIn ? after.owners[after.owner[ai]] : NONE;
    if (b !== a && !(b.length === 1 && a.length === 1 && b[0] === a[0]) && ownersDiffer(b, a, pos, end, diff, perConsumer)) {
      const lo = Math.max(pos, measure[0]);
      const hi = Math.min(end, measure[1]);
      if (hi >= lo) diff.movedSize += hi - lo + 1;
      // Runs come ascending (windows too): one meeting the last extends it.
      const runs = diff.changed;
      const prev = runs[runs.length - 1];
      if (prev && prev[1] + 1 === pos) prev[1] = end;
      else runs.push([pos, end]);
    }
    pos = end + 1;
  }
}

/**
 * Whether the owner lists `b` (before) and `a` (after) hold different consumers; with `perConsumer`,
 * adds `[pos, end]` to `lost` for each consumer only in `b` and to `gained` for each only in `a`.
 */
function ownersDiffer(b: readonly Consumer[], a: readonly Consumer[], pos: number, end: number, diff: OwnershipDiff, perConsumer: boolean): boolean {
  // A list holds each consumer once, so lists of different lengths differ, and lists in the same
  // order do not: neither builds a set of a shared point's thousand consumers. Nor are two lists
  // of one consumer each given to `notIn`: those are most of the runs a what-if's sweep meets (one
  // per moved arc), and when the whole what-if's sweep still crossed every step's arcs, two `notIn`
  // arrays for each were 11 of its 20 ms at the 18th step on a 3.x ring of 100 x 1,000 points.
  if (!perConsumer) return b.length !== a.length || (b.length === 1 ? b[0] !== a[0] : !sameItems(b, a) && notIn(b, a).length > 0);
  const gone = notIn(b, a);
  // A list holds each consumer once: where every one of `a` is in `b` too (a consumer leaving a
  // shared point), nobody gained.
  const come = b.length - gone.length === a.length ? [] : notIn(a, b);
  for (const c of gone) add(diff.lost, c, pos, end);
  for (const c of come) add(diff.gained, c, pos, end);
  return gone.length + come.length > 0;
}

function min(a: Float64Array | Int32Array, n: number): number {
  let m = Infinity;
  for (let i = 0; i < n; i++) if (a[i] < m) m = a[i];
  return m;
}

function max(a: Float64Array | Int32Array, n: number): number {
  let m = -Infinity;
  for (let i = 0; i < n; i++) if (a[i] > m) m = a[i];
  return m;
}

function add(map: Map<Consumer, Array<[number, number]>>, c: Consumer, start: number, end: number): void {
  let list = map.get(c);
  if (!list) map.set(c, (list = []));
  const last = list[list.length - 1];
  if (last && last[1] + 1 >= start) last[1] = Math.max(last[1], end);
  else list.push([start, end]);
}

function byId(map: Map<Consumer, Array<[number, number]>>): RangesById {
  const out: RangesById = {};
  for (const [c, ranges] of map) out[c.id] = ranges;
  return out;
}

export function measureSize(m: HashRange): number {
  return m[1] - m[0] + 1;
}

/**
 * The selector's snapshot as it is now. Later changes to the selector cannot alter it: the answer
 * is frozen (segments and their consumer lists), and a change makes the selector answer anew
 * instead of changing it. Taken twice without a change in between, it is the same array.
 */
export function takeSnapshot(selector: StickyKeyConsumerSelector): Segment[] {
  return selector.snapshot();
}

function subscriptionOf(topic: TopicState): KeySharedSubscription | undefined {
  return topic instanceof PulsarTopicState ? topic.subscription : undefined;
}

/** The subscription selector a what-if describes (partition 0's), if the topic has one. */
export function whatIfSelector(topic: TopicState): StickyKeyConsumerSelector | undefined {
  return topic instanceof PulsarTopicState ? topic.subscription?.selector : undefined;
}

export interface WhatIfResult {
  /** Where the steps start from a ring rebuilt differently from the one the broker reported. */
  note?: string;
  steps: WhatIfStep[];
  keys: Array<{ key: string; before: RouteFields & { key: string }; after: RouteFields & { key: string }; moved: boolean }>;
}

/**
 * Applies the events in order to `topic` (which it changes) and describes each step.
 * `keys` are routed before the first event and after the last.
 */
export function runWhatIf(
  topic: TopicState,
  events: TopologyEvent[],
  keys: Array<{ shown: string; key: MessageKey }>,
  /** Called after each event with the topic as it left it (the panel keeps clones for its ordering note). */
  onStep?: (index: number, topic: TopicState) => void,
  /** False: each step's `lost` and `gained` stay empty (see `whatIfStep`). */
  perConsumer = true,
): WhatIfResult {
  const before = keys.map((k) => ({ key: k.shown, ...topic.route(k.key) }));
  const note = topic instanceof PulsarTopicState ? topic.observed?.note() : undefined;
  const steps: WhatIfStep[] = [];
  for (const event of events) {
    steps.push(whatIfStep(topic, event, keys, perConsumer));
    onStep?.(steps.length - 1, topic);
  }
  const out = routesAfter(topic, keys, before);
  return note ? { note, steps, keys: out } : { steps, keys: out };
}

/**
 * Applies one event to `topic` (which it changes) and describes the step. Without `perConsumer`,
 * `lost` and `gained` stay empty: the panel shows a step's moved share and ranges only, and where
 * a thousand same-named consumers share each 3.x ring point, listing what each of them lost was
 * most of a step (and of the garbage it left).
 */
export function whatIfStep(topic: TopicState, event: TopologyEvent, keys: ReadonlyArray<{ key: MessageKey }>, perConsumer = true): WhatIfStep {
  const selector = whatIfSelector(topic);
  // Tables are never changed once built: the one taken before the event stays as it was.
  const snapBefore = selector ? selector.snapshotTable() : undefined;
  const partitionsBefore = event.kind === 'partitions' ? keys.map((k) => topic.route(k.key).partition) : [];
  // A leaving consumer's ring points, asked before it leaves (a 4.x ring frees its name index).
  const leaving = event.kind === 'disconnect' && selector ? subscriptionOf(topic)?.consumers.find((c) => c.id === event.id) : undefined;
  const leavingPoints = leaving && selector ? ringPointsOf(selector, leaving) : undefined;
  const r = topic.apply(event);
  const step: WhatIfStep = { event: formatEvent(event), lost: {}, gained: {}, movedFraction: 0 };
  if (!r.ok) {
    step.error = r.error;
  } else if (event.kind === 'partitions') {
    const moved = keys.filter((k, i) => topic.route(k.key).partition !== partitionsBefore[i]).length;
    step.movedFraction = keys.length > 0 ? moved / keys.length : 0;
  } else if (selector) {
    // Only the arcs next to the consumer's points can change (see ringChange.ts).
    const joined = event.kind === 'connect' ? subscriptionOf(topic)?.consumers.at(-1) : undefined;
    const points = joined ? ringPointsOf(selector, joined) : leavingPoints;
    const within = points && ringChangeWindows(snapBefore!, points);
    const d = diffOwnership(snapBefore!, selector.snapshotTable(), selector.keyValues, within, perConsumer);
    step.lost = byId(d.lost);
    step.gained = byId(d.gained);
    step.movedFraction = d.movedSize / measureSize(selector.keyValues);
    stepChanges.set(step, d.changed);
  }
  return step;
}

/**
 * Where each consumer step changed owners, the union of its `lost` and `gained` ranges (ascending,
 * merged), kept beside the step (a step is also the command line's output); none for a step that
 * was refused or that no selector took.
 */
export const stepChanges = new WeakMap<WhatIfStep, ReadonlyArray<readonly [number, number]>>();

/** The keys routed on `topic` as it is now, against their routes `before` (same order). */
export function routesAfter(
  topic: TopicState,
  keys: ReadonlyArray<{ shown: string; key: MessageKey }>,
  before: ReadonlyArray<WhatIfResult['keys'][number]['before']>,
): WhatIfResult['keys'] {
  return keys.map((k, i) => {
    const after = { key: k.shown, ...topic.route(k.key) };
    const b = before[i];
    const moved = b.partition !== after.partition || b.consumer !== after.consumer;
    return { key: k.shown, before: b, after, moved };
  });
}
