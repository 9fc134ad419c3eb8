/**
 * `librdkafka-consistent`: librdkafka's `consistent` partitioner (also Sarama's
 * `NewConsistentCRCHashPartitioner`, kafka-go's `CRC32Balancer{Consistent: true}`): CRC-32 (IEEE)
 * of the key, `uint32 % n`. The empty key is hashed too: its CRC is 0, partition 0.
 */
import { crc32 } from '../../pulsar/crc32';
import { unsignedShare, type Partitioner } from './partitioner';

export const librdkafkaConsistent: Partitioner = {
  name: 'librdkafka-consistent',
  hashFunction: 'crc32',
  hash: (bytes, length) => crc32(bytes, length) | 0,
  hashes: () => true,
  partition: (hash, _length, n) => (hash >>> 0) % n,
  formula: (n) => `crc32(key) % ${n}`,
  randomNote: '',
  hashShare: unsignedShare,
};
