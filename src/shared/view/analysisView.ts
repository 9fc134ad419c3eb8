/**
 * The Analysis view's model: one topic's figures from an analysis result (analyze/figures.ts) as
 * bar charts (keys per partition, consumer and bundle: the share of keys against the share of the
 * hash space), skew figures, the heaviest keys with their route on this topic, and the same under
 * a what-if. Pure: no DOM, no `vscode`; the webview draws it and the unit tests check it.
 */
import type { AnalysisResult, HeavyKey, Skew, TopicFigures, TopologyFigures } from '../../analyze/figures';
import type { AnalysisRunInfo } from '../protocol';

/** One bar: a unit (partition, consumer, bundle) or several units drawn together. */
export interface ShareBar {
  label: string;
  /** The unit's own name where the bar is one unit (partition number, consumer id, bundle name). */
  unit?: string;
  /** How many units the bar stands for. */
  units: number;
  keys: number;
  keyShare: number;
  /** The units' share of the hash space; null where it has none (bundles). */
  hashShare: number | null;
  /** keyShare / hashShare: above 1 the bar gets more keys than its share of the hash space. */
  ratio: number | null;
  /** The bar holds the unit with the most keys. */
  hottest: boolean;
}

export type ChartKind = 'partition' | 'consumer' | 'bundle';

export interface ShareChart {
  kind: ChartKind;
  /** Units in the figures (partitions, consumers, bundles). */
  units: number;
  bars: ShareBar[];
  /** 'ranges': neighbouring units drawn as one bar; 'top': the busiest units, the rest as one bar. */
  grouping: 'none' | 'ranges' | 'top';
  /** The largest share any bar shows (key or hash), the top of the axis; at least a tiny bit above 0. */
  scaleMax: number;
  skew: Skew | null;
  /** The unit with the most keys (first of equals), or null with no units. */
  hottest: { unit: string; label: string; keys: number; keyShare: number } | null;
}

export interface TopologyCharts {
  partitions?: ShareChart;
  /** Topics that list producers: the share of keys on which they pick different partitions. */
  producers?: { names: string[]; disagreeKeys: number; disagreeShare: number };
  /** Kafka: keys the client puts on no fixed partition. */
  randomKeys?: number;
  /** Keys the topic's key serializer cannot take. */
  keyErrors?: number;
  consumers?: ShareChart;
  /** Keys nobody owns (STICKY gaps, no consumer): count and share. */
  unowned?: { keys: number; share: number };
  bundles?: ShareChart;
}

export interface HeavyRow {
  rank: number;
  key: string;
  format: 'utf8' | 'hex';
  truncated: boolean;
  count: number;
  exact: boolean;
  maxCount?: number;
  keyShare: number;
  /** Where the key goes on this topic (absent for a truncated key). */
  partition?: number | null;
  consumer?: string | null;
  after?: { partition: number | null; consumer?: string | null };
}

export interface AnalysisTopicView {
  topic: string;
  system: 'kafka' | 'pulsar';
  keys: number;
  before: TopologyCharts;
  after?: TopologyCharts & { movedKeys: number; movedShare: number };
  heavy: {
    rows: HeavyRow[];
    exact: boolean;
    complete: boolean;
    unlistedMax: number;
  };
}

/** Bars a chart draws at most; more units are grouped. */
export const MAX_BARS = 48;

function bar(label: string, unit: string | undefined, units: number, keys: number, keyShare: number, hashShare: number | null, hottest: boolean): ShareBar {
  return { label, unit, units, keys, keyShare, hashShare, ratio: hashShare !== null && hashShare > 0 ? keyShare / hashShare : null, hottest };
}

interface Unit {
  name: string;
  label: string;
  keys: number;
  keyShare: number;
  hashShare: number | null;
}

function hottestOf(units: Unit[]): number {
  let best = -1;
  for (let i = 0; i < units.length; i++) if (best < 0 || units[i].keys > units[best].keys) best = i;
  return best;
}

/**
 * Units as bars: one each when they fit; otherwise neighbours share a bar ('ranges', for
 * partitions and bundles, whose order means something) or the busiest are kept and the rest
 * summed ('top', for consumers).
 */
