/**
 * A Kafka consumer group: its assignor, its members (in join order, with their subscriptions) and
 * the owners of its topics' partitions, kept as a history of events, each one rebalance.
 *
 * Events (CLI `--then`, what-if steps), as text:
 * - `+ID` a member joins, subscribed to the group's topics; `+ID:orders,payments` one that joins
 *   subscribed to those topics;
 * - `+ID:orders` for a member already in the group: it changes its subscription (it rejoins with
 *   the new topics; that is one rebalance, like a join);
 * - `-ID` the member leaves;
 * - `partitions=N` (with a topic) the topic grows to N partitions.
 *
 * Each event is one rebalance, with previous ownership handed over as the protocol does (see
 * `classicGroup.ts`, `consumerProtocolGroup.ts`). With an `observed` block the group starts from the
 * owners the broker reported, as the previous assignment of the first rebalance.
 */
import { javaStringHashCode } from '../pulsar/javaStringHash';
import type { Outcome } from '../pulsar/keyShared/subscription';
import { ClassicGroup, type ClassicAssignorName, type Owners } from './classicGroup';
import { ConsumerProtocolGroup, type TopicMetadata } from './consumerProtocolGroup';
import { rangeShares } from './assignors/rangeAssignor';
import { compareStrings, TopicPartitions, type TopicPartition } from './assignors/types';
import { uuidFromBytes, type Uuid } from './uuid';

export type { Owners };

export const ASSIGNOR_NAMES = ['range', 'roundrobin', 'sticky', 'cooperative-sticky', 'uniform', 'server-range'] as const;
export type AssignorName = (typeof ASSIGNOR_NAMES)[number];

/** How an assignor's group rebalances. */
export type RebalanceProtocol = 'eager' | 'cooperative' | 'consumer';

export function rebalanceProtocol(a: AssignorName): RebalanceProtocol {
  return a === 'uniform' || a === 'server-range' ? 'consumer' : a === 'cooperative-sticky' ? 'cooperative' : 'eager';
}

/** Past this many partitions over a group's topics, only the range assignors (computed directly) are followed. */
export const MAX_SIMULATED_PARTITIONS = 50_000;

/**
 * Past this many partitions over a group's topics their owners are not listed one by one (a range
 * group's rebalance is then counted from the members' shares).
 */
export const MAX_LISTED_PARTITIONS = 200_000;

/** A range assignor (classic or KIP-848): its owners can be worked out without following each partition. */
function isRange(a: AssignorName): boolean {
  return a === 'range' || a === 'server-range';
}

export interface GroupMemberConfig {
  id: string;
  /** Its subscription; absent: the group's topics. */
  topics?: string[];
}

export interface ObservedOwners {
  at?: string;
  /** `owners[topic][p]`: the member consuming partition p, or null. */
  owners: Record<string, Array<string | null>>;
}

export interface KafkaGroupConfig {
  name: string;
  assignor: AssignorName;
  topics: string[];
  /** In join order. */
  members: GroupMemberConfig[];
  observed?: ObservedOwners;
  /**
   * The Java version the brokers run (KIP-848 assignors only: JDK 19 changed how the sets they copy
   * are sized, which moves some of the uniform assignor's ties). Default 17.
   */
  brokerJava?: number;
}

/** A Kafka topic as a group needs it. */
export interface GroupTopic {
  name: string;
  partitions: number;
  /** The topic id, when the settings give it. */
  topicId?: Uuid;
}

export type GroupEvent =
  | { kind: 'plus'; id: string; topics?: string[] }
  | { kind: 'leave'; id: string }
  | { kind: 'partitions'; topic: string; count: number };

/**
 * Parses a group event. `partitions=N` needs the topic (the CLI's `--topic`). A member id is
 * everything before the last `:` (topic names cannot contain one).
 */
