/**
 * Reads the `keyRouting.*` settings as data: every problem is reported with its setting path and
 * what is wrong, and the valid rest is kept. Nothing here trusts the input's shape.
 */
import type { HashRange } from './pulsar/keyShared/selector';
import type { KeySharedMode } from './pulsar/keyShared/subscription';
import { parseKafkaClient, parsePulsarClient, type KafkaClientSettings, type PulsarClientSettings } from './clientSettings';
import type { BrokerVersion } from './pulsar/keyShared/selector';
import { FULL_UPPER_BOUND, hex8, javaLongDecode, MAX_BUNDLE_COUNT, NamespaceBundles } from './pulsar/namespaceBundles';
import { namespaceNameProblem } from './pulsar/topicName';
import { parseKafkaGroups, parseTopicId, KAFKA_GROUPS, type KafkaGroupSetting } from './kafka/groupSettings';
import { attachObserved } from './observed/settings';
import type { ObservedState } from './observed/types';
import { isObject } from './jsonObject';
import { cut } from '../shared/keyText';

/** Moved to `pulsar/namespaceBundles`; re-exported for callers of the old place. */
export { equalBoundaries } from './pulsar/namespaceBundles';

export interface KafkaTopicConfig extends KafkaClientSettings {
  name: string;
  system: 'kafka';
  partitions: number;
  /** Kafka's topic id (canonical base64 text), when given: the KIP-848 uniform assignor depends on it. */
  topicId?: string;
}

export interface ConsumerConfig {
  name: string;
  ranges?: HashRange[];
  /** Setting path, for reporting the broker's refusal. */
  path: string;
}

export interface SubscriptionConfig {
  name: string;
  type: 'Key_Shared';
  keySharedMode: KeySharedMode;
  consistentHashing: boolean;
  replicaPoints: number;
  hashRangeSize: number;
  consumers: ConsumerConfig[];
  /** What a broker reported (CONTRACT.md section 4): every partition alike, or one per partition. */
  observed?: ObservedState;
  observedPartitions?: ObservedState[];
}

export interface PulsarTopicConfig extends PulsarClientSettings {
  name: string;
  system: 'pulsar';
  /** 0: a non-partitioned topic. */
  partitions: number;
  brokerVersion: BrokerVersion;
  subscription?: SubscriptionConfig;
}

export type TopicConfig = KafkaTopicConfig | PulsarTopicConfig;

export interface NamespaceConfig {
  /** `tenant/namespace` (or legacy `tenant/cluster/namespace`). */
  name: string;
  /** Number of bundles. */
  bundles: number;
  /**
   * Explicit boundaries as the broker keeps them: sorted, duplicates dropped, first 0 and last
   * 0xffffffff. Absent for an equal split (`PoliciesUtil.getBundles(bundles)`), which can have up
   * to 2^31-1 bundles and is computed by `namespaceBundles()` instead of listed.
   */
  boundaries?: number[];
}

/** The bundle layout of a configured namespace. */
export function namespaceBundles(ns: NamespaceConfig): NamespaceBundles {
  return ns.boundaries ? NamespaceBundles.fromBoundaries(ns.boundaries) : NamespaceBundles.equal(ns.bundles);
}

export interface Settings {
  topics: TopicConfig[];
  namespaces: NamespaceConfig[];
  /** `keyRouting.kafkaGroups` (absent: none). */
  kafkaGroups?: KafkaGroupSetting[];
}

export interface Problem {
  /** Setting path, e.g. `keyRouting.topics[1].subscription.consumers[2].ranges`. */
  path: string;
  message: string;
}

export const TOPICS = 'keyRouting.topics';
export const NAMESPACES = 'keyRouting.pulsarNamespaces';
export { KAFKA_GROUPS };

/** Partition counts are Java ints in both systems (CONTRACT.md section 3). */
export const MAX_PARTITIONS = 0x7fffffff;
export const MAX_CONSUMERS = 10_000;
export const MAX_REPLICA_POINTS = 10_000;
/**
 * Points on one consistent-hashing ring (consumers x replicaPoints). Both bounds above allow 100
 * million, which took 35 s and 5.3 GB to build on a 3.x ring (a broker's TreeMap would not hold
 * them either). The routing panel's webview is the narrowest place: a 3.x ring of 7 million points
 * crashed it, 5 million took 666 MB of its heap, 4 million 540 MB (and the CLI 1 s). The issue's
 * largest ring is 100,000.
 */
