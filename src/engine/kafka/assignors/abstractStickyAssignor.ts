/**
 * `AbstractStickyAssignor`, the algorithm shared by the classic `StickyAssignor` (`sticky`) and
 * `CooperativeStickyAssignor` (`cooperative-sticky`). They differ only in where a member's
 * previous partitions come from (`memberData`).
 *
 * - When every member subscribes to the same topics, `ConstrainedAssignmentBuilder`: quotas
 *   ⌊T/M⌋ and ⌈T/M⌉; members visited in the leader's `HashMap<memberId, ...>` order keep up to
 *   their quota of what they owned (sorted by partition number, then topic); the rest is dealt
 *   round-robin over the members below quota (sorted by id), then to those at the minimum.
 * - Otherwise `GeneralAssignmentBuilder`: owners keep everything they still subscribe to; the
 *   unassigned partitions go one by one to the least-loaded eligible member; then partitions move
 *   from members holding 2 more than another eligible member, preferring a move back to an older
 *   generation's owner and following earlier movements so that no two members swap partitions of
 *   one topic; the result is kept only if it is more balanced.
 *
 * Exactness hinges on Java's iteration orders, modelled by `javaHashMap.ts`: the leader's
 * subscriptions map, `HashSet<TopicPartition>` in the movement records. Racks are not modelled.
 */
import { JavaHashMap, JavaHashSet, STRING } from '../javaHashMap';
import {
  compareStrings,
  TOPIC_PARTITION,
  type ClassicAssignment,
  type ClassicAssignorInput,
  type ClassicSubscription,
  type StickyUserData,
  type TopicPartition,
  type TopicPartitions,
} from './types';

export const DEFAULT_GENERATION = -1;

/** A member's previous partitions and the generation they are from (undefined: no generation). */
export interface MemberData {
  readonly partitions: readonly TopicPartition[];
  readonly generation: number | undefined;
}

export abstract class AbstractStickyAssignor {
  /** Like Java's field, it only ever grows over the assignments this (leader's) instance computes. */
  #maxGeneration = DEFAULT_GENERATION;
  /**
   * Set by the constrained builder (partitions given to a member other than the one that dropped
   * them); null after the general builder, whose caller must work them out.
   */
  protected partitionsTransferringOwnership: Map<TopicPartition, string> | null = new Map();

  protected abstract memberData(subscription: ClassicSubscription): MemberData;

  /** Gives `c`, a new instance of the same class, this one's state; returns it. */
  protected copyTo<T extends AbstractStickyAssignor>(c: T): T {
    c.#maxGeneration = this.#maxGeneration;
    c.partitionsTransferringOwnership = this.partitionsTransferringOwnership;
    return c;
  }

  abstract subscriptionUserData(): StickyUserData | null;

  protected assignPartitions({ partitionsPerTopic, subscriptions, partitions }: ClassicAssignorInput): ClassicAssignment {
    const consumerToOwnedPartitions = new JavaHashMap<string, TopicPartition[]>(STRING);
    const partitionsWithMultiplePreviousOwners = new Set<TopicPartition>();
    const allTopics = new Set(partitionsPerTopic.keys());
    if (this.#allSubscriptionsEqual(allTopics, subscriptions, consumerToOwnedPartitions, partitionsWithMultiplePreviousOwners)) {
      this.partitionsTransferringOwnership = new Map();
      return new ConstrainedAssignmentBuilder(
        partitionsPerTopic,
        partitions,
        consumerToOwnedPartitions,
        partitionsWithMultiplePreviousOwners,
        this.partitionsTransferringOwnership,
      ).build();
    }
    this.partitionsTransferringOwnership = null;
    return new GeneralAssignmentBuilder(partitionsPerTopic, partitions, consumerToOwnedPartitions, subscriptions, (s) => this.memberData(s), this.#maxGeneration).build();
  }

  /**
   * True iff every member subscribes to the same topics. Fills each member's previously owned,
   * still-subscribed partitions; a partition claimed twice goes to the higher generation, or to
   * nobody (and into `partitionsWithMultiplePreviousOwners`) when the generations are equal.
   */
  #allSubscriptionsEqual(
    allTopics: ReadonlySet<string>,
    subscriptions: JavaHashMap<string, ClassicSubscription>,
    consumerToOwnedPartitions: JavaHashMap<string, TopicPartition[]>,
    partitionsWithMultiplePreviousOwners: Set<TopicPartition>,
  ): boolean {
    let isAllSubscriptionsEqual = true;
    let subscribedTopics = new Set<string>();
    // Java's map of partition -> its previous owner, as a list per topic indexed by partition: a
    // group of 1,000 members on 10,000 partitions put and looked up 10,000 partitions by identity
    // at every rebalance (2.4 ms of a cooperative join's 11 in Node).
    const allPreviousPartitionsToOwner = new Map<string, Array<string | undefined>>();
    for (const t of allTopics) allPreviousPartitionsToOwner.set(t, []);
    for (const [consumer, subscription] of subscriptions) {
      if (subscribedTopics.size === 0) subscribedTopics = new Set(subscription.topics);
      else if (isAllSubscriptionsEqual && !(subscription.topics.length === subscribedTopics.size && subscription.topics.every((t) => subscribedTopics.has(t)))) {
        isAllSubscriptionsEqual = false;
      }
      const memberData = this.memberData(subscription);
      const memberGeneration = memberData.generation ?? DEFAULT_GENERATION;
      this.#maxGeneration = Math.max(this.#maxGeneration, memberGeneration);
      const ownedPartitions: TopicPartition[] = [];
      consumerToOwnedPartitions.set(consumer, ownedPartitions);
      for (const tp of memberData.partitions) {
        const previousOwners = allPreviousPartitionsToOwner.get(tp.topic);
        if (previousOwners === undefined) continue;
        const otherConsumer = previousOwners[tp.partition];
        if (otherConsumer === undefined) {
          ownedPartitions.push(tp);
          previousOwners[tp.partition] = consumer;
          continue;
        }
        const otherGeneration = generationOf(subscriptions.get(otherConsumer)!);
        if (memberGeneration === otherGeneration) {
          partitionsWithMultiplePreviousOwners.add(tp);
          removeFirst(consumerToOwnedPartitions.get(otherConsumer)!, tp);
          previousOwners[tp.partition] = consumer;
        } else if (memberGeneration > otherGeneration) {
          ownedPartitions.push(tp);
          removeFirst(consumerToOwnedPartitions.get(otherConsumer)!, tp);
          previousOwners[tp.partition] = consumer;
        }
      }
    }
    return isAllSubscriptionsEqual;
  }
}

