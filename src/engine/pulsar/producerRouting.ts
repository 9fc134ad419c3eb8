/**
 * Pulsar producer routing of a keyed message on a partitioned topic, by the producer's
 * `hashingScheme` (CONTRACT.md section 3, CLIENT-PARTITIONERS.md):
 * - the Java client (`JavaStringHash`, its default, and `Murmur3_32Hash`): in both
 *   RoundRobinPartition (the default) and SinglePartition modes a keyed message goes to
 *   `signSafeMod(hash.makeHash(key), numPartitions)`; a key set with `keyBytes` is routed on its
 *   base64 text;
 * - the C++ client (`JavaStringHash-cpp`, and `BoostHash-*`, its default, whose result depends on the
 *   Boost version it was built with): `RoundRobinMessageRouter` returns 0 on a one-partition topic
 *   without hashing, else `makeHash(key) % numPartitions` over the key's bytes (`std::string`).
 * Every `makeHash` is masked to 31 bits.
 */
import { utf8 } from '../bytes';
import { pulsarRoutingKey, type MessageKey } from '../key';
import { boostHash180, boostHash180OfString } from './boostHash180';
import { boostHash181, boostHash181OfString } from './boostHash181';
import { boostHash182, boostHash182OfString } from './boostHash182';
import { javaStringHash } from './javaStringHash';
import { javaStringHashCpp, javaStringHashCppOfString } from './javaStringHashCpp';
import { murmur3Masked, murmur3OfString } from './murmur3';

export type HashingScheme = 'JavaStringHash' | 'JavaStringHash-cpp' | 'Murmur3_32Hash' | 'BoostHash-1.80' | 'BoostHash-1.81' | 'BoostHash-1.82';
export const DEFAULT_HASHING_SCHEME: HashingScheme = 'JavaStringHash';
export const HASHING_SCHEMES: readonly HashingScheme[] = ['JavaStringHash', 'JavaStringHash-cpp', 'Murmur3_32Hash', 'BoostHash-1.80', 'BoostHash-1.81', 'BoostHash-1.82'];

/** The C++ schemes' `makeHash` over the key bytes `bytes[0..length)`, masked. */
const CPP_HASH: Readonly<Partial<Record<HashingScheme, (bytes: Uint8Array, length: number) => number>>> = {
  'JavaStringHash-cpp': javaStringHashCpp,
  'BoostHash-1.80': boostHash180,
  'BoostHash-1.81': boostHash181,
  'BoostHash-1.82': boostHash182,
};

/** Whether the C++ client does the routing (the key's bytes; one partition is not hashed). */
export function isCppScheme(scheme: HashingScheme): boolean {
  return CPP_HASH[scheme] !== undefined;
}

/** The client-side `Hash.makeHash` of a string key (masked to 31 bits). */
export function clientKeyHash(scheme: HashingScheme, key: string): number {
  // A switch of direct calls rather than a lookup in CPP_STRING_HASH: each call site here then
  // sees one function, which V8 inlines, where one `f(key)` for every scheme is a polymorphic call
  // (measured about 10 ns a key on short keys when several schemes are in use).
  switch (scheme) {
    case 'JavaStringHash':
      return javaStringHash(key);
    case 'Murmur3_32Hash':
      return murmur3OfString(key) & 0x7fffffff;
    case 'JavaStringHash-cpp':
      return javaStringHashCppOfString(key);
    case 'BoostHash-1.80':
      return boostHash180OfString(key);
    case 'BoostHash-1.81':
      return boostHash181OfString(key);
    case 'BoostHash-1.82':
      return boostHash182OfString(key);
  }
  throw new Error(`${scheme} is not a client hashing scheme`);
}

/** `MathUtils.signSafeMod`: Java's `%`, plus n where the result is negative. */
export function signSafeMod(dividend: number, divisor: number): number {
  const r = (dividend % divisor) | 0; // `| 0` also turns -0 into 0, as Java has no -0 int
  return r < 0 ? r + divisor : r;
}

/**
 * The partition of a string key (as `producerPlacement` of its UTF-8 bytes and text), hashed from
 * the string without building the byte array: the Java client routes on the string itself.
 */
export function pulsarPartition(scheme: HashingScheme, key: string, numPartitions: number): number {
  // Cases rather than `isCppScheme`'s table lookup, which is a polymorphic keyed load when several
  // schemes are in use.
  switch (scheme) {
    case 'JavaStringHash':
    case 'Murmur3_32Hash':
      return signSafeMod(clientKeyHash(scheme, key), numPartitions);
    case 'JavaStringHash-cpp':
    case 'BoostHash-1.80':
    case 'BoostHash-1.81':
    case 'BoostHash-1.82':
      return numPartitions === 1 ? 0 : clientKeyHash(scheme, key) % numPartitions;
  }
  throw new Error(`${scheme} is not a client hashing scheme`);
}

/** The partition a producer with this scheme picks for the key (numPartitions >= 1), and its hash where it hashes. */
export function producerPlacement(scheme: HashingScheme, key: MessageKey, numPartitions: number): { partition: number; hash?: number } {
  const cpp = CPP_HASH[scheme];
  if (cpp) {
    if (numPartitions === 1) return { partition: 0 };
    const hash = cpp(key.bytes, key.bytes.length);
    return { partition: hash % numPartitions, hash };
  }
  const text = pulsarRoutingKey(key);
  const hash = scheme === 'Murmur3_32Hash' ? murmur3Masked(utf8(text)) : javaStringHash(text);
  return { partition: signSafeMod(hash, numPartitions), hash };
}
