/**
 * `keyRouting.kafkaGroups` and a Kafka topic's `topicId`, read as data: every problem is reported
 * with its setting path, and the valid rest is kept.
 *
 * ```jsonc
 * "keyRouting.kafkaGroups": [{
 *   "name": "billing",
 *   "assignor": "range",               // range | roundrobin | sticky | cooperative-sticky | uniform | server-range
 *   "topics": ["orders", "payments"],   // Kafka topics of keyRouting.topics
 *   "members": [{ "id": "m1" }, { "id": "m2", "topics": ["orders"] }],   // join order
 *   "observed": { "at": "...", "owners": { "orders": ["m1", "m1", "m2", null, "m2", "m1"] } },
 *   "brokerJava": 21                   // KIP-848 only: the brokers' Java version (default 17)
 * }]
 * ```
 */
import { ASSIGNOR_NAMES, MAX_SIMULATED_PARTITIONS, type AssignorName, type GroupMemberConfig, type KafkaGroupConfig, type ObservedOwners } from './consumerGroup';
import { parseUuid } from './uuid';
import { isObject } from '../jsonObject';
// settings.ts imports this module too; `show` is only called at parse time, after both loaded.
import { show } from '../settings';

export const KAFKA_GROUPS = 'keyRouting.kafkaGroups';

/** Members a group may list (as many as a Pulsar subscription's consumers). */
export const MAX_GROUP_MEMBERS = 10_000;

interface Problem {
  path: string;
  message: string;
}

/** What a group needs to know of a topic in the settings. */
interface TopicInfo {
  name: string;
  system: string;
  partitions: number;
}

/** A group as the settings give it, with its setting path. */
export interface KafkaGroupSetting extends KafkaGroupConfig {
  path: string;
}

/**
 * A Kafka topic's `topicId` as Kafka prints it (`Uuid.toString()`: 22 URL-safe base64
 * characters). Returns the canonical text, or undefined (absent or reported).
 */
export function parseTopicId(raw: unknown, path: string, problems: Problem[]): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') {
    problems.push({ path, message: `must be the topic id as kafka-topics.sh --describe prints it, e.g. "GgSK5_X1Pp6B_v5u4SBqxg" (got ${show(raw)})` });
    return undefined;
  }
  const u = parseUuid(raw);
  if (typeof u === 'string') {
    problems.push({ path, message: `is not a Kafka topic id: ${u}` });
    return undefined;
  }
  if (u.msbHi === 0 && u.msbLo === 0 && u.lsbHi === 0 && (u.lsbLo === 0 || u.lsbLo === 1)) {
    problems.push({ path, message: `${JSON.stringify(raw)} is reserved (Uuid.ZERO_UUID / METADATA_TOPIC_ID); no user topic has it` });
    return undefined;
  }
  return u.text;
}

export function parseKafkaGroups(raw: unknown, topics: readonly TopicInfo[], problems: Problem[]): KafkaGroupSetting[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path: KAFKA_GROUPS, message: 'must be an array of groups, e.g. [{"name": "billing", "assignor": "range", "topics": ["orders"], "members": [{"id": "m1"}]}]' });
    return [];
  }
  const out: KafkaGroupSetting[] = [];
  const seen = new Map<string, number>();
  raw.forEach((g: unknown, i: number) => {
    const path = `${KAFKA_GROUPS}[${i}]`;
    const group = parseGroup(g, path, topics, problems);
    if (!group) return;
    const first = seen.get(group.name);
    if (first !== undefined) {
      problems.push({ path: `${path}.name`, message: `duplicate group name ${JSON.stringify(group.name)} (also ${KAFKA_GROUPS}[${first}]); give each group a distinct name` });
      return;
    }
    seen.set(group.name, i);
    out.push(group);
  });
  return out;
}