export function parseGroupEvent(text: string, topic?: string): GroupEvent | string {
  const p = /^partitions=(\d+)$/.exec(text);
  if (p) {
    if (topic === undefined) return `event ${JSON.stringify(text)}: partitions=N needs the topic it changes`;
    const count = Number(p[1]);
    if (!Number.isSafeInteger(count)) return `event ${JSON.stringify(text)}: partition count too large`;
    return { kind: 'partitions', topic, count };
  }
  if (text.startsWith('-')) {
    if (text.length === 1) return 'event "-": the member id is empty';
    return { kind: 'leave', id: text.slice(1) };
  }
  if (text.startsWith('+')) {
    const body = text.slice(1);
    const colon = body.lastIndexOf(':');
    const id = colon >= 0 ? body.slice(0, colon) : body;
    if (id === '') return `event ${JSON.stringify(text)}: the member id is empty`;
    if (colon < 0) return { kind: 'plus', id };
    const topics = body.slice(colon + 1).split(',');
    if (topics.some((t) => t === '')) return `event ${JSON.stringify(text)}: write the topics as +ID:orders,payments`;
    return { kind: 'plus', id, topics };
  }
  return `event ${JSON.stringify(text)}: expected +ID, +ID:TOPIC,..., -ID or partitions=N`;
}

export function formatGroupEvent(e: GroupEvent): string {
  if (e.kind === 'partitions') return `partitions=${e.count}`;
  if (e.kind === 'leave') return `-${e.id}`;
  return e.topics ? `+${e.id}:${e.topics.join(',')}` : `+${e.id}`;
}

/** One partition that changed owner. */
export interface OwnerChange {
  topic: string;
  partition: number;
  from: string | null;
  to: string | null;
}

/** What one event did. */
export interface GroupStep {
  event: string;
  /** What kind of change it was, once resolved against the group. */
  change: 'join' | 'subscribe' | 'leave' | 'partitions';
  /** Owners after each round (cooperative-sticky: 2 when partitions moved between members; otherwise 1; none where computed directly). */
  rounds: Owners[];
  before: Owners;
  after: Owners;
  /**
   * Partitions whose owner differs between `before` and `after`, topic by topic, ascending; a
   * partition created by the event counts only in `changed` (from null), not as moved. `before`,
   * `after` and `changed` are empty past MAX_LISTED_PARTITIONS: `moved` and `added` count them.
   */
  changed: OwnerChange[];
  /** Partitions that had an owner before the step and another (or none) after it. */
  moved: number;
  /** Partitions that had no owner before the step (or did not exist) and have one after it. */
  added: number;
  /** The partitions of the group's topics after the step. */
  partitions: number;
}

/** Partitions that had an owner before the step and another (or none) after it, where listed. */
export function movedPartitions(step: GroupStep): OwnerChange[] {
  return step.changed.filter((c) => c.from !== null);
}

/** A topic's owners as runs from partition 0 up: [owner, first partition, end (exclusive)]. */
type Run = [string | null, number, number];

/** The runs of a listed topic. */
function runsOf(list: ReadonlyArray<string | null>): Run[] {
  const runs: Run[] = [];
  list.forEach((m, p) => {
    const last = runs.at(-1);
    if (last?.[0] === m) last[2]++;
    else runs.push([m, p, p + 1]);
  });
  return runs;
}

/**
 * Adds to `count` [moved, added] between a topic's runs before and after a step (see GroupStep), a
 * run at a time: a range group's owners are a few runs however many partitions it has (2147483647).
 */
function countChanges(a: Run[], b: Run[], count: number[]): void {
  // Past the end of `a` the partitions did not exist before the step: no owner.
  const past: Run = [null, a.at(-1)?.[2] ?? 0, Infinity];
  for (let i = 0, j = 0; j < b.length; ) {
    const [from, start, end] = a[i] ?? past;
    const [to, first, last] = b[j];
    if (from !== to) count[from === null ? 1 : 0] += Math.min(end, last) - Math.max(start, first);
    if (end <= last) i++;
    if (last <= end) j++;
  }
}

/**
 * A stand-in topic id derived from the name, for the uniform assignor when the settings give none:
 * deterministic, so results repeat, but not the broker's (random) id.
 */
