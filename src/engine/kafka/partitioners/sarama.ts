/**
 * `sarama`: Sarama's default `NewHashPartitioner` (also librdkafka `fnv1a`, kafka-go `Hash` from
 * v0.4): FNV-1a 32 of the key, `p = int32(h) % n` with Go's truncating remainder, negated when
 * negative. That is `|int32(h)| % n` with |INT32_MIN| = 2^31: Go computes INT32_MIN % n before
 * negating, and librdkafka's `rd_fnv1a` negates INT32_MIN to itself (two's complement) and then
 * takes `(uint32) 0x80000000 % n`; both give 2^31 % n (1 on 2^31-1 partitions). The empty key
 * hashes to the offset basis.
 */
import { fnv1a } from '../fnv1a';
import { countCongruent, type Partitioner } from './partitioner';

export const sarama: Partitioner = {
  name: 'sarama',
  hashFunction: 'fnv1a',
  hash: fnv1a,
  hashes: () => true,
  // |h| as a double is exact (up to 2^31), so the remainder is the unsigned one.
  partition: (hash, _length, n) => Math.abs(hash) % n,
  formula: (n) => `abs(int32(fnv1a(key))) % ${n}`,
  randomNote: '',
  // |h| takes 0 and 2^31 once and every other value of 1..2^31-1 twice.
  hashShare: (p, n) => (2 * countCongruent(1, 0x7fffffff, p, n) + (p === 0 ? 1 : 0) + (0x80000000 % n === p ? 1 : 0)) / 0x100000000,
};