function parseGroup(g: unknown, path: string, topics: readonly TopicInfo[], problems: Problem[]): KafkaGroupSetting | undefined {
  if (!isObject(g)) {
    problems.push({ path, message: 'must be an object with "name", "topics" and "members"' });
    return undefined;
  }
  const before = problems.length;
  if (typeof g.name !== 'string' || g.name.trim() === '') problems.push({ path: `${path}.name`, message: `must be a non-empty string (got ${show(g.name)})` });
  const assignor = g.assignor ?? 'range';
  if (!(ASSIGNOR_NAMES as readonly unknown[]).includes(assignor)) {
    problems.push({
      path: `${path}.assignor`,
      message: `must be one of ${ASSIGNOR_NAMES.map((a) => JSON.stringify(a)).join(', ')} (got ${show(assignor)}); Kafka's class names map to these, e.g. CooperativeStickyAssignor is "cooperative-sticky" and the KIP-848 broker's "range" is "server-range"`,
    });
  }
  const groupTopics = parseTopicList(g.topics, `${path}.topics`, topics, problems, 'the group subscribes to');
  const members: GroupMemberConfig[] = [];
  if (g.members !== undefined && !Array.isArray(g.members)) {
    problems.push({ path: `${path}.members`, message: 'must be an array of members in join order, e.g. [{"id": "m1"}, {"id": "m2"}]' });
  } else if (Array.isArray(g.members)) {
    if (g.members.length > MAX_GROUP_MEMBERS) problems.push({ path: `${path}.members`, message: `has ${g.members.length} members; at most ${MAX_GROUP_MEMBERS} are supported` });
    const ids = new Map<string, number>();
    g.members.slice(0, MAX_GROUP_MEMBERS).forEach((m: unknown, j: number) => {
      const mp = `${path}.members[${j}]`;
      const member = parseMember(m, mp, groupTopics, problems);
      if (!member) return;
      const first = ids.get(member.id);
      if (first !== undefined) {
        problems.push({ path: `${mp}.id`, message: `duplicate member id ${JSON.stringify(member.id)} (also ${path}.members[${first}]); a group's member ids are distinct` });
        return;
      }
      ids.set(member.id, j);
      members.push(member);
    });
  }
  if (problems.length > before || !groupTopics) return undefined;
  const name = g.name as string;
  const total = groupTopics.reduce((n, t) => n + topics.find((x) => x.name === t)!.partitions, 0);
  // A broker's report (observed) is shown as reported, however many partitions; its rebalances are refused.
  if (total > MAX_SIMULATED_PARTITIONS && assignor !== 'range' && assignor !== 'server-range' && g.observed === undefined) {
    problems.push({
      path: `${path}.topics`,
      message: `its topics have ${total} partitions; the ${assignor} assignor is followed partition by partition up to ${MAX_SIMULATED_PARTITIONS} (range and server-range are computed directly for any count)`,
    });
    return undefined;
  }
  const group: KafkaGroupSetting = { name, assignor: assignor as AssignorName, topics: groupTopics, members, path };
  if (g.brokerJava !== undefined) {
    if (!Number.isInteger(g.brokerJava) || g.brokerJava < 8 || g.brokerJava > 99) {
      problems.push({ path: `${path}.brokerJava`, message: `must be the brokers' Java feature version, e.g. 17 or 21 (got ${show(g.brokerJava)})` });
      return undefined;
    }
    group.brokerJava = g.brokerJava;
  }
  if (g.observed !== undefined) {
    const observed = parseObserved(g.observed, `${path}.observed`, group, topics, problems);
    if (!observed) return undefined;
    group.observed = observed;
  }
  return group;
}

function parseTopicList(raw: unknown, path: string, topics: readonly TopicInfo[], problems: Problem[], what: string): string[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push({ path, message: `must list the Kafka topics ${what}, e.g. ["orders", "payments"]` });
    return undefined;
  }
  const out: string[] = [];
  let ok = true;
  raw.forEach((t: unknown, k: number) => {
    const tp = `${path}[${k}]`;
    if (typeof t !== 'string') {
      problems.push({ path: tp, message: `must be a topic name (got ${show(t)})` });
      ok = false;
      return;
    }
    const topic = topics.find((x) => x.name === t);
    if (!topic) {
      const kafka = topics.filter((x) => x.system === 'kafka').map((x) => x.name);
      problems.push({ path: tp, message: `no Kafka topic ${JSON.stringify(t)} in keyRouting.topics (Kafka topics: ${kafka.join(', ') || 'none'})` });
      ok = false;
      return;
    }
    if (topic.system !== 'kafka') {
      problems.push({ path: tp, message: `${JSON.stringify(t)} is a Pulsar topic; consumer groups are Kafka's` });
      ok = false;
      return;
    }
    if (out.includes(t)) {
      problems.push({ path: tp, message: `lists ${JSON.stringify(t)} twice` });
      ok = false;
      return;
    }
    out.push(t);
  });
  return ok ? out : undefined;
}