export function standInTopicId(name: string): Uuid {
  const bytes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const h = javaStringHashCode(`${name}\u0000${i}`);
    bytes.push((h >>> 24) & 255, (h >>> 16) & 255, (h >>> 8) & 255, h & 255);
  }
  return uuidFromBytes(bytes);
}

export class ConsumerGroupState {
  /** Interned (an assignor tells partitions apart by identity); a copy of the state shares them. */
  readonly #partitions: TopicPartitions;
  /** Partition counts of the group's topics (shared with the classic simulation). */
  readonly #counts = new Map<string, number>();
  /** The coordinator's topic metadata (shared with the KIP-848 simulation). */
  readonly #metadata = new Map<string, TopicMetadata>();
  /** Null where the range assignors are computed directly (too many partitions to follow one by one). */
  #sim: ClassicGroup | ConsumerProtocolGroup | null;
  /** Member ids in join order, with their subscriptions (for the direct range computation and for output). */
  readonly #subscriptions = new Map<string, string[]>();
  /**
   * The direct range computation's shares per topic, until the next event: a view asks for the
   * owner of every partition, and working the shares out for each took 10 s in the extension host
   * for 100,000 partitions and 1,000 members.
   */
  readonly #rangeShares = new Map<string, Array<[string, [number, number]]>>();
  #current: Owners;
  readonly #history: GroupEvent[];
  /** True while the owners are the observed ones (no event applied yet). */
  observed: boolean;
  /** The topics as the group started (for `clone`). */
  readonly #initialTopics: GroupTopic[];

