/**
 * Pulsar C++ client `BoostHash` built with Boost 1.81: `boost::hash<std::string>(key) & INT32_MAX`
 * on a 64-bit `size_t`. Boost 1.81's `hash_range` for `char` ranges reads the bytes as
 * little-endian 32-bit words, each combined as `seed = hash_mix(seed + 0x9e3779b9 + w)`, and ends
 * with the remaining 0..3 bytes plus a 0x01 marker byte above them (so trailing zero bytes count).
 * `hash_mix` is the 64-bit xmx mixer.
 */
import { hashScratch } from '../bytes';
import { boostWasm } from './boostWasm';
import { add64, HI, LO, mul64, reg } from './uint64';

/** hash_mix's multiplier 0x0e9846af_9b1a615d */
const MH = 0x0e9846af;
const ML = 0x9b1a615d;

/** seed = hash_mix(seed + 0x9e3779b9 + w), seed in and out of HI/LO. */
function combine(w: number): void {
  add64(reg[HI], reg[LO], 0, 0x9e3779b9);
  add64(reg[HI], reg[LO], 0, w >>> 0);
  // x ^= x >> 32; x *= m; x ^= x >> 32; x *= m; x ^= x >> 28
  mul64(reg[HI], (reg[LO] ^ reg[HI]) >>> 0, MH, ML);
  mul64(reg[HI], (reg[LO] ^ reg[HI]) >>> 0, MH, ML);
  const h = reg[HI];
  const l = reg[LO];
  reg[LO] = l ^ ((l >>> 28) | (h << 4));
  reg[HI] = h ^ (h >>> 28);
}

/** The 64-bit hash's low 32 bits (unsigned), in JavaScript (where WebAssembly is not available). */
export function boostHash181LowJs(bytes: Uint8Array, length: number = bytes.length): number {
  reg[HI] = 0;
  reg[LO] = 0;
  let i = 0;
  for (; length - i >= 4; i += 4) combine(bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  const rest = length - i;
  let w = 0x01 << (8 * rest);
  if (rest > 2) w |= bytes[i + 2] << 16;
  if (rest > 1) w |= bytes[i + 1] << 8;
  if (rest > 0) w |= bytes[i];
  combine(w);
  return reg[LO];
}

/** The 64-bit hash's low 32 bits (unsigned): in WebAssembly where it runs, else in JavaScript. */
export function boostHash181Low(bytes: Uint8Array, length: number = bytes.length): number {
  const wasm = boostWasm();
  if (wasm === null) return boostHash181LowJs(bytes, length);
  wasm.load(bytes, length);
  return wasm.boost181(length) >>> 0;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash181(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash181Low(bytes, length) & 0x7fffffff;
}

/**
 * `boostHash181` of a string key's UTF-8 bytes (the C++ client's `std::string`): encoded straight
 * into the WebAssembly module's memory and hashed there, or where it does not run, into the reused
 * buffer and hashed in JavaScript.
 */
export function boostHash181OfString(s: string): number {
  const wasm = boostWasm();
  if (wasm === null) return boostHash181OfStringJs(s);
  return wasm.boost181(wasm.encode(s)) & 0x7fffffff;
}

/** `boostHash181OfString` in JavaScript, from the reused buffer. */
export function boostHash181OfStringJs(s: string): number {
  // Encode first: a long key replaces the buffer that `bytes` returns.
  const length = hashScratch.encode(s);
  return boostHash181LowJs(hashScratch.bytes, length) & 0x7fffffff;
}
