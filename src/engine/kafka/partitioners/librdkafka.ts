/**
 * `librdkafka`: librdkafka's default partitioner `consistent_random` (confluent-kafka-python, -go,
 * -dotnet, node-rdkafka): CRC-32 (IEEE) of the key, `uint32 % n`. A key of length 0 is not hashed:
 * `rd_kafka_msg_partition` sends it to the topic's sticky partition, a random one picked again every
 * `sticky.partitioning.linger.ms`; with one partition that is partition 0.
 */
import { crc32 } from '../../pulsar/crc32';
import { RANDOM, unsignedShare, type Partitioner } from './partitioner';

export const librdkafka: Partitioner = {
  name: 'librdkafka',
  hashFunction: 'crc32',
  hash: (bytes, length) => crc32(bytes, length) | 0,
  hashes: (length) => length > 0,
  partition: (hash, length, n) => (length === 0 ? (n === 1 ? 0 : RANDOM) : (hash >>> 0) % n),
  formula: (n) => `key.length > 0 ? crc32(key) % ${n} : random`,
  randomNote:
    "librdkafka's default partitioner (consistent_random) does not hash an empty key: it goes to a random (sticky) partition, picked again every sticky.partitioning.linger.ms",
  hashShare: unsignedShare,
};
