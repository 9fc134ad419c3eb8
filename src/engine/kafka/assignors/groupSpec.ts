/**
 * What the KIP-848 (server-side) assignors see: the coordinator's `GroupSpec` (members in the
 * iteration order of the `HashMap` `TargetAssignmentBuilder` builds, each with its subscribed topic
 * ids and its previous target assignment), a `SubscribedTopicDescriber` (partition counts by topic
 * id), and what they return: per member, `Map<Uuid, Set<Integer>>`.
 */
import { JavaHashMap, JavaHashSet, INTEGER, type JdkSizing } from '../javaHashMap';
import { UUID, type Uuid } from '../uuid';

/** The server-side `RangeAssignor`'s `RangeSet`: partitions `from` (inclusive) to `to` (exclusive), ascending. */
export class RangeSet implements Iterable<number> {
  constructor(
    readonly from: number,
    readonly to: number,
  ) {}

  get size(): number {
    return this.to - this.from;
  }

  has(p: number): boolean {
    return p >= this.from && p < this.to;
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let p = this.from; p < this.to; p++) yield p;
  }
}

export type PartitionSet = JavaHashSet<number> | RangeSet;

/**
 * A member's assignment: `Map<Uuid, Set<Integer>>`. `immutable` marks the unmodifiable maps the
 * coordinator hands in (the assignors copy before they change one, `AssignorHelpers`).
 */
export interface MemberAssignment {
  readonly partitions: JavaHashMap<Uuid, PartitionSet>;
  readonly immutable: boolean;
}

export const EMPTY_ASSIGNMENT: MemberAssignment = { partitions: new JavaHashMap(UUID), immutable: true };

/** `AssignorHelpers.deepCopyAssignment`: `new HashMap<>(size)`, each set `new HashSet<>(set)`. */
export function deepCopyAssignment(a: JavaHashMap<Uuid, PartitionSet>, jdk: JdkSizing): JavaHashMap<Uuid, PartitionSet> {
  const copy = JavaHashMap.withCapacity<Uuid, PartitionSet>(UUID, a.size);
  for (const [id, set] of a) copy.set(id, JavaHashSet.copyOf(INTEGER, [...set], jdk));
  return copy;
}

/**
 * `TopicIds`: the member's subscribed topic *names* (a `HashSet<String>`) seen as topic ids, so it
 * iterates in the order of the names' set.
 */
export class TopicIds implements Iterable<Uuid> {
  constructor(
    readonly names: JavaHashSet<string>,
    private readonly idOf: (name: string) => Uuid | undefined,
    private readonly nameOf: (id: Uuid) => string | undefined,
  ) {}

  get size(): number {
    return this.names.size;
  }

  has(id: Uuid): boolean {
    const name = this.nameOf(id);
    return name !== undefined && this.names.has(name);
  }

  *[Symbol.iterator](): IterableIterator<Uuid> {
    for (const name of this.names) {
      const id = this.idOf(name);
      if (id) yield id;
    }
  }
}

export type SubscriptionType = 'HOMOGENEOUS' | 'HETEROGENEOUS';

export interface MemberSpec {
  readonly subscribedTopicIds: TopicIds;
  readonly assignment: MemberAssignment;
}

export interface GroupSpec {
  /** The broker's JDK, for the sizes of the sets the assignors copy. */
  readonly jdk: JdkSizing;
  /** `memberIds()`: the key set of the coordinator's `HashMap` of member specs, in its order. */
  readonly memberIds: readonly string[];
  readonly subscriptionType: SubscriptionType;
  memberSubscription(memberId: string): MemberSpec;
  /** The member's previous target assignment (empty for a new member). */
  memberAssignment(memberId: string): MemberAssignment;
  /** Whether any member's previous target holds the partition. */
  isPartitionAssigned(topicId: Uuid, partition: number): boolean;
}

export interface SubscribedTopicDescriber {
  /** The topic's partition count, -1 when the topic is unknown. */
  numPartitions(topicId: Uuid): number;
}

export type GroupAssignment = Map<string, MemberAssignment>;

export interface ServerAssignor {
  readonly name: 'uniform' | 'range';
  assign(groupSpec: GroupSpec, describer: SubscribedTopicDescriber): GroupAssignment;
}

/** Thrown where Kafka throws `PartitionAssignorException`. */
export class PartitionAssignorException extends Error {}