/** `Subscription.generationId().orElse(DEFAULT_GENERATION)`. */
function generationOf(s: ClassicSubscription): number {
  return s.generationId < 0 ? DEFAULT_GENERATION : s.generationId;
}

function removeFirst<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}

function totalPartitions(partitionsPerTopic: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const n of partitionsPerTopic.values()) total += n;
  return total;
}

function allTopicPartitions(partitions: TopicPartitions, partitionsPerTopic: ReadonlyMap<string, number>, sortedTopics: readonly string[]): TopicPartition[] {
  const out: TopicPartition[] = [];
  for (const topic of sortedTopics) {
    const n = partitionsPerTopic.get(topic)!;
    for (let p = 0; p < n; p++) out.push(partitions.get(topic, p));
  }
  return out;
}

/**
 * `list` in the order of Java's comparators here: topics in the order `topics` lists them, then
 * partitions by number. A numeric sort of each topic's partition numbers, read back as the
 * interned partitions, instead of a comparator call per comparison: every rebalance sorts all the
 * partitions its members keep (10,000 on the bench's groups; 2.7 ms of a cooperative join's 11 in
 * Node). Equal entries are one object, so no order among them is lost.
 */
function sortedByTopicOrder(list: readonly TopicPartition[], topics: readonly string[], partitions: TopicPartitions): TopicPartition[] {
  const numbers = new Map<string, number[]>();
  for (const t of topics) numbers.set(t, []);
  for (const tp of list) numbers.get(tp.topic)!.push(tp.partition);
  const out: TopicPartition[] = [];
  for (const t of topics) {
    const sorted = Int32Array.from(numbers.get(t)!).sort();
    for (const p of sorted) out.push(partitions.get(t, p));
  }
  return out;
}

/**
 * The two-pointer difference both builders compute: walks all partitions in their sorted order
 * against the assigned ones sorted the same way. Written as Java walks it (a claim that matches
 * no partition stalls the pointer), not as a set difference.
 */
function unassignedByTwoPointers(all: readonly TopicPartition[], sortedAssigned: readonly TopicPartition[]): TopicPartition[] {
  const out: TopicPartition[] = [];
  let shouldAddDirectly = false;
  let i = 0;
  let next = sortedAssigned[i++];
  for (const tp of all) {
    if (shouldAddDirectly || next !== tp) out.push(tp);
    else if (i < sortedAssigned.length) next = sortedAssigned[i++];
    else shouldAddDirectly = true;
  }
  return out;
}

/** All members subscribe to the same topics. */
class ConstrainedAssignmentBuilder {
  readonly #maybeRevokedPartitions = new Map<TopicPartition, string>();
  readonly #unfilledUnderMin: string[] = [];
  #unfilledExactlyMin: string[] = [];
  readonly #minQuota: number;
  readonly #maxQuota: number;
  readonly #expectedNumMembersWithOverMinQuota: number;
  #currentNumMembersWithOverMinQuota = 0;
  readonly #assignment = new Map<string, TopicPartition[]>();
  readonly #assignedPartitions: TopicPartition[] = [];
  readonly #totalPartitionsCount: number;

