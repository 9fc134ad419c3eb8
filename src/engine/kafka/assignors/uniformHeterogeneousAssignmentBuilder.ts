/**
 * `UniformHeterogeneousAssignmentBuilder` as of Kafka 4.0 (KAFKA-17710): the KIP-848 uniform
 * assignor when members subscribe to different topics.
 *
 * 1. Members are numbered in the coordinator's HashMap order; each keeps *every* previously
 *    targeted partition of a topic it still subscribes to.
 * 2. Topics are ordered by partitions per subscriber (descending), then subscriber count
 *    (ascending), then topic id (`Uuid.compareTo`).
 * 3. Each topic's unassigned partitions, ascending, go to its least-loaded subscriber (total
 *    partitions held; ties to the lower member number).
 * 4. Balancing, topic by topic in the same order: while a topic's most-loaded subscriber holds 2 or
 *    more than its least-loaded, the most-loaded's highest-numbered partition of that topic moves
 *    to the least-loaded; whole passes repeat (at most 16) until one moves nothing.
 */
import { INTEGER, JavaHashSet } from '../javaHashMap';
import { compareUuid, UUID, type Uuid } from '../uuid';
import {
  deepCopyAssignment,
  PartitionAssignorException,
  type GroupAssignment,
  type GroupSpec,
  type MemberAssignment,
  type SubscribedTopicDescriber,
} from './groupSpec';

const MAX_ITERATION_COUNT = 16;

export function assignHeterogeneous(groupSpec: GroupSpec, describer: SubscribedTopicDescriber): GroupAssignment {
  return new HeterogeneousBuilder(groupSpec, describer).build();
}

class HeterogeneousBuilder {
  readonly #memberIds: readonly string[];
  readonly #subscribedTopicIds = JavaHashSet.empty(UUID);
  /** Subscribers of each topic (member numbers, ascending), by topic id text. */
  readonly #topicSubscribers = new Map<string, number[]>();
  readonly #target: GroupAssignment = new Map();
  readonly #sizes: number[];
  /** The owner (member number, -1 none) of each partition of each topic. */
  readonly #owners = new Map<string, Int32Array>();

