/**
 * A Kafka consumer group as the panel draws it on one of its topics: who owns each partition
 * (the colour of the partitions row), the members with their partitions and their share of the
 * shown or analysed keys, the key's partition and member, and the group's what-if (a member joins
 * or leaves) with the partitions and keys that move. Everything comes from the engine's group
 * (`ConsumerGroupState`, `GroupWhatIfRun`); nothing here assigns a partition itself.
 */
import { MAX_LISTED_PARTITIONS, rebalanceProtocol, type AssignorName, type ConsumerGroupState } from '../../engine/kafka/consumerGroup';
import { GroupWhatIfRun, type GroupWhatIfResult } from '../../engine/kafka/groupWhatIf';
import { KafkaTopicState, type Topology } from '../../engine/topology';
import type { MessageKey } from '../../engine/key';
import { skew, type Skew } from '../../analyze/figures';

/** Past this many partitions the members' partition counts are not worked out one partition at a time. */
export const MAX_COUNTED_PARTITIONS = MAX_LISTED_PARTITIONS;

export interface GroupMemberRow {
  id: string;
  /** Palette index (join order). */
  color: number;
  /** Partitions of the topic it owns; null where there are too many partitions to count. */
  partitions: number | null;
  /** Shown keys whose partition it owns. */
  keys: number;
}

export interface GroupKeyRow {
  n: number;
  label: string;
  partition: number | null;
  member: string | null;
  /** Why there is no partition (the client fixes none, the serializer refuses the key). */
  why?: string;
}

export interface GroupViewModel {
  group: string;
  assignor: AssignorName;
  topic: string;
  partitions: number;
  members: GroupMemberRow[];
  /** The member index owning each partition (-1: nobody); null where there are too many to list. */
  owner: Int32Array | null;
  /** Partitions nobody owns (null: not counted). */
  unowned: number | null;
  keys: GroupKeyRow[];
  /** The owners are the broker's report (the group's `observed` block), not the assignor's. */
  observedAt: string | null;
  notes: string[];
}

/** The groups of the topology that consume `topic`. */
export function groupsOf(topology: Topology, topic: string): ConsumerGroupState[] {
  return topology.groups.filter((g) => g.config.topics.includes(topic));
}

export function buildGroupView(
  group: ConsumerGroupState,
  topic: KafkaTopicState,
  keys: ReadonlyArray<{ n: number; label: string; route: { partition: number | null; note?: string; error?: string } }>,
): GroupViewModel {
  const ids = [...group.members.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const n = topic.partitions;
  const members: GroupMemberRow[] = ids.map((id, i) => ({ id, color: i, partitions: null, keys: 0 }));
  let owner: Int32Array | null = null;
  let unowned: number | null = null;
  if (n <= MAX_COUNTED_PARTITIONS) {
    // `ownerOf` is the engine's answer for every group size (the range assignors are computed
    // directly past the simulated size); one call per partition.
    owner = new Int32Array(n);
    unowned = 0;
    for (const m of members) m.partitions = 0;
    for (let p = 0; p < n; p++) {
      const id = group.ownerOf(topic.name, p);
      const i = id === null ? -1 : (index.get(id) ?? -1);
      owner[p] = i;
      if (i < 0) unowned++;
      else members[i].partitions!++;
    }
  }
  const rows: GroupKeyRow[] = keys.map((k) => {
    const r = k.route;
    if (r.error !== undefined) return { n: k.n, label: k.label, partition: null, member: null, why: r.error };
    if (r.partition === null) return { n: k.n, label: k.label, partition: null, member: null, why: r.note ?? 'no fixed partition' };
    const member = group.ownerOf(topic.name, r.partition);
    if (member !== null) {
      const i = index.get(member);
      if (i !== undefined) members[i].keys++;
    }
    return { n: k.n, label: k.label, partition: r.partition, member };
  });
  return {
    group: group.name,
    assignor: group.assignor,
    topic: topic.name,
    partitions: n,
    members,
    owner,
    unowned,
    keys: rows,
    observedAt: group.observed ? (group.config.observed?.at ?? '') : null,
    notes: group.notes(),
  };
}

/**
 * The group's what-if from its current state: `events` (`+ID`, `-ID`, `partitions=N`) applied to
 * copies, so the topology the panel draws stays as it is. `copy` is a copy of `group` made ahead
 * (the panel's, from idle time), which the run then moves on.
 */
export function groupWhatIf(
  topology: Topology,
  group: ConsumerGroupState,
  topicName: string,
  events: readonly string[],
  keys: ReadonlyArray<{ shown: string; key: MessageKey }>,
  copy = group.clone(),
): GroupWhatIfRunState {
  const topics = new Map<string, KafkaTopicState>();
  for (const t of group.config.topics) {
    const state = topology.topic(t);
    if (state instanceof KafkaTopicState) topics.set(t, state.clone());
  }
  // The run moves the copies: after it they are the group and topics after the last step.
  const run = new GroupWhatIfRun(copy, topics, keys, topicName);
  for (const e of events) run.step(e);
  return { result: run.result(), run };
}

/**
 * A group what-if's result before its first step, from the group's view alone (in the panel, the
 * host's frame), so the What-if tab opens without the panel's topology (see `noStepsWhatIf`):
 * no steps, and no key moved (`keys` lists only moved keys here; the panel reads no other).
 */
export function noStepsResult(base: GroupViewModel): GroupWhatIfResult {
  const out: GroupWhatIfResult = { group: base.group, assignor: base.assignor, protocol: rebalanceProtocol(base.assignor), steps: [], keys: [] };
  if (base.notes.length) out.notes = base.notes;
  return out;
}

/** A group what-if: its result, and the run that took its steps (`run.group`, `run.topics`: the group and topics after them). */
export interface GroupWhatIfRunState {
  result: GroupWhatIfResult;
  run: GroupWhatIfRun;
}

/**
 * The what-if of `prev`'s events followed by `more`, taken on the run's own copies (which move on):
 * the same result as `groupWhatIf` over all the events, for the cost of the new ones. `run` then
 * stands for the longer what-if only.
 */
export function continueGroupWhatIf(prev: GroupWhatIfRunState, more: readonly string[]): GroupWhatIfRunState {
  for (const e of more) prev.run.step(e);
  return { result: prev.run.result(), run: prev.run };
}

/** Analysed keys per member: the keys of the partitions it owns, summed; skew over the members. */
export interface MemberKeys {
  members: Array<{ id: string; keys: number; share: number }>;
  /** Keys on partitions nobody owns. */
  unowned: number;
  skew: Skew | null;
}

export function analysedKeysPerMember(view: GroupViewModel, partitionKeys: ReadonlyArray<{ partition: number; keys: number }>): MemberKeys | null {
  if (!view.owner) return null;
  const counts = new Float64Array(view.members.length);
  let unowned = 0;
  let total = 0;
  for (const { partition, keys } of partitionKeys) {
    if (partition < 0 || partition >= view.owner.length) continue;
    const i = view.owner[partition];
    total += keys;
    if (i < 0) unowned += keys;
    else counts[i] += keys;
  }
  return {
    members: view.members.map((m, i) => ({ id: m.id, keys: counts[i], share: total > 0 ? counts[i] / total : 0 })),
    unowned,
    skew: view.members.length ? skew(counts) : null,
  };
}
