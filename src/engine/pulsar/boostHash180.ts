/**
 * Pulsar C++ client `BoostHash` built with Boost up to 1.80: `boost::hash<std::string>(key) &
 * INT32_MAX` on a 64-bit `size_t`. Up to 1.80, `hash_range` folds each `char` in with
 * `hash_combine_impl<64>` (MurmurHash2-64's mix), and `hash<char>` is `static_cast<size_t>(c)`:
 * `char` is signed on x86-64, so a byte >= 0x80 enters sign-extended to 64 bits.
 * (Boost 1.74, Debian's, computes the same; checked against both.)
 */
import { add64, hi, lo, mul64 } from './uint64';

/** m = 0xc6a4a793_5bd1e995 */
const MH = 0xc6a4a793;
const ML = 0x5bd1e995;

/** The 64-bit hash's low 32 bits (unsigned): all that `& INT32_MAX` keeps. */
export function boostHash180Low(bytes: Uint8Array, length: number = bytes.length): number {
  let hh = 0;
  let hl = 0;
  for (let i = 0; i < length; i++) {
    const b = bytes[i];
    // k = (size_t)(signed char)b
    mul64(b >= 0x80 ? 0xffffffff : 0, ((b << 24) >> 24) >>> 0, MH, ML);
    // k ^= k >> 47: only the high word's top 17 bits reach the low word.
    mul64(hi, (lo ^ (hi >>> 15)) >>> 0, MH, ML);
    mul64((hh ^ hi) >>> 0, (hl ^ lo) >>> 0, MH, ML);
    add64(hi, lo, 0, 0xe6546b64);
    hh = hi;
    hl = lo;
  }
  return hl;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash180(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash180Low(bytes, length) & 0x7fffffff;
}