export function shareChart(kind: ChartKind, units: Unit[], skew: Skew | null, maxBars: number = MAX_BARS): ShareChart {
  const hot = hottestOf(units);
  const hottest = hot < 0 ? null : { unit: units[hot].name, label: units[hot].label, keys: units[hot].keys, keyShare: units[hot].keyShare };
  let bars: ShareBar[];
  let grouping: ShareChart['grouping'] = 'none';
  const max = Math.max(2, maxBars);
  if (units.length <= max) {
    bars = units.map((u, i) => bar(u.label, u.name, 1, u.keys, u.keyShare, u.hashShare, i === hot));
  } else if (kind === 'consumer') {
    grouping = 'top';
    const order = units.map((_, i) => i).sort((a, b) => units[b].keys - units[a].keys || a - b);
    const kept = order.slice(0, max - 1).sort((a, b) => a - b);
    bars = kept.map((i) => bar(units[i].label, units[i].name, 1, units[i].keys, units[i].keyShare, units[i].hashShare, i === hot));
    const rest = order.slice(max - 1);
    bars.push(sum(`${rest.length} other ${kind}s`, rest.map((i) => units[i]), false));
  } else {
    grouping = 'ranges';
    const size = Math.ceil(units.length / max);
    bars = [];
    for (let first = 0; first < units.length; first += size) {
      const last = Math.min(units.length, first + size) - 1;
      const label = `${units[first].label}–${units[last].label}`;
      bars.push(sum(label, units.slice(first, last + 1), hot >= first && hot <= last));
    }
  }
  let scaleMax = 0;
  for (const b of bars) scaleMax = Math.max(scaleMax, b.keyShare, b.hashShare ?? 0);
  return { kind, units: units.length, bars, grouping, scaleMax: scaleMax > 0 ? scaleMax : 1, skew, hottest };
}

function sum(label: string, units: Unit[], hottest: boolean): ShareBar {
  let keys = 0;
  let keyShare = 0;
  let hashShare: number | null = 0;
  for (const u of units) {
    keys += u.keys;
    keyShare += u.keyShare;
    hashShare = hashShare === null || u.hashShare === null ? null : hashShare + u.hashShare;
  }
  return bar(label, undefined, units.length, keys, keyShare, hashShare, hottest);
}

/**
 * A topic of more than 100,000 partitions, whose figures list only the partitions that received
 * keys: drawn as `maxBars` runs of equal width over all the partitions (a run's keys are those of
 * its listed partitions; the hash share is not known per run, so it is left out rather than guessed).
 */
export function sparsePartitionChart(partitions: number, held: ReadonlyArray<{ partition: number; keys: number; keyShare: number }>, skew: Skew | null, maxBars: number = MAX_BARS): ShareChart {
  const runs = Math.max(1, Math.min(maxBars, partitions));
  const size = Math.ceil(partitions / runs);
  const bars: ShareBar[] = [];
  let hot: { partition: number; keys: number; keyShare: number } | null = null;
  for (const p of held) if (!hot || p.keys > hot.keys) hot = p;
  let i = 0;
  for (let first = 0; first < partitions; first += size) {
    const last = Math.min(partitions, first + size) - 1;
    let keys = 0;
    let keyShare = 0;
    for (; i < held.length && held[i].partition <= last; i++) {
      keys += held[i].keys;
      keyShare += held[i].keyShare;
    }
    bars.push(bar(`p${first}–p${last}`, undefined, last - first + 1, keys, keyShare, null, hot !== null && hot.partition >= first && hot.partition <= last));
  }
  let scaleMax = 0;
  for (const b of bars) scaleMax = Math.max(scaleMax, b.keyShare);
  return {
    kind: 'partition',
    units: partitions,
    bars,
    grouping: 'ranges',
    scaleMax: scaleMax > 0 ? scaleMax : 1,
    skew,
    hottest: hot && { unit: String(hot.partition), label: `p${hot.partition}`, keys: hot.keys, keyShare: hot.keyShare },
  };
}

