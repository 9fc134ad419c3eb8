/**
 * From the raw `keyRouting.*` values to what the extension routes with (pure: no `vscode`):
 * the engine's parse, the last good entry of each topic whose entry became invalid, the broker's
 * refusals from building the topology, and checks beyond the schema. Every finding carries its
 * setting path, a severity and a fix suggestion.
 */
import { parseNamespaces, parseTopics, TOPICS, NAMESPACES, type Problem, type Settings, type TopicConfig, type PulsarTopicConfig } from '../engine/settings';
import { KAFKA_GROUPS, parseKafkaGroups } from '../engine/kafka/groupSettings';
import { groupRouteFields } from '../engine/kafka/groupTopology';
import { PulsarTopicState, Topology } from '../engine/topology';
import type { MessageKey } from '../engine/key';
import type { KeyRoutes } from './routeFormat';
import { PARTITIONER_NAMES } from '../engine/kafka/partitioners';
import { KEY_SERIALIZERS } from '../engine/kafka/serializers';
import { HASHING_SCHEMES } from '../engine/pulsar/producerRouting';
import { isObject } from '../engine/jsonObject';
import { lintProperties, type Finding, type Severity } from '../engine/settingsLint';

export type { Finding, Severity };

export interface SettingsModel {
  settings: Settings;
  topology: Topology;
  findings: Finding[];
  /** Topics whose entry is invalid now and which route with their last good settings. */
  stale: Set<string>;
  /** The topics that parsed, by name: the next change's "last good". */
  good: Map<string, TopicConfig>;
  /** Each raw entry's name by index (to recognise an entry whose name itself broke). */
  rawNames: (string | undefined)[];
  /** The index in `keyRouting.topics` each routed topic comes from (its setting path). */
  topicIndex: Map<string, number>;
  /** The index in `keyRouting.pulsarNamespaces` each namespace comes from. */
  namespaceIndex: Map<string, number>;
  /** Whether the workspace sets any `keyRouting` topology at all (the `keyRouting.configured` context key). */
  configured: boolean;
}

export interface Previous {
  good: ReadonlyMap<string, TopicConfig>;
  rawNames: readonly (string | undefined)[];
}

export const EMPTY_PREVIOUS: Previous = { good: new Map(), rawNames: [] };

export function buildModel(rawTopics: unknown, rawNamespaces: unknown, previous: Previous = EMPTY_PREVIOUS, rawGroups?: unknown): SettingsModel {
  const problems: Problem[] = [];
  const parsed = parseTopics(rawTopics, problems);
  const namespaces = parseNamespaces(rawNamespaces, problems);
  const findings: Finding[] = problems.map((p) => ({ ...p, severity: 'error' as const, fix: fixFor(p, rawTopics) }));

  const stale = new Set<string>();
  const good = new Map<string, TopicConfig>();
  const topics: TopicConfig[] = [];
  const rawNames: (string | undefined)[] = [];
  const topicIndex = new Map<string, number>();
  if (Array.isArray(rawTopics)) {
    const failed = new Set<number>();
    for (const p of problems) {
      const m = /^keyRouting\.topics\[(\d+)\]/.exec(p.path);
      if (m) failed.add(Number(m[1]));
    }
    let next = 0;
    rawTopics.forEach((entry: unknown, i: number) => {
      const name = isObject(entry) && typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name : undefined;
      rawNames.push(name);
      if (!failed.has(i)) {
        const t = parsed[next++];
        topics.push(t);
        good.set(t.name, t);
        topicIndex.set(t.name, i);
        return;
      }
      // The entry is invalid: route with its last good settings, found by its name, or by the
      // name the entry at this index had before (when the name itself is what broke).
      const lastName = name ?? previous.rawNames[i];
      const last = lastName === undefined ? undefined : previous.good.get(lastName);
      if (!last || topics.some((t) => t.name === last.name) || rawTopics.some((e: unknown, j: number) => j !== i && !failed.has(j) && isObject(e) && e.name === last.name)) return;
      const kept = rebase(last, i);
      topics.push(kept);
      good.set(kept.name, kept);
      topicIndex.set(kept.name, i);
      stale.add(kept.name);
    });
  } else if (rawTopics !== undefined && rawTopics !== null) {
    // The whole setting is unusable: keep every last good topic.
    for (const t of previous.good.values()) {
      topics.push(t);
      good.set(t.name, t);
      stale.add(t.name);
    }
    rawNames.push(...previous.rawNames);
  }

  // Groups refer to the topics routed with (last good ones included); an invalid group is left out.
  const groupProblems: Problem[] = [];
  const kafkaGroups = parseKafkaGroups(rawGroups, topics, groupProblems);
  for (const p of groupProblems) findings.push({ ...p, severity: 'error', fix: fixFor(p) });
  const settings: Settings = { topics, namespaces, kafkaGroups };
  const refusals: Problem[] = [];
  const topology = new Topology(settings, refusals);
  for (const r of refusals) findings.push({ ...r, severity: 'warning', fix: fixFor(r) });
  findings.push(...lint(rawTopics, rawNamespaces, topology, stale, rawGroups));
  const namespaceIndex = indexOfNamespaces(namespaces, rawNamespaces, problems);
  return { settings, topology, findings, stale, good, rawNames, topicIndex, namespaceIndex, configured: isSet(rawTopics) || isSet(rawNamespaces) || isSet(rawGroups) };
}

