/**
 * A Key_Shared subscription's connection history: consumers connect and disconnect in order and
 * get their ids (CONTRACT.md: `name`, then `name#k` for the k-th consumer of that name that ever
 * connected and was not refused). AUTO_SPLIT layouts and 4.x ring points depend on this history,
 * not just on who is connected, so the selector is driven event by event.
 */
import { AutoSplitHashRangeSelector } from './autoSplitHashRange';
import { ConsistentHashing3Selector } from './consistentHashing3';
import { ConsistentHashing4Selector } from './consistentHashing4';
import { ExclusiveHashRangeSelector } from './exclusiveHashRange';
import { ConsumerAssignError, consumerId, type BrokerVersion, type Consumer, type HashRange, type StickyKeyConsumerSelector } from './selector';

export type KeySharedMode = 'AUTO_SPLIT' | 'STICKY';

export interface SelectorConfig {
  brokerVersion: BrokerVersion;
  keySharedMode: KeySharedMode;
  /** `subscriptionKeySharedUseConsistentHashing` (AUTO_SPLIT only). */
  consistentHashing: boolean;
  /** `subscriptionKeySharedConsistentHashingReplicaPoints`. */
  replicaPoints: number;
  /** The hash-range selectors' range size. */
  hashRangeSize: number;
}

export function createSelector(cfg: SelectorConfig): StickyKeyConsumerSelector {
  if (cfg.keySharedMode === 'STICKY') return new ExclusiveHashRangeSelector(cfg.brokerVersion, cfg.hashRangeSize);
  if (!cfg.consistentHashing) return new AutoSplitHashRangeSelector(cfg.brokerVersion, cfg.hashRangeSize);
  return cfg.brokerVersion === '4.0'
    ? new ConsistentHashing4Selector(cfg.replicaPoints)
    : new ConsistentHashing3Selector(cfg.replicaPoints);
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

export class KeySharedSubscription {
  /** Live consumers in connection order. */
  #live: Consumer[] = [];
  /** How many consumers of each name ever connected (refused ones not counted). */
  #nameCounts = new Map<string, number>();
  /** Selectors that follow this subscription (one per group of partitions, see Topology). */
  #selectors: StickyKeyConsumerSelector[];
  /** A restored subscription's selectors still to be made: group g's when first read (see `withState`). */
  #toRestore?: { count: number; selector: (group: number) => StickyKeyConsumerSelector };

  constructor(readonly config: SelectorConfig) {
    this.#selectors = [createSelector(config)];
  }

  /**
   * An independent subscription in the same state, as replaying the same connection history
   * would leave it (same consumer objects, ids, selector layouts): a what-if runs on a clone
   * instead of connecting every consumer again.
   */
  clone(): KeySharedSubscription {
    const c = new KeySharedSubscription(this.config);
    c.#live = this.#live.slice();
    c.#nameCounts = new Map(this.#nameCounts);
    c.#selectors = this.#all().map((s) => s.clone());
    return c;
  }

  /**
   * A subscription whose `count` selectors are put into their state directly (from a broker's
   * report, engine/observed) instead of by replaying connections, each by `selector(g)` when
   * first read or, all of them, before the first change: `consumers` are live in connection
   * order, and later ids continue from them.
   */
  static withState(config: SelectorConfig, consumers: readonly Consumer[], count: number, selector: (group: number) => StickyKeyConsumerSelector): KeySharedSubscription {
    const s = new KeySharedSubscription(config);
    s.#live = consumers.slice();
    for (const c of consumers) s.#nameCounts.set(c.name, (s.#nameCounts.get(c.name) ?? 0) + 1);
    s.#selectors = [];
    s.#toRestore = { count, selector };
    return s;
  }

  /** Makes the next restored selector not made yet; false when none is left. */
  restoreNext(): boolean {
    const r = this.#toRestore;
    if (!r || this.#selectors.length >= r.count) return false;
    this.#selectors.push(r.selector(this.#selectors.length));
    return true;
  }

  /** Every selector, the restored ones made first (before a change, so each from its report). */
  #all(): StickyKeyConsumerSelector[] {
    while (this.restoreNext());
    return this.#selectors;
  }

  get consumers(): readonly Consumer[] {
    return this.#live;
  }

  /** The selector of the subscription's first partition group (what `ranges` describes). */
  get selector(): StickyKeyConsumerSelector {
    return this.selectorAt(0);
  }

  /** A new selector fed with the consumers connected now, in connection order. */
  addSelectorForNewPartitions(): StickyKeyConsumerSelector {
    const s = createSelector(this.config);
    for (const c of this.#live) {
      try {
        s.addConsumer(c);
      } catch (e) {
        // A fresh selector can refuse what the old one took (AUTO_SPLIT never does: the same
        // number of splits fits; STICKY ranges were already validated together). Keep going.
        if (!(e instanceof ConsumerAssignError)) throw e;
      }
    }
    this.#all().push(s);
    return s;
  }

  selectorAt(group: number): StickyKeyConsumerSelector {
    while (group >= this.#selectors.length && this.restoreNext());
    return this.#selectors[group];
  }

  /**
   * Connects consumers in order, as `connect` does each. Into a subscription with none yet, a
   * selector that can take them all at once (STICKY, where no range overlaps another) does.
   */
  connectAll(list: ReadonlyArray<{ name: string; ranges?: readonly HashRange[] }>): Array<Outcome<Consumer>> {
    // No consumer has connected yet (each would be counted), so the selectors are empty and alike,
    // and each answers `addConsumersAtOnce` as the first does.
    if (this.#nameCounts.size === 0) {
      const counts = new Map<string, number>();
      const consumers = list.map(({ name, ranges }): Consumer => {
        const k = (counts.get(name) ?? 0) + 1;
        counts.set(name, k);
        return { id: consumerId(name, k), name, ranges };
      });
      if (this.#all().every((s) => s.addConsumersAtOnce?.(consumers))) {
        this.#live = consumers;
        this.#nameCounts = counts;
        return consumers.map((value) => ({ ok: true, value }));
      }
    }
    return list.map((c) => this.connect(c.name, c.ranges));
  }

  /** Connects a consumer; refused (and not counted for ids) where any selector refuses it. */
  connect(name: string, ranges?: readonly HashRange[]): Outcome<Consumer> {
    const k = (this.#nameCounts.get(name) ?? 0) + 1;
    const consumer: Consumer = { id: consumerId(name, k), name, ranges };
    const added: StickyKeyConsumerSelector[] = [];
    try {
      for (const s of this.#all()) {
        s.addConsumer(consumer);
        added.push(s);
      }
    } catch (e) {
      if (!(e instanceof ConsumerAssignError)) throw e;
      for (const s of added) s.removeConsumer(consumer);
      return { ok: false, error: e.message };
    }
    this.#nameCounts.set(name, k);
    this.#live.push(consumer);
    return { ok: true, value: consumer };
  }

  disconnect(id: string): Outcome<Consumer> {
    const consumer = this.#live.find((c) => c.id === id);
    if (consumer === undefined) return { ok: false, error: `no connected consumer has the id ${JSON.stringify(id)}` };
    for (const s of this.#all()) s.removeConsumer(consumer);
    this.#live = this.#live.filter((c) => c !== consumer);
    return { ok: true, value: consumer };
  }
}