  constructor(
    private readonly groupSpec: GroupSpec,
    private readonly describer: SubscribedTopicDescriber,
  ) {
    this.#memberIds = groupSpec.memberIds;
    this.#sizes = new Array(this.#memberIds.length).fill(0);
    this.#memberIds.forEach((memberId, memberIndex) => {
      for (const topicId of groupSpec.memberSubscription(memberId).subscribedTopicIds) {
        if (describer.numPartitions(topicId) === -1) {
          throw new PartitionAssignorException(`Members are subscribed to topic ${topicId.text} which doesn't exist in the topic metadata.`);
        }
        this.#subscribedTopicIds.add(topicId);
        let list = this.#topicSubscribers.get(topicId.text);
        if (!list) this.#topicSubscribers.set(topicId.text, (list = []));
        list.push(memberIndex);
      }
    });
    for (const topicId of this.#subscribedTopicIds) this.#owners.set(topicId.text, new Int32Array(describer.numPartitions(topicId)).fill(-1));
  }

  build(): GroupAssignment {
    if (this.#subscribedTopicIds.size === 0) return new Map();
    this.#maybeRevokePartitions();
    this.#assignRemainingPartitions();
    this.#balance();
    return this.#target;
  }

  #subscribers(topicId: Uuid): number[] {
    return this.#topicSubscribers.get(topicId.text)!;
  }

  #compareTopics = (a: Uuid, b: Uuid): number => {
    const ap = this.describer.numPartitions(a);
    const bp = this.describer.numPartitions(b);
    const as = this.#subscribers(a).length;
    const bs = this.#subscribers(b).length;
    // Partitions per subscriber descending (`Double.compare` of the quotients), then subscribers, then id.
    const order = Math.sign(bp / bs - ap / as);
    return order || as - bs || compareUuid(a, b);
  };

  #compareMembers = (a: number, b: number): number => this.#sizes[a] - this.#sizes[b] || a - b;

  #maybeRevokePartitions(): void {
    this.#memberIds.forEach((memberId, memberIndex) => {
      const old = this.groupSpec.memberAssignment(memberId);
      if (!old.immutable) throw new Error('The assignor expect an immutable map.');
      const subscribed = this.groupSpec.memberSubscription(memberId).subscribedTopicIds;
      let copy = null;
      for (const [topicId, partitions] of old.partitions) {
        if (subscribed.has(topicId)) {
          this.#sizes[memberIndex] += partitions.size;
          const owners = this.#owners.get(topicId.text)!;
          for (const p of partitions) owners[p] = memberIndex;
        } else {
          copy ??= deepCopyAssignment(old.partitions, this.groupSpec.jdk);
          copy.delete(topicId);
        }
      }
      this.#target.set(memberId, copy === null ? old : { partitions: copy, immutable: false });
    });
  }

  #assignRemainingPartitions(): void {
    const unassigned = new Map<string, { topicId: Uuid; partitions: number[] }>();
    for (const topicId of this.#subscribedTopicIds) {
      const owners = this.#owners.get(topicId.text)!;
      const free: number[] = [];
      for (let p = 0; p < owners.length; p++) if (owners[p] === -1) free.push(p);
      if (free.length > 0) unassigned.set(topicId.text, { topicId, partitions: free });
    }
    const balancer = new MemberAssignmentBalancer(this.#sizes, this.#compareMembers);
    for (const { topicId, partitions } of [...unassigned.values()].sort((a, b) => this.#compareTopics(a.topicId, b.topicId))) {
      balancer.initialize(this.#subscribers(topicId));
      for (const p of partitions) this.#assignPartition(topicId, p, balancer.nextLeastLoadedMember());
    }
  }

  #balance(): void {
    const topics = [...this.#subscribedTopicIds].filter((t) => this.#subscribers(t).length >= 2);
    if (topics.length === 0) return;
    const sorted = topics.sort(this.#compareTopics);
    const balancer = new MemberAssignmentBalancer(this.#sizes, this.#compareMembers);
    let lastRebalanceTopicIndex = -1;
    for (let i = 0; i < MAX_ITERATION_COUNT; i++) {
      for (let t = 0; t < sorted.length; t++) {
        // A whole pass since the last topic that moved anything: done.
        if (t === lastRebalanceTopicIndex) return;
        const moved = this.#balanceTopic(sorted[t], balancer);
        if (moved > 0 || lastRebalanceTopicIndex === -1) lastRebalanceTopicIndex = t;
      }
    }
  }

  #balanceTopic(topicId: Uuid, balancer: MemberAssignmentBalancer): number {
    let reassigned = 0;
    const owners = this.#owners.get(topicId.text)!;
    if (balancer.initialize(this.#subscribers(topicId)) <= 1) return reassigned;
    // Partitions grouped by owner (ascending owner, then partition), with each owner's range.
    const partitions = Array.from(owners.keys()).sort((a, b) => owners[a] - owners[b] || a - b);
    const start = new Map<number, number>();
    const end = new Map<number, number>();
    partitions.forEach((p, i) => {
      if (!start.has(owners[p])) start.set(owners[p], i);
      end.set(owners[p], i + 1);
    });
    while (!balancer.isBalanced()) {
      let mostLoaded = -1;
      for (;;) {
        mostLoaded = balancer.nextMostLoadedMember();
        if (mostLoaded === -1) break;
        if (!end.has(mostLoaded) || end.get(mostLoaded)! - start.get(mostLoaded)! <= 0) {
          balancer.excludeMostLoadedMember();
          continue;
        }
        break;
      }
      if (mostLoaded === -1) break;
      const partition = partitions[end.get(mostLoaded)! - 1];
      end.set(mostLoaded, end.get(mostLoaded)! - 1);
      const leastLoaded = balancer.nextLeastLoadedMember();
      if (balancer.isBalanced()) break;
      this.#assignPartition(topicId, partition, leastLoaded);
      reassigned++;
    }
    return reassigned;
  }

  #assignPartition(topicId: Uuid, partition: number, memberIndex: number): void {
    const owners = this.#owners.get(topicId.text)!;
    if (owners[partition] !== -1) this.#removePartition(topicId, partition, owners[partition]);
    this.#addPartition(topicId, partition, memberIndex);
  }

  #mutable(memberIndex: number): MemberAssignment {
    const memberId = this.#memberIds[memberIndex];
    let a = this.#target.get(memberId)!;
    if (a.immutable) {
      a = { partitions: deepCopyAssignment(a.partitions, this.groupSpec.jdk), immutable: false };
      this.#target.set(memberId, a);
    }
    return a;
  }

  #addPartition(topicId: Uuid, partition: number, memberIndex: number): void {
    const a = this.#mutable(memberIndex);
    const set = a.partitions.computeIfAbsent(topicId, () => {
      const n = this.describer.numPartitions(topicId);
      const subscribers = this.#subscribers(topicId).length;
      const estimate = Math.floor((n + subscribers - 1) / subscribers);
      return JavaHashSet.withCapacity(INTEGER, Math.trunc(Math.fround(Math.fround(estimate / 0.75) + 1)));
    }) as JavaHashSet<number>;
    set.add(partition);
    this.#owners.get(topicId.text)![partition] = memberIndex;
    this.#sizes[memberIndex]++;
  }

  #removePartition(topicId: Uuid, partition: number, memberIndex: number): void {
    const a = this.#mutable(memberIndex);
    const set = a.partitions.get(topicId) as JavaHashSet<number> | undefined;
    if (set) {
      set.delete(partition);
      if (set.size === 0) a.partitions.delete(topicId);
    }
    this.#owners.get(topicId.text)![partition] = -1;
    this.#sizes[memberIndex]--;
  }
}

