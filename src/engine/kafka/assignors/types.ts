/**
 * What Kafka's assignors take and give, in the shapes the engine uses. The classic (client-side)
 * assignors see member ids, topic names and `TopicPartition`s; the KIP-848 (server-side) ones see
 * topic ids and per-member `Map<Uuid, Set<Integer>>` assignments.
 */
import { STRING, type JavaHashMap, type KeyType } from '../javaHashMap';

/** `org.apache.kafka.common.TopicPartition`. Instances are interned per topic state, so `===` is `equals`. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** `TopicPartition.hashCode()`: `31 * (31 + partition) + topic.hashCode()`; it is not `Comparable`. */
export const TOPIC_PARTITION: KeyType<TopicPartition> = {
  hashCode: (tp) => (Math.imul(31, 31 + tp.partition) + STRING.hashCode(tp.topic)) | 0,
  id: (tp) => `${tp.partition}\u0000${tp.topic}`,
};

/** One `TopicPartition` object per (topic, partition), so lists can be compared with `===`. */
export class TopicPartitions {
  readonly #byTopic = new Map<string, TopicPartition[]>();

  get(topic: string, partition: number): TopicPartition {
    let list = this.#byTopic.get(topic);
    if (!list) this.#byTopic.set(topic, (list = []));
    return (list[partition] ??= { topic, partition });
  }
}

/** Java's `String.compareTo`: UTF-16 code units, which is what JavaScript's `<` compares. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Topic then partition: `TopicPartitionComparator` and the order of a sorted assignment. */
export function compareTopicPartitions(a: TopicPartition, b: TopicPartition): number {
  return compareStrings(a.topic, b.topic) || a.partition - b.partition;
}

/**
 * A classic member's `Subscription` as the leader decodes it from JoinGroup: the topics, the
 * assignor's user data, the partitions it owns (sent by cooperative members; empty under EAGER,
 * which revoked everything before rejoining) and its generation (-1, "absent", before its first
 * assignment).
 */
export interface ClassicSubscription {
  readonly topics: readonly string[];
  readonly userData: StickyUserData | null;
  readonly ownedPartitions: readonly TopicPartition[];
  readonly generationId: number;
}

/**
 * The sticky assignors' user data, decoded: StickyAssignor's `STICKY_ASSIGNOR_USER_DATA_V1` (the
 * partitions of the member's last assignment and that generation; no user data at all before the
 * first assignment) or CooperativeStickyAssignor's (the generation only).
 */
export interface StickyUserData {
  readonly partitions?: readonly TopicPartition[];
  readonly generation: number;
}

/** The leader's view: partition counts per subscribed topic, and `HashMap<memberId, Subscription>`. */
export interface ClassicAssignorInput {
  readonly partitionsPerTopic: ReadonlyMap<string, number>;
  readonly subscriptions: JavaHashMap<string, ClassicSubscription>;
  readonly partitions: TopicPartitions;
}

/** Each member's assigned partitions, as the leader sends them in SyncGroup. */
export type ClassicAssignment = Map<string, TopicPartition[]>;

/** A classic client-side assignor; one instance per consumer, as in Java (the sticky ones keep state). */
export interface ClassicAssignor {
  readonly name: 'range' | 'roundrobin' | 'sticky' | 'cooperative-sticky';
  readonly protocol: 'EAGER' | 'COOPERATIVE';
  /** `subscriptionUserData`: what this member sends in its next JoinGroup. */
  subscriptionUserData(): StickyUserData | null;
  /** `onAssignment`: what this member received in SyncGroup, with the new generation. */
  onAssignment(partitions: readonly TopicPartition[], generation: number): void;
  /** Run on the leader's instance. */
  assign(input: ClassicAssignorInput): ClassicAssignment;
  /** An instance in the same state, for a copy of the group. */
  copy(): ClassicAssignor;
}

/** The classic assignors that keep no state and use no user data (range, roundrobin): EAGER. */
export abstract class StatelessClassicAssignor {
  readonly protocol = 'EAGER';

  subscriptionUserData(): StickyUserData | null {
    return null;
  }

  onAssignment(): void {}

  /** Nothing to copy: the copy of a group shares the instance. */
  copy(): this {
    return this;
  }
}
