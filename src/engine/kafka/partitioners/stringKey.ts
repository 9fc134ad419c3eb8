/**
 * A client's partition for a key given as a string (the producer's StringSerializer, Go's
 * `[]byte(key)`, kafkajs' `Buffer.from(key)`: the UTF-8 bytes), without building the byte array:
 * each hash reads an ASCII key from its code units or encodes it into a reused buffer.
 */
import { crc32OfString } from '../../pulsar/crc32';
import { fnv1aOfString } from '../fnv1a';
import { murmur2OfString } from '../murmur2';
import { kafkajsLegacyMurmur2OfString } from './kafkajsLegacy';
import type { KafkaHashFunction, Partitioner } from './partitioner';

/**
 * The partition `p` picks for a string key out of `numPartitions`, or RANDOM where it does not
 * place the key by its hash (as `place`, on the same bytes). The key's byte length is 0 exactly
 * when the string is empty, which is all `hashes` and `partition` ask of it.
 */
export function partitionOfString(p: Partitioner, key: string, numPartitions: number): number {
  const f = p.hashFunction;
  const hash = f !== null && p.hashes(key.length) ? stringHash(f, key) : 0;
  return p.partition(hash, key.length, numPartitions);
}

/**
 * Hash function `f` of a string key's UTF-8 bytes, as the signed int `Partitioner.hash` returns.
 * A switch of direct calls, not a table of functions: where several clients' partitioners are in
 * use (a workspace's topics, the bench) a table's keyed load and call are megamorphic, and the
 * calls here stay monomorphic and inlinable.
 */
function stringHash(f: KafkaHashFunction, key: string): number {
  switch (f) {
    case 'murmur2':
      return murmur2OfString(key);
    case 'crc32':
      return crc32OfString(key) | 0;
    case 'fnv1a':
      return fnv1aOfString(key);
    case 'kafkajs-murmur2':
      return kafkajsLegacyMurmur2OfString(key);
  }
}
