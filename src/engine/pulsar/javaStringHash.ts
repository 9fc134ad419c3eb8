/**
 * Pulsar's `JavaStringHash`: `String.hashCode()` over the UTF-16 code units, masked to 31 bits.
 * JavaScript strings are UTF-16 too, so the code units are the same as Java's.
 */
import { LONG_STRING, hashScratch } from '../bytes';

// h = 31 * h + c, four units at a time: h * 31^4 + c0 * 31^3 + c1 * 31^2 + c2 * 31 + c3 (mod 2^32),
// which leaves one multiply-add per four units on the chain through h instead of four. The loop
// over a long key's encoded bytes (`hashCodeOfCharWords`) folds eight steps the same way, with
// 31^5 .. 31^8 (mod 2^32).
const P2 = 31 * 31;
const P3 = 31 * 31 * 31;
const P4 = 31 * 31 * 31 * 31;
const P5 = Math.imul(P4, 31);
const P6 = Math.imul(P5, 31);
const P7 = Math.imul(P6, 31);
const P8 = Math.imul(P7, 31);

/** `h` after four more code units, as four steps of `h = 31 * h + c` would leave it. */
export function hashCodeStep4(h: number, c0: number, c1: number, c2: number, c3: number): number {
  return (Math.imul(h, P4) + Math.imul(c0, P3) + Math.imul(c1, P2) + Math.imul(c2, 31) + c3) | 0;
}

export function javaStringHashCode(s: string): number {
  const n = s.length;
  if (n > LONG_STRING && hashScratch.encodeAscii(s)) return hashCodeOfCharWords(hashScratch.words, hashScratch.bytes, n);
  let h = 0;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = hashCodeStep4(h, s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2), s.charCodeAt(i + 3));
  for (; i < n; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * `h = 31 * h + c` from 0 over `length` bytes of the hash scratch (`words` reads the same bytes),
 * each byte `c` read as a C `char`, sign-extended (x86-64): the C++ client's JavaStringHash, and,
 * on ASCII bytes (each below 0x80, so the same either way), Java's hash of an ASCII string, whose
 * bytes are its code units. Eight bytes a step from two little-endian words: a long string is
 * copied out natively by `encodeInto` faster than `charCodeAt` reads it (see LONG_STRING), and one
 * read takes four bytes. 200-byte keys: Java's 163 -> 151 ns a key against four a step, the C++
 * client's 191 -> 151 against a byte a step.
 * The step is written out, not a function of nine arguments: V8 did not inline such a function
 * into the bench's loop (its budget for inlining was spent), and the calls made it 196 ns.
 * Exact: each term is an int32 and their sum stays below 2^35, where a double is still exact.
 */
export function hashCodeOfCharWords(words: DataView, bytes: Uint8Array, length: number): number {
  let h = 0;
  const blocks = length & ~7;
  let i = 0;
  for (; i < blocks; i += 8) {
    const w = words.getInt32(i, true);
    const v = words.getInt32(i + 4, true);
    const high = Math.imul((w << 24) >> 24, P7) + Math.imul((w << 16) >> 24, P6) + Math.imul((w << 8) >> 24, P5) + Math.imul(w >> 24, P4);
    h = (Math.imul(h, P8) + high + Math.imul((v << 24) >> 24, P3) + Math.imul((v << 16) >> 24, P2) + Math.imul((v << 8) >> 24, 31) + (v >> 24)) | 0;
  }
  for (; i < length; i++) h = (Math.imul(h, 31) + ((bytes[i] << 24) >> 24)) | 0;
  return h;
}

export function javaStringHash(s: string): number {
  return javaStringHashCode(s) & 0x7fffffff;
}
