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
import type { Consumer, HashRange, Segment, StickyKeyConsumerSelector } from './pulsar/keyShared/selector';
import { PulsarTopicState, type RouteFields, type TopicState } from './topology';

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
}

/**
 * Diffs two assignments. Each elementary interval where the owner sets differ adds to `lost`
 * for the consumers no longer in it and to `gained` for the new ones; ranges per consumer come
 * out ascending with adjacent ones merged (as `mergeOverlappingRanges` does).
 */
export function diffOwnership(before: readonly Segment[], after: readonly Segment[], measure: HashRange): OwnershipDiff {
  const lost = new Map<Consumer, Array<[number, number]>>();
  const gained = new Map<Consumer, Array<[number, number]>>();
  let movedSize = 0;
  // Boundaries where either side changes.
  const cuts = new Set<number>();
  for (const s of [...before, ...after]) {
    cuts.add(s.start);
    cuts.add(s.end + 1);
  }
  const points = [...cuts].sort((a, b) => a - b);
  let bi = 0;
  let ai = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i];
    const end = points[i + 1] - 1;
    while (bi < before.length && before[bi].end < start) bi++;
    while (ai < after.length && after[ai].end < start) ai++;
    const b = bi < before.length && before[bi].start <= start ? before[bi].consumers : [];
    const a = ai < after.length && after[ai].start <= start ? after[ai].consumers : [];
    let changed = false;
    for (const c of b) {
      if (!a.includes(c)) {
        add(lost, c, start, end);
        changed = true;
      }
    }
    for (const c of a) {
      if (!b.includes(c)) {
        add(gained, c, start, end);
        changed = true;
      }
    }
    if (changed) {
      const lo = Math.max(start, measure[0]);
      const hi = Math.min(end, measure[1]);
      if (hi >= lo) movedSize += hi - lo + 1;
    }
  }
  return { lost, gained, movedSize };
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
 * The selector's snapshot, copied so that later changes to the selector cannot alter it: the 3.0
 * ring's segments share its point lists, which `addConsumer` updates in place, so a snapshot taken
 * before an event would otherwise already show the consumer the event adds.
 */
export function takeSnapshot(selector: StickyKeyConsumerSelector): Segment[] {
  return selector.snapshot().map((s) => ({ start: s.start, end: s.end, consumers: [...s.consumers] }));
}

/** The subscription selector a what-if describes (partition 0's), if the topic has one. */
export function whatIfSelector(topic: TopicState): StickyKeyConsumerSelector | undefined {
  return topic instanceof PulsarTopicState ? topic.subscription?.selector : undefined;
}

export interface WhatIfResult {
  steps: WhatIfStep[];
  keys: Array<{ key: string; before: RouteFields & { key: string }; after: RouteFields & { key: string }; moved: boolean }>;
}

/**
 * Applies the events in order to `topic` (which it changes) and describes each step.
 * `keys` are routed before the first event and after the last.
 */
export function runWhatIf(topic: TopicState, events: TopologyEvent[], keys: Array<{ shown: string; key: MessageKey }>): WhatIfResult {
  const before = keys.map((k) => ({ key: k.shown, ...topic.route(k.key) }));
  const steps: WhatIfStep[] = [];
  for (const event of events) {
    const selector = whatIfSelector(topic);
    const snapBefore = selector ? takeSnapshot(selector) : [];
    const partitionsBefore = event.kind === 'partitions' ? keys.map((k) => topic.route(k.key).partition) : [];
    const r = topic.apply(event);
    const step: WhatIfStep = { event: formatEvent(event), lost: {}, gained: {}, movedFraction: 0 };
    if (!r.ok) {
      step.error = r.error;
    } else if (event.kind === 'partitions') {
      const moved = keys.filter((k, i) => topic.route(k.key).partition !== partitionsBefore[i]).length;
      step.movedFraction = keys.length > 0 ? moved / keys.length : 0;
    } else if (selector) {
      const d = diffOwnership(snapBefore, selector.snapshot(), selector.keyValues);
      step.lost = byId(d.lost);
      step.gained = byId(d.gained);
      step.movedFraction = d.movedSize / measureSize(selector.keyValues);
    }
    steps.push(step);
  }
  const out = keys.map((k, i) => {
    const after = { key: k.shown, ...topic.route(k.key) };
    const b = before[i];
    const moved = b.partition !== after.partition || b.consumer !== after.consumer;
    return { key: k.shown, before: b, after, moved };
  });
  return { steps, keys: out };
}
