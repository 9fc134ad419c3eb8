/**
 * The panel's reading of a broker's report (the engine's `observedView`), as plain data for the
 * webview to draw: where a group's partitions are, the runs of the reported layout that differ
 * from the configured order's prediction (capped, the rest counted), and a Kafka group's observed
 * owners as runs of consecutive partitions with one owner (a topic of thousands of partitions is a
 * few lines, not thousands of cells).
 */
import type { LayoutComparison } from '../../engine/observed/compare';
import type { ObservedGroupInfo } from '../../engine/observed/observedTopic';
import { observedView, type KafkaObservedView, type PulsarObservedView } from '../../engine/observed/view';
import type { Topology } from '../../engine/topology';

/** A comparison as the panel shows it: the first runs that differ, and how many more there are. */
export interface PanelComparison {
  equal: boolean;
  size: number;
  reason: string;
  runs: DifferenceRun[];
  more: number;
}

export type PanelObservedGroup = Omit<ObservedGroupInfo, 'predicted' | 'model'> & { predicted: PanelComparison; model: PanelComparison };
export type PanelPulsarObserved = Omit<PulsarObservedView, 'groups'> & { groups: PanelObservedGroup[] };
export type PanelObserved = PanelPulsarObserved | KafkaObservedView;

/**
 * A report as the host sends it to the panel: with only the differing runs the panel lists. (The
 * reported layout is not in it: the host's frames draw it. As runs, a 3-partition ring of 1,000
 * consumers was 28 MB of JSON, which VS Code carries to the webview as JSON: seconds of the
 * extension host's and the workbench's time before the panel could draw.)
 */
export function panelObserved(v: PulsarObservedView | KafkaObservedView): PanelObserved {
  if (v.system === 'kafka') return v;
  const shown = (c: LayoutComparison): PanelComparison => ({ equal: c.equal, size: c.size, reason: c.reason, ...differenceRuns(c) });
  return { ...v, groups: v.groups.map(({ predicted, model, ...g }) => ({ ...g, predicted: shown(predicted), model: shown(model) })) };
}

/** The reports of every topic that has one, as the state message carries them (the host, the panel bench). */
export function panelReports(topology: Topology): PanelObserved[] {
  return topology.topics.flatMap((t) => observedView(topology, t.name) ?? []).map(panelObserved);
}

/** Partitions a group covers: null for a non-partitioned topic, else [first, last]. */
export type PartitionSpan = [number, number] | null;

/** "partition 3" / "partitions 0-5" / "" (non-partitioned), without words: the caller localises. */
export function spanOf(p: PartitionSpan): { kind: 'none' | 'one' | 'many'; first: number; last: number } {
  if (p === null) return { kind: 'none', first: 0, last: 0 };
  return { kind: p[0] === p[1] ? 'one' : 'many', first: p[0], last: p[1] };
}

export interface DifferenceRun {
  start: number;
  end: number;
  reported: string;
  predicted: string;
}

/** The first `max` differing runs, owners joined with " + " ("" for nobody), and how many are left. */
export function differenceRuns(c: LayoutComparison, max = 5): { runs: DifferenceRun[]; more: number } {
  const who = (ids: readonly string[]) => ids.join(' + ');
  return {
    runs: c.differences.slice(0, max).map((d) => ({ start: d.start, end: d.end, reported: who(d.reported), predicted: who(d.other) })),
    more: Math.max(0, c.differences.length - max),
  };
}

export interface OwnerRun {
  first: number;
  last: number;
  /** The member the broker reported, or null (no owner reported). */
  owner: string | null;
}

/** Consecutive partitions with one owner, in partition order. */
export function ownerRuns(owners: ReadonlyArray<string | null>): OwnerRun[] {
  const runs: OwnerRun[] = [];
  owners.forEach((owner, p) => {
    const last = runs[runs.length - 1];
    if (last && last.owner === owner && last.last === p - 1) last.last = p;
    else runs.push({ first: p, last: p, owner });
  });
  return runs;
}