export function topologyCharts(f: TopologyFigures, totalKeys: number, maxBars: number = MAX_BARS): TopologyCharts {
  const out: TopologyCharts = {};
  if (f.producers) out.producers = f.producers;
  if (f.randomKeys) out.randomKeys = f.randomKeys;
  if (f.keyErrors?.count) out.keyErrors = f.keyErrors.count;
  if (f.sparsePartitions && f.partitions > 0) {
    out.partitions = sparsePartitionChart(f.partitions, f.partitionKeys ?? [], f.partitionSkew ?? null, maxBars);
  } else if (f.partitionKeys && f.partitionKeys.length > 0) {
    out.partitions = shareChart(
      'partition',
      f.partitionKeys.map((p) => ({ name: String(p.partition), label: `p${p.partition}`, keys: p.keys, keyShare: p.keyShare, hashShare: p.hashShare })),
      f.partitionSkew ?? null,
      maxBars,
    );
  }
  if (f.consumers) {
    out.consumers = shareChart(
      'consumer',
      f.consumers.map((c) => ({ name: c.id, label: c.id, keys: c.keys, keyShare: c.keyShare, hashShare: c.hashShare })),
      f.consumerSkew ?? null,
      maxBars,
    );
    const unowned = f.unowned ?? 0;
    out.unowned = { keys: unowned, share: totalKeys > 0 ? unowned / totalKeys : 0 };
  }
  if (f.bundles && f.bundles.length > 0) {
    out.bundles = shareChart(
      'bundle',
      // Labelled by the lower bound (`0x40000000_0x80000000` is long under a bar); the name stays the unit.
      f.bundles.map((b) => ({ name: b.bundle, label: b.bundle.split('_')[0], keys: b.keys, keyShare: b.keyShare, hashShare: null })),
      f.bundleSkew ?? null,
      maxBars,
    );
  }
  return out;
}

function heavyRow(k: HeavyKey, rank: number, topic: string): HeavyRow {
  const row: HeavyRow = { rank, key: k.key, format: k.format, truncated: k.truncated === true, count: k.count, exact: k.exact, keyShare: k.keyShare };
  if (k.maxCount !== undefined) row.maxCount = k.maxCount;
  const r = k.routes?.find((x) => x.topic === topic);
  if (r) {
    row.partition = r.partition;
    if (r.consumer !== undefined) row.consumer = r.consumer;
    if (r.after) row.after = r.after;
  }
  return row;
}

/** The figures of `topic` in `result`, ready to draw; undefined where the result has no such topic. */
export function analysisTopicView(result: AnalysisResult, topic: string, maxBars: number = MAX_BARS): AnalysisTopicView | undefined {
  const t: TopicFigures | undefined = result.topics.find((x) => x.topic === topic);
  if (!t) return undefined;
  const out: AnalysisTopicView = {
    topic: t.topic,
    system: t.system,
    keys: t.keys,
    before: topologyCharts(t, t.keys, maxBars),
    heavy: {
      rows: result.heavyKeys.keys.map((k, i) => heavyRow(k, i + 1, topic)),
      exact: result.heavyKeys.exact,
      complete: result.heavyKeys.complete,
      unlistedMax: result.heavyKeys.unlistedMax,
    },
  };
  if (t.after) out.after = { ...topologyCharts(t.after, t.keys, maxBars), movedKeys: t.after.movedKeys, movedShare: t.after.movedShare };
  return out;
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * The run's state in one sentence. A run that did not finish says that its figures cover only
 * the part read, so nothing partial reads as the whole.
 */
export function runStatusText(run: AnalysisRunInfo): string {
  const r = run.result;
  const p = run.progress;
  const keys = r?.input.keys ?? p?.keys ?? 0;
  // While running the progress is newest; after a stop the result says how far the first pass got.
  const bytes = run.status === 'running' ? p?.bytes : (r?.input.bytes ?? p?.bytes);
  const total = p?.totalBytes;
  const read = bytes !== undefined && total ? ` (${Math.min(99, Math.floor((100 * bytes) / total))} % of the input read)` : '';
  switch (run.status) {
    case 'running':
      return p?.phase === 'exact'
        ? `Running: counting the heaviest keys exactly (second pass)… ${count(keys)} keys.`
        : `Running: ${count(keys)} keys so far${read}. The figures below are partial.`;
    case 'cancelled':
      if (r && total !== undefined && r.input.bytes >= total) {
        return `Cancelled in the second pass: all ${count(keys)} keys were counted, but the heaviest keys' counts are bounds, not exact.`;
      }
      return `Cancelled: the figures cover only the ${count(keys)} keys read before the stop${read}, not the whole input.`;
    case 'failed':
      return `Failed: ${run.error ?? 'unknown error'}${keys > 0 ? ` (after ${count(keys)} keys)` : ''}.`;
    case 'complete': {
      const secs = r ? ` in ${(r.elapsedMs / 1000).toFixed(1)} s` : '';
      const skipped = r && r.problems.count > 0 ? `; ${count(r.problems.count)} line${r.problems.count === 1 ? '' : 's'} gave no key` : '';
      return `Complete: ${count(keys)} keys${secs}${skipped}.`;
    }
  }
}
