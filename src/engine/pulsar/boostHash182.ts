/**
 * Pulsar C++ client `BoostHash` built with Boost 1.82 or later (1.90, what the client's vcpkg.json
 * asks for, computes the same): `boost::hash<std::string>(key) & INT32_MAX` on a 64-bit `size_t`.
 * From 1.82 `hash_range` over `char` is the "mulxp1" hash: 8-byte little-endian words folded with
 * `mulx` (the 128-bit product's two halves xor-ed), the last 1..8 bytes read as one word, and a
 * final `mulx`.
 */
import { hashScratch } from '../bytes';
import { boostWasm } from './boostWasm';
import { add64, HI, HI2, LO, LO2, mul128, reg } from './uint64';

/** q = 0x9e3779b9_7f4a7c15 */
const QH = 0x9e3779b9;
const QL = 0x7f4a7c15;
/** k = q * q = 0xdf442d22_ce4859b9 */
const KH = 0xdf442d22;
const KL = 0xce4859b9;

/** mulx(x, k): the 128-bit product's low and high 64 bits xor-ed, into HI/LO. */
function mulxK(xh: number, xl: number): void {
  mul128(xh, xl, KH, KL);
  reg[HI] = reg[HI] ^ reg[HI2];
  reg[LO] = reg[LO] ^ reg[LO2];
}

function read32le(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
}

// w starts as mulx(seed + q, k) with seed 0.
mulxK(QH, QL);
const W0H = reg[HI];
const W0L = reg[LO];

/** The 64-bit hash's low 32 bits (unsigned), in JavaScript (where WebAssembly is not available). */
export function boostHash182LowJs(bytes: Uint8Array, length: number = bytes.length): number {
  let wh = W0H;
  let wl = W0L;
  // h = w ^ n
  let hh = wh;
  let hl = (wl ^ length) >>> 0;
  let i = 0;
  let n = length;
  for (; n >= 8; i += 8, n -= 8) {
    add64(wh, wl, QH, QL);
    wh = reg[HI];
    wl = reg[LO];
    add64(read32le(bytes, i + 4), read32le(bytes, i), wh, wl);
    mulxK(reg[HI], reg[LO]);
    hh = (hh ^ reg[HI]) >>> 0;
    hl = (hl ^ reg[LO]) >>> 0;
  }
  let vh = 0;
  let vl = 0;
  if (n >= 4) {
    // read32le(p + n - 4) << (n - 4) * 8 | read32le(p): the two words overlap when n < 8.
    const s = (n - 4) * 8;
    const top = read32le(bytes, i + n - 4);
    vh = s === 0 ? 0 : top >>> (32 - s);
    vl = ((top << s) | read32le(bytes, i)) >>> 0;
  } else if (n >= 1) {
    const x1 = (n - 1) & 2;
    const x2 = n >> 1;
    vl = ((bytes[i + x1] << (x1 * 8)) | (bytes[i + x2] << (x2 * 8)) | bytes[i]) >>> 0;
  }
  add64(wh, wl, QH, QL);
  wh = reg[HI];
  wl = reg[LO];
  add64(vh, vl, wh, wl);
  mulxK(reg[HI], reg[LO]);
  hh = (hh ^ reg[HI]) >>> 0;
  hl = (hl ^ reg[LO]) >>> 0;
  add64(hh, hl, wh, wl);
  mulxK(reg[HI], reg[LO]);
  return reg[LO];
}

/** The 64-bit hash's low 32 bits (unsigned): in WebAssembly where it runs, else in JavaScript. */
export function boostHash182Low(bytes: Uint8Array, length: number = bytes.length): number {
  const wasm = boostWasm();
  if (wasm === null) return boostHash182LowJs(bytes, length);
  wasm.load(bytes, length);
  return wasm.boost182(length) >>> 0;
}

/** `BoostHash::makeHash`: the hash masked to 31 bits. */
export function boostHash182(bytes: Uint8Array, length: number = bytes.length): number {
  return boostHash182Low(bytes, length) & 0x7fffffff;
}

/**
 * `boostHash182` of a string key's UTF-8 bytes (the C++ client's `std::string`): encoded straight
 * into the WebAssembly module's memory and hashed there, or where it does not run, into the reused
 * buffer and hashed in JavaScript.
 */
export function boostHash182OfString(s: string): number {
  const wasm = boostWasm();
  if (wasm === null) return boostHash182OfStringJs(s);
  return wasm.boost182(wasm.encode(s)) & 0x7fffffff;
}

/** `boostHash182OfString` in JavaScript, from the reused buffer. */
export function boostHash182OfStringJs(s: string): number {
  // Encode first: a long key replaces the buffer that `bytes` returns.
  const length = hashScratch.encode(s);
  return boostHash182LowJs(hashScratch.bytes, length) & 0x7fffffff;
}
