/**
 * FNV-1a 32 (offset basis 0x811c9dc5, prime 0x01000193) over the key bytes, as Go's `hash/fnv`
 * `New32a` (Sarama, kafka-go) and librdkafka's `rd_fnv1a` compute it. Returned as a signed
 * 32-bit int: the clients that use it differ only in what they do with the sign.
 */
import { isPairSequence, LONG_STRING, utf8Sequence } from '../bytes';

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
 *
 * A key of up to LONG_STRING units is read four ASCII units at a time first, one test for the four
 * (UUIDs 44.7 -> 40.5 ns a key, 10%-non-ASCII keys 33.5 -> 31.5, 11 units 15.4 -> 14.6); on
 * 200-unit keys that loop measured slower (250 against 200 ns), so long keys go unit by unit.
 */
export function fnv1aOfString(s: string): number {
  const n = s.length;
  if (n > LONG_STRING) return fnv1aOfUnits(s, 0, BASIS);
  const blocks = n & ~3;
  let h = BASIS;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return fnv1aOfUnits(s, i, h);
    h = Math.imul(Math.imul(Math.imul(Math.imul(h ^ c0, PRIME) ^ c1, PRIME) ^ c2, PRIME) ^ c3, PRIME);
  }
  return fnv1aOfUnits(s, i, h);
}

/** FNV-1a `h` continued over the UTF-8 bytes of `s` from unit `i` on, unit by unit. */
function fnv1aOfUnits(s: string, i: number, h: number): number {
  const n = s.length;
  for (; i < n; i++) {
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
