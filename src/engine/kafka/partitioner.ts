/**
 * Kafka's keyed partition (`BuiltInPartitioner.partitionForKey`), the Java client's default
 * and that of every Java-compatible client: `toPositive(murmur2(keyBytes)) % numPartitions`.
 */
import { murmur2, murmur2OfString, toPositive } from './murmur2';

export function partitionForKey(keyBytes: Uint8Array, numPartitions: number): number {
  return toPositive(murmur2(keyBytes)) % numPartitions;
}

/** The partition of a key given as a string (StringSerializer: UTF-8) or as raw bytes. */
export function kafkaPartition(key: string | Uint8Array, numPartitions: number): number {
  if (typeof key !== 'string') return partitionForKey(key, numPartitions);
  return toPositive(murmur2OfString(key)) % numPartitions;
}