export const MAX_RING_POINTS = 4_000_000;

export function parseSettings(raw: unknown): { settings: Settings; problems: Problem[] } {
  const problems: Problem[] = [];
  const obj = isObject(raw) ? raw : {};
  if (!isObject(raw)) problems.push({ path: '(settings)', message: 'must be a JSON object' });
  const topics = parseTopics(obj[TOPICS], problems);
  const namespaces = parseNamespaces(obj[NAMESPACES], problems);
  const kafkaGroups = parseKafkaGroups(obj[KAFKA_GROUPS], topics, problems);
  return { settings: { topics, namespaces, kafkaGroups }, problems };
}

export function parseTopics(raw: unknown, problems: Problem[]): TopicConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path: TOPICS, message: 'must be an array of topics' });
    return [];
  }
  const out: TopicConfig[] = [];
  const seen = new Map<string, number>();
  raw.forEach((t, i) => {
    const path = `${TOPICS}[${i}]`;
    const topic = parseTopic(t, path, problems);
    if (!topic) return;
    const first = seen.get(topic.name);
    if (first !== undefined) {
      problems.push({
        path: `${path}.name`,
        message: `duplicate topic name ${JSON.stringify(topic.name)} (also ${TOPICS}[${first}]); give each topic a distinct name`,
      });
      return;
    }
    seen.set(topic.name, i);
    out.push(topic);
  });
  return out;
}

function parseTopic(t: unknown, path: string, problems: Problem[]): TopicConfig | undefined {
  if (!isObject(t)) {
    problems.push({ path, message: 'must be an object with "name" and "system"' });
    return undefined;
  }
  const before = problems.length;
  const name = t.name;
  if (typeof name !== 'string' || name.trim() === '') problems.push({ path: `${path}.name`, message: 'must be a non-empty string' });
  const system = t.system;
  if (system !== 'kafka' && system !== 'pulsar') {
    problems.push({ path: `${path}.system`, message: `must be "kafka" or "pulsar" (got ${show(system)})` });
    return undefined;
  }
  if (system === 'kafka') {
    const partitions = intIn(t.partitions, 1, MAX_PARTITIONS, `${path}.partitions`, problems, undefined);
    const client = parseKafkaClient(t, path, problems);
    const topicId = parseTopicId(t.topicId, `${path}.topicId`, problems);
    if (problems.length > before) return undefined;
    return { name: name as string, system, partitions: partitions!, ...client, ...(topicId ? { topicId } : {}) };
  }
  const partitions = intIn(t.partitions ?? 0, 0, MAX_PARTITIONS, `${path}.partitions`, problems, 0);
  const client = parsePulsarClient(t, path, problems);
  const brokerVersion = oneOf(t.brokerVersion, ['4.0', '3.0'] as const, '4.0', `${path}.brokerVersion`, problems);
  const subscription = t.subscription === undefined ? undefined : parseSubscription(t.subscription, `${path}.subscription`, problems);
  if (problems.length > before) return undefined;
  const topic: PulsarTopicConfig = { name: name as string, system, partitions: partitions!, ...client, brokerVersion, subscription };
  attachObserved(t.subscription, topic, `${path}.subscription`, problems);
  // A report with a problem makes the entry invalid like any other problem (the extension keeps its last good one).
  return problems.length > before ? undefined : topic;
}

