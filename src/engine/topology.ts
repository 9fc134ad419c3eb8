/**
 * The state of the configured topics as a history of events: Kafka partition counts, Pulsar
 * partition counts and Key_Shared subscriptions. Routing a key reads this state.
 */
import type { TopologyEvent } from './events';
import { partitionForKey } from './kafka/partitioner';
import { murmur2 } from './kafka/murmur2';
import { pulsarRoutingKey, type MessageKey } from './key';
import { pulsarPartition } from './pulsar/producerRouting';
import { createSelector, KeySharedSubscription, type Outcome } from './pulsar/keyShared/subscription';
import { tableIndexAt, type StickyKeyConsumerSelector } from './pulsar/keyShared/selector';
import type { KafkaTopicConfig, Problem, PulsarTopicConfig, Settings, TopicConfig } from './settings';
import { ObservedTopic, type DrainingMark } from './observed/observedTopic';
import { restoreObserved } from './observed/restore';

/** What `route` prints for one key on one topic (CONTRACT.md). */
export interface Route {
  key: string;
  topic: string;
  system: 'kafka' | 'pulsar';
  partition: number | null;
  /** Kafka: the partitioner's hash, signed 32-bit (murmur2 before masking). */
  hash?: number;
  /** Pulsar: what the broker's `makeStickyKeyHash` returns. */
  stickyKeyHash?: number;
  consumer?: string | null;
  range?: [number, number] | null;
  /** Pulsar: the consumer and range come from what the broker reported (CONTRACT.md section 4). */
  observed?: true;
  /** Pulsar 4.x: the key's hash drains at another consumer, which holds unacknowledged messages of it. */
  draining?: DrainingMark;
}

export type RouteFields = Omit<Route, 'key'>;

export abstract class TopicState {
  abstract readonly config: TopicConfig;
  abstract partitions: number;
  abstract apply(event: TopologyEvent): Outcome<void>;
  abstract route(key: MessageKey): RouteFields;
  /**
   * An independent state equal to this one (as replaying the same events from the settings would
   * leave it): applying events to either does not change the other.
   */
  abstract clone(): TopicState;
  get name(): string {
    return this.config.name;
  }
}

export class KafkaTopicState extends TopicState {
  partitions: number;
  constructor(readonly config: KafkaTopicConfig) {
    super();
    this.partitions = config.partitions;
  }

  apply(event: TopologyEvent): Outcome<void> {
    if (event.kind !== 'partitions') {
      return { ok: false, error: `Kafka topic ${this.name} has no Key_Shared subscription; consumer events apply to Pulsar topics` };
    }
    // Kafka only ever adds partitions (CreatePartitions), with these messages.
    if (event.count === this.partitions) return { ok: false, error: `Topic already has ${this.partitions} partitions.` };
    if (event.count < this.partitions) {
      return { ok: false, error: `Topic currently has ${this.partitions} partitions, which is higher than the requested ${event.count}.` };
    }
    this.partitions = event.count;
    return { ok: true, value: undefined };
  }

  clone(): KafkaTopicState {
    const c = new KafkaTopicState(this.config);
    c.partitions = this.partitions;
    return c;
  }

  route(key: MessageKey): RouteFields {
    return {
      topic: this.name,
      system: 'kafka',
      partition: partitionForKey(key.bytes, this.partitions),
      hash: murmur2(key.bytes),
    };
  }
}

export class PulsarTopicState extends TopicState {
  partitions: number;
  readonly subscription?: KeySharedSubscription;
  /** First partition of each selector group: partitions created later get fresh selectors. */
  private groupStarts: number[] = [0];
  /** Hashes keys where there is no subscription, by the generation's default selector (never given consumers). */
  private readonly hashOnly: StickyKeyConsumerSelector;
  /** What the broker reported about the subscription, where the settings carry it. */
  readonly observed?: ObservedTopic;

  constructor(
    readonly config: PulsarTopicConfig,
    /** For `clone()`: the subscription state to take instead of a new one. */
    from?: { subscription?: KeySharedSubscription; groupStarts: number[]; partitions: number; hashOnly: StickyKeyConsumerSelector; observed?: ObservedTopic },
  ) {
    super();
    if (from) {
      this.partitions = from.partitions;
      this.subscription = from.subscription;
      this.groupStarts = from.groupStarts;
      this.hashOnly = from.hashOnly;
      this.observed = from.observed;
      return;
    }
    this.partitions = config.partitions;
    const sub = config.subscription;
    const selectorConfig = {
      brokerVersion: config.brokerVersion,
      keySharedMode: sub?.keySharedMode ?? 'AUTO_SPLIT',
      consistentHashing: sub?.consistentHashing ?? true,
      replicaPoints: sub?.replicaPoints ?? 100,
      hashRangeSize: sub?.hashRangeSize ?? 65536,
    } as const;
    if (sub?.observed || sub?.observedPartitions) {
      const r = restoreObserved(selectorConfig, sub);
      this.subscription = r.subscription;
      this.groupStarts = r.groupStarts;
      this.observed = new ObservedTopic(r.groups, config.partitions);
    } else if (sub) this.subscription = new KeySharedSubscription(selectorConfig);
    this.hashOnly = createSelector(selectorConfig);
  }

