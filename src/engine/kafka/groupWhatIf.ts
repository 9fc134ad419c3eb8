/**
 * A rebalance what-if for a Kafka consumer group: for each event, the partitions that changed
 * owner, the given keys that changed member, and what the rebalance does (`rebalanceExplain.ts`);
 * for each key and topic of the group, its partition and member before the first event and after
 * the last. The group and its topics are changed in place (run it on clones to keep them).
 */
import type { MessageKey } from '../key';
import type { KafkaTopicState } from '../topology';
import { movedPartitions, parseGroupEvent, rebalanceProtocol, type ConsumerGroupState, type OwnerChange, type RebalanceProtocol } from './consumerGroup';
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
 * `topics` are the group's topics' states (for the keys' partitions and for `partitions=N`);
 * `partitionsTopic` the topic a `partitions=N` event changes.
 */
export function runGroupWhatIf(
  group: ConsumerGroupState,
  topics: ReadonlyMap<string, KafkaTopicState>,
  events: readonly string[],
  keys: ReadonlyArray<{ shown: string; key: MessageKey }>,
  partitionsTopic?: string,
): GroupWhatIfResult {
  const place = (k: MessageKey, topic: string): KeyPlace => {
    const r = topics.get(topic)!.route(k);
    if (r.error !== undefined) return { partition: null, member: null, error: r.error };
    if (r.partition === null) return { partition: null, member: null, note: r.note ?? 'no fixed partition for this key' };
    return { partition: r.partition, member: group.ownerOf(topic, r.partition) };
  };
  const places = () => keys.map((k) => group.config.topics.map((t) => place(k.key, t)));
  const first = places();
  let current = first;
  const steps: GroupWhatIfStep[] = [];
  for (const text of events) {
    const refused = (error: string): void => {
      steps.push({ event: text, error, moved: [], added: [], movedFraction: 0, keys: [] });
    };
    const event = parseGroupEvent(text, partitionsTopic);
    if (typeof event === 'string') {
      refused(event);
      continue;
    }
    let topicState: KafkaTopicState | undefined;
    let oldCount = 0;
    if (event.kind === 'partitions') {
      topicState = topics.get(event.topic);
      if (!topicState) {
        refused(`group ${group.name} does not subscribe to ${event.topic}`);
        continue;
      }
      oldCount = topicState.partitions;
      const r = topicState.apply({ kind: 'partitions', count: event.count });
      if (!r.ok) {
        refused(r.error);
        continue;
      }
    }
    const partitionsBefore = totalPartitions(group);
    const r = group.apply(event);
    if (!r.ok) {
      if (topicState) topicState.partitions = oldCount;
      refused(r.error);
      continue;
    }
    const moved = movedPartitions(r.value);
    const next = places();
    const keyMoves: KeyMove[] = [];
    keys.forEach((k, i) =>
      group.config.topics.forEach((t, j) => {
        const a = current[i][j];
        const b = next[i][j];
        if (a.partition !== b.partition || a.member !== b.member) keyMoves.push({ key: k.shown, topic: t, before: a, after: b });
      }),
    );
    current = next;
    const listing = group.owners();
    steps.push({
      event: text,
      moved,
      added: r.value.changed.filter((c) => c.from === null),
      movedFraction: partitionsBefore > 0 ? moved.length / partitionsBefore : 0,
      rebalance: explainRebalance(group.assignor, r.value, new Set(group.members.keys())),
      ...(typeof listing === 'string' ? { note: listing } : {}),
      keys: keyMoves,
    });
  }
  const out: GroupWhatIfResult = {
    group: group.name,
    assignor: group.assignor,
    protocol: rebalanceProtocol(group.assignor),
    steps,
    keys: keys.flatMap((k, i) =>
      group.config.topics.map((t, j) => {
        const b = first[i][j];
        const a = current[i][j];
        return { key: k.shown, topic: t, before: b, after: a, moved: b.partition !== a.partition || b.member !== a.member };
      }),
    ),
  };
  const notes = group.notes();
  if (notes.length) out.notes = notes;
  return out;
}

function totalPartitions(group: ConsumerGroupState): number {
  const owners = group.owners();
  if (typeof owners === 'string') return 0;
  let n = 0;
  for (const l of owners.values()) n += l.length;
  return n;
}
