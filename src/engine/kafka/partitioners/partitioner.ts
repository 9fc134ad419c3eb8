/**
 * A Kafka producer client's keyed partitioning, behind one small interface (as Kafka's own
 * `Partitioner`): the client's hash of the serialized key, and the partition it derives from it.
 * One file per client behaviour, named by the `partitioner` setting value (CONTRACT.md section 3,
 * CLIENT-PARTITIONERS.md).
 */

export type KafkaPartitionerName =
  | 'java'
  | 'librdkafka'
  | 'librdkafka-consistent'
  | 'sarama'
  | 'sarama-reference'
  | 'kafka-go-0.2'
  | 'kafka-go'
  | 'kafkajs-legacy';

/** The hash functions the partitioners share (partitioners with the same one share one hash per key). */
export type KafkaHashFunction = 'murmur2' | 'crc32' | 'fnv1a' | 'kafkajs-murmur2';

/** What `partition` returns where the client does not place the key by its hash. */
export const RANDOM = -1;

export interface Partitioner {
  readonly name: KafkaPartitionerName;
  /** The hash this client computes, or null for a client that ignores keys. */
  readonly hashFunction: KafkaHashFunction | null;
  /** The client's 32-bit hash of the key bytes as a signed int (0 for a client that does not hash). */
  hash(bytes: Uint8Array, length: number): number;
  /** Whether the client hashes a key of this length (librdkafka's default does not hash the empty key). */
  hashes(keyLength: number): boolean;
  /**
   * The partition the client picks for a key with this hash and length out of `numPartitions`
   * (1..2^31-1), or RANDOM where it picks at random or ignores the key.
   */
  partition(hash: number, keyLength: number, numPartitions: number): number;
  /** `partition` written out for `numPartitions` over the key's bytes, as the side bar shows it. */
  formula(numPartitions: number): string;
  /** Why the client gives no fixed partition (said with a `partition: null` route). */
  readonly randomNote: string;
  /**
   * A string key's bytes where the client's differ from Java's `getBytes(UTF_8)` (which writes '?'
   * for an unpaired surrogate); only for such a key (`isWellFormed()` false) is it asked.
   */
  textBytes?(text: string): Uint8Array;
  /**
   * The share of all 2^32 hash values that land on partition p of n: what an even spread of keys
   * would put there (the analyser's hash share).
   */
  hashShare(p: number, n: number): number;
}

/** How many x in [lo, hi] (lo >= 0) have x % n === p. */
export function countCongruent(lo: number, hi: number, p: number, n: number): number {
  const upTo = (x: number): number => (x < p ? 0 : Math.floor((x - p) / n) + 1);
  return upTo(hi) - upTo(lo - 1);
}

/** `(hash & 0x7fffffff) % n` over an even hash: the share of 31-bit values on p. */
export function maskedShare(p: number, n: number): number {
  return countCongruent(0, 0x7fffffff, p, n) / 0x80000000;
}

/** `(uint32) hash % n` over an even hash: the share of 32-bit values on p. */
export function unsignedShare(p: number, n: number): number {
  return countCongruent(0, 0xffffffff, p, n) / 0x100000000;
}

/** Where a key goes with one client: the partition (null: not by its hash), the hash if the client hashes it, and why not. */
export interface Placement {
  partition: number | null;
  hash?: number;
  note?: string;
}

/** The placement of the key bytes `bytes[0..length)` on a topic of `numPartitions`. */
export function place(p: Partitioner, bytes: Uint8Array, length: number, numPartitions: number): Placement {
  const hashed = p.hashes(length);
  const hash = hashed ? p.hash(bytes, length) : 0;
  const partition = p.partition(hash, length, numPartitions);
  const out: Placement = { partition: partition === RANDOM ? null : partition };
  if (partition === RANDOM) out.note = p.randomNote;
  if (hashed) out.hash = hash;
  return out;
}
