/**
 * A consumer group on the KIP-848 protocol (`group.protocol=consumer`), as the group coordinator
 * computes its *target assignment*: every change of membership, subscription or topic metadata
 * bumps the group epoch, and the next heartbeat makes `TargetAssignmentBuilder` run the server-side
 * assignor once for the whole group. The inputs are built as the coordinator builds them:
 *
 * - members: the group's `TimelineHashMap` of members copied into a fresh `HashMap` (then the member
 *   whose heartbeat triggered the computation, added or replaced), so member ids iterate in that
 *   HashMap's order;
 * - each member's subscribed topic names as a `HashSet<String>` (seen as topic ids, `TopicIds`);
 * - each member's previous target, as the coordinator holds it after replaying its target
 *   assignment record: a `HashMap<Uuid, HashSet<Integer>>` rebuilt from the lists the record was
 *   written from. A member whose target did not change keeps the map it had.
 *
 * A departed member's target is deleted before the next computation, so its partitions are free.
 * Members reconcile towards the target one by one (revoke before assign); the target is what this
 * class reports. Static membership is not modelled.
 */
import { INTEGER, JavaHashMap, JavaHashSet, STRING, type JdkSizing } from './javaHashMap';
import { TimelineHashMap } from './timelineHashMap';
import { UUID, type Uuid } from './uuid';
import { EMPTY_ASSIGNMENT, TopicIds, type GroupSpec, type MemberAssignment, type PartitionSet, type ServerAssignor, type SubscriptionType } from './assignors/groupSpec';
import { ServerRangeAssignor } from './assignors/serverRangeAssignor';
import { UniformAssignor } from './assignors/uniformAssignor';
import type { Owners } from './classicGroup';

export type ServerAssignorName = 'uniform' | 'server-range';

/** A topic as the coordinator sees it: its id and partition count. */
export interface TopicMetadata {
  readonly id: Uuid;
  count: number;
}

interface Member {
  readonly id: string;
  readonly subscribedTopicNames: JavaHashSet<string>;
}

export class ConsumerProtocolGroup {
  readonly #members = new TimelineHashMap<string, Member>(STRING);
  readonly #targets = new Map<string, MemberAssignment>();
  readonly #assignor: ServerAssignor;

  constructor(
    readonly assignorName: ServerAssignorName,
    /** The group's topics by name (shared with the caller, who updates partition counts). */
    private readonly topics: ReadonlyMap<string, TopicMetadata>,
    /** The broker's JDK: the sets it copies are sized by it. */
    private readonly jdk: JdkSizing = 17,
  ) {
    this.#assignor = assignorName === 'uniform' ? new UniformAssignor() : new ServerRangeAssignor();
  }

  has(id: string): boolean {
    return this.#members.has(id);
  }

  /** Members already in the group (in this order), without computing a target. */
  add(id: string, topics: readonly string[]): void {
    this.#store(this.#replayed(this.#subscription(id, topics)));
  }

