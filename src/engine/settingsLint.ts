/**
 * Checks of the raw `keyRouting.*` values that the schema cannot express and the settings parser
 * does not refuse: unknown or misplaced properties, settings a mode ignores, short Pulsar names.
 * A misspelt property ("replicaPoint") is otherwise ignored in silence and its default used. The
 * extension lists these beside the parser's problems; the command line prints the warnings.
 */
import { KAFKA_GROUPS, NAMESPACES, TOPICS } from './settings';
import { isObject } from './jsonObject';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  path: string;
  message: string;
  severity: Severity;
  fix: string;
}

const TOPIC_KEYS = ['name', 'system', 'partitions', 'partitioner', 'hashingScheme', 'producers', 'keySerializer', 'schemaId', 'brokerVersion', 'subscription', 'topicId'];
const PULSAR_ONLY = ['hashingScheme', 'brokerVersion', 'subscription'];
const KAFKA_ONLY = ['keySerializer', 'schemaId', 'topicId'];
const GROUP_KEYS = ['name', 'assignor', 'topics', 'members', 'observed', 'brokerJava'];
const MEMBER_KEYS = ['id', 'topics'];
const OBSERVED_KEYS = ['at', 'owners'];
const SUBSCRIPTION_KEYS = ['name', 'type', 'keySharedMode', 'consistentHashing', 'replicaPoints', 'hashRangeSize', 'consumers', 'observed', 'observedPartitions'];
const CONSUMER_KEYS = ['name', 'ranges'];
const NAMESPACE_KEYS = ['name', 'bundles', 'boundaries'];

/**
 * Checks the schema cannot express or the engine does not refuse: unknown or misplaced
 * properties, settings a mode ignores, hash ranges nobody owns, short Pulsar names.
 */
/** The findings of the raw values, in the order of their paths' entries. */
export function lintProperties(rawTopics: unknown, rawNamespaces: unknown, rawGroups?: unknown): Finding[] {
  const out: Finding[] = [];
  const unknown = (obj: Record<string, unknown>, known: string[], path: string) => {
    for (const k of Object.keys(obj)) {
      if (known.includes(k)) continue;
      const near = closest(k, known);
      out.push({
        path: `${path}.${k}`,
        message: `unknown property ${JSON.stringify(k)}; it is ignored`,
        severity: 'warning',
        fix: near ? `did you mean ${JSON.stringify(near)}?` : `remove it; known properties are ${known.map((x) => JSON.stringify(x)).join(', ')}`,
      });
    }
  };
  if (Array.isArray(rawTopics)) {
    rawTopics.forEach((t: unknown, i: number) => {
      if (!isObject(t)) return;
      const path = `${TOPICS}[${i}]`;
      unknown(t, TOPIC_KEYS, path);
      if (t.system === 'kafka') {
        for (const k of PULSAR_ONLY) {
          if (t[k] !== undefined) out.push({ path: `${path}.${k}`, message: `applies to Pulsar topics only; a Kafka topic ignores it`, severity: 'warning', fix: `remove it, or set "system": "pulsar"` });
        }
      }
      if (t.system === 'pulsar' && t.topicId !== undefined) {
        out.push({ path: `${path}.topicId`, message: 'applies to Kafka topics only (the KIP-848 assignors see topic ids)', severity: 'warning', fix: 'remove it' });
      }
      if (t.system === 'pulsar' && t.partitioner !== undefined) {
        out.push({ path: `${path}.partitioner`, message: 'applies to Kafka topics only; a Pulsar producer routes with "hashingScheme"', severity: 'warning', fix: 'remove it, or use "hashingScheme"' });
      }
      if (t.system === 'pulsar') {
        for (const k of KAFKA_ONLY) {
          if (t[k] !== undefined) out.push({ path: `${path}.${k}`, message: 'applies to Kafka topics only; a Pulsar key is routed as the client gives it', severity: 'warning', fix: 'remove it, or set "system": "kafka"' });
        }
      }
      if (t.system === 'kafka' && t.schemaId !== undefined && !(typeof t.keySerializer === 'string' && t.keySerializer.startsWith('avro-'))) {
        out.push({ path: `${path}.schemaId`, message: 'is ignored: only the avro-* key serializers write a schema id', severity: 'info', fix: 'remove it, or set "keySerializer" to "avro-string", "avro-int" or "avro-long"' });
      }
      if (t.system === 'pulsar' && typeof t.name === 'string' && !/^(persistent|non-persistent):\/\//.test(t.name)) {
        out.push({ path: `${path}.name`, message: `Pulsar resolves the short name ${JSON.stringify(t.name)} as ${JSON.stringify(fullPulsarName(t.name))}`, severity: 'info', fix: `write the full name, e.g. ${JSON.stringify(fullPulsarName(t.name))}` });
      }
      const s = t.subscription;
      if (t.system === 'pulsar' && isObject(s)) {
        unknown(s, SUBSCRIPTION_KEYS, `${path}.subscription`);
        const mode = s.keySharedMode ?? 'AUTO_SPLIT';
        const ch = s.consistentHashing ?? true;
        const ignored = (k: string, why: string) =>
          s[k] !== undefined && out.push({ path: `${path}.subscription.${k}`, message: `is ignored ${why}`, severity: 'info', fix: 'remove it' });
        if (mode === 'STICKY') {
          ignored('consistentHashing', 'in STICKY mode (consumers name their own ranges)');
          ignored('replicaPoints', 'in STICKY mode');
        } else if (ch === true) ignored('hashRangeSize', 'with consistent hashing (it sizes the hash-range selectors only)');
        else ignored('replicaPoints', 'without consistent hashing ("consistentHashing": false)');
        if (Array.isArray(s.consumers)) {
          s.consumers.forEach((c: unknown, j: number) => {
            if (isObject(c)) unknown(c, CONSUMER_KEYS, `${path}.subscription.consumers[${j}]`);
          });
        }
      }
    });
  }
  if (Array.isArray(rawNamespaces)) {
    rawNamespaces.forEach((n: unknown, i: number) => {
      if (isObject(n)) unknown(n, NAMESPACE_KEYS, `${NAMESPACES}[${i}]`);
    });
  }
  if (Array.isArray(rawGroups)) {
    rawGroups.forEach((g: unknown, i: number) => {
      if (!isObject(g)) return;
      const path = `${KAFKA_GROUPS}[${i}]`;
      unknown(g, GROUP_KEYS, path);
      if (Array.isArray(g.members)) g.members.forEach((m: unknown, j: number) => isObject(m) && unknown(m, MEMBER_KEYS, `${path}.members[${j}]`));
      if (isObject(g.observed)) unknown(g.observed, OBSERVED_KEYS, `${path}.observed`);
    });
  }
  return out;
}

/** What Pulsar makes of a short topic name (`TopicName`): `persistent://public/default/x`. */
export function fullPulsarName(name: string): string {
  const parts = name.split('/');
  if (parts.length === 1) return `persistent://public/default/${name}`;
  if (parts.length === 3) return `persistent://${name}`;
  return name;
}

/** The known word nearest to a misspelt one (edit distance at most 2), if any. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