/** A setting that holds something: not absent, not null, not an empty list. */
function isSet(raw: unknown): boolean {
  return raw !== undefined && raw !== null && !(Array.isArray(raw) && raw.length === 0);
}

/** A parsed namespace comes from the first raw entry of its name with no problem of its own. */
function indexOfNamespaces(namespaces: readonly { name: string }[], raw: unknown, problems: readonly Problem[]): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(raw)) return out;
  const failed = new Set<number>();
  for (const p of problems) {
    const m = /^keyRouting\.pulsarNamespaces\[(\d+)\]/.exec(p.path);
    if (m) failed.add(Number(m[1]));
  }
  for (const ns of namespaces) {
    const i = raw.findIndex((n: unknown, j: number) => !failed.has(j) && isObject(n) && n.name === ns.name);
    if (i >= 0) out.set(ns.name, i);
  }
  return out;
}

/** A last good topic moved to index `i`: its consumers' setting paths follow it. */
function rebase(t: TopicConfig, i: number): TopicConfig {
  if (t.system !== 'pulsar' || !t.subscription) return t;
  const at = (p: string) => p.replace(/^keyRouting\.topics\[\d+\]/, `${TOPICS}[${i}]`);
  return { ...t, subscription: { ...t.subscription, consumers: t.subscription.consumers.map((c) => ({ ...c, path: at(c.path) })) } } as PulsarTopicConfig;
}

export function lint(rawTopics: unknown, rawNamespaces: unknown, topology: Topology, stale: ReadonlySet<string>, rawGroups?: unknown): Finding[] {
  const out = lintProperties(rawTopics, rawNamespaces, rawGroups);
  for (const g of topology.groups) {
    const i = Array.isArray(rawGroups) ? rawGroups.findIndex((x: unknown) => isObject(x) && x.name === g.name) : -1;
    for (const note of g.notes()) out.push({ path: `${KAFKA_GROUPS}[${i}].assignor`, message: note, severity: 'info', fix: 'add "topicId" to the group\'s Kafka topics in keyRouting.topics' });
  }
  // Hashes nobody owns, read off the topology as the broker would hold it.
  topology.topics.forEach((state) => {
    if (!(state instanceof PulsarTopicState) || !state.subscription || stale.has(state.name)) return;
    const index = Array.isArray(rawTopics) ? rawTopics.findIndex((t: unknown) => isObject(t) && t.name === state.name) : -1;
    if (index < 0) return;
    const path = `${TOPICS}[${index}].subscription.consumers`;
    if (state.subscription.consumers.length === 0) {
      out.push({ path, message: 'no consumer is connected: every key is unowned', severity: 'info', fix: 'add consumers in the order they connect, e.g. [{"name": "C1"}, {"name": "C2"}]' });
      return;
    }
    const sel = state.subscription.selector;
    // Off the table's columns: the segments as objects were most of a settings read on large rings
    // (a 1,000 x 100 ring has 100,000 of them, and a ring never leaves a hash to nobody).
    const t = sel.segmentTable();
    const gaps: Array<{ start: number; end: number }> = [];
    for (let i = 0; i < t.count; i++) if (t.owners[t.owner[i]].length === 0) gaps.push({ start: t.starts[i], end: t.ends[i] });
    if (gaps.length === 0) return;
    const [lo, hi] = sel.keyValues;
    const size = gaps.reduce((n, g) => n + Math.min(g.end, hi) - Math.max(g.start, lo) + 1, 0);
    const share = (100 * size) / (hi - lo + 1);
    const list = gaps.slice(0, 4).map((g) => `${g.start}-${g.end}`).join(', ') + (gaps.length > 4 ? `, and ${gaps.length - 4} more` : '');
    out.push({
      path,
      message: `no consumer owns the hashes ${list} (${share < 0.1 ? share.toPrecision(2) : share.toFixed(1)}% of the hash space); the broker does not deliver messages whose keys hash there until a consumer covers them`,
      severity: 'info',
      fix: `extend a consumer's ranges to cover ${gaps[0].start}-${gaps[0].end}, e.g. "ranges": [[${gaps[0].start}, ${gaps[0].end}]]`,
    });
  });
  return out;
}

