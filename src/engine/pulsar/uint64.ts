/**
 * Unsigned 64-bit arithmetic on pairs of uint32 halves, for the C++ hashes that run on a 64-bit
 * `size_t` (Boost's `hash<std::string>`). No BigInt and no objects: each operation leaves its
 * result in the registers `reg[HI]` / `reg[LO]` (and `reg[HI2]` / `reg[LO2]` for the upper half of
 * a 128-bit product), which the caller reads at once. The registers are a typed array because a
 * uint32 above 2^30 stored in a plain variable is a heap number, allocated on every store. Every
 * intermediate is an integer below 2^53, so the doubles are exact.
 */

export const reg = new Uint32Array(4);
export const HI = 0;
export const LO = 1;
/** `mul128` only: bits 64..127 of the product. */
export const HI2 = 2;
export const LO2 = 3;

const TWO32 = 0x100000000;

/** The full 64-bit product of two uint32 values, into HI/LO. */
export function mul32(a: number, b: number): void {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  // The high word from 16-bit partial products, carries included (each sum < 2^33; `/ 2^16 | 0`
  // floors a positive value below 2^31).
  const m1 = a1 * b0 + ((a0 * b0) >>> 16);
  const m2 = a0 * b1 + (m1 & 0xffff);
  reg[LO] = Math.imul(a, b);
  reg[HI] = a1 * b1 + ((m1 / 0x10000) | 0) + ((m2 / 0x10000) | 0);
}

/** (ah:al) * (bh:bl) mod 2^64, into HI/LO. */
export function mul64(ah: number, al: number, bh: number, bl: number): void {
  mul32(al, bl);
  // The cross terms only reach the high word, modulo 2^32 (the store truncates).
  reg[HI] = reg[HI] + Math.imul(ah, bl) + Math.imul(al, bh);
}

/** (ah:al) + (bh:bl) mod 2^64, into HI/LO. */
export function add64(ah: number, al: number, bh: number, bl: number): void {
  const s = (al >>> 0) + (bl >>> 0);
  reg[LO] = s;
  reg[HI] = ah + bh + (s >= TWO32 ? 1 : 0);
}

/** The full 128-bit product (ah:al) * (bh:bl): bits 0..63 into HI/LO, bits 64..127 into HI2/LO2. */
export function mul128(ah: number, al: number, bh: number, bl: number): void {
  mul32(al, bl);
  const ll0 = reg[LO];
  const ll1 = reg[HI];
  mul32(al, bh);
  const lh0 = reg[LO];
  const lh1 = reg[HI];
  mul32(ah, bl);
  const hl0 = reg[LO];
  const hl1 = reg[HI];
  mul32(ah, bh);
  const hh0 = reg[LO];
  const hh1 = reg[HI];
  // Word 1 = ll1 + lh0 + hl0 (each < 2^32: the sum < 2^34 is exact); its carry goes to word 2.
  const w1 = ll1 + lh0 + hl0;
  const w2 = hh0 + lh1 + hl1 + Math.floor(w1 / TWO32);
  reg[LO] = ll0;
  reg[HI] = w1;
  reg[LO2] = w2;
  reg[HI2] = hh1 + Math.floor(w2 / TWO32);
}
