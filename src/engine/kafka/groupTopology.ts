/**
 * The consumer groups of a topology: built from the settings, joined to the Kafka topics' routes
 * (key -> partition -> member) and moved by the same `--then` events as the topics.
 */
import type { Outcome } from '../pulsar/keyShared/subscription';
import { ConsumerGroupState, parseGroupEvent, type GroupEvent, type GroupStep, type GroupTopic } from './consumerGroup';
import type { KafkaGroupSetting } from './groupSettings';
import { parseUuid, type Uuid } from './uuid';

interface Problem {
  path: string;
  message: string;
}

interface TopicLike {
  name: string;
  system: string;
  partitions: number;
  topicId?: string;
}

/** The groups of the settings; a group whose first rebalance fails is reported and left out. */
export function buildGroups(groups: readonly KafkaGroupSetting[] | undefined, topics: readonly TopicLike[], problems: Problem[]): ConsumerGroupState[] {
  const kafka: GroupTopic[] = topics
    .filter((t) => t.system === 'kafka')
    .map((t) => ({ name: t.name, partitions: t.partitions, ...(t.topicId ? { topicId: parseUuid(t.topicId) as Uuid } : {}) }));
  const out: ConsumerGroupState[] = [];
  for (const g of groups ?? []) {
    try {
      out.push(new ConsumerGroupState(g, kafka));
    } catch (e) {
      problems.push({ path: g.path, message: `the ${g.assignor} assignor fails on this group: ${(e as Error).message}` });
    }
  }
  return out;
}

/** What a Kafka route line adds: the member of each group consuming the key's partition. */
export interface GroupRouteFields {
  groups?: Record<string, string | null>;
  /** Some member comes from a broker's report (the group's `observed` block), not from the assignor. */
  observed?: true;
  /** The route's own note, with the groups' (a uniform group without topic ids) after it. */
  note?: string;
}

export function groupRouteFields(groups: readonly ConsumerGroupState[], route: { topic: string; system: string; partition: number | null; note?: string }): GroupRouteFields {
  if (route.system !== 'kafka') return {};
  const mine = groups.filter((g) => g.config.topics.includes(route.topic));
  if (mine.length === 0) return {};
  const out: GroupRouteFields = { groups: {} };
  const notes: string[] = route.note ? [route.note] : [];
  for (const g of mine) {
    out.groups![g.name] = route.partition === null ? null : g.ownerOf(route.topic, route.partition);
    if (g.observed) out.observed = true;
    for (const n of g.notes()) notes.push(`group ${g.name}: ${n}`);
  }
  if (notes.length > (route.note ? 1 : 0)) out.note = notes.join('; ');
  return out;
}

/** A group's answer to one `--then` event: its step, or why it refused. */
export interface GroupEventResult {
  group: ConsumerGroupState;
  outcome: Outcome<GroupStep>;
}

/**
 * Applies an event given as text to the groups it concerns: `partitions=N` (for `topic`) to the
 * groups subscribing to the topic; `-ID` to the groups with that member; `+ID` to the groups
 * without it; `+ID:TOPIC,...` to the groups with all of those topics. `onlyTopic` (the CLI's
 * `--topic`) narrows it to the groups of that topic. Groups the event does not concern are not
 * listed; an event that is not a group event concerns none.
 */
export function applyGroupEvent(groups: readonly ConsumerGroupState[], text: string, topic?: string, onlyTopic?: string): GroupEventResult[] {
  const event = parseGroupEvent(text, topic);
  if (typeof event === 'string') return [];
  const out: GroupEventResult[] = [];
  for (const g of groups) {
    if (onlyTopic !== undefined && !g.config.topics.includes(onlyTopic)) continue;
    if (!concerns(g, event)) continue;
    out.push({ group: g, outcome: g.apply(event) });
  }
  return out;
}

function concerns(g: ConsumerGroupState, e: GroupEvent): boolean {
  if (e.kind === 'partitions') return g.config.topics.includes(e.topic);
  if (e.kind === 'leave') return g.members.has(e.id);
  if (!e.topics) return !g.members.has(e.id);
  return e.topics.every((t) => g.config.topics.includes(t));
}
