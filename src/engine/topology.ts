/**
 * The state of the configured topics as a history of events: Kafka partition counts, Pulsar
 * partition counts and Key_Shared subscriptions. Routing a key reads this state.
 */
import { toHex } from './bytes';
import type { TopologyEvent } from './events';
import { partitionerNamed, place, type Partitioner } from './kafka/partitioners';
import { serializeKey } from './kafka/serializers';
import type { MessageKey } from './key';
import { isCppScheme, producerPlacement } from './pulsar/producerRouting';
import { createSelector, KeySharedSubscription, type Outcome } from './pulsar/keyShared/subscription';
import { tableIndexAt, type Consumer, type StickyKeyConsumerSelector } from './pulsar/keyShared/selector';
import type { KafkaTopicConfig, Problem, PulsarTopicConfig, Settings, TopicConfig } from './settings';
import { buildGroups } from './kafka/groupTopology';
import type { ConsumerGroupState } from './kafka/consumerGroup';
import { ObservedTopic, type DrainingMark } from './observed/observedTopic';
import { restoreObserved } from './observed/restore';

/** What `route` prints for one key on one topic (CONTRACT.md). */
export interface Route {
  key: string;
  topic: string;
  system: 'kafka' | 'pulsar';
  partition: number | null;
  /** Why `partition` is null on a partitioned topic: the client picks at random or ignores the key. */
  note?: string;
  /**
   * The producer client's hash where it hashes the key: Kafka, the partitioner's 32-bit hash as a
   * signed int (murmur2 before masking for `java`); Pulsar, `makeHash` (31 bits), shown for the C++
   * client's schemes and for topics that list `producers`.
   */
  hash?: number;
  /** Kafka topics with a `keySerializer`: the serialized key in hex (what the partitioner hashed). */
  keyHex?: string;
  /** Topics that list `producers`: each producer's partition (null where it has none fixed). */
  byProducer?: Record<string, number | null>;
  /** Topics that list `producers`: whether two of them put the key on different partitions. */
  disagree?: boolean;
  /** Pulsar: what the broker's `makeStickyKeyHash` returns. */
  stickyKeyHash?: number;
  consumer?: string | null;
  range?: [number, number] | null;
  /** Pulsar: the consumer and range come from what the broker reported (CONTRACT.md section 4). */
  observed?: true;
  /** Pulsar 4.x: the key's hash drains at another consumer, which holds unacknowledged messages of it. */
  draining?: DrainingMark;
  /** The topic's key serializer cannot take this key: nothing else is said about it. */
  error?: string;
}

export type RouteFields = Omit<Route, 'key'>;

/** A route as the CLI prints it: a key the serializer refused is `{key, topic, error}`. */
export function routeLine(key: string, r: RouteFields): Route | { key: string; topic: string; error: string } {
  return r.error !== undefined ? { key, topic: r.topic, error: r.error } : { key, ...r };
}

/**
 * Whether producers that put a key on these partitions disagree: two different partitions, or a
 * producer with no fixed partition (null) next to any other. One producer never disagrees.
 */
export function producersDisagree(partitions: ReadonlyArray<number | null>): boolean {
  if (partitions.length < 2) return false;
  const first = partitions[0];
  return first === null || partitions.some((p) => p !== first);
}

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
  readonly partitioner: Partitioner;
  readonly producers: Partitioner[] | undefined;
  constructor(readonly config: KafkaTopicConfig) {
    super();
    this.partitions = config.partitions;
    this.partitioner = partitionerNamed(config.partitioner);
    this.producers = config.producers?.map(partitionerNamed);
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
    const c = this.config;
    let bytes = key.bytes;
    if (c.keySerializer !== undefined) {
      const s = serializeKey(c.keySerializer, key, c.schemaId);
      if (!s.ok) return { topic: this.name, system: 'kafka', partition: null, error: s.error };
      bytes = s.bytes;
    }
    const n = this.partitions;
    // A client whose string bytes are not Java's (kafkajs) differs only for a key that is not well formed.
    const odd = c.keySerializer === undefined && !key.hex && key.text !== null && !key.text.isWellFormed();
    const own = (p: Partitioner) => (odd && p.textBytes ? p.textBytes(key.text!) : bytes);
    const mine = own(this.partitioner);
    const placed = place(this.partitioner, mine, mine.length, n);
    const out: RouteFields = { topic: this.name, system: 'kafka', partition: placed.partition };
    if (placed.note !== undefined) out.note = placed.note;
    if (placed.hash !== undefined) out.hash = placed.hash;
    if (c.keySerializer !== undefined) out.keyHex = toHex(bytes);
    if (this.producers) {
      const parts = this.producers.map((p) => {
        const b = own(p);
        return place(p, b, b.length, n).partition;
      });
      out.byProducer = Object.fromEntries(this.producers.map((p, i) => [p.name, parts[i]]));
      out.disagree = producersDisagree(parts);
    }
    return out;
  }
}

