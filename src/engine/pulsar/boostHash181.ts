/**
 * Pulsar C++ client `BoostHash` built with Boost 1.81: `boost::hash<std::string>(key) & INT32_MAX`
 * on a 64-bit `size_t`. Boost 1.81's `hash_range` for `char` ranges reads the bytes as
 * little-endian 32-bit words, each combined as `seed = hash_mix(seed + 0x9e3779b9 + w)`, and ends
 * with the remaining 0..3 bytes plus a 0x01 marker byte above them (so trailing zero bytes count).
 * `hash_mix` is the 64-bit xmx mixer.
 */
import { add64, hi, lo, mul64 } from './uint64';

/** hash_mix's multiplier 0x0e9846af_9b1a615d */
const MH = 0x0e9846af;
const ML = 0x9b1a615d;

let sh = 0;
let sl = 0;

/** seed = hash_mix(seed + 0x9e3779b9 + w) */
function combine(w: number): void {
  add64(sh, sl, 0, 0x9e3779b9);
  add64(hi, lo, 0, w >>> 0);
  // x ^= x >> 32; x *= m; x ^= x >> 32; x *= m; x ^= x >> 28
  mul64(hi, (lo ^ hi) >>> 0, MH, ML);
  mul64(hi, (lo ^ hi) >>> 0, MH, ML);
  sl = (lo ^ ((lo >>> 28) | (hi << 4))) >>> 0;
  sh = (hi ^ (hi >>> 28)) >>> 0;
}

/** The 64-bit hash's low 32 bits (unsigned). */
export function boostHash181Low(bytes: Uint8Array, length: number = bytes.length): number {
  sh = 0;
  sl = 0;
  let i = 0;
  for (; length - i >= 4; i += 4) combine(bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  const rest = length - i;
  let w = 0x01 << (8 * rest);
  if (rest > 2) w |= bytes[i + 2] << 16;
  if (rest > 1) w |= bytes[i + 1] << 8;
  if (rest > 0) w |= bytes[i];
  combine(w);
  return sl;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash181(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash181Low(bytes, length) & 0x7fffffff;
}
