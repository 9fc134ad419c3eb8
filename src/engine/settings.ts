/**
 * Reads the `keyRouting.*` settings as data: every problem is reported with its setting path and
 * what is wrong, and the valid rest is kept. Nothing here trusts the input's shape.
 */
import type { HashRange } from './pulsar/keyShared/selector';
import type { KeySharedMode } from './pulsar/keyShared/subscription';
import type { HashingScheme } from './pulsar/producerRouting';
import type { BrokerVersion } from './pulsar/keyShared/selector';

export interface KafkaTopicConfig {
  name: string;
  system: 'kafka';
  partitions: number;
  partitioner: 'java';
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
}

export interface PulsarTopicConfig {
  name: string;
  system: 'pulsar';
  /** 0: a non-partitioned topic. */
  partitions: number;
  hashingScheme: HashingScheme;
  brokerVersion: BrokerVersion;
  subscription?: SubscriptionConfig;
}

export type TopicConfig = KafkaTopicConfig | PulsarTopicConfig;

export interface NamespaceConfig {
  name: string;
  /** Bundle boundaries, ascending, first 0 and last 0xffffffff. */
  boundaries: number[];
  /** Set where the layout was given as a bundle count. */
  bundles?: number;
}

export interface Settings {
  topics: TopicConfig[];
  namespaces: NamespaceConfig[];
}

export interface Problem {
  /** Setting path, e.g. `keyRouting.topics[1].subscription.consumers[2].ranges`. */
  path: string;
  message: string;
}

export const TOPICS = 'keyRouting.topics';
export const NAMESPACES = 'keyRouting.pulsarNamespaces';

/** Upper bound on partitions: Kafka and Pulsar accept far fewer in practice. */
export const MAX_PARTITIONS = 100_000;
export const MAX_CONSUMERS = 10_000;
export const MAX_REPLICA_POINTS = 10_000;

export function parseSettings(raw: unknown): { settings: Settings; problems: Problem[] } {
  const problems: Problem[] = [];
  const obj = isObject(raw) ? raw : {};
  if (!isObject(raw)) problems.push({ path: '(settings)', message: 'must be a JSON object' });
  const topics = parseTopics(obj[TOPICS], problems);
  const namespaces = parseNamespaces(obj[NAMESPACES], problems);
  return { settings: { topics, namespaces }, problems };
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
    const partitioner = t.partitioner ?? 'java';
    if (partitioner !== 'java') {
      problems.push({ path: `${path}.partitioner`, message: `must be "java" (got ${show(partitioner)}); other clients' partitioners are not supported yet` });
    }
    if (problems.length > before) return undefined;
    return { name: name as string, system, partitions: partitions!, partitioner: 'java' };
  }
  const partitions = intIn(t.partitions ?? 0, 0, MAX_PARTITIONS, `${path}.partitions`, problems, 0);
  const hashingScheme = oneOf(t.hashingScheme, ['JavaStringHash', 'Murmur3_32Hash'] as const, 'JavaStringHash', `${path}.hashingScheme`, problems);
  const brokerVersion = oneOf(t.brokerVersion, ['4.0', '3.0'] as const, '4.0', `${path}.brokerVersion`, problems);
  const subscription = t.subscription === undefined ? undefined : parseSubscription(t.subscription, `${path}.subscription`, problems);
  if (problems.length > before) return undefined;
  return { name: name as string, system, partitions: partitions!, hashingScheme, brokerVersion, subscription };
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
      consumers.push({ name: c.name, ranges, path: cp });
    });
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
      problems.push({ path: `${path}[${i}]`, message: `must be [start, end] with integers in 0..65535 (got ${show(r)})` });
      return;
    }
    out.push([r[0], r[1]]);
  });
  return out;
}

export function parseNamespaces(raw: unknown, problems: Problem[]): NamespaceConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path: NAMESPACES, message: 'must be an array of namespaces' });
    return [];
  }
  const out: NamespaceConfig[] = [];
  const seen = new Set<string>();
  raw.forEach((n: unknown, i: number) => {
    const path = `${NAMESPACES}[${i}]`;
    if (!isObject(n)) {
      problems.push({ path, message: 'must be an object with "name" and "bundles" or "boundaries"' });
      return;
    }
    if (typeof n.name !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(n.name)) {
      problems.push({ path: `${path}.name`, message: `must be "tenant/namespace" (got ${show(n.name)})` });
      return;
    }
    if (seen.has(n.name)) {
      problems.push({ path: `${path}.name`, message: `duplicate namespace ${JSON.stringify(n.name)}` });
      return;
    }
    if (n.boundaries !== undefined && n.bundles !== undefined) {
      problems.push({ path, message: 'give either "bundles" or "boundaries", not both' });
      return;
    }
    if (n.boundaries !== undefined) {
      const b = parseBoundaries(n.boundaries, `${path}.boundaries`, problems);
      if (b) {
        seen.add(n.name);
        out.push({ name: n.name, boundaries: b });
      }
      return;
    }
    const before = problems.length;
    const bundles = intIn(n.bundles ?? 4, 1, 0x7fffffff, `${path}.bundles`, problems, 4)!;
    if (problems.length > before) return;
    seen.add(n.name);
    out.push({ name: n.name, boundaries: equalBoundaries(bundles), bundles });
  });
  return out;
}

/** `PoliciesUtil.getBundles(n)`: steps of 2^32 / n (integer division), the last always 0xffffffff. */
export function equalBoundaries(n: number): number[] {
  const seg = Math.floor(0x100000000 / n);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(i * seg);
  out.push(0xffffffff);
  return out;
}

function parseBoundaries(raw: unknown, path: string, problems: Problem[]): number[] | undefined {
  if (!Array.isArray(raw) || raw.length < 2) {
    problems.push({ path, message: 'must be an array of at least two hex strings, from "0x00000000" to "0xffffffff"' });
    return undefined;
  }
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,8}$/.test(v)) {
      problems.push({ path: `${path}[${i}]`, message: `must be a hex string like "0x40000000" (got ${show(v)})` });
      return undefined;
    }
    const n = parseInt(v.slice(2), 16);
    if (i > 0 && n <= out[i - 1]) {
      problems.push({ path: `${path}[${i}]`, message: `must be greater than the boundary before it (${raw[i - 1]})` });
      return undefined;
    }
    out.push(n);
  }
  if (out[0] !== 0 || out[out.length - 1] !== 0xffffffff) {
    problems.push({ path, message: 'must start at "0x00000000" and end at "0xffffffff" so that every hash has a bundle' });
    return undefined;
  }
  return out;
}

function intIn(v: unknown, min: number, max: number, path: string, problems: Problem[], fallback: number | undefined): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
  problems.push({ path, message: `must be an integer from ${min} to ${max} (got ${show(v)})` });
  return fallback;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], fallback: T, path: string, problems: Problem[]): T {
  if (v === undefined) return fallback;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  problems.push({ path, message: `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')} (got ${show(v)})` });
  return fallback;
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short rendering of a bad value for a message. */
export function show(v: unknown): string {
  const s = v === undefined ? 'nothing' : JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
}