function parseMember(m: unknown, path: string, groupTopics: string[] | undefined, problems: Problem[]): GroupMemberConfig | undefined {
  if (typeof m === 'string') m = { id: m };
  if (!isObject(m) || typeof m.id !== 'string' || m.id === '') {
    problems.push({ path, message: 'must be an object with a non-empty string "id", e.g. {"id": "m1"}' });
    return undefined;
  }
  if (m.topics === undefined) return { id: m.id };
  if (!groupTopics) return undefined;
  if (!Array.isArray(m.topics) || m.topics.length === 0 || !m.topics.every((t: unknown) => typeof t === 'string')) {
    problems.push({ path: `${path}.topics`, message: `must list some of the group's topics (${groupTopics.join(', ')}), or be left out for all of them` });
    return undefined;
  }
  const outside = m.topics.filter((t: string) => !groupTopics.includes(t));
  if (outside.length > 0) {
    problems.push({ path: `${path}.topics`, message: `${outside.join(', ')} ${outside.length > 1 ? 'are' : 'is'} not among the group's topics (${groupTopics.join(', ')})` });
    return undefined;
  }
  return { id: m.id, topics: [...new Set(m.topics as string[])] };
}

/** `observed`: the owners a broker reported, one entry per partition, members of the group or null. */
function parseObserved(o: unknown, path: string, group: KafkaGroupSetting, topics: readonly TopicInfo[], problems: Problem[]): ObservedOwners | undefined {
  if (!isObject(o) || !isObject(o.owners)) {
    problems.push({ path, message: 'must be {"owners": {"TOPIC": ["m1", null, ...]}} (one entry per partition), with an optional "at"' });
    return undefined;
  }
  const before = problems.length;
  if (o.at !== undefined && typeof o.at !== 'string') problems.push({ path: `${path}.at`, message: `must be a string, when it was reported (got ${show(o.at)})` });
  const ids = new Set(group.members.map((m) => m.id));
  const owners: Record<string, Array<string | null>> = {};
  for (const topic of Object.keys(o.owners)) {
    if (!group.topics.includes(topic)) problems.push({ path: `${path}.owners.${topic}`, message: `${JSON.stringify(topic)} is not one of the group's topics (${group.topics.join(', ')})` });
  }
  // Every topic of the group, as a report lists them: a topic left out was taken as nobody's, one
  // null per partition made from nothing (2,147,483,647 of them at most, which froze the host).
  for (const topic of group.topics) {
    const tp = `${path}.owners.${topic}`;
    const list = o.owners[topic];
    const n = topics.find((t) => t.name === topic)!.partitions;
    if (!Array.isArray(list) || list.length !== n) {
      problems.push({ path: tp, message: `must list the owner of each of ${topic}'s ${n} partitions (a member id or null); got ${Array.isArray(list) ? `${list.length} entries` : show(list)}` });
      continue;
    }
    list.forEach((m: unknown, p: number) => {
      if (m === null) return;
      if (typeof m !== 'string' || !ids.has(m)) {
        problems.push({ path: `${tp}[${p}]`, message: `must be a member of the group (${[...ids].join(', ') || 'none'}) or null (got ${show(m)})` });
        return;
      }
      const subscribed = group.members.find((x) => x.id === m)!.topics ?? group.topics;
      if (!subscribed.includes(topic)) problems.push({ path: `${tp}[${p}]`, message: `${m} does not subscribe to ${topic}` });
    });
    owners[topic] = list as Array<string | null>;
  }
  if (problems.length > before) return undefined;
  return o.at === undefined ? { owners } : { at: o.at as string, owners };
}