  constructor(
    private readonly partitionsPerTopic: ReadonlyMap<string, number>,
    private readonly partitions: TopicPartitions,
    private readonly currentAssignment: JavaHashMap<string, TopicPartition[]>,
    private readonly partitionsWithMultiplePreviousOwners: ReadonlySet<TopicPartition>,
    private readonly partitionsTransferringOwnership: Map<TopicPartition, string>,
  ) {
    this.#totalPartitionsCount = totalPartitions(partitionsPerTopic);
    const members = currentAssignment.size;
    this.#minQuota = Math.floor(this.#totalPartitionsCount / members);
    this.#maxQuota = Math.ceil(this.#totalPartitionsCount / members);
    this.#expectedNumMembersWithOverMinQuota = this.#totalPartitionsCount % members;
    for (const c of currentAssignment.keys()) this.#assignment.set(c, []);
  }

  build(): ClassicAssignment {
    this.#assignOwnedPartitions();
    const unassigned = this.#unassignedPartitions();
    this.#unfilledUnderMin.sort(compareStrings);
    this.#unfilledExactlyMin.sort(compareStrings);
    this.#assignRoundRobin(unassigned);
    this.#verifyUnfilledMembers();
    return this.#assignment;
  }

  /** Previously owned partitions kept up to the quota, members visited in the HashMap's order. */
  #assignOwnedPartitions(): void {
    for (const [consumer, owned] of this.currentAssignment) {
      const ownedPartitions = owned.slice().sort((a, b) => a.partition - b.partition || compareStrings(a.topic, b.topic));
      const consumerAssignment = this.#assignment.get(consumer)!;
      for (const doubly of this.partitionsWithMultiplePreviousOwners) removeFirst(ownedPartitions, doubly);
      if (ownedPartitions.length < this.#minQuota) {
        consumerAssignment.push(...ownedPartitions);
        this.#assignedPartitions.push(...ownedPartitions);
        this.#unfilledUnderMin.push(consumer);
      } else if (ownedPartitions.length >= this.#maxQuota && this.#currentNumMembersWithOverMinQuota < this.#expectedNumMembersWithOverMinQuota) {
        this.#currentNumMembersWithOverMinQuota++;
        if (this.#currentNumMembersWithOverMinQuota === this.#expectedNumMembersWithOverMinQuota) this.#unfilledExactlyMin = [];
        this.#keep(consumer, ownedPartitions, this.#maxQuota);
      } else {
        this.#keep(consumer, ownedPartitions, this.#minQuota);
        if (this.#currentNumMembersWithOverMinQuota < this.#expectedNumMembersWithOverMinQuota) this.#unfilledExactlyMin.push(consumer);
      }
    }
  }

  #keep(consumer: string, ownedPartitions: TopicPartition[], count: number): void {
    const kept = ownedPartitions.slice(0, count);
    this.#assignment.get(consumer)!.push(...kept);
    this.#assignedPartitions.push(...kept);
    for (const tp of ownedPartitions.slice(count)) this.#maybeRevokedPartitions.set(tp, consumer);
  }

  /** Every partition not kept, topics by name, partitions by number. */
  #unassignedPartitions(): TopicPartition[] {
    const sortedAllTopics = [...this.partitionsPerTopic.keys()].sort(compareStrings);
    const all = allTopicPartitions(this.partitions, this.partitionsPerTopic, sortedAllTopics);
    if (this.#assignedPartitions.length === 0) return all;
    return unassignedByTwoPointers(all, sortedByTopicOrder(this.#assignedPartitions, sortedAllTopics, this.partitions));
  }

  /**
   * Round-robin over the members below the minimum (an iterator over a LinkedList that drops a
   * member once it reaches the minimum and starts over at the end), then the members at the
   * minimum, first come first served, for the extra partitions.
   */
  #assignRoundRobin(unassigned: readonly TopicPartition[]): void {
    const under = this.#unfilledUnderMin;
    let cursor = 0; // Java's iterator position in `under`
    for (const tp of unassigned) {
      let consumer: string;
      let fromIterator = true;
      if (cursor < under.length) consumer = under[cursor++];
      else if (under.length === 0 && this.#unfilledExactlyMin.length === 0) {
        throw new Error('No more unfilled consumers to be assigned.');
      } else if (under.length === 0) {
        consumer = this.#unfilledExactlyMin.shift()!;
        fromIterator = false;
      } else {
        cursor = 0;
        consumer = under[cursor++];
      }
      const count = this.#assignNewPartition(tp, consumer);
      if (count === this.#minQuota) {
        // Iterator.remove(): drops the member the iterator last returned (a member polled from the
        // other list already had the minimum, so it never lands here).
        if (fromIterator) {
          under.splice(cursor - 1, 1);
          cursor--;
        }
        this.#unfilledExactlyMin.push(consumer);
      } else if (count === this.#maxQuota) {
        this.#currentNumMembersWithOverMinQuota++;
      }
    }
  }

  #assignNewPartition(tp: TopicPartition, consumer: string): number {
    const list = this.#assignment.get(consumer)!;
    list.push(tp);
    const revokedFrom = this.#maybeRevokedPartitions.get(tp);
    if ((revokedFrom !== undefined && revokedFrom !== consumer) || this.partitionsWithMultiplePreviousOwners.has(tp)) {
      this.partitionsTransferringOwnership.set(tp, consumer);
    }
    return list.length;
  }

