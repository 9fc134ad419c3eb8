/**
 * `sarama-reference`: Sarama's `NewReferenceHashPartitioner` (also kafka-go `ReferenceHash`):
 * FNV-1a 32 of the key with the sign bit masked, `(int32(h) & 0x7fffffff) % n`. It fixes only
 * the sign handling, so it matches neither the Java client nor Sarama's default.
 */
import { fnv1a } from '../fnv1a';
import { maskedShare, type Partitioner } from './partitioner';

export const saramaReference: Partitioner = {
  name: 'sarama-reference',
  hashFunction: 'fnv1a',
  hash: fnv1a,
  hashes: () => true,
  partition: (hash, _length, n) => (hash & 0x7fffffff) % n,
  formula: (n) => `(fnv1a(key) & 0x7fffffff) % ${n}`,
  randomNote: '',
  hashShare: maskedShare,
};