/** A fix suggestion for a problem, by what its path names (and the topic's system, given the raw topics). */
export function fixFor(p: Problem, rawTopics?: unknown): string {
  const path = p.path;
  const m = p.message;
  if (m.startsWith('the broker refuses')) {
    if (/Range conflict/.test(m)) return "make its ranges disjoint from the other consumers' ranges (the broker refuses overlapping STICKY ranges)";
    if (/start > end/.test(m)) return 'write each range as [start, end] with start <= end';
    if (/own ranges conflict/.test(m)) return 'merge its overlapping ranges into one (a 4.x broker refuses them)';
    if (/key shared meta|must not be empty/.test(m)) return 'give the consumer "ranges": [[start, end], ...] (STICKY consumers name their ranges)';
    return 'change the consumer so that the broker accepts it, or remove it';
  }
  if (/duplicate topic name/.test(m)) return 'rename one of the two topics, or remove the duplicate entry';
  if (/duplicate namespace/.test(m)) return 'remove the duplicate namespace entry';
  if (path.startsWith(NAMESPACES)) {
    if (path.endsWith('.name')) return 'write the namespace as "tenant/namespace", e.g. "public/default"';
    if (path.endsWith('.bundles')) return 'an integer of at least 1, e.g. 4 (the broker default defaultNumberOfNamespaceBundles)';
    if (/\.boundaries/.test(path)) return 'ascending hex strings from "0x00000000" to "0xffffffff", e.g. ["0x00000000", "0x80000000", "0xffffffff"]';
    if (/not both/.test(m)) return 'keep "bundles" (an equal split) or "boundaries" (explicit), not both';
    return 'each namespace is {"name": "tenant/ns", "bundles": 4} or {"name": "tenant/ns", "boundaries": [...]}';
  }
  if (path === TOPICS) return 'keyRouting.topics is a list: [{"name": "orders", "system": "kafka", "partitions": 6}]';
  if (path.startsWith(KAFKA_GROUPS)) return groupFix(path, m);
  if (path.endsWith('.topicId')) return 'copy the TopicId that kafka-topics.sh --describe prints, e.g. "GgSK5_X1Pp6B_v5u4SBqxg", or remove it';
  if (path.endsWith('.system')) return 'set "system": "kafka" or "system": "pulsar"';
  if (path.endsWith('.partitions')) {
    const i = /^keyRouting\.topics\[(\d+)\]/.exec(path);
    const entry = i && Array.isArray(rawTopics) ? rawTopics[Number(i[1])] : undefined;
    const system = isObject(entry) ? entry.system : undefined;
    if (system === 'kafka') return 'give the Kafka topic\'s partition count, an integer of at least 1, e.g. "partitions": 6';
    if (system === 'pulsar') return 'give the partition count, or 0 (or no "partitions") for a non-partitioned Pulsar topic';
    return 'a Kafka topic needs "partitions" >= 1 (e.g. 6); a Pulsar topic takes 0 (non-partitioned) or its partition count';
  }
  if (path.endsWith('.partitioner')) return `use one of ${PARTITIONER_NAMES.map((n) => JSON.stringify(n)).join(', ')}; the default "java" is murmur2, as the Java client and compatible clients route`;
  if (path.endsWith('.hashingScheme')) return `use one of ${HASHING_SCHEMES.map((n) => JSON.stringify(n)).join(', ')}; "JavaStringHash" is the Java client's default`;
  if (/\.producers(\[\d+\])?$/.test(path)) {
    return 'list the clients that produce to the topic: "partitioner" values for a Kafka topic (e.g. ["java", "librdkafka"]), "hashingScheme" values for a Pulsar topic';
  }
  if (path.endsWith('.keySerializer')) return `use one of ${KEY_SERIALIZERS.map((n) => JSON.stringify(n)).join(', ')}; the default "string" sends the key's UTF-8 bytes`;
  if (path.endsWith('.schemaId')) return 'give the Schema Registry id of the key schema, e.g. "schemaId": 1';
  if (path.endsWith('.brokerVersion')) return 'use "4.0" for Pulsar 4.x brokers (PIP-379) or "3.0" for 2.x and 3.x brokers';
  if (path.endsWith('.keySharedMode')) return 'use "AUTO_SPLIT" (the broker assigns hash ranges) or "STICKY" (consumers name their ranges)';
  if (path.endsWith('.type')) return 'remove it: "Key_Shared" is the only subscription type that routes by key';
  if (path.endsWith('.consistentHashing')) return 'true (the broker default since 2.10) or false';
  if (path.endsWith('.replicaPoints')) return `remove it (default 100) or give an integer from 1 to ${/ring/.test(m) ? '4000000 / the consumers' : 10000}`;
  if (path.endsWith('.hashRangeSize')) return 'remove it (default 65536) or give a power of two such as 65536';
  if (/\.ranges/.test(path)) return 'write inclusive ranges as [[start, end], ...] with 0 <= start <= end <= 65535';
  if (/\.consumers/.test(path)) return 'list consumers in connection order: [{"name": "C1"}, {"name": "C2"}]';
  if (path.endsWith('.subscription')) return 'a subscription is {"name": "sub", "type": "Key_Shared", "consumers": [...]}';
  if (path.endsWith('.name')) return 'give the topic a name, e.g. "orders" (Pulsar: "persistent://public/default/orders")';
  return 'see the setting\'s description under Settings > Extensions > Key Routing';
}

