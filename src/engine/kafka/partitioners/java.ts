/**
 * `java`: the Java client's `BuiltInPartitioner.partitionForKey`, `toPositive(murmur2(key)) % n`
 * (a mask, so Integer.MIN_VALUE goes to 0). The same in kafkajs 2.x (its default), franz-go,
 * kafka-python, librdkafka `murmur2`/`murmur2_random`, Sarama's and kafka-go's murmur2 options.
 * An empty key is hashed.
 */
import { murmur2, toPositive } from '../murmur2';
import { maskedShare, type Partitioner } from './partitioner';

export const java: Partitioner = {
  name: 'java',
  hashFunction: 'murmur2',
  hash: murmur2,
  hashes: () => true,
  partition: (hash, _length, n) => toPositive(hash) % n,
  formula: (n) => `toPositive(murmur2(key)) % ${n}`,
  randomNote: '',
  hashShare: maskedShare,
};
