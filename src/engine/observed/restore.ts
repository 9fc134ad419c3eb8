/**
 * A Key_Shared subscription put into the state a broker reported, so that routes read the report
 * and every what-if continues from it (CONTRACT.md section 4):
 * - AUTO_SPLIT hash ranges: the selector's map is the reported ranges' upper bounds, so later
 *   joins split and leaves merge exactly as the broker's `HashRangeAutoSplitStickyKeyConsumerSelector`
 *   would from there (the history that led to it does not matter any more);
 * - STICKY: the consumers connect in order with the reported ranges;
 * - consistent hashing: the ring is rebuilt by connecting the observed consumers in order; routes
 *   keep reading the reported ring (ReportedRing) until an event changes the subscription, and
 *   where the rebuilt ring differs from the report, the comparison says where.
 * Each group of partitions that reports alike gets its own selector: one group for `observed`,
 * one per partition for `observedPartitions`.
 */
import { AutoSplitHashRangeSelector } from '../pulsar/keyShared/autoSplitHashRange';
import { ConsumerAssignError, type Consumer, type HashRange, type SegmentTable, type StickyKeyConsumerSelector } from '../pulsar/keyShared/selector';
import { createSelector, KeySharedSubscription, type SelectorConfig } from '../pulsar/keyShared/subscription';
import type { SubscriptionConfig } from '../settings';
import { compareTables, type LayoutComparison } from './compare';
import { ConsistentHashing4Selector } from '../pulsar/keyShared/consistentHashing4';
import { connectWithIndexes, inferNameIndexes } from './nameIndexes';
import { ReportedRing } from './reportedLayout';
import { occurrences } from './settings';
import { sameLayout } from './validate';
import type { DrainingHash, ObservedState } from './types';

export interface DrainingEntry extends DrainingHash {
  /** The consumer holding the unacknowledged messages (the hash's previous owner). */
  consumer: Consumer;
}

export interface ObservedGroup {
  state: ObservedState;
  /** Routing view while the subscription is as reported: the reported ring; absent where the model is the report. */
  view?: StickyKeyConsumerSelector;
  /** The selector events apply to, in the state restored from the report. */
  model: StickyKeyConsumerSelector;
  draining: ReadonlyMap<number, DrainingEntry>;
  /** The model against the report: unequal only for a ring rebuilt differently. */
  modelComparison: LayoutComparison;
  /**
   * The layout connecting the configured consumers in their configured order gives, against the
   * report: worked out when a view asks (a whole selector built again), not for every route.
   */
  predicted(): LayoutComparison;
  /** What the model had to assume where the report does not show it (a 4.x ring's name indexes). */
  assumptions: string[];
}

export interface RestoredSubscription {
  subscription: KeySharedSubscription;
  groups: ObservedGroups;
  /** First partition of each group (`[0]` for `observed`, `[0, 1, ..., n-1]` per partition). */
  groupStarts: number[];
}

export function restoreObserved(cfg: SelectorConfig, sub: SubscriptionConfig): RestoredSubscription {
  const states = sub.observed ? [sub.observed] : sub.observedPartitions ?? [];
  // Consumers in the configured order, with their ids; a STICKY consumer carries the ranges the
  // broker reported for it.
  const reportedRanges = new Map<string, readonly HashRange[]>();
  for (const s of states) for (const [key, c] of occurrences(s.consumers)) if (!reportedRanges.has(key)) reportedRanges.set(key, c.ranges);
  const byKey = new Map<string, Consumer>();
  const consumers = occurrences(sub.consumers.map((c) => ({ name: c.name, ranges: c.ranges ?? [], drainingHashes: [] }))).map(([id, c], i) => {
    const configured = sub.consumers[i].ranges;
    const ranges = cfg.keySharedMode === 'STICKY' ? (reportedRanges.get(id) ?? configured) : undefined;
    const consumer: Consumer = ranges ? { id, name: c.name, ranges } : { id, name: c.name };
    byKey.set(id, consumer);
    return consumer;
  });
  const configuredConsumers = cfg.keySharedMode === 'STICKY' ? sub.consumers.map((c, i) => ({ ...consumers[i], ranges: c.ranges })) : consumers;

  // What the configured consumers connected in order give: the same for every group, so built once
  // (a partition per group on a 4-partition report of a 1,000 x 100 point ring built it four times).
  let configuredTable: SegmentTable | undefined;
  const configured = () => (configuredTable ??= connectInOrder(cfg, configuredConsumers, true).segmentTable());
  const groups = new ObservedGroups(states.length, (g, last) => restoreGroup(cfg, states[g], byKey, configured, last));
  return {
    subscription: KeySharedSubscription.withState(cfg, consumers, states.length, (g) => groups.get(g)!.model),
    groups,
    groupStarts: states.map((_, i) => i),
  };
}

