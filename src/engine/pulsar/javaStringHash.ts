/**
 * Pulsar's `JavaStringHash`: `String.hashCode()` over the UTF-16 code units, masked to 31 bits.
 * JavaScript strings are UTF-16 too, so the code units are the same as Java's.
 */
import { LONG_STRING, hashScratch } from '../bytes';

// h = 31 * h + c, four units at a time: h * 31^4 + c0 * 31^3 + c1 * 31^2 + c2 * 31 + c3 (mod 2^32),
// which leaves one multiply-add per four units on the chain through h instead of four.
const P2 = 31 * 31;
const P3 = 31 * 31 * 31;
const P4 = 31 * 31 * 31 * 31;

/** `h` after four more code units, as four steps of `h = 31 * h + c` would leave it. */
export function hashCodeStep4(h: number, c0: number, c1: number, c2: number, c3: number): number {
  return (Math.imul(h, P4) + Math.imul(c0, P3) + Math.imul(c1, P2) + Math.imul(c2, 31) + c3) | 0;
}

export function javaStringHashCode(s: string): number {
  const n = s.length;
  if (n > LONG_STRING && hashScratch.encodeAscii(s)) return hashOfAsciiWords(hashScratch.words, hashScratch.bytes, n);
  let h = 0;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = hashCodeStep4(h, s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2), s.charCodeAt(i + 3));
  for (; i < n; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The hash of an ASCII string from its bytes (one per code unit), read 4 at a time: a long string
 * is copied out natively by `encodeInto` faster than `charCodeAt` reads it (see LONG_STRING).
 */
function hashOfAsciiWords(words: DataView, bytes: Uint8Array, n: number): number {
  let h = 0;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const w = words.getInt32(i, true);
    h = hashCodeStep4(h, w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24);
  }
  for (; i < n; i++) h = (Math.imul(h, 31) + bytes[i]) | 0;
  return h;
}

export function javaStringHash(s: string): number {
  return javaStringHashCode(s) & 0x7fffffff;
}