function parseSubscription(s: unknown, path: string, problems: Problem[]): SubscriptionConfig | undefined {
  if (!isObject(s)) {
    problems.push({ path, message: 'must be an object' });
    return undefined;
  }
  const name = s.name ?? 'sub';
  if (typeof name !== 'string') problems.push({ path: `${path}.name`, message: 'must be a string' });
  const type = oneOf(s.type, ['Key_Shared'] as const, 'Key_Shared', `${path}.type`, problems);
  const keySharedMode = oneOf(s.keySharedMode, ['AUTO_SPLIT', 'STICKY'] as const, 'AUTO_SPLIT', `${path}.keySharedMode`, problems);
  let consistentHashing = true;
  if (s.consistentHashing !== undefined) {
    if (typeof s.consistentHashing !== 'boolean') problems.push({ path: `${path}.consistentHashing`, message: 'must be true or false' });
    else consistentHashing = s.consistentHashing;
  }
  const replicaPoints = intIn(s.replicaPoints ?? 100, 1, MAX_REPLICA_POINTS, `${path}.replicaPoints`, problems, 100)!;
  const hashRangeSize = intIn(s.hashRangeSize ?? 65536, 2, 65536, `${path}.hashRangeSize`, problems, 65536)!;
  if ((hashRangeSize & (hashRangeSize - 1)) !== 0) {
    problems.push({ path: `${path}.hashRangeSize`, message: `must be a power of two (got ${hashRangeSize}); the broker refuses other sizes` });
  }
  const consumers: ConsumerConfig[] = [];
  if (s.consumers !== undefined && !Array.isArray(s.consumers)) {
    problems.push({ path: `${path}.consumers`, message: 'must be an array of {"name": ...}' });
  } else if (Array.isArray(s.consumers)) {
    if (s.consumers.length > MAX_CONSUMERS) {
      problems.push({ path: `${path}.consumers`, message: `has ${s.consumers.length} consumers; at most ${MAX_CONSUMERS} are supported` });
    }
    s.consumers.slice(0, MAX_CONSUMERS).forEach((c: unknown, i: number) => {
      const cp = `${path}.consumers[${i}]`;
      if (typeof c === 'string') {
        consumers.push({ name: c, path: cp });
        return;
      }
      if (!isObject(c) || typeof c.name !== 'string') {
        problems.push({ path: cp, message: 'must be an object with a string "name"' });
        return;
      }
      let ranges: HashRange[] | undefined;
      if (c.ranges !== undefined) {
        ranges = parseRanges(c.ranges, `${cp}.ranges`, problems);
        if (keySharedMode !== 'STICKY') {
          problems.push({ path: `${cp}.ranges`, message: 'ranges apply only in STICKY mode; remove them or set "keySharedMode": "STICKY"' });
        }
      }
      // No `ranges` key where none are given: the panel gets the consumers as JSON, which has no undefined.
      consumers.push(ranges ? { name: c.name, ranges, path: cp } : { name: c.name, path: cp });
    });
  }
  const points = consumers.length * replicaPoints;
  if (consistentHashing && keySharedMode === 'AUTO_SPLIT' && points > MAX_RING_POINTS) {
    problems.push({ path: `${path}.replicaPoints`, message: `gives ${consumers.length} consumers a ring of ${points} points; at most ${MAX_RING_POINTS} are supported` });
  }
  return {
    name: typeof name === 'string' ? name : 'sub',
    type,
    keySharedMode,
    consistentHashing,
    replicaPoints,
    hashRangeSize,
    consumers,
  };
}

/** STICKY ranges: `[[start, end], ...]`, integers in [0, 65536] as the Java client accepts. */
export function parseRanges(raw: unknown, path: string, problems: Problem[]): HashRange[] | undefined {
  if (!Array.isArray(raw)) {
    problems.push({ path, message: 'must be an array of [start, end] pairs, e.g. [[0, 16383]]' });
    return undefined;
  }
  const out: HashRange[] = [];
  raw.forEach((r: unknown, i: number) => {
    const ok = Array.isArray(r) && r.length === 2 && r.every((v) => Number.isInteger(v) && v >= 0 && v <= 65536);
    if (!ok) {
      problems.push({ path: `${path}[${i}]`, message: `must be [start, end] with integers from 0 to 65535 (the Java client also takes 65536) (got ${show(r)})` });
      return;
    }
    out.push([r[0], r[1]]);
  });
  return out;
}

/**
 * `keyRouting.pulsarNamespaces`, checked as the broker checks a namespace's bundles:
 * - `name`: a valid `NamespaceName` (`tenant/namespace`, or legacy `tenant/cluster/namespace`).
 * - `bundles`: as `numBundles`, a Java int > 0 (the admin API refuses 0 and negatives); default 4,
 *   the broker's `defaultNumberOfNamespaceBundles`.
 * - `boundaries`: each read with `Long.decode` (hex "0x..", "#..", octal "0..", or decimal; JSON
 *   integers too, which the admin API's JSON reader turns into strings); sorted and de-duplicated
 *   silently, as `validateBundlesData` does; the first must be 0x00000000 and the last 0xffffffff
 *   ("Input bundles do not cover the whole hash range"). Values outside 0..0xffffffff are refused
 *   here: the broker lets some past that check only to fail when it loads the bundles.
 */