export class PulsarTopicState extends TopicState {
  partitions: number;
  readonly subscription?: KeySharedSubscription;
  /** First partition of each selector group: partitions created later get fresh selectors. */
  #groupStarts: number[] = [0];
  /** Hashes keys where there is no subscription, by the generation's default selector (never given consumers). */
  readonly #hashOnly: StickyKeyConsumerSelector;
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
      this.#groupStarts = from.groupStarts;
      this.#hashOnly = from.hashOnly;
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
      this.#groupStarts = r.groupStarts;
      this.observed = new ObservedTopic(r.groups, config.partitions);
    } else if (sub) this.subscription = new KeySharedSubscription(selectorConfig);
    this.#hashOnly = createSelector(selectorConfig);
  }

  clone(): PulsarTopicState {
    return new PulsarTopicState(this.config, {
      partitions: this.partitions,
      subscription: this.subscription?.clone(),
      groupStarts: this.#groupStarts.slice(),
      hashOnly: this.#hashOnly,
      observed: this.observed?.clone(),
    });
  }

  /** Connects the configured consumers; each one the broker refuses is reported, not fatal. */
  connectConfigured(problems: Problem[]): void {
    // A reported state is already connected (engine/observed/restore.ts).
    if (this.observed) return;
    const consumers = this.config.subscription?.consumers ?? [];
    this.subscription?.connectAll(consumers).forEach((r, i) => {
      const c = consumers[i];
      if (!r.ok) problems.push({ path: c.path, message: `the broker refuses consumer ${JSON.stringify(c.name)}: ${r.error}` });
    });
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
        this.#groupStarts.push(this.partitions);
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

  /** The selector group serving a partition (or the non-partitioned topic); also the index of its report. */
  groupOf(partition: number | null): number {
    let g = 0;
    if (partition !== null) while (g + 1 < this.#groupStarts.length && this.#groupStarts[g + 1] <= partition) g++;
    return g;
  }

  /**
   * The selector routing a partition (or the non-partitioned topic): a reported ring while the
   * subscription is as the broker reported it, else the subscription's.
   */
  selectorFor(partition: number | null): StickyKeyConsumerSelector {
    if (!this.subscription) return this.#hashOnly;
    const g = this.groupOf(partition);
    return this.observed?.view(g) ?? this.subscription.selectorAt(g);
  }

  /**
   * The selectors by the partitions they serve: group g serves partitions [first, next group's
   * first) (every partition for a non-partitioned topic or one without added partitions). Lets a
   * caller look up a partition's selector without anything per partition.
   */
  selectorGroups(): Array<{ first: number; selector: StickyKeyConsumerSelector }> {
    if (!this.subscription) return [{ first: 0, selector: this.#hashOnly }];
    return this.#groupStarts.map((first, g) => ({ first, selector: this.observed?.view(g) ?? this.subscription!.selectorAt(g) }));
  }

  route(key: MessageKey): RouteFields {
    const c = this.config;
    const n = this.partitions;
    const placed = n > 0 ? producerPlacement(c.hashingScheme, key, n) : null;
    const partition = placed ? placed.partition : null;
    const selector = this.selectorFor(partition);
    const stickyKeyHash = selector.makeStickyKeyHash(key.bytes);
    // The C++ schemes and `producers` are section 3 of the contract: their lines say the client's
    // hash and the producers' partitions; the Java client's schemes keep section 2's fields.
    if (c.producers || isCppScheme(c.hashingScheme)) {
      const out = this.#clientFields(key, partition, placed?.hash);
      out.stickyKeyHash = stickyKeyHash;
      const consumer = this.subscription ? selector.select(stickyKeyHash) : undefined;
      out.consumer = consumer?.id ?? null;
      out.range = consumer ? ownerRange(selector, stickyKeyHash) : null;
      if (this.observed && consumer !== undefined) this.#markObserved(out, partition, stickyKeyHash, consumer);
      return out;
    }
    // Object literals, not `{ ...out, consumer, range }`: V8 took the spread's slow path here
    // (about 10 us a key, twenty times the rest of the route). Same fields, same order.
    if (!this.subscription) return { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: null, range: null };
    const consumer = selector.select(stickyKeyHash);
    const range = consumer ? ownerRange(selector, stickyKeyHash) : null;
    if (!this.observed) return { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: consumer?.id ?? null, range };
    const out: RouteFields = { topic: this.name, system: 'pulsar', partition, stickyKeyHash, consumer: consumer?.id ?? null, range };
    this.#markObserved(out, partition, stickyKeyHash, consumer);
    return out;
  }

  /** A route's marks from the broker's report: read off it (`observed`), and a draining hash. */
  #markObserved(out: RouteFields, partition: number | null, stickyKeyHash: number, consumer: Consumer | null): void {
    const g = this.groupOf(partition);
    if (this.observed!.reports(g)) out.observed = true;
    const draining = this.observed!.draining(g, stickyKeyHash, consumer, this.subscription!.consumers);
    if (draining) out.draining = draining;
  }

  /** The fields of a section 3 line before the broker's: partition, the client's hash, the producers. */
  #clientFields(key: MessageKey, partition: number | null, hash: number | undefined): RouteFields {
    const out: RouteFields = { topic: this.name, system: 'pulsar', partition };
    if (hash !== undefined) out.hash = hash;
    const producers = this.config.producers;
    if (producers) {
      const n = this.partitions;
      const parts = producers.map((s) => (n > 0 ? producerPlacement(s, key, n).partition : null));
      out.byProducer = Object.fromEntries(producers.map((s, i) => [s, parts[i]]));
      // A non-partitioned topic has nothing to disagree on.
      out.disagree = n > 0 && producersDisagree(parts);
    }
    return out;
  }
}

/** The owner's contiguous range holding the hash, in the selector's slot space (null if none). */
function ownerRange(selector: StickyKeyConsumerSelector, stickyKeyHash: number): [number, number] | null {
  const range = selector.rangeOf?.(stickyKeyHash);
  if (range !== undefined) return range;
  const t = selector.segmentTable();
  const i = tableIndexAt(t, selector.slotOf(stickyKeyHash));
  return i >= 0 ? [t.starts[i], t.ends[i]] : null;
}

export class Topology {
  readonly topics: TopicState[];
  /** Kafka consumer groups (`keyRouting.kafkaGroups`), each after its first rebalance (or as observed). */
  readonly groups: ConsumerGroupState[];

  /** Builds the state with the configured consumers connected; refusals go to `problems`. */
  constructor(settings: Settings, problems: Problem[]) {
    this.topics = settings.topics.map((t) => (t.system === 'kafka' ? new KafkaTopicState(t) : new PulsarTopicState(t)));
    for (const t of this.topics) if (t instanceof PulsarTopicState) t.connectConfigured(problems);
    this.groups = buildGroups(settings.kafkaGroups, settings.topics, problems);
  }

  group(name: string): ConsumerGroupState | undefined {
    return this.groups.find((g) => g.name === name);
  }

  topic(name: string): TopicState | undefined {
    return this.topics.find((t) => t.name === name);
  }
}