  /**
   * Puts a member into the coordinator's map as replaying its subscription record does. Its
   * current-assignment record follows in the same batch and puts it again; a put checks the load
   * before anything else, so that second put doubles the table when the new member filled it.
   */
  #store(m: Member): void {
    this.#members.set(m.id, m);
    this.#members.set(m.id, m);
  }

  /** The first target of a group whose members are all there: one computation. */
  form(): void {
    if (this.#members.size > 0) this.#computeTarget(null);
  }

  /** A new member's first heartbeat. */
  join(id: string, topics: readonly string[]): void {
    const m = this.#subscription(id, topics);
    this.#computeTarget(m);
    this.#store(this.#replayed(m));
  }

  /** A member leaves (or is fenced); the next heartbeat of any other member computes the target. */
  leave(id: string): void {
    this.#members.delete(id);
    this.#targets.delete(id);
    this.recompute();
  }

  /** Topic metadata changed (partitions added): the next heartbeat computes the target. */
  recompute(): void {
    const any = this.#members.values().next();
    if (!any.done) this.#computeTarget(any.value);
  }

  /** The targets a broker reported, as if read back from target assignment records (topics in the given order, partitions ascending). */
  setObserved(owned: Map<string, Array<[string, number[]]>>): void {
    for (const [id, topics] of owned) {
      const record: Array<[Uuid, number[]]> = topics.filter(([, ps]) => ps.length > 0).map(([t, ps]) => [this.topics.get(t)!.id, ps]);
      if (record.length > 0) this.#targets.set(id, this.#fromRecord(record));
    }
  }

  owners(): Owners {
    const out: Owners = new Map();
    const byId = new Map<string, string>();
    for (const [name, t] of this.topics) {
      out.set(name, Array<string | null>(t.count).fill(null));
      byId.set(t.id.text, name);
    }
    for (const id of this.#members.keys()) {
      const a = this.#targets.get(id);
      if (!a) continue;
      for (const [topicId, set] of a.partitions) {
        const list = out.get(byId.get(topicId.text)!);
        if (list) for (const p of set) if (p < list.length) list[p] = id;
      }
    }
    return out;
  }

  /** `TargetAssignmentBuilder.build()`, then the records it writes replayed into the group. */
  #computeTarget(updated: Member | null): void {
    const specs = new JavaHashMap<string, Member>(STRING);
    for (const [id, m] of this.#members) specs.set(id, m);
    if (updated) specs.set(updated.id, updated);
    const memberIds = [...specs.keys()];

    const subscribers = new Map<string, number>();
    // Counted per set of names: members of the same topics share one (`#topicSet`).
    const membersPerSet = new Map<JavaHashSet<string>, number>();
    for (const m of specs.values()) membersPerSet.set(m.subscribedTopicNames, (membersPerSet.get(m.subscribedTopicNames) ?? 0) + 1);
    for (const [names, n] of membersPerSet) for (const t of names) subscribers.set(t, (subscribers.get(t) ?? 0) + n);
    let subscriptionType: SubscriptionType = 'HOMOGENEOUS';
    for (const n of subscribers.values()) if (n !== specs.size) subscriptionType = 'HETEROGENEOUS';

    const byId = new Map<string, string>();
    for (const [name, t] of this.topics) byId.set(t.id.text, name);
    const idOf = (name: string): Uuid | undefined => this.topics.get(name)?.id;
    const nameOf = (id: Uuid): string | undefined => byId.get(id.text);
    // The inverted target assignment: which partitions some member's target holds, per topic.
    const assigned = new Map<string, Set<number>>();
    for (const a of this.#targets.values()) {
      for (const [topicId, set] of a.partitions) {
        let held = assigned.get(topicId.text);
        if (!held) assigned.set(topicId.text, (held = new Set()));
        for (const p of set) held.add(p);
      }
    }

    const groupSpec: GroupSpec = {
      jdk: this.jdk,
      memberIds,
      subscriptionType,
      memberSubscription: (memberId) => ({
        subscribedTopicIds: new TopicIds(specs.get(memberId)!.subscribedTopicNames, idOf, nameOf),
        assignment: this.#targets.get(memberId) ?? EMPTY_ASSIGNMENT,
      }),
      memberAssignment: (memberId) => this.#targets.get(memberId) ?? EMPTY_ASSIGNMENT,
      isPartitionAssigned: (topicId, p) => assigned.get(topicId.text)?.has(p) ?? false,
    };
    const describer = {
      numPartitions: (id: Uuid): number => {
        const name = byId.get(id.text);
        return name !== undefined && subscribers.has(name) ? this.topics.get(name)!.count : -1;
      },
    };
    const result = this.#assignor.assign(groupSpec, describer);
    for (const memberId of memberIds) {
      const next = result.get(memberId)?.partitions ?? EMPTY_ASSIGNMENT.partitions;
      if (!sameAssignment(next, this.#targets.get(memberId)?.partitions)) this.#targets.set(memberId, this.#fromRecord(toRecord(next)));
    }
  }

  /** A member's subscription as its heartbeat brings it: `new HashSet<>(list)`. */
  #subscription(id: string, topics: readonly string[]): Member {
    return { id, subscribedTopicNames: this.#topicSet(topics) };
  }

  /** The member as the coordinator keeps it after replaying its record: `new HashSet<>(new ArrayList<>(set))`. */
  #replayed(m: Member): Member {
    return { id: m.id, subscribedTopicNames: this.#topicSet([...m.subscribedTopicNames]) };
  }

  /**
   * Sets of topic names by the list they copy: a copy depends only on the list's order and the
   * JDK, and nothing changes one once made, so members of the same topics share it (500 members
   * on 200 topics made 200,000 entries, a third of forming the group in garbage collection).
   */
  readonly #topicSets = new Map<string, JavaHashSet<string>>();

  #topicSet(topics: readonly string[]): JavaHashSet<string> {
    const key = JSON.stringify(topics);
    let set = this.#topicSets.get(key);
    if (!set) this.#topicSets.set(key, (set = JavaHashSet.copyOf(STRING, topics, this.jdk)));
    return set;
  }

  /** `Assignment.fromRecord`: `Collectors.toMap` (a default HashMap) of `new HashSet<>(list)`, unmodifiable. */
  #fromRecord(record: Array<[Uuid, number[]]>): MemberAssignment {
    const map = new JavaHashMap<Uuid, PartitionSet>(UUID);
    for (const [id, list] of record) map.putIfAbsent(id, JavaHashSet.copyOf(INTEGER, list, this.jdk));
    return { partitions: map, immutable: true };
  }
}

/** The target assignment record's lists: topics in the map's order, partitions in each set's order. */
function toRecord(partitions: JavaHashMap<Uuid, PartitionSet>): Array<[Uuid, number[]]> {
  return [...partitions].map(([id, set]) => [id, [...set]]);
}

/** `Map.equals` of two assignments. */
function sameAssignment(a: JavaHashMap<Uuid, PartitionSet>, b: JavaHashMap<Uuid, PartitionSet> | undefined): boolean {
  if (!b || a.size !== b.size) return false;
  for (const [id, set] of a) {
    const other = b.get(id);
    if (!other || other.size !== set.size) return false;
    for (const p of set) if (!other.has(p)) return false;
  }
  return true;
}