  constructor(
    readonly config: KafkaGroupConfig,
    topics: readonly GroupTopic[],
    /** A classic group's state to copy (see `clone`) instead of forming the group. */
    from?: ConsumerGroupState,
  ) {
    this.#partitions = from ? from.#partitions : new TopicPartitions();
    this.#history = from ? from.#history.slice() : [];
    this.#initialTopics = topics.filter((t) => config.topics.includes(t.name)).map((t) => ({ ...t }));
    if (from) {
      for (const [t, n] of from.#counts) this.#counts.set(t, n);
      for (const [t, m] of from.#metadata) this.#metadata.set(t, { ...m });
      // Lists are replaced, never changed (`#run`, `#snapshot`), so the copy shares them.
      for (const [id, list] of from.#subscriptions) this.#subscriptions.set(id, list);
      this.observed = from.observed;
      this.#current = from.#current;
      this.#sim = (from.#sim as ClassicGroup | null)?.copy(this.#counts) ?? null;
      return;
    }
    for (const t of config.topics) {
      const topic = topics.find((x) => x.name === t)!;
      this.#counts.set(t, topic.partitions);
      this.#metadata.set(t, { id: topic.topicId ?? standInTopicId(t), count: topic.partitions });
    }
    for (const m of config.members) this.#subscriptions.set(m.id, (m.topics ?? config.topics).slice());
    this.observed = config.observed !== undefined;
    this.#sim = this.#direct() ? null : this.#newSimulation();
    if (config.observed) {
      this.#current = this.#observedOwners(config.observed);
      this.#seedObserved(config.observed);
    } else {
      this.#sim?.form();
      this.#current = this.#sim?.owners() ?? new Map();
    }
  }

  get name(): string {
    return this.config.name;
  }

  get assignor(): AssignorName {
    return this.config.assignor;
  }

  /** Members in join order with their subscriptions. */
  get members(): ReadonlyMap<string, readonly string[]> {
    return this.#subscriptions;
  }

  /** The events applied so far. */
  get events(): readonly GroupEvent[] {
    return this.#history;
  }

  /** Notes on how far the result can be trusted (unknown topic ids). */
  notes(): string[] {
    const out: string[] = [];
    // While the owners are the broker's report the assignor has chosen none of them.
    if (this.config.assignor === 'uniform' && !this.observed) {
      const missing = this.#initialTopics.filter((t) => !t.topicId).map((t) => t.name);
      if (missing.length > 0) {
        out.push(
          `the uniform assignor's choice depends on topic ids, which the settings do not give for ${missing.join(', ')}; ` +
            'a stand-in id derived from the name was used, so the real owners may differ (add "topicId" as kafka-topics.sh --describe prints it)',
        );
      }
    }
    return out;
  }

  /** The member consuming the partition, null for none. */
  ownerOf(topic: string, partition: number): string | null {
    if (this.#sim === null && !this.observed) return this.#rangeOwner(topic, partition);
    return this.#current.get(topic)?.[partition] ?? null;
  }

  /**
   * Owners of every partition of every topic of the group. Refused (an error message) when there are
   * too many partitions to list.
   */
  owners(): Owners | string {
    if (this.#sim || this.observed) return this.#current;
    return this.partitions > MAX_LISTED_PARTITIONS
      ? `group ${this.name} has ${this.partitions} partitions over its topics; listing every owner stops at ${MAX_LISTED_PARTITIONS} (route a key to see its member)`
      : this.#snapshot();
  }

  /**
   * An independent state equal to this one. A classic group (or one computed directly) is copied;
   * a KIP-848 group is formed again from its configuration and the same events are replayed (its
   * coordinator's timeline maps are not copied).
   */
  clone(): ConsumerGroupState {
    if (!(this.#sim instanceof ConsumerProtocolGroup)) return new ConsumerGroupState(this.config, this.#initialTopics, this);
    const c = new ConsumerGroupState(this.config, this.#initialTopics);
    for (const e of this.#history) c.apply(e);
    return c;
  }

  /**
   * The group that settings listing its members now give: formed in one rebalance, with no history
   * and no broker's report (what the panel's Apply writes). A sticky assignor can then give other
   * owners than the rebalances that led here: with `sticky`, m3 joining m1 and m2 on 6 partitions
   * keeps 4 partitions where they were, and forming m1, m2, m3 at once gives 3 of the 6 another owner.
   */
  formedAgain(): ConsumerGroupState {
    const members = [...this.#subscriptions].map(([id, topics]) => ({ id, topics: [...topics] }));
    const topics = [...this.#metadata].map(([name, m]) => ({ name, partitions: m.count, topicId: m.id }));
    return new ConsumerGroupState({ ...this.config, members, observed: undefined }, topics);
  }

  /** Applies one event as one rebalance; a refused event leaves the group as it was. */
  apply(event: GroupEvent): Outcome<GroupStep> {
    const check = this.#check(event);
    if (typeof check === 'string') return { ok: false, error: check };
    const change = check.change;
    const before = this.#snapshot();
    // Runs before the step, while the shares are those of the members before it. A simulated group
    // that a member joins or leaves lists every owner before and after: its moves are counted from
    // the listed changes instead (a partition count change can take a range group past 200,000,
    // where it is no longer listed).
    const listed = this.#sim !== null && event.kind !== 'partitions';
    const runsBefore = listed ? [] : [...this.#counts.keys()].map((t) => [t, this.#runs(t, before)] as const);
    let rounds: Owners[];
    try {
      rounds = this.#run(event, change);
    } catch (e) {
      return { ok: false, error: `the assignor failed: ${(e as Error).message}` };
    }
    this.#history.push(event);
    this.observed = false;
    const after = this.#snapshot();
    const changed = diffOwners(before, after);
    const count = [0, 0];
    if (listed) for (const c of changed) count[c.from === null ? 1 : 0]++;
    for (const [t, runs] of runsBefore) countChanges(runs, this.#runs(t, after), count);
    return { ok: true, value: { event: formatGroupEvent(event), change, rounds, before, after, changed, moved: count[0], added: count[1], partitions: this.partitions } };
  }

  // ---- internals ----

  /** The partitions of the group's topics, all together. */
  get partitions(): number {
    let total = 0;
    for (const n of this.#counts.values()) total += n;
    return total;
  }

  #direct(): boolean {
    return isRange(this.assignor) && this.partitions > MAX_SIMULATED_PARTITIONS;
  }

  #newSimulation(): ClassicGroup | ConsumerProtocolGroup {
    const a = this.config.assignor;
    const sim = a === 'uniform' || a === 'server-range' ? new ConsumerProtocolGroup(a, this.#metadata, (this.config.brokerJava ?? 17) >= 19 ? 21 : 17) : new ClassicGroup(a as ClassicAssignorName, this.#partitions, this.#counts);
    for (const [id, topics] of this.#subscriptions) sim.add(id, topics);
    return sim;
  }

  #seedObserved(observed: ObservedOwners): void {
    if (!this.#sim) return;
    if (this.#sim instanceof ClassicGroup) {
      const owned = new Map<string, TopicPartition[]>();
      for (const t of this.config.topics) {
        (observed.owners[t] ?? []).forEach((m, p) => {
          if (m === null) return;
          let list = owned.get(m);
          if (!list) owned.set(m, (list = []));
          list.push(this.#partitions.get(t, p));
        });
      }
      this.#sim.setObserved(owned);
    } else {
      const owned = new Map<string, Array<[string, number[]]>>();
      for (const [m, byTopic] of partitionsByMember(this.#observedOwners(observed), [...this.#subscriptions.keys()])) {
        owned.set(m, this.config.topics.map((t) => [t, byTopic.get(t) ?? []]));
      }
      this.#sim.setObserved(owned);
    }
  }

  #observedOwners(observed: ObservedOwners): Owners {
    const out: Owners = new Map();
    for (const t of this.config.topics) {
      const list = observed.owners[t] ?? [];
      out.set(t, Array.from({ length: this.#counts.get(t)! }, (_, p) => list[p] ?? null));
    }
    return out;
  }

  /** Why the group refuses the event, or what kind of change it is. */
  #check(event: GroupEvent): { change: GroupStep['change'] } | string {
    // The partitions after the event: past the limit only the range assignors are followed (a
    // group of another assignor gets there from a broker's report, shown as reported).
    let total = this.partitions;
    if (event.kind === 'partitions') {
      const n = this.#counts.get(event.topic);
      if (n === undefined) return `group ${this.name} does not subscribe to ${event.topic}`;
      if (event.count <= n) return `${event.topic} has ${n} partitions; Kafka only adds partitions`;
      total += event.count - n;
    }
    if (total > MAX_SIMULATED_PARTITIONS && !isRange(this.assignor)) {
      return `with ${total} partitions over the group's topics: the ${this.assignor} assignor is followed partition by partition up to ${MAX_SIMULATED_PARTITIONS}`;
    }
    if (event.kind === 'partitions') return { change: 'partitions' };
    if (event.kind === 'leave') return this.#subscriptions.has(event.id) ? { change: 'leave' } : `group ${this.name} has no member ${event.id}`;
    const topics = event.topics;
    if (topics) {
      const unknown = topics.filter((t) => !this.#counts.has(t));
      if (unknown.length > 0) return `${unknown.join(', ')} ${unknown.length > 1 ? 'are not topics' : 'is not a topic'} of group ${this.name} (${this.config.topics.join(', ')})`;
    }
    if (this.#subscriptions.has(event.id)) {
      if (!topics) return `${event.id} is already a member of ${this.name}; +ID:TOPIC,... changes its subscription`;
      return { change: 'subscribe' };
    }
    return { change: 'join' };
  }

  #run(event: GroupEvent, change: GroupStep['change']): Owners[] {
    this.#rangeShares.clear();
    switch (event.kind) {
      case 'partitions':
        this.#counts.set(event.topic, event.count);
        this.#metadata.get(event.topic)!.count = event.count;
        // A range group past the limit is computed directly from now on (the assignor keeps no state).
        if (this.#sim !== null && this.#direct()) this.#sim = null;
        break;
      case 'leave':
        this.#subscriptions.delete(event.id);
        break;
      case 'plus':
        this.#subscriptions.set(event.id, (event.topics ?? this.config.topics).slice());
        break;
    }
    // Computed directly: the owners are the shares (`#snapshot`), no round to follow.
    if (this.#sim === null) return [];
    if (this.#sim instanceof ClassicGroup) {
      if (change === 'join') this.#sim.add((event as { id: string }).id, this.#subscriptions.get((event as { id: string }).id)!);
      else if (change === 'leave') this.#sim.remove((event as { id: string }).id);
      else if (change === 'subscribe') this.#sim.resubscribe((event as { id: string }).id, this.#subscriptions.get((event as { id: string }).id)!);
      const rounds = this.#sim.rebalance();
      this.#current = rounds[rounds.length - 1];
      return rounds;
    }
    const id = (event as { id?: string }).id;
    if (change === 'join' || change === 'subscribe') this.#sim.join(id!, this.#subscriptions.get(id!)!);
    else if (change === 'leave') this.#sim.leave(id!);
    else this.#sim.recompute();
    this.#current = this.#sim.owners();
    return [this.#current];
  }

  /** The owners now, as lists (empty past MAX_LISTED_PARTITIONS; a range group's from its shares). */
  #snapshot(): Owners {
    if (this.#sim || this.observed) return new Map([...this.#current].map(([t, l]) => [t, l.slice()]));
    const out: Owners = new Map();
    if (this.partitions <= MAX_LISTED_PARTITIONS) {
      for (const [t, n] of this.#counts) {
        const list = Array<string | null>(n).fill(null);
        for (const [m, [from, to]] of this.#shares(t)) list.fill(m, from, to);
        out.set(t, list);
      }
    }
    return out;
  }

  /** A topic's owners as runs: a range group's from its shares where computed directly, else from its list in `owners`. */
  #runs(topic: string, owners: Owners): Run[] {
    if (this.#sim || this.observed) return runsOf(owners.get(topic)!);
    const shares = this.#shares(topic);
    return shares.length ? shares.map(([m, [from, to]]) => [m, from, to]) : [[null, 0, this.#counts.get(topic)!]];
  }

  /** The range assignors' shares of a topic's partitions among the members subscribed to it. */
  #shares(topic: string): Array<[string, [number, number]]> {
    let shares = this.#rangeShares.get(topic);
    if (!shares) this.#rangeShares.set(topic, (shares = rangeShares([...this.#subscriptions].filter(([, t]) => t.includes(topic)).map(([id]) => id).sort(compareStrings), this.#counts.get(topic)!)));
    return shares;
  }

  /** The range assignors' owner of one partition, computed directly (any partition count). */
  #rangeOwner(topic: string, partition: number): string | null {
    const count = this.#counts.get(topic);
    if (count === undefined || partition >= count) return null;
    const shares = this.#shares(topic);
    // The shares run up from partition 0: the owner's is the last one starting at or before it.
    let lo = 0;
    let hi = shares.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (shares[mid][1][0] <= partition) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? shares[lo - 1][0] : null;
  }
}

/** Partitions whose owner differs, topic by topic (in the map's order), ascending. */
export function diffOwners(before: Owners, after: Owners): OwnerChange[] {
  const out: OwnerChange[] = [];
  for (const [topic, list] of after) {
    const old = before.get(topic) ?? [];
    const n = Math.max(list.length, old.length);
    for (let p = 0; p < n; p++) {
      const from = old[p] ?? null;
      const to = list[p] ?? null;
      if (from !== to) out.push({ topic, partition: p, from, to });
    }
  }
  return out;
}

/** Each member's partitions per topic, ascending; members in the given order, then any others. */
export function partitionsByMember(owners: Owners, order: readonly string[]): Map<string, Map<string, number[]>> {
  const out = new Map<string, Map<string, number[]>>();
  for (const m of order) out.set(m, new Map());
  for (const [topic, list] of owners) {
    list.forEach((m, p) => {
      if (m === null) return;
      let byTopic = out.get(m);
      if (!byTopic) out.set(m, (byTopic = new Map()));
      let ps = byTopic.get(topic);
      if (!ps) byTopic.set(topic, (ps = []));
      ps.push(p);
    });
  }
  return out;
}
