/**
 * Unsigned 64-bit arithmetic on pairs of uint32 halves, for the C++ hashes that run on a 64-bit
 * `size_t` (Boost's `hash<std::string>`). No BigInt and no objects: each operation leaves its
 * result in the module's registers `hi` / `lo` (and `hi2` / `lo2` for the upper half of a 128-bit
 * product), which the caller reads at once. Every intermediate is an integer below 2^53, so the
 * doubles are exact.
 */

/** The result of the last operation: high and low 32 bits, each in 0..2^32-1. */
export let hi = 0;
export let lo = 0;
/** `mul128` only: bits 64..127 of the product. */
export let hi2 = 0;
export let lo2 = 0;

const TWO32 = 0x100000000;

/** The full 64-bit product of two uint32 values, into `hi`/`lo`. */
export function mul32(a: number, b: number): void {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const mid = a0 * b1 + a1 * b0; // < 2^33
  const low = a0 * b0 + (mid % 0x10000) * 0x10000; // < 2^33
  lo = low >>> 0;
  hi = (a1 * b1 + Math.floor(mid / 0x10000) + Math.floor(low / TWO32)) >>> 0;
}

/** (ah:al) * (bh:bl) mod 2^64, into `hi`/`lo`. */
export function mul64(ah: number, al: number, bh: number, bl: number): void {
  mul32(al, bl);
  // The cross terms only reach the high word, modulo 2^32.
  hi = (hi + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah:al) + (bh:bl) mod 2^64, into `hi`/`lo`. */
export function add64(ah: number, al: number, bh: number, bl: number): void {
  const s = (al >>> 0) + (bl >>> 0);
  lo = s >>> 0;
  hi = (ah + bh + (s >= TWO32 ? 1 : 0)) >>> 0;
}

/**
 * The full 128-bit product (ah:al) * (bh:bl): bits 0..63 into `hi`/`lo`, bits 64..127 into
 * `hi2`/`lo2`.
 */
export function mul128(ah: number, al: number, bh: number, bl: number): void {
  mul32(al, bl);
  const ll0 = lo;
  const ll1 = hi;
  mul32(al, bh);
  const lh0 = lo;
  const lh1 = hi;
  mul32(ah, bl);
  const hl0 = lo;
  const hl1 = hi;
  mul32(ah, bh);
  const hh0 = lo;
  const hh1 = hi;
  // Word 1 = ll1 + lh0 + hl0 (each < 2^32: the sum < 2^34 is exact); its carry goes to word 2.
  const w1 = ll1 + lh0 + hl0;
  const w2 = hh0 + lh1 + hl1 + Math.floor(w1 / TWO32);
  const w3 = hh1 + Math.floor(w2 / TWO32);
  lo = ll0;
  hi = w1 >>> 0;
  lo2 = w2 >>> 0;
  hi2 = w3 >>> 0;
}