  #verifyUnfilledMembers(): void {
    if (this.#unfilledUnderMin.length === 0) return;
    if (this.#currentNumMembersWithOverMinQuota !== this.#expectedNumMembersWithOverMinQuota) {
      throw new Error("We haven't reached the expected number of members with more than the minQuota partitions, but no more partitions to be assigned");
    }
    for (const m of this.#unfilledUnderMin) {
      if (this.#assignment.get(m)!.length !== this.#minQuota) throw new Error(`Consumer: [${m}] doesn't reach minQuota partitions, and no more partitions to be assigned`);
    }
  }
}

/** A partition's previous owner from an older generation. */
interface ConsumerGenerationPair {
  readonly consumer: string;
  readonly generation: number;
}

/** Subscriptions differ. */
class GeneralAssignmentBuilder {
  readonly #topic2AllPotentialConsumers = new Map<string, string[]>();
  readonly #consumer2AllPotentialTopics = new Map<string, string[]>();
  readonly #currentPartitionConsumer = new Map<TopicPartition, string>();
  /** Each member's partitions; Java's lists, kept as insertion-ordered sets (only membership is read). */
  #currentAssignment = new Map<string, Set<TopicPartition>>();
  #sortedAllPartitions: TopicPartition[];
  /** Each topic's place in the order of `#sortedAllPartitions` (by potential consumers, then name). */
  readonly #topicOrder = new Map<string, number>();
  /**
   * The members by number (in the order `#currentAssignment` first listed them), each one's place
   * in Java's string order of the ids, and its assigned count. Numbers, not ids, so that the
   * `TreeSet` below compares two members without a map lookup or a string comparison.
   */
  readonly #names: string[];
  readonly #numbers = new Map<string, number>();
  readonly #rank: Int32Array;
  readonly #sizes: Int32Array;
  /**
   * Row `#topicOrder` of `#eligible` has bit `member` set where the member subscribes to the topic
   * (bits: a group of 1,000 members on 50,000 one-partition topics is 6 MB of them).
   */
  readonly #rowWords: number;
  readonly #eligible: Uint32Array;
  /**
   * The `TreeSet` ordered by (assigned count, member id), as member numbers: `#sorted[0..#sortedLength)`,
   * read while consistent. Finding the least-loaded member of a topic walks it from the start, past
   * the members of other topics: for each of the 10,000 partitions a group of 500 members whose
   * subscriptions differ forms on, and again for each partition a balancing pass visits.
   */
  readonly #sorted: Int32Array;
  #sortedLength = 0;
  #revocationRequired = false;
  readonly #movements = new PartitionMovements();
  /**
   * Per topic, how many of its partitions each member (not set aside) holds; kept while partitions
   * move, so that `isBalanced` need not walk every partition.
   */
  #topicOwners = new Map<string, Map<string, number>>();
  /** `isBalanced()`'s answer until the next move (it reads nothing else that changes). */
  #balancedCache: boolean | undefined;
  readonly #totalPartitionsCount: number;