/**
 * A report's groups, each restored when first read, in order (a group may take the layout of the
 * one before). A 4-partition report of a 1,000 x 100 point ring took 150-250 ms to restore, in one
 * task of the panel's idle warm-up that a click then waited for; restored a part at a time
 * (`restoreNext`), no task takes more than a part of one partition's. Exact as long as every group
 * is restored before any event changes a model, which the subscription sees to: each of its
 * changes and its clone restore them all first.
 */
export class ObservedGroups {
  readonly #restored: ObservedGroup[] = [];
  /** The rest of the next group, whose model is restored (see restoreGroup). */
  #rest: (() => ObservedGroup) | undefined;

  constructor(
    readonly length: number,
    private readonly restore: (group: number, last: ObservedGroup | undefined) => () => ObservedGroup,
  ) {}

  /** Restores the next part (a group's model, or the rest of it); false when every group is restored. */
  restoreNext(): boolean {
    if (this.#restored.length >= this.length) return false;
    if (this.#rest) {
      this.#restored.push(this.#rest());
      this.#rest = undefined;
    } else this.#rest = this.restore(this.#restored.length, this.#restored.at(-1));
    return true;
  }

  /** Group `g`, restored now if it was not yet; undefined past the last. */
  get(g: number): ObservedGroup | undefined {
    if (g < 0 || g >= this.length) return undefined;
    while (this.#restored.length <= g) this.restoreNext();
    return this.#restored[g];
  }

  all(): readonly ObservedGroup[] {
    this.get(this.length - 1);
    return this.#restored;
  }
}

/**
 * A group restored in two parts, each a task of the panel's idle warm-up: its model (the
 * selector events apply to, its layout worked out), and then, from the returned function, the
 * report's own layout and its comparison with the model (taken before any event changes the
 * model: ObservedGroups). On the reported 3.0 ring of 1,000 x 100 points these were one task of
 * 143-167 ms in the panel.
 *
 * `last` is the partition before. Where its consumers reported the same ranges in the same order (a
 * partitioned topic whose consumers all subscribe to every partition, as most do), its model,
 * layout, comparison and assumptions hold for this partition too: it takes them (the model cloned,
 * before any event changes one) and keeps only its own draining hashes. On a ring of 1,000 x 100
 * points the model took 15-25 ms a partition to connect, and the report's table and its comparison
 * with the model 20-30 ms more in the panel.
 */
function restoreGroup(cfg: SelectorConfig, state: ObservedState, byKey: Map<string, Consumer>, configured: () => SegmentTable, last?: ObservedGroup): () => ObservedGroup {
  const reported = occurrences(state.consumers).map(([key, c]) => ({ consumer: byKey.get(key)!, ranges: c.ranges, draining: c.drainingHashes }));
  const draining = new Map<number, DrainingEntry>();
  for (const r of reported) for (const d of r.draining) draining.set(d.hash, { ...d, consumer: r.consumer });
  if (last && sameLayout(last.state, state)) return () => ({ ...last, state, model: last.model.clone(), draining });
  let model: StickyKeyConsumerSelector;
  const assumptions: string[] = [];
  if (cfg.keySharedMode === 'AUTO_SPLIT' && !cfg.consistentHashing) {
    const entries = reported.map((r) => [r.ranges[0][1], r.consumer] as const).sort((a, b) => a[0] - b[0]);
    model = AutoSplitHashRangeSelector.withState(cfg.brokerVersion, cfg.hashRangeSize, entries);
  } else if (cfg.keySharedMode === 'AUTO_SPLIT' && cfg.brokerVersion === '4.0') {
    // The 4.x ring: each consumer at the name index its reported ranges show (nameIndexes.ts).
    const ring = createSelector(cfg) as ConsistentHashing4Selector;
    const inferred = inferNameIndexes(ring, reported);
    const got = connectWithIndexes(ring, reported.map((r) => r.consumer), inferred.map((i) => i.index));
    inferred.forEach((inf, i) => {
      if (inf.unknown) assumptions.push(indexAssumption(reported[i].consumer, reported[i].ranges.length, inf.unknown, got[i], cfg.replicaPoints));
    });
    model = ring;
  } else {
    model = connectInOrder(cfg, reported.map((r) => r.consumer));
  }
  const modelTable = model.segmentTable();
  return () => {
    // A ring's routes read the report until an event (reportedLayout.ts); other selectors' models are their reports.
    const view = cfg.keySharedMode === 'AUTO_SPLIT' && cfg.consistentHashing ? new ReportedRing(createSelector(cfg), reported) : undefined;
    const shown = (view ?? model).segmentTable();
    const modelComparison = view ? compareTables(shown, modelTable, ringReason(cfg)) : compareTables(shown, shown, '');
    let predicted: LayoutComparison | undefined;
    return {
      state,
      view,
      model,
      draining,
      modelComparison,
      predicted: () => (predicted ??= compareTables(shown, configured(), predictionReason(cfg))),
      assumptions,
    };
  };
}

function indexAssumption(c: Consumer, ranges: number, why: 'noPoints' | 'ambiguous' | 'noFit', got: number, replicaPoints: number): string {
  if (why === 'noFit') {
    return `the ranges of ${c.id} do not end at the points of any name index with replicaPoints ${replicaPoints}: its name or replicaPoints differs from the broker's; the rebuilt ring gives it name index ${got}`;
  }
  const what = why === 'ambiguous' ? 'its few range ends fit several name indexes' : ranges === 0 ? 'it owns no range' : 'none of its ranges ends at one of its points';
  return `the report does not show ${c.id}'s name index (${what}); the rebuilt ring gives it ${got}, the lowest free index in connectedSince order, which is wrong if it connected while another consumer named ${JSON.stringify(c.name)} was connected`;
}

/** A fresh selector with `consumers` connected in order; refused ones are skipped where `lenient`. */
function connectInOrder(cfg: SelectorConfig, consumers: readonly Consumer[], lenient = false): StickyKeyConsumerSelector {
  const s = createSelector(cfg);
  for (const c of consumers) {
    try {
      s.addConsumer(c);
    } catch (e) {
      // The report was checked (validate.ts), so only a configured prediction can be refused.
      if (!(e instanceof ConsumerAssignError) || !lenient) throw e;
    }
  }
  return s;
}

function ringReason(cfg: SelectorConfig): string {
  return cfg.brokerVersion === '4.0'
    ? `a 4.x ring's points depend on each consumer's name index (the lowest index free among live consumers of that name when it connected, reused after a disconnect) and on which consumer took a colliding point first, which the report does not show; and on replicaPoints (${cfg.replicaPoints} here) matching the broker's subscriptionKeySharedConsistentHashingReplicaPoints`
    : `a 3.x ring depends only on the consumers' names, the order among consumers of the same name and replicaPoints (${cfg.replicaPoints} here): check them against the broker's consumer names and subscriptionKeySharedConsistentHashingReplicaPoints`;
}

function predictionReason(cfg: SelectorConfig): string {
  if (cfg.keySharedMode === 'STICKY') return 'the configured consumers ask for other ranges than the broker reported';
  if (!cfg.consistentHashing) {
    return 'AUTO_SPLIT split points depend on the whole connection history: consumers that connected and left since, and the order they connected in, move them';
  }
  return ringReason(cfg);
}
