/**
 * Kafka's `Utils.murmur2`: MurmurHash2 with Kafka's seed, over the serialized key bytes.
 * Returns the signed 32-bit result, as Java's int.
 */
import { LONG_STRING, asciiTail, bytesTail, hashScratch } from '../bytes';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** One 4-byte block `k` (little-endian) mixed into `h`. */
function mix(h: number, k: number): number {
  k = Math.imul(k, M);
  k ^= k >>> 24;
  k = Math.imul(k, M);
  return Math.imul(h, M) ^ k;
}

/** The 1-3 tail bytes `k` (little-endian) mixed into `h`, then the final avalanche. */
function finish(h: number, k: number, tailBytes: number): number {
  // The multiply happens only when there is a tail.
  if (tailBytes > 0) h = Math.imul(h ^ k, M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function murmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = mix(h, data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
  const rest = length & 3;
  return finish(h, bytesTail(data, i, rest), rest);
}

/** `murmur2` of `length` bytes read 4 at a time as little-endian words (`words` views `bytes`). */
function murmur2Words(words: DataView, bytes: Uint8Array, length: number): number {
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = mix(h, words.getInt32(i, true));
  const rest = length & 3;
  return finish(h, bytesTail(bytes, i, rest), rest);
}

function murmur2OfEncoded(s: string): number {
  const length = hashScratch.encode(s);
  return murmur2Words(hashScratch.words, hashScratch.bytes, length);
}

/**
 * `murmur2` of a string key's UTF-8 bytes (Kafka's StringSerializer: `getBytes(UTF_8)`). A short
 * ASCII key's bytes are its UTF-16 code units, so it is hashed straight from them, four units to a
 * block, with no byte array; a long key, or one with a non-ASCII unit, is encoded into a reused
 * buffer and hashed from there (see LONG_STRING).
 */
export function murmur2OfString(s: string): number {
  const n = s.length;
  if (n > LONG_STRING) return murmur2OfEncoded(s);
  let h = SEED ^ n;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return murmur2OfEncoded(s);
    h = mix(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
  }
  const rest = n & 3;
  const k = asciiTail(s, i, rest);
  return k < 0 ? murmur2OfEncoded(s) : finish(h, k, rest);
}

/** Kafka's `Utils.toPositive`: a mask, not `Math.abs`, so `Integer.MIN_VALUE` becomes 0. */
export function toPositive(x: number): number {
  return x & 0x7fffffff;
}
