/**
 * A rebalance what-if for a Kafka consumer group: for each event, the partitions that changed
 * owner, the given keys that changed member, and what the rebalance does (`rebalanceExplain.ts`);
 * for each key and topic of the group, its partition and member before the first event and after
 * the last. The group and its topics are changed in place (run it on clones to keep them).
 */
import type { MessageKey } from '../key';
import type { KafkaTopicState } from '../topology';
import { MAX_LISTED_PARTITIONS, movedPartitions, parseGroupEvent, rebalanceProtocol, type ConsumerGroupState, type OwnerChange, type RebalanceProtocol } from './consumerGroup';
import { explainRebalance, type RebalanceExplanation } from './rebalanceExplain';

export interface KeyPlace {
  partition: number | null;
  member: string | null;
  /** Why there is no partition, hence no member: the client fixes none for the key (its note). */
  note?: string;
  /** The topic's key serializer refuses the key. */
  error?: string;
}

export interface KeyMove {
  key: string;
  topic: string;
  before: KeyPlace;
  after: KeyPlace;
}

export interface GroupWhatIfStep {
  event: string;
  /** Why the group (or the topic) refused the event; nothing changed. */
  error?: string;
  /** Partitions that had an owner and changed it (new partitions are listed in `added`). */
  moved: OwnerChange[];
  /** Partitions the event created, with their first owner. */
  added: OwnerChange[];
  /** `moved` over the partitions the group had before the event. */
  movedFraction: number;
  rebalance?: RebalanceExplanation;
  /** Set when the group has too many partitions to list them (its keys still show their members). */
  note?: string;
  /** The given keys whose member (or partition) changed in this step. */
  keys: KeyMove[];
}

export interface GroupWhatIfResult {
  group: string;
  assignor: string;
  protocol: RebalanceProtocol;
  notes?: string[];
  steps: GroupWhatIfStep[];
  keys: Array<KeyMove & { moved: boolean }>;
}

/**
 * A what-if taken one event at a time: `step` applies the next event to `group` and `topics` in
 * place, `result` reports every step so far. The panel keeps the run of its last what-if and, when
 * the user adds a step, continues it instead of replaying every step from the group's settings:
 * with 500 members and 10,000 partitions each replayed rebalance cost as much as the new one.
 *
 * `topics` are the group's topics' states (for the keys' partitions and for `partitions=N`);
 * `partitionsTopic` the topic a `partitions=N` event changes.
 */
export class GroupWhatIfRun {
  /** Each key's place on each of the group's topics, before the first event and after the last. */
  readonly #first: KeyPlace[][];
  #current: KeyPlace[][];
  readonly #steps: GroupWhatIfStep[] = [];

  constructor(
    readonly group: ConsumerGroupState,
    readonly topics: ReadonlyMap<string, KafkaTopicState>,
    private readonly keys: ReadonlyArray<{ shown: string; key: MessageKey }>,
    private readonly partitionsTopic?: string,
  ) {
    this.#first = this.#places();
    this.#current = this.#first;
  }

  #place(k: MessageKey, topic: string): KeyPlace {
    const r = this.topics.get(topic)!.route(k);
    if (r.error !== undefined) return { partition: null, member: null, error: r.error };
    if (r.partition === null) return { partition: null, member: null, note: r.note ?? 'no fixed partition for this key' };
    return { partition: r.partition, member: this.group.ownerOf(topic, r.partition) };
  }

  #places(): KeyPlace[][] {
    return this.keys.map((k) => this.group.config.topics.map((t) => this.#place(k.key, t)));
  }

  /** Applies one event (as one rebalance); a refused one is listed with its reason and changes nothing. */
  step(text: string): void {
    const { group, topics } = this;
    const refused = (error: string): void => {
      this.#steps.push({ event: text, error, moved: [], added: [], movedFraction: 0, keys: [] });
    };
    const event = parseGroupEvent(text, this.partitionsTopic);
    if (typeof event === 'string') return refused(event);
    let topicState: KafkaTopicState | undefined;
    let oldCount = 0;
    if (event.kind === 'partitions') {
      topicState = topics.get(event.topic);
      if (!topicState) return refused(`group ${group.name} does not subscribe to ${event.topic}`);
      oldCount = topicState.partitions;
      const r = topicState.apply({ kind: 'partitions', count: event.count });
      if (!r.ok) return refused(r.error);
    }
    const partitionsBefore = group.partitions;
    const r = group.apply(event);
    if (!r.ok) {
      if (topicState) topicState.partitions = oldCount;
      return refused(r.error);
    }
    const moved = movedPartitions(r.value);
    const next = this.#places();
    const keyMoves: KeyMove[] = [];
    this.keys.forEach((k, i) =>
      group.config.topics.forEach((t, j) => {
        const a = this.#current[i][j];
        const b = next[i][j];
        if (a.partition !== b.partition || a.member !== b.member) keyMoves.push({ key: k.shown, topic: t, before: a, after: b });
      }),
    );
    this.#current = next;
    this.#steps.push({
      event: text,
      moved,
      added: r.value.changed.filter((c) => c.from === null),
      movedFraction: partitionsBefore > 0 ? r.value.moved / partitionsBefore : 0,
      rebalance: explainRebalance(group.assignor, r.value, new Set(group.members.keys())),
      // Past the listing's bound `owners()` says so (and below it would list them all once more).
      ...(group.partitions > MAX_LISTED_PARTITIONS ? { note: group.owners() as string } : {}),
      keys: keyMoves,
    });
  }

  /** Every step so far, and each key's place before the first and after the last (a new object each call). */
  result(): GroupWhatIfResult {
    const { group } = this;
    const out: GroupWhatIfResult = {
      group: group.name,
      assignor: group.assignor,
      protocol: rebalanceProtocol(group.assignor),
      steps: this.#steps.slice(),
      keys: this.keys.flatMap((k, i) =>
        group.config.topics.map((t, j) => {
          const b = this.#first[i][j];
          const a = this.#current[i][j];
          return { key: k.shown, topic: t, before: b, after: a, moved: b.partition !== a.partition || b.member !== a.member };
        }),
      ),
    };
    const notes = group.notes();
    if (notes.length) out.notes = notes;
    return out;
  }
}

/** Runs every event on `group` and `topics` (changed in place); see `GroupWhatIfRun`. */
export function runGroupWhatIf(
  group: ConsumerGroupState,
  topics: ReadonlyMap<string, KafkaTopicState>,
  events: readonly string[],
  keys: ReadonlyArray<{ shown: string; key: MessageKey }>,
  partitionsTopic?: string,
): GroupWhatIfResult {
  const run = new GroupWhatIfRun(group, topics, keys, partitionsTopic);
  for (const text of events) run.step(text);
  return run.result();
}