  clone(): PulsarTopicState {
    return new PulsarTopicState(this.config, {
      partitions: this.partitions,
      subscription: this.subscription?.clone(),
      groupStarts: this.groupStarts.slice(),
      hashOnly: this.hashOnly,
      observed: this.observed?.clone(),
    });
  }

  /** Connects the configured consumers; each one the broker refuses is reported, not fatal. */
  connectConfigured(problems: Problem[]): void {
    // A reported state is already connected (engine/observed/restore.ts).
    if (this.observed) return;
    for (const c of this.config.subscription?.consumers ?? []) {
      const r = this.subscription!.connect(c.name, c.ranges);
      if (!r.ok) problems.push({ path: c.path, message: `the broker refuses consumer ${JSON.stringify(c.name)}: ${r.error}` });
    }
  }

  apply(event: TopologyEvent): Outcome<void> {
    if (event.kind === 'partitions') {
      if (this.partitions === 0) {
        return { ok: false, error: `${this.name} is a non-partitioned topic; Pulsar cannot add partitions to it` };
      }
      if (event.count <= this.partitions) {
        return { ok: false, error: 'Number of new partitions must be greater than existing number of partitions' };
      }
      if (this.subscription) {
        this.subscription.addSelectorForNewPartitions();
        this.groupStarts.push(this.partitions);
      }
      this.partitions = event.count;
      return { ok: true, value: undefined };
    }
    if (!this.subscription) return { ok: false, error: `topic ${this.name} has no Key_Shared subscription configured` };
    const r = event.kind === 'connect' ? this.subscription.connect(event.name, event.ranges) : this.subscription.disconnect(event.id);
    if (!r.ok) return r;
    this.observed?.consumersChanged();
    return { ok: true, value: undefined };
  }

  /** The selector group serving a partition (or the non-partitioned topic). */
  private groupOf(partition: number | null): number {
    let g = 0;
    if (partition !== null) while (g + 1 < this.groupStarts.length && this.groupStarts[g + 1] <= partition) g++;
    return g;
  }

  /**
   * The selector routing a partition (or the non-partitioned topic): a reported ring while the
   * subscription is as the broker reported it, else the subscription's.
   */
  selectorFor(partition: number | null): StickyKeyConsumerSelector {
    if (!this.subscription) return this.hashOnly;
    const g = this.groupOf(partition);
    return this.observed?.view(g) ?? this.subscription.selectorAt(g);
  }

  route(key: MessageKey): RouteFields {
    const partition =
      this.partitions > 0 ? pulsarPartition(this.config.hashingScheme, pulsarRoutingKey(key), this.partitions) : null;
    const selector = this.selectorFor(partition);
    const stickyKeyHash = selector.makeStickyKeyHash(key.bytes);
    // Object literals, not `{ ...out, consumer, range }`: V8 took the spread's slow path here
    // (about 10 us a key, twenty times the rest of the route). Same fields, same order.
    if (!this.subscription) return { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: null, range: null };
    const consumer = selector.select(stickyKeyHash);
    let range: [number, number] | null = null;
    if (consumer) {
      const t = selector.segmentTable();
      const i = tableIndexAt(t, selector.slotOf(stickyKeyHash));
      if (i >= 0) range = [t.starts[i], t.ends[i]];
    }
    if (!this.observed) return { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: consumer?.id ?? null, range };
    const out: RouteFields = { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: consumer?.id ?? null, range };
    const g = this.groupOf(partition);
    if (this.observed.reports(g)) out.observed = true;
    const draining = this.observed.draining(g, stickyKeyHash, consumer, this.subscription.consumers);
    if (draining) out.draining = draining;
    return out;
  }
}

export class Topology {
  readonly topics: TopicState[];

  /** Builds the state with the configured consumers connected; refusals go to `problems`. */
  constructor(settings: Settings, problems: Problem[]) {
    this.topics = settings.topics.map((t) => (t.system === 'kafka' ? new KafkaTopicState(t) : new PulsarTopicState(t)));
    for (const t of this.topics) if (t instanceof PulsarTopicState) t.connectConfigured(problems);
  }

  topic(name: string): TopicState | undefined {
    return this.topics.find((t) => t.name === name);
  }
}