  constructor(
    private readonly partitionsPerTopic: ReadonlyMap<string, number>,
    private readonly partitions: TopicPartitions,
    consumerToOwnedPartitions: JavaHashMap<string, TopicPartition[]>,
    private readonly subscriptions: JavaHashMap<string, ClassicSubscription>,
    private readonly memberData: (s: ClassicSubscription) => MemberData,
    private readonly maxGeneration: number,
  ) {
    this.#totalPartitionsCount = totalPartitions(partitionsPerTopic);
    for (const topic of partitionsPerTopic.keys()) this.#topic2AllPotentialConsumers.set(topic, []);
    for (const [consumer, owned] of consumerToOwnedPartitions) this.#currentAssignment.set(consumer, new Set(owned));
    for (const [consumerId, subscription] of subscriptions) {
      const topics: string[] = [];
      this.#consumer2AllPotentialTopics.set(consumerId, topics);
      for (const topic of subscription.topics) {
        if (!partitionsPerTopic.has(topic)) continue;
        topics.push(topic);
        this.#topic2AllPotentialConsumers.get(topic)!.push(consumerId);
      }
      if (!this.#currentAssignment.has(consumerId)) this.#currentAssignment.set(consumerId, new Set());
    }
    for (const [consumer, tps] of this.#currentAssignment) for (const tp of tps) this.#currentPartitionConsumer.set(tp, consumer);
    this.#names = [...this.#currentAssignment.keys()];
    this.#names.forEach((c, i) => this.#numbers.set(c, i));
    const m = this.#names.length;
    this.#rank = new Int32Array(m);
    [...this.#names.keys()].sort((a, b) => compareStrings(this.#names[a], this.#names[b])).forEach((n, place) => (this.#rank[n] = place));
    this.#sizes = new Int32Array(m);
    this.#sorted = new Int32Array(m);
    const sortedAllTopics = [...this.#topic2AllPotentialConsumers.keys()].sort(
      (a, b) => this.#topic2AllPotentialConsumers.get(a)!.length - this.#topic2AllPotentialConsumers.get(b)!.length || compareStrings(a, b),
    );
    sortedAllTopics.forEach((t, i) => this.#topicOrder.set(t, i));
    this.#rowWords = (m + 31) >>> 5;
    this.#eligible = new Uint32Array(sortedAllTopics.length * this.#rowWords);
    for (const [consumer, topics] of this.#consumer2AllPotentialTopics) {
      const n = this.#numbers.get(consumer)!;
      for (const t of topics) this.#eligible[this.#topicOrder.get(t)! * this.#rowWords + (n >>> 5)] |= 1 << (n & 31);
    }
    this.#sortedAllPartitions = allTopicPartitions(partitions, partitionsPerTopic, sortedAllTopics);
  }

  build(): ClassicAssignment {
    const prevAssignment = new Map<TopicPartition, ConsumerGenerationPair>();
    this.#prepopulateCurrentAssignments(prevAssignment);
    const assigned = this.#assignOwnedPartitions();
    const unassigned = this.#unassignedPartitions(assigned);
    for (const [c, tps] of this.#currentAssignment) {
      const n = this.#numbers.get(c)!;
      this.#sizes[n] = tps.size;
      this.#addSorted(n);
    }
    this.#balance(prevAssignment, unassigned);
    const out: ClassicAssignment = new Map();
    for (const [c, tps] of this.#currentAssignment) out.set(c, [...tps]);
    return out;
  }

  /** Partitions claimed in older generations, the latest older generation winning. */
  #prepopulateCurrentAssignments(prev: Map<TopicPartition, ConsumerGenerationPair>): void {
    for (const [consumer, subscription] of this.subscriptions) {
      const md = this.memberData(subscription);
      if (md.generation !== undefined && md.generation < this.maxGeneration) updatePrev(prev, md.partitions, consumer, md.generation);
      else if (md.generation === undefined && this.maxGeneration > DEFAULT_GENERATION) updatePrev(prev, md.partitions, consumer, DEFAULT_GENERATION);
    }
  }

  /** Keeps what owners still subscribe to; a partition of a dropped topic requires a revocation. */
  #assignOwnedPartitions(): TopicPartition[] {
    const assigned: TopicPartition[] = [];
    for (const [consumer, tps] of this.#currentAssignment) {
      const subscription = this.subscriptions.get(consumer);
      if (!subscription) {
        for (const tp of tps) this.#currentPartitionConsumer.delete(tp);
        this.#currentAssignment.delete(consumer);
        continue;
      }
      for (const tp of [...tps]) {
        if (!this.#topic2AllPotentialConsumers.has(tp.topic)) {
          tps.delete(tp);
          this.#currentPartitionConsumer.delete(tp);
        } else if (!subscription.topics.includes(tp.topic)) {
          tps.delete(tp);
          this.#revocationRequired = true;
        } else {
          assigned.push(tp);
        }
      }
    }
    return assigned;
  }

  #unassignedPartitions(assigned: TopicPartition[]): TopicPartition[] {
    // With nothing assigned Java hands back the very list of all partitions (aliased below).
    if (assigned.length === 0) return this.#sortedAllPartitions;
    // Java's comparator: potential consumers, topic name, partition.
    return unassignedByTwoPointers(this.#sortedAllPartitions, sortedByTopicOrder(assigned, [...this.#topicOrder.keys()], this.partitions));
  }

  #size(consumer: string): number {
    return this.#sizes[this.#numbers.get(consumer)!];
  }

  /** `consumer`'s partitions, with its count kept in `#sizes` (every change goes through here). */
  #give(consumer: string, tp: TopicPartition, delta: 1 | -1): void {
    const tps = this.#currentAssignment.get(consumer)!;
    if (delta > 0) tps.add(tp);
    else tps.delete(tp);
    this.#sizes[this.#numbers.get(consumer)!] = tps.size;
  }

  /** The first member in the `TreeSet`'s order that subscribes to `topic` (-1: none). */
  #leastLoaded(topic: string): number {
    const row = this.#topicOrder.get(topic)! * this.#rowWords;
    for (let i = 0; i < this.#sortedLength; i++) {
      const n = this.#sorted[i];
      if ((this.#eligible[row + (n >>> 5)] >>> (n & 31)) & 1) return n;
    }
    return -1;
  }

  #addSorted(c: number): void {
    const size = this.#sizes[c];
    const rank = this.#rank[c];
    let lo = 0;
    let hi = this.#sortedLength;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.#sorted[mid];
      const cmp = this.#sizes[other] - size || this.#rank[other] - rank;
      if (cmp === 0) return; // a TreeSet keeps one
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    this.#sorted.copyWithin(lo + 1, lo, this.#sortedLength);
    this.#sorted[lo] = c;
    this.#sortedLength++;
  }

  #removeSorted(c: number): void {
    const i = this.#sorted.subarray(0, this.#sortedLength).indexOf(c);
    if (i < 0) return;
    this.#sorted.copyWithin(i, i + 1, this.#sortedLength);
    this.#sortedLength--;
  }

