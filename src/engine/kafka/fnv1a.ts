/**
 * FNV-1a 32 (offset basis 0x811c9dc5, prime 0x01000193) over the key bytes, as Go's `hash/fnv`
 * `New32a` (Sarama, kafka-go) and librdkafka's `rd_fnv1a` compute it. Returned as a signed
 * 32-bit int: the clients that use it differ only in what they do with the sign.
 */
import { isPairSequence, utf8Sequence } from '../bytes';

const BASIS = 0x811c9dc5 | 0;
const PRIME = 0x01000193;

export function fnv1a(bytes: Uint8Array, length: number = bytes.length): number {
  let h = BASIS;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], PRIME);
  return h;
}

/**
 * `fnv1a` of a string key's UTF-8 bytes (Java's `getBytes(UTF_8)`, Sarama's `[]byte(key)` of a Go
 * string), from its code units: an ASCII unit is its byte, a non-ASCII unit (or surrogate pair)
 * goes in as the bytes `utf8Sequence` gives it. Unlike the block hashes (LONG_STRING), nothing is
 * encoded first: FNV-1a is one multiply per byte, each waiting for the one before, and that chain
 * hides the cost of reading the unit (200-byte keys: 236 ns a key encoded first, 206 from the
 * units), and a non-ASCII unit costs a few more multiplies instead of encoding the key again.
 */
export function fnv1aOfString(s: string): number {
  const n = s.length;
  let h = BASIS;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      h = Math.imul(h ^ c, PRIME);
      continue;
    }
    let w = utf8Sequence(s, i, c);
    if (isPairSequence(w)) i++;
    do {
      h = Math.imul(h ^ (w & 0xff), PRIME);
      w >>>= 8;
    } while (w !== 0);
  }
  return h;
}
