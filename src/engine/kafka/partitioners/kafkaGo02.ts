/**
 * `kafka-go-0.2`: kafka-go's `Hash` balancer before v0.4 (0.2.1, as Debian ships it): FNV-1a 32 of
 * the key, `int(h.Sum32()) % len(partitions)`. On 64-bit Go `int(uint32)` is never negative, so
 * this is the unsigned remainder, unlike Sarama's, which the code comment claims to match.
 */
import { fnv1a } from '../fnv1a';
import { unsignedShare, type Partitioner } from './partitioner';

export const kafkaGo02: Partitioner = {
  name: 'kafka-go-0.2',
  hashFunction: 'fnv1a',
  hash: fnv1a,
  hashes: () => true,
  partition: (hash, _length, n) => (hash >>> 0) % n,
  formula: (n) => `uint32(fnv1a(key)) % ${n}`,
  randomNote: '',
  hashShare: unsignedShare,
};
