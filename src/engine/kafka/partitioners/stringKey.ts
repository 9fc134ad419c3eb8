/**
 * A client's partition for a key given as a string (the producer's StringSerializer, Go's
 * `[]byte(key)`, kafkajs' `Buffer.from(key)`: the UTF-8 bytes), without building the byte array:
 * each hash reads an ASCII key from its code units or encodes it into a reused buffer.
 */
import { crc32OfString } from '../../pulsar/crc32';
import { fnv1aOfString } from '../fnv1a';
import { murmur2OfString } from '../murmur2';
import { java } from './java';
import { kafkaGo } from './kafkaGo';
import { kafkaGo02 } from './kafkaGo02';
import { kafkajsLegacy, kafkajsLegacyMurmur2OfString } from './kafkajsLegacy';
import { librdkafka } from './librdkafka';
import { librdkafkaConsistent } from './librdkafkaConsistent';
import type { KafkaHashFunction, Partitioner } from './partitioner';
import { sarama } from './sarama';
import { saramaReference } from './saramaReference';

/**
 * The partition `p` picks for a string key out of `numPartitions`, or RANDOM where it does not
 * place the key by its hash (as `place`, on the same bytes). The key's byte length is 0 exactly
 * when the string is empty, which is all `hashes` and `partition` ask of it.
 *
 * A case per client, each calling that client's own hash and `partition` directly: called through
 * `p`, those calls see every partitioner a process uses (a workspace's topics, producers that
 * disagree), and once they see several they are megamorphic and no longer inlined. Measured with
 * three partitioners in turn, Sarama's partition of a short key took 28.4 ns through `p` and 17.0
 * here, of a 10%-non-ASCII key 44.5 and 38.2. Any other `Partitioner` is asked through `p`.
 */
export function partitionOfString(p: Partitioner, key: string, numPartitions: number): number {
  const length = key.length;
  switch (p) {
    case java:
      return java.partition(murmur2OfString(key), length, numPartitions);
    case librdkafka:
      return librdkafka.partition(librdkafka.hashes(length) ? crc32OfString(key) | 0 : 0, length, numPartitions);
    case librdkafkaConsistent:
      return librdkafkaConsistent.partition(crc32OfString(key) | 0, length, numPartitions);
    case sarama:
      return sarama.partition(fnv1aOfString(key), length, numPartitions);
    case saramaReference:
      return saramaReference.partition(fnv1aOfString(key), length, numPartitions);
    case kafkaGo02:
      return kafkaGo02.partition(fnv1aOfString(key), length, numPartitions);
    case kafkaGo:
      return kafkaGo.partition(0, length, numPartitions);
    case kafkajsLegacy:
      return kafkajsLegacy.partition(kafkajsLegacyMurmur2OfString(key), length, numPartitions);
  }
  const f = p.hashFunction;
  const hash = f !== null && p.hashes(length) ? stringHash(f, key) : 0;
  return p.partition(hash, length, numPartitions);
}

/**
 * Hash function `f` of a string key's UTF-8 bytes, as the signed int `Partitioner.hash` returns.
 * A switch of direct calls, not a table of functions, for the same reason as above.
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