export function parseNamespaces(raw: unknown, problems: Problem[]): NamespaceConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path: NAMESPACES, message: 'must be an array of namespaces, e.g. [{"name": "public/default", "bundles": 4}]' });
    return [];
  }
  const out: NamespaceConfig[] = [];
  const seen = new Map<string, number>();
  raw.forEach((n: unknown, i: number) => {
    const path = `${NAMESPACES}[${i}]`;
    if (!isObject(n)) {
      problems.push({ path, message: 'must be an object with "name" and "bundles" or "boundaries"' });
      return;
    }
    if (typeof n.name !== 'string') {
      problems.push({ path: `${path}.name`, message: `must be a string "tenant/namespace" (got ${show(n.name)})` });
      return;
    }
    const nameProblem = namespaceNameProblem(n.name);
    if (nameProblem) {
      problems.push({ path: `${path}.name`, message: `${nameProblem} (got ${show(n.name)})` });
      return;
    }
    const first = seen.get(n.name);
    if (first !== undefined) {
      problems.push({ path: `${path}.name`, message: `duplicate namespace ${JSON.stringify(n.name)} (also ${NAMESPACES}[${first}])` });
      return;
    }
    if (n.boundaries !== undefined && n.bundles !== undefined) {
      problems.push({ path, message: 'give either "bundles" (an equal split) or "boundaries", not both' });
      return;
    }
    if (n.boundaries !== undefined) {
      const b = parseBoundaries(n.boundaries, `${path}.boundaries`, problems);
      if (b) {
        seen.set(n.name, i);
        out.push({ name: n.name, bundles: b.length - 1, boundaries: b });
      }
      return;
    }
    const bundles = n.bundles ?? 4;
    if (typeof bundles !== 'number' || !Number.isInteger(bundles) || bundles < 1 || bundles > MAX_BUNDLE_COUNT) {
      problems.push({
        path: `${path}.bundles`,
        message: `must be an integer from 1 to ${MAX_BUNDLE_COUNT} (got ${show(bundles)}); the broker refuses other bundle counts`,
      });
      return;
    }
    seen.set(n.name, i);
    out.push({ name: n.name, bundles });
  });
  return out;
}

function parseBoundaries(raw: unknown, path: string, problems: Problem[]): number[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push({ path, message: 'must be an array of hex strings from "0x00000000" to "0xffffffff", e.g. ["0x00000000", "0x80000000", "0xffffffff"]' });
    return undefined;
  }
  const values = new Set<number>();
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    let n: bigint;
    if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
    else if (typeof v === 'string') {
      const d = javaLongDecode(v);
      if (typeof d === 'string') {
        problems.push({ path: `${path}[${i}]`, message: `must be a hex string like "0x40000000" (got ${show(v)}: ${d})` });
        return undefined;
      }
      n = d;
    } else {
      problems.push({ path: `${path}[${i}]`, message: `must be a hex string like "0x40000000" (got ${show(v)})` });
      return undefined;
    }
    if (n < 0n || n > BigInt(FULL_UPPER_BOUND)) {
      problems.push({ path: `${path}[${i}]`, message: `must lie in 0x00000000..0xffffffff, the topic hash space (got ${show(v)})` });
      return undefined;
    }
    values.add(Number(n));
  }
  const out = [...values].sort((a, b) => a - b);
  if (out[0] !== 0 || out[out.length - 1] !== FULL_UPPER_BOUND) {
    problems.push({
      path,
      message: `must start at "0x00000000" and end at "0xffffffff" so that every hash has a bundle (the broker answers: Input bundles do not cover the whole hash range. first:${hex8(out[0])}, last:${hex8(out[out.length - 1])})`,
    });
    return undefined;
  }
  return out;
}

function intIn(v: unknown, min: number, max: number, path: string, problems: Problem[], fallback: number | undefined): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
  problems.push({ path, message: `must be an integer from ${min} to ${max} (got ${show(v)})` });
  return fallback;
}

export function oneOf<T extends string>(v: unknown, allowed: readonly T[], fallback: T, path: string, problems: Problem[]): T {
  if (v === undefined) return fallback;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  problems.push({ path, message: `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')} (got ${show(v)})` });
  return fallback;
}

/** A short rendering of a bad value for a message. */
export function show(v: unknown): string {
  const s = v === undefined ? 'nothing' : JSON.stringify(v);
  return s === undefined ? String(v) : cut(s, 60);
}
