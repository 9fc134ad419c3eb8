/**
 * Pulsar C++ client `BoostHash` built with Boost up to 1.80: `boost::hash<std::string>(key) &
 * INT32_MAX` on a 64-bit `size_t`. Up to 1.80, `hash_range` folds each `char` in with
 * `hash_combine_impl<64>` (MurmurHash2-64's mix), and `hash<char>` is `static_cast<size_t>(c)`:
 * `char` is signed on x86-64, so a byte >= 0x80 enters sign-extended to 64 bits.
 * (Boost 1.74, Debian's, computes the same; checked against both.)
 */
import { add64, HI, LO, mul64, reg } from './uint64';

/** m = 0xc6a4a793_5bd1e995 */
const MH = 0xc6a4a793;
const ML = 0x5bd1e995;

/**
 * The mixed value of each byte: k = (size_t)(signed char)b; k *= m; k ^= k >> 47; k *= m. It
 * depends on the byte alone, so it is worked out once for the 256 bytes (high word at 2b, low at
 * 2b + 1).
 */
const K = new Uint32Array(512);
for (let b = 0; b < 256; b++) {
  mul64(b >= 0x80 ? 0xffffffff : 0, ((b << 24) >> 24) >>> 0, MH, ML);
  // k ^= k >> 47: only the high word's top 17 bits reach the low word.
  mul64(reg[HI], (reg[LO] ^ (reg[HI] >>> 15)) >>> 0, MH, ML);
  K[2 * b] = reg[HI];
  K[2 * b + 1] = reg[LO];
}

/** The 64-bit hash's low 32 bits (unsigned): all that `& INT32_MAX` keeps. */
export function boostHash180Low(bytes: Uint8Array, length: number = bytes.length): number {
  let hh = 0;
  let hl = 0;
  for (let i = 0; i < length; i++) {
    const b = bytes[i];
    // h ^= k; h *= m; h += 0xe6546b64
    mul64((hh ^ K[2 * b]) >>> 0, (hl ^ K[2 * b + 1]) >>> 0, MH, ML);
    add64(reg[HI], reg[LO], 0, 0xe6546b64);
    hh = reg[HI];
    hl = reg[LO];
  }
  return hl;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash180(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash180Low(bytes, length) & 0x7fffffff;
}
