/**
 * The settings that say which client produces to a topic (CONTRACT.md section 3): a Kafka topic's
 * `partitioner`, `producers`, `keySerializer` and `schemaId`; a Pulsar topic's `hashingScheme` and
 * `producers`. Problems are reported with their setting path, as in settings.ts.
 */
import { PARTITIONER_NAMES, type KafkaPartitionerName } from './kafka/partitioners';
import { KEY_SERIALIZERS, needsSchemaId, type KeySerializerName } from './kafka/serializers';
import { DEFAULT_HASHING_SCHEME, HASHING_SCHEMES, type HashingScheme } from './pulsar/producerRouting';
// settings.ts imports this module too; `show` is only called at parse time, after both loaded.
import { oneOf as choice, show, type Problem } from './settings';

export interface KafkaClientSettings {
  partitioner: KafkaPartitionerName;
  /** The clients that produce to the topic (partitioner values); absent: only `partitioner`. */
  producers?: KafkaPartitionerName[];
  /** How keys are serialized; absent: `string` (and route lines carry no `keyHex`). */
  keySerializer?: KeySerializerName;
  /** Schema Registry id written by the `avro-*` serializers. */
  schemaId?: number;
}

export interface PulsarClientSettings {
  hashingScheme: HashingScheme;
  /** The producers' hashing schemes; absent: only `hashingScheme`. */
  producers?: HashingScheme[];
}

const quoted = (xs: readonly string[]) => xs.map((x) => JSON.stringify(x)).join(', ');

function producerList<T extends string>(v: unknown, allowed: readonly T[], what: string, path: string, problems: Problem[]): T[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) {
    problems.push({ path, message: `must be an array of ${what} values, e.g. [${quoted(allowed.slice(0, 2))}]` });
    return undefined;
  }
  const out: T[] = [];
  v.forEach((x: unknown, i: number) => {
    if (typeof x !== 'string' || !(allowed as readonly string[]).includes(x)) {
      problems.push({ path: `${path}[${i}]`, message: `must be one of ${quoted(allowed)} (got ${show(x)})` });
    } else if (out.includes(x as T)) {
      problems.push({ path: `${path}[${i}]`, message: `${JSON.stringify(x)} is listed twice` });
    } else out.push(x as T);
  });
  return out.length > 0 ? out : undefined;
}

export function parseKafkaClient(t: Record<string, unknown>, path: string, problems: Problem[]): KafkaClientSettings {
  const out: KafkaClientSettings = { partitioner: choice(t.partitioner, PARTITIONER_NAMES, 'java', `${path}.partitioner`, problems) };
  const producers = producerList(t.producers, PARTITIONER_NAMES, '"partitioner"', `${path}.producers`, problems);
  if (producers) out.producers = producers;
  if (t.keySerializer !== undefined) out.keySerializer = choice(t.keySerializer, KEY_SERIALIZERS, 'string', `${path}.keySerializer`, problems);
  if (t.schemaId !== undefined) {
    const id = t.schemaId;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      problems.push({ path: `${path}.schemaId`, message: `must be an integer from 0 to 2147483647, the Schema Registry id of the key schema (got ${show(id)})` });
    } else out.schemaId = id;
  }
  if (out.keySerializer && needsSchemaId(out.keySerializer) && out.schemaId === undefined && t.schemaId === undefined) {
    problems.push({ path: `${path}.schemaId`, message: `is required with "keySerializer": ${JSON.stringify(out.keySerializer)}: the wire format starts with the key schema's Schema Registry id` });
  }
  return out;
}

export function parsePulsarClient(t: Record<string, unknown>, path: string, problems: Problem[]): PulsarClientSettings {
  const out: PulsarClientSettings = { hashingScheme: choice(t.hashingScheme, HASHING_SCHEMES, DEFAULT_HASHING_SCHEME, `${path}.hashingScheme`, problems) };
  const producers = producerList(t.producers, HASHING_SCHEMES, '"hashingScheme"', `${path}.producers`, problems);
  if (producers) out.producers = producers;
  return out;
}