  #maxAssignmentSize(topics: readonly string[]): number {
    if (topics.length === this.partitionsPerTopic.size) return this.#totalPartitionsCount;
    let n = 0;
    for (const t of topics) n += this.partitionsPerTopic.get(t)!;
    return n;
  }

  #canTopicParticipateInReassignment(topic: string): boolean {
    return this.#topic2AllPotentialConsumers.get(topic)!.length >= 2;
  }

  #canConsumerParticipateInReassignment(consumer: string): boolean {
    const current = this.#currentAssignment.get(consumer)!;
    if (current.size < this.#maxAssignmentSize(this.#consumer2AllPotentialTopics.get(consumer)!)) return true;
    for (const tp of current) if (this.#canTopicParticipateInReassignment(tp.topic)) return true;
    return false;
  }

  /** Gives the partition to the least-loaded member (in the TreeSet's order) that subscribes to its topic. */
  #maybeAssignPartition(tp: TopicPartition): void {
    const n = this.#leastLoaded(tp.topic);
    if (n < 0) return;
    const consumer = this.#names[n];
    this.#removeSorted(n);
    this.#give(consumer, tp, 1);
    this.#currentPartitionConsumer.set(tp, consumer);
    this.#addSorted(n);
  }

  #balance(prev: Map<TopicPartition, ConsumerGenerationPair>, unassigned: TopicPartition[]): void {
    const initializing = this.#sizes[this.#sorted[this.#sortedLength - 1]] === 0;
    for (const tp of unassigned) {
      if (this.#topic2AllPotentialConsumers.get(tp.topic)!.length === 0) continue;
      this.#maybeAssignPartition(tp);
    }
    // Only partitions of topics with two or more potential consumers can move.
    const fixedPartitions = new Set<TopicPartition>();
    for (const topic of this.#topic2AllPotentialConsumers.keys()) {
      if (this.#canTopicParticipateInReassignment(topic)) continue;
      const n = this.partitionsPerTopic.get(topic)!;
      for (let p = 0; p < n; p++) fixedPartitions.add(this.partitions.get(topic, p));
    }
    const aliased = unassigned === this.#sortedAllPartitions;
    this.#sortedAllPartitions = this.#sortedAllPartitions.filter((tp) => !fixedPartitions.has(tp));
    const reassignableUnassigned = aliased ? this.#sortedAllPartitions : unassigned.filter((tp) => !fixedPartitions.has(tp));
    // Members that cannot take part are set aside.
    const fixedAssignments = new Map<string, Set<TopicPartition>>();
    for (const consumer of this.#consumer2AllPotentialTopics.keys()) {
      if (this.#canConsumerParticipateInReassignment(consumer)) continue;
      this.#removeSorted(this.#numbers.get(consumer)!);
      fixedAssignments.set(consumer, this.#currentAssignment.get(consumer)!);
      this.#currentAssignment.delete(consumer);
    }
    this.#topicOwners = new Map();
    for (const [consumer, tps] of this.#currentAssignment) for (const tp of tps) this.#countOwner(tp.topic, consumer, 1);
    const preBalanceAssignment = deepCopy(this.#currentAssignment);
    const preBalancePartitionConsumers = new Map(this.#currentPartitionConsumer);
    if (!this.#revocationRequired) this.#performReassignments(reassignableUnassigned, prev);
    const reassignmentPerformed = this.#performReassignments(this.#sortedAllPartitions, prev);
    if (!initializing && reassignmentPerformed && balanceScore(this.#currentAssignment) >= balanceScore(preBalanceAssignment)) {
      // Revert. (Java's TreeSet is left unsorted here, and `#sizes` stale; neither is read again.)
      this.#currentAssignment = deepCopy(preBalanceAssignment);
      this.#currentPartitionConsumer.clear();
      for (const [k, v] of preBalancePartitionConsumers) this.#currentPartitionConsumer.set(k, v);
    }
    for (const [consumer, tps] of fixedAssignments) this.#currentAssignment.set(consumer, tps);
  }

  #performReassignments(reassignable: readonly TopicPartition[], prev: Map<TopicPartition, ConsumerGenerationPair>): boolean {
    let reassignmentPerformed = false;
    let modified: boolean;
    const endless = new EndlessPasses();
    do {
      modified = false;
      const moves: Move[] = [];
      for (let i = 0; i < reassignable.length && !this.#isBalanced(); i++) {
        const tp = reassignable[i];
        const consumer = this.#currentPartitionConsumer.get(tp);
        if (consumer === undefined) throw new Error(`Expected partition '${tp.topic}-${tp.partition}' to be assigned to a consumer`);
        const previous = prev.get(tp);
        if (previous !== undefined) {
          if (!this.#currentAssignment.has(previous.consumer)) throw new Error(`NullPointerException: previous owner ${previous.consumer} of ${tp.topic}-${tp.partition} has no assignment`);
          if (this.#size(consumer) > this.#size(previous.consumer) + 1) {
            moves.push(this.#reassignPartition(tp, previous.consumer));
            reassignmentPerformed = modified = true;
            continue;
          }
        }
        // Java moves the partition when any of the topic's potential consumers holds 2 or more
        // fewer partitions than its owner, to the first of them by size: so when that first one
        // does. (Asking each of them cost 10,000 partitions x 375 consumers in a rebalance of a
        // 500-member group whose members subscribe to different topics.)
        const target = this.#names[this.#leastLoaded(tp.topic)];
        if (this.#size(consumer) > this.#size(target) + 1) {
          moves.push(this.#reassignPartition(tp, target));
          reassignmentPerformed = modified = true;
        }
      }
      if (modified) endless.check(() => this.#passState(), moves);
    } while (modified);
    return reassignmentPerformed;
  }

  /**
   * Everything the next pass of `#performReassignments` reads that a pass changes: every
   * partition's owner and the recorded movements (with each record set's iteration order, which
   * picks the partition a swap takes).
   */
  #passState(): string {
    const owners = this.#sortedAllPartitions.map((tp) => this.#numbers.get(this.#currentPartitionConsumer.get(tp)!) ?? -1);
    return `${owners.join(',')}|${this.#movements.state()}`;
  }

  #countOwner(topic: string, consumer: string, delta: number): void {
    let owners = this.#topicOwners.get(topic);
    if (!owners) this.#topicOwners.set(topic, (owners = new Map()));
    const n = (owners.get(consumer) ?? 0) + delta;
    if (n === 0) owners.delete(consumer);
    else owners.set(consumer, n);
  }

  /**
   * Balanced when the counts differ by at most one, or when no member below its maximum could take
   * a partition of one of its topics from an owner holding 2 or more partitions more than it. (Java
   * checks every such partition; the largest owner of each topic decides the same.)
   */
  #isBalanced(): boolean {
    this.#balancedCache ??= this.#computeBalanced();
    return this.#balancedCache;
  }

  #computeBalanced(): boolean {
    const min = this.#sizes[this.#sorted[0]];
    const max = this.#sizes[this.#sorted[this.#sortedLength - 1]];
    if (min >= max - 1) return true;
    const largestOwner = new Map<string, number>();
    for (const [topic, owners] of this.#topicOwners) {
      let largest = -1;
      for (const consumer of owners.keys()) largest = Math.max(largest, this.#size(consumer));
      largestOwner.set(topic, largest);
    }
    for (let i = 0; i < this.#sortedLength; i++) {
      const n = this.#sorted[i];
      const count = this.#sizes[n];
      const topics = this.#consumer2AllPotentialTopics.get(this.#names[n])!;
      if (count === this.#maxAssignmentSize(topics)) continue;
      for (const topic of topics) if ((largestOwner.get(topic) ?? -1) > count + 1) return false;
    }
    return true;
  }

  /** Moves `tp` to `newConsumer`, or the partition that undoes an earlier move (see `PartitionMovements`); returns the move made. */
  #reassignPartition(tp: TopicPartition, newConsumer: string): Move {
    const consumer = this.#currentPartitionConsumer.get(tp)!;
    const toMove = this.#movements.actualPartitionToBeMoved(tp, consumer, newConsumer);
    const oldConsumer = this.#currentPartitionConsumer.get(toMove)!;
    this.#removeSorted(this.#numbers.get(oldConsumer)!);
    this.#removeSorted(this.#numbers.get(newConsumer)!);
    this.#movements.movePartition(toMove, oldConsumer, newConsumer);
    this.#give(oldConsumer, toMove, -1);
    this.#give(newConsumer, toMove, 1);
    this.#countOwner(toMove.topic, oldConsumer, -1);
    this.#countOwner(toMove.topic, newConsumer, 1);
    this.#balancedCache = undefined;
    this.#currentPartitionConsumer.set(toMove, newConsumer);
    this.#addSorted(this.#numbers.get(newConsumer)!);
    this.#addSorted(this.#numbers.get(oldConsumer)!);
    return { topic: toMove.topic, from: oldConsumer, to: newConsumer };
  }
}

/** A partition that changed owner in a pass of the balancing loop. */
interface Move {
  readonly topic: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Passes that come back to a state seen before, after which the loop is taken to repeat forever.
 * Java's loop runs another pass whenever one moved a partition, and on some groups whose
 * subscriptions differ it never stops: a move swapped for the reverse of an earlier one
 * (`actualPartitionToBeMoved`) can take the partition from a third member, so a pass gives
 * partitions round a cycle of members and leaves every owner and record as it found them. The loop
 * is deterministic, so from such a state on it would repeat the same passes: Kafka's group leader
 * spins in it until the rebalance times out. Here the assignor stops with an error saying so. (A
 * record set's table size, which the state leaves out, can only grow a few times; the margin
 * covers that.)
 */
const ENDLESS_REPEATS = 8;
/**
 * Moving passes before the first state is taken: most balancing runs end within two (96% of those
 * in random histories), and taking the state costs a lookup per partition, 7% of a join to the
 * bench's 500-member group.
 */
const UNCHECKED_PASSES = 2;

class EndlessPasses {
  readonly #seen = new Set<string>();
  #passes = 0;
  #repeats = 0;

  /** After a pass that moved partitions (`moves`): `passState` is asked for past UNCHECKED_PASSES. */
  check(passState: () => string, moves: readonly Move[]): void {
    if (++this.#passes <= UNCHECKED_PASSES) return;
    const state = passState();
    if (!this.#seen.has(state)) {
      this.#seen.add(state);
      return;
    }
    if (++this.#repeats < ENDLESS_REPEATS) return;
    const topics = [...new Set(moves.map((m) => m.topic))].sort(compareStrings);
    const members = [...new Set(moves.flatMap((m) => [m.from, m.to]))].sort(compareStrings);
    const among = members.length === 2 ? `between ${members[0]} and ${members[1]}` : `among ${members.slice(0, -1).join(', ')} and ${members.at(-1)}`;
    throw new Error(
      `its balancing loop never ends here, as in Kafka, whose group leader would run it until the rebalance times out: ` +
        `each pass moves partitions of ${topics.join(', ')} ${among} and leaves every owner as it found them`,
    );
  }
}

function updatePrev(prev: Map<TopicPartition, ConsumerGenerationPair>, tps: readonly TopicPartition[], consumer: string, generation: number): void {
  for (const tp of tps) {
    const existing = prev.get(tp);
    if (existing === undefined || generation > existing.generation) prev.set(tp, { consumer, generation });
  }
}

function deepCopy(a: Map<string, Set<TopicPartition>>): Map<string, Set<TopicPartition>> {
  const out = new Map<string, Set<TopicPartition>>();
  for (const [k, v] of a) out.set(k, new Set(v));
  return out;
}

/** The sum of the size differences over all pairs of members. */
function balanceScore(a: Map<string, Set<TopicPartition>>): number {
  // With the sizes ascending, s[j] is counted j times with a plus (against every smaller one) and
  // M - 1 - j times with a minus: the same sum as Java's loop over all pairs, in M log M, not M^2.
  const sizes = Int32Array.from(a.values(), (s) => s.size).sort();
  let score = 0;
  for (let j = 0; j < sizes.length; j++) score += sizes[j] * (2 * j - (sizes.length - 1));
  return score;
}

/**
 * The movements made during one rebalance, per topic and (source, destination) pair. A partition
 * about to move from A to B is swapped for one that already moved from B to A, so partitions of a
 * topic never cross between two members both ways; which one is the first element of a
 * `HashSet<TopicPartition>`, in Java's order.
 */
class PartitionMovements {
  readonly #byTopic = new Map<string, Map<string, JavaHashSet<TopicPartition>>>();
  readonly #movements = new Map<TopicPartition, { src: string; dst: string }>();

  #removeRecord(tp: TopicPartition): { src: string; dst: string } {
    const pair = this.#movements.get(tp)!;
    this.#movements.delete(tp);
    const forTopic = this.#byTopic.get(tp.topic)!;
    const key = pairKey(pair.src, pair.dst);
    const set = forTopic.get(key)!;
    set.delete(tp);
    if (set.size === 0) forTopic.delete(key);
    if (forTopic.size === 0) this.#byTopic.delete(tp.topic);
    return pair;
  }

  #addRecord(tp: TopicPartition, src: string, dst: string): void {
    this.#movements.set(tp, { src, dst });
    let forTopic = this.#byTopic.get(tp.topic);
    if (!forTopic) this.#byTopic.set(tp.topic, (forTopic = new Map()));
    const key = pairKey(src, dst);
    let set = forTopic.get(key);
    if (!set) forTopic.set(key, (set = JavaHashSet.empty(TOPIC_PARTITION)));
    set.add(tp);
  }

  movePartition(tp: TopicPartition, oldConsumer: string, newConsumer: string): void {
    if (this.#movements.has(tp)) {
      const existing = this.#removeRecord(tp);
      if (existing.src !== newConsumer) this.#addRecord(tp, existing.src, newConsumer);
    } else {
      this.#addRecord(tp, oldConsumer, newConsumer);
    }
  }

  /** The records as text, the same for the same records in the same iteration orders. */
  state(): string {
    const out: string[] = [];
    for (const [topic, forTopic] of this.#byTopic) {
      for (const [key, set] of forTopic) out.push(`${topic}\u0000${key}:${[...set].map((tp) => tp.partition).join(' ')}`);
    }
    return out.sort().join('\n');
  }

  actualPartitionToBeMoved(tp: TopicPartition, oldConsumer: string, newConsumer: string): TopicPartition {
    const forTopic = this.#byTopic.get(tp.topic);
    if (!forTopic) return tp;
    const moved = this.#movements.get(tp);
    if (moved) oldConsumer = moved.src;
    const reverse = forTopic.get(pairKey(newConsumer, oldConsumer));
    if (!reverse) return tp;
    return reverse[Symbol.iterator]().next().value as TopicPartition;
  }
}

function pairKey(src: string, dst: string): string {
  return `${src}\u0000${dst}`;
}
