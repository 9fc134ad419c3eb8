/**
 * Kafka's `Utils.murmur2`: MurmurHash2 with Kafka's seed, over the serialized key bytes.
 * Returns the signed 32-bit result, as Java's int.
 */
import { Utf8Scratch } from '../bytes';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

export function murmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The tail falls through from 3 to 1; the multiply happens only when there is a tail.
  switch (length & 3) {
    case 3:
      h ^= data[i + 2] << 16;
    // falls through
    case 2:
      h ^= data[i + 1] << 8;
    // falls through
    case 1:
      h ^= data[i];
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const scratch = new Utf8Scratch();

function murmur2OfEncoded(s: string): number {
  // Encode first: a long key grows the buffer, so read `bytes` only after.
  const n = scratch.encode(s);
  return murmur2(scratch.bytes, n);
}

/**
 * `murmur2` of a string key's UTF-8 bytes (Kafka's StringSerializer). An ASCII key's bytes are its
 * UTF-16 code units, so it is hashed straight from them, with no encoding pass and no buffer; at the
 * first non-ASCII unit the key is encoded into a reused buffer and hashed from there instead.
 */
export function murmur2OfString(s: string): number {
  const length = s.length;
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return murmur2OfEncoded(s);
    let k = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest > 0) {
    const c0 = s.charCodeAt(i);
    const c1 = rest > 1 ? s.charCodeAt(i + 1) : 0;
    const c2 = rest > 2 ? s.charCodeAt(i + 2) : 0;
    if ((c0 | c1 | c2) > 0x7f) return murmur2OfEncoded(s);
    h ^= c2 << 16;
    h ^= c1 << 8;
    h ^= c0;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `Utils.toPositive`: a mask, not `Math.abs`, so `Integer.MIN_VALUE` becomes 0. */
export function toPositive(x: number): number {
  return x & 0x7fffffff;
}
