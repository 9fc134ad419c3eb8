/**
 * The Kafka partitioners by their `partitioner` setting value, with the labels the settings UI and
 * the panel show (which clients and versions behave so).
 */
import { java } from './java';
import { kafkaGo } from './kafkaGo';
import { kafkaGo02 } from './kafkaGo02';
import { kafkajsLegacy } from './kafkajsLegacy';
import { librdkafka } from './librdkafka';
import { librdkafkaConsistent } from './librdkafkaConsistent';
import type { KafkaPartitionerName, Partitioner } from './partitioner';
import { sarama } from './sarama';
import { saramaReference } from './saramaReference';

export const PARTITIONERS: Readonly<Record<KafkaPartitionerName, Partitioner>> = {
  java,
  librdkafka,
  'librdkafka-consistent': librdkafkaConsistent,
  sarama,
  'sarama-reference': saramaReference,
  'kafka-go-0.2': kafkaGo02,
  'kafka-go': kafkaGo,
  'kafkajs-legacy': kafkajsLegacy,
};

export const PARTITIONER_NAMES = Object.keys(PARTITIONERS) as KafkaPartitionerName[];

/** Who partitions this way (the settings' enum labels say the same). */
export const PARTITIONER_LABELS: Readonly<Record<KafkaPartitionerName, string>> = {
  java: 'Java client murmur2 (also kafkajs 2.x, franz-go, kafka-python, librdkafka murmur2)',
  librdkafka: 'librdkafka default (consistent_random): confluent-kafka-python/-go/.NET, node-rdkafka',
  'librdkafka-consistent': 'librdkafka consistent (CRC-32, empty key hashed); Sarama ConsistentCRCHash',
  sarama: 'Sarama default (FNV-1a, negative negated); librdkafka fnv1a; kafka-go Hash v0.4+',
  'sarama-reference': 'Sarama ReferenceHash (FNV-1a, sign bit masked); kafka-go ReferenceHash',
  'kafka-go-0.2': 'kafka-go Hash before v0.4 (FNV-1a, unsigned)',
  'kafka-go': 'kafka-go default (RoundRobin: keys ignored)',
  'kafkajs-legacy': 'kafkajs 1.x default (LegacyPartitioner)',
};

export function partitionerNamed(name: KafkaPartitionerName): Partitioner {
  return PARTITIONERS[name];
}

export { partitionOfString } from './stringKey';
export { place, RANDOM, type KafkaHashFunction, type KafkaPartitionerName, type Partitioner, type Placement } from './partitioner';
