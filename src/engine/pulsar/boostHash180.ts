/**
 * Pulsar C++ client `BoostHash` built with Boost up to 1.80: `boost::hash<std::string>(key) &
 * INT32_MAX` on a 64-bit `size_t`. Up to 1.80, `hash_range` folds each `char` in with
 * `hash_combine_impl<64>` (MurmurHash2-64's mix), and `hash<char>` is `static_cast<size_t>(c)`:
 * `char` is signed on x86-64, so a byte >= 0x80 enters sign-extended to 64 bits.
 * (Boost 1.74, Debian's, computes the same; checked against both.)
 */
import { isPairSequence, utf8Sequence } from '../bytes';
import { HI, LO, mul64, reg } from './uint64';

/** m = 0xc6a4a793_5bd1e995 */
const MH = 0xc6a4a793;
const ML = 0x5bd1e995;

/**
 * The low word of each byte's mixed value: k = (size_t)(signed char)b; k *= m; k ^= k >> 47;
 * k *= m. It depends on the byte alone, so it is worked out once for the 256 bytes, in full 64-bit
 * arithmetic (the shift by 47 brings high bits down into the low word).
 */
const K_LOW = new Int32Array(256);
for (let b = 0; b < 256; b++) {
  mul64(b >= 0x80 ? 0xffffffff : 0, ((b << 24) >> 24) >>> 0, MH, ML);
  // k ^= k >> 47: only the high word's top 17 bits reach the low word.
  mul64(reg[HI], (reg[LO] ^ (reg[HI] >>> 15)) >>> 0, MH, ML);
  K_LOW[b] = reg[LO];
}

/**
 * The 64-bit hash's low 32 bits (unsigned): all that `& INT32_MAX` keeps. The per-byte step
 * `h ^= k; h *= m; h += 0xe6546b64` never moves a high bit of h down: a product's low word depends
 * only on the factors' low words, a sum carries only upwards, xor is bitwise. So the low word is a
 * 32-bit loop of its own, and the high word, which nothing kept depends on, is not computed.
 */
export function boostHash180Low(bytes: Uint8Array, length: number = bytes.length): number {
  let h = 0;
  for (let i = 0; i < length; i++) h = step(h, bytes[i]);
  return h >>> 0;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash180(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash180Low(bytes, length) & 0x7fffffff;
}

/** One byte into the low word. */
function step(h: number, b: number): number {
  return (Math.imul(h ^ K_LOW[b], ML) + 0xe6546b64) | 0;
}

/**
 * `boostHash180` of a string key's UTF-8 bytes (the C++ client's `std::string`), from its code
 * units: an ASCII unit is its byte, a non-ASCII unit (or surrogate pair) goes in as the bytes
 * `utf8Sequence` gives it. As for FNV-1a (fnv1a.ts), each byte's step waits for the one before,
 * which hides reading the unit: 200-byte keys cost 290 ns a key encoded first, 245 from the units.
 */
export function boostHash180OfString(s: string): number {
  const n = s.length;
  let h = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      h = step(h, c);
      continue;
    }
    let w = utf8Sequence(s, i, c);
    if (isPairSequence(w)) i++;
    do {
      h = step(h, w & 0xff);
      w >>>= 8;
    } while (w !== 0);
  }
  return h & 0x7fffffff;
}