/**
 * Hands out the least- and most-loaded subscribers of one topic in turn, as ranges over the
 * subscribers sorted by load: the least-loaded range widens rightwards as its level rises, the
 * most-loaded one leftwards as its level falls; balanced once the two levels differ by at most 1.
 */
class MemberAssignmentBalancer {
  #sorted: number[] = [];
  #leastLoadedRangeEnd = 0;
  #leastLoadedRangePartitionCount = -1;
  #nextLeastLoaded = 0;
  #mostLoadedRangeStart = 0;
  #mostLoadedRangeEnd = 0;
  #mostLoadedRangePartitionCount = 1;
  #nextMostLoaded = -1;

  constructor(
    private readonly sizes: number[],
    private readonly compare: (a: number, b: number) => number,
  ) {}

  /** Returns the spread (most minus least loaded). */
  initialize(members: readonly number[]): number {
    if (members.length === 0) throw new Error('Cannot balance an empty subscriber list.');
    this.#sorted = members.slice().sort(this.compare);
    const n = this.#sorted.length;
    this.#leastLoadedRangeEnd = 0;
    this.#leastLoadedRangePartitionCount = this.sizes[this.#sorted[0]] - 1;
    this.#nextLeastLoaded = 0;
    this.#mostLoadedRangeStart = n;
    this.#mostLoadedRangeEnd = n;
    this.#mostLoadedRangePartitionCount = this.sizes[this.#sorted[n - 1]] + 1;
    this.#nextMostLoaded = n - 1;
    return this.sizes[this.#sorted[n - 1]] - this.sizes[this.#sorted[0]];
  }

  nextLeastLoadedMember(): number {
    if (this.#nextLeastLoaded >= this.#leastLoadedRangeEnd) {
      this.#leastLoadedRangePartitionCount++;
      while (this.#leastLoadedRangeEnd < this.#sorted.length && this.sizes[this.#sorted[this.#leastLoadedRangeEnd]] === this.#leastLoadedRangePartitionCount) {
        this.#leastLoadedRangeEnd++;
      }
      this.#nextLeastLoaded = 0;
    }
    return this.#sorted[this.#nextLeastLoaded++];
  }

  nextMostLoadedMember(): number {
    if (this.#nextMostLoaded < this.#mostLoadedRangeStart) {
      if (this.#mostLoadedRangeEnd <= this.#mostLoadedRangeStart && this.#mostLoadedRangeStart > 0) {
        this.#mostLoadedRangePartitionCount = this.sizes[this.#sorted[this.#mostLoadedRangeStart - 1]];
      } else {
        this.#mostLoadedRangePartitionCount--;
      }
      while (this.#mostLoadedRangeStart > 0 && this.sizes[this.#sorted[this.#mostLoadedRangeStart - 1]] === this.#mostLoadedRangePartitionCount) {
        this.#mostLoadedRangeStart--;
      }
      this.#nextMostLoaded = this.#mostLoadedRangeEnd - 1;
    }
    if (this.#nextMostLoaded < 0) return -1;
    return this.#sorted[this.#nextMostLoaded--];
  }

  excludeMostLoadedMember(): void {
    const i = this.#nextMostLoaded + 1;
    const member = this.#sorted[i];
    this.#sorted[i] = this.#sorted[this.#mostLoadedRangeEnd - 1];
    this.#sorted[this.#mostLoadedRangeEnd - 1] = member;
    this.#mostLoadedRangeEnd--;
  }

  isBalanced(): boolean {
    return this.#mostLoadedRangePartitionCount - this.#leastLoadedRangePartitionCount <= 1;
  }
}
