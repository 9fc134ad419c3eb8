/**
 * Pulsar producer routing of a keyed message on a partitioned topic. In both
 * RoundRobinPartition (the default) and SinglePartition modes a message with a key goes to
 * `signSafeMod(hash(key), numPartitions)`, with the hash chosen by the producer's `HashingScheme`.
 */
import { utf8 } from '../bytes';
import { javaStringHash } from './javaStringHash';
import { murmur3Masked } from './murmur3';

export type HashingScheme = 'JavaStringHash' | 'Murmur3_32Hash';
export const DEFAULT_HASHING_SCHEME: HashingScheme = 'JavaStringHash';

/** The client-side `Hash.makeHash(String)` of the scheme (both are masked to 31 bits). */
export function clientKeyHash(scheme: HashingScheme, key: string): number {
  return scheme === 'Murmur3_32Hash' ? murmur3Masked(utf8(key)) : javaStringHash(key);
}

/** `MathUtils.signSafeMod`: Java's `%`, plus n where the result is negative. */
export function signSafeMod(dividend: number, divisor: number): number {
  const r = (dividend % divisor) | 0; // `| 0` also turns -0 into 0, as Java has no -0 int
  return r < 0 ? r + divisor : r;
}

export function pulsarPartition(scheme: HashingScheme, key: string, numPartitions: number): number {
  return signSafeMod(clientKeyHash(scheme, key), numPartitions);
}