/** A fix suggestion for a `keyRouting.kafkaGroups` problem. */
function groupFix(path: string, message: string): string {
  if (/duplicate group/.test(message)) return 'rename one of the two groups, or remove the duplicate entry';
  if (/duplicate member/.test(message)) return 'give each member its own id (Kafka member ids are unique in a group)';
  if (path === KAFKA_GROUPS) return 'keyRouting.kafkaGroups is a list: [{"name": "billing", "assignor": "range", "topics": ["orders"], "members": [{"id": "m1"}]}]';
  if (path.endsWith('.assignor')) return 'use range, roundrobin, sticky or cooperative-sticky (classic protocol), or uniform or server-range (KIP-848)';
  if (/\.observed/.test(path)) return 'list every partition\'s owner as a member id of the group or null, as kafka-consumer-groups.sh --describe shows it';
  if (/\.members\[\d+\]\.topics/.test(path)) return 'list some of the group\'s topics, or leave "topics" out for all of them';
  if (/\.members/.test(path)) return 'list members in join order: [{"id": "m1"}, {"id": "m2"}]';
  if (/\.topics/.test(path)) return 'list Kafka topics of keyRouting.topics, e.g. ["orders"], or add the topic there first';
  if (path.endsWith('.name')) return 'give the group a name, e.g. "billing" (its group.id)';
  return 'see the setting\'s description under Settings > Extensions > Key Routing';
}

/** Routes keys on every configured topic, in settings order. */
export function routeKeys(model: SettingsModel, keys: readonly { label: string; key: MessageKey }[]): KeyRoutes[] {
  return keys.map((k) => ({
    label: k.label,
    routes: model.topology.topics.map((t) => {
      const route = t.route(k.key);
      return {
        ...route,
        ...groupRouteFields(model.topology.groups, route),
        hasSubscription: t instanceof PulsarTopicState && t.subscription !== undefined,
        client: t.config.system === 'kafka' ? t.config.partitioner : t.config.hashingScheme,
        ...(model.stale.has(t.name) ? { stale: true } : {}),
      };
    }),
  }));
}
