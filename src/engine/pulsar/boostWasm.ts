/**
 * BoostHash 1.81 and 1.82 (see boostHash181.ts / boostHash182.ts) in WebAssembly, whose i64
 * arithmetic does in one instruction what the JavaScript paths do with 16-bit partial products on
 * uint32 halves (1.82's 128-bit `mulx` takes four 32x32 products there, each four 16x16 ones).
 *
 * The module is assembled here, byte by byte, from the small instruction list below (no toolchain,
 * no third-party wasm): one page of memory that the key's bytes are written to at offset 0, and
 * `boost181(len)` / `boost182(len)` returning the 64-bit hash's low 32 bits as an i32. Where
 * WebAssembly is missing or refused (a webview whose content security policy forbids compiling
 * it), `boostWasm()` returns null and the callers keep their JavaScript paths; the unit tests check
 * the two paths equal on random bytes and strings.
 */
import { SHORT_STRING, Utf8Scratch } from '../bytes';

// Value types and opcodes (WebAssembly core spec, binary format).
const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, call: 0x10,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i64Load: 0x29, i64Load32U: 0x35,
  i32Const: 0x41, i64Const: 0x42,
  i32LtU: 0x49, i32Add: 0x6a, i32Sub: 0x6b, i32Shl: 0x74,
  i64Add: 0x7c, i64Sub: 0x7d, i64Mul: 0x7e, i64And: 0x83, i64Or: 0x84, i64Xor: 0x85, i64Shl: 0x86, i64ShrU: 0x88,
  i32WrapI64: 0xa7, i64ExtendI32U: 0xad,
} as const;
const VOID_BLOCK = 0x40;

/** Unsigned LEB128 (sizes, counts, indexes). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 64-bit constant (as i64.const and i32.const want it). */
function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

/** A u64 constant as i64.const writes it (two's complement). */
const i64 = (v: bigint): number[] => [op.i64Const, ...sleb(BigInt.asIntN(64, v))];
const i32 = (v: number): number[] => [op.i32Const, ...sleb(BigInt(v | 0))];
const get = (l: number): number[] => [op.localGet, ...uleb(l)];
const set = (l: number): number[] => [op.localSet, ...uleb(l)];
/** Loads at the address on the stack, offset 0, alignment 1 (keys start anywhere a word may not). */
const load64 = [op.i64Load, 0, 0];
const load32u = [op.i64Load32U, 0, 0];

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}
function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}
function name(s: string): number[] {
  return vec([...s].map((c) => [c.charCodeAt(0)]));
}
/** A function body: its extra locals (one type each) and instructions. */
function body(locals: number[], code: number[][]): number[] {
  const b = [...vec(locals.map((t) => [1, t])), ...code.flat(), op.end];
  return [...uleb(b.length), ...b];
}

const M64 = (1n << 64n) - 1n;
/** mulx(a, b) in BigInt, for the module's constants. */
function mulx(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p & M64) ^ (p >> 64n);
}

/** Boost 1.81 `hash_mix`'s multiplier. */
const MIX_M = 0x0e9846af9b1a615dn;
/** Boost 1.82: q, k = q * q, and w's start value mulx(seed + q, k) with seed 0. */
const Q = 0x9e3779b97f4a7c15n;
const K = (Q * Q) & M64;
const W0 = mulx(Q, K);

// Function indexes (in the order of the function section).
const F_MIX = 0;
const F_MULX = 1;

/**
 * 0 hashMix(x: i64) -> i64 (Boost 1.81): x ^= x >> 32; x *= m; x ^= x >> 32; x *= m; x ^= x >> 28.
 */
const hashMix = body([], [
  get(0), get(0), i64(32n), [op.i64ShrU], [op.i64Xor], i64(MIX_M), [op.i64Mul], set(0),
  get(0), get(0), i64(32n), [op.i64ShrU], [op.i64Xor], i64(MIX_M), [op.i64Mul], set(0),
  get(0), get(0), i64(28n), [op.i64ShrU], [op.i64Xor],
]);

/**
 * 1 mulx(a: i64, b: i64) -> i64: the 128-bit product's low and high halves xor-ed. The high half
 * from the four 32x32 -> 64 products (locals 2-5: a0, a1, b0, b1; 6: a0*b1; 7: a1*b0; 8: the
 * middle column with its carries).
 */
const M32 = i64(0xffffffffn);
const mulxFn = body([I64, I64, I64, I64, I64, I64, I64], [
  get(0), M32, [op.i64And], set(2),
  get(0), i64(32n), [op.i64ShrU], set(3),
  get(1), M32, [op.i64And], set(4),
  get(1), i64(32n), [op.i64ShrU], set(5),
  get(2), get(5), [op.i64Mul], set(6),
  get(3), get(4), [op.i64Mul], set(7),
  // mid = (a0*b0 >> 32) + lo32(a0*b1) + lo32(a1*b0): below 3 * 2^32, no overflow
  get(2), get(4), [op.i64Mul], i64(32n), [op.i64ShrU],
  get(6), M32, [op.i64And], [op.i64Add],
  get(7), M32, [op.i64And], [op.i64Add], set(8),
  // lo ^ hi, hi = a1*b1 + (a0*b1 >> 32) + (a1*b0 >> 32) + (mid >> 32)
  get(0), get(1), [op.i64Mul],
  get(3), get(5), [op.i64Mul],
  get(6), i64(32n), [op.i64ShrU], [op.i64Add],
  get(7), i64(32n), [op.i64ShrU], [op.i64Add],
  get(8), i64(32n), [op.i64ShrU], [op.i64Add],
  [op.i64Xor],
]);

/** `(1 << 8 * n) - 1` for the i32 byte count in local `l` (n < 8): the mask of n little-endian bytes. */
const byteMask = (l: number): number[][] => [i64(1n), get(l), i32(3), [op.i32Shl], [op.i64ExtendI32U], [op.i64Shl], i64(1n), [op.i64Sub]];

/**
 * 2 boost181(len: i32) -> i32 over memory[0, len). Locals: 1 p (i32), 2 seed (i64), 3 mask (i64).
 * Each 4-byte word: seed = hashMix(seed + 0x9e3779b9 + w). The last 0-3 bytes are read as a word
 * and masked (the memory past the key holds older bytes), with a 0x01 marker byte above them.
 */
const boost181 = body([I32, I64, I64], [
  [op.block, VOID_BLOCK, op.loop, VOID_BLOCK],
  get(0), get(1), [op.i32Sub], i32(4), [op.i32LtU], [op.brIf, 1],
  get(2), i64(0x9e3779b9n), [op.i64Add], get(1), load32u, [op.i64Add], [op.call, F_MIX], set(2),
  get(1), i32(4), [op.i32Add], set(1),
  [op.br, 0, op.end, op.end],
  // local 0 becomes the bytes left (0..3), local 3 their mask
  get(0), get(1), [op.i32Sub], set(0),
  ...byteMask(0), set(3),
  get(2), i64(0x9e3779b9n), [op.i64Add],
  get(1), load32u, get(3), [op.i64And],
  get(3), i64(1n), [op.i64Add], [op.i64Or],
  [op.i64Add], [op.call, F_MIX],
  [op.i32WrapI64],
]);

/**
 * 3 boost182(len: i32) -> i32 over memory[0, len). Locals: 1 p (i32), 2 n (i32, bytes left),
 * 3 w (i64), 4 h (i64). Boost reads the last 1..7 bytes as two overlapping 32-bit words (4..7) or
 * three single bytes (1..3); either way the value is those bytes little-endian, which is what a
 * masked 8-byte load gives.
 */
const boost182 = body([I32, I32, I64, I64], [
  i64(W0), set(3),
  get(3), get(0), [op.i64ExtendI32U], [op.i64Xor], set(4),
  get(0), set(2),
  [op.block, VOID_BLOCK, op.loop, VOID_BLOCK],
  get(2), i32(8), [op.i32LtU], [op.brIf, 1],
  get(3), i64(Q), [op.i64Add], set(3),
  get(4), get(1), load64, get(3), [op.i64Add], i64(K), [op.call, F_MULX], [op.i64Xor], set(4),
  get(1), i32(8), [op.i32Add], set(1),
  get(2), i32(8), [op.i32Sub], set(2),
  [op.br, 0, op.end, op.end],
  get(3), i64(Q), [op.i64Add], set(3),
  get(4), get(1), load64, ...byteMask(2), [op.i64And], get(3), [op.i64Add], i64(K), [op.call, F_MULX], [op.i64Xor],
  get(3), [op.i64Add], i64(K), [op.call, F_MULX],
  [op.i32WrapI64],
]);

/** The module's bytes. */
export function boostModuleBytes(): Uint8Array<ArrayBuffer> {
  const types = vec([
    [0x60, 1, I64, 1, I64], // 0 (i64) -> i64
    [0x60, 2, I64, I64, 1, I64], // 1 (i64, i64) -> i64
    [0x60, 1, I32, 1, I32], // 2 (i32) -> i32
  ]);
  const funcs = vec([[0], [1], [2], [2]]);
  const memory = vec([[0x00, 1]]); // min 1 page, no max
  const exports = vec([
    [...name('memory'), 0x02, 0],
    [...name('boost181'), 0x00, 2],
    [...name('boost182'), 0x00, 3],
  ]);
  const code = [...uleb(4), ...hashMix, ...mulxFn, ...boost181, ...boost182];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, types),
    ...section(3, funcs),
    ...section(5, memory),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

/** Bytes a load may read past a key's end (an 8-byte load at its last byte); they are masked off. */
const SLACK = 8;

export interface BoostWasm {
  /** Writes a string key's UTF-8 bytes (Java's) at memory offset 0; returns their number. */
  encode(s: string): number;
  /** Copies `length` bytes into the module's memory, for the byte entry points. */
  load(bytes: Uint8Array, length: number): void;
  /** The hashes of the `length` bytes at memory offset 0, low 32 bits as a signed int. */
  boost181(length: number): number;
  boost182(length: number): number;
}

let instance: BoostWasm | null | undefined;

/** The compiled module, or null where WebAssembly is missing or refused. Compiled on first use. */
export function boostWasm(): BoostWasm | null {
  if (instance === undefined) instance = instantiate();
  return instance;
}

function instantiate(): BoostWasm | null {
  if (typeof WebAssembly !== 'object') return null;
  let exports: { memory: WebAssembly.Memory; boost181: (n: number) => number; boost182: (n: number) => number };
  try {
    exports = new WebAssembly.Instance(new WebAssembly.Module(boostModuleBytes())).exports as typeof exports;
  } catch {
    return null;
  }
  const { memory } = exports;
  let view = new Uint8Array(memory.buffer, 0, memory.buffer.byteLength - SLACK);
  // The first page, which a short key always fits in (growing keeps it in place but makes a new buffer).
  let words = new DataView(memory.buffer, 0, 65536);
  /** A view of at least `bytes` bytes with SLACK more behind it in memory (growing rebinds the buffer). */
  const room = (bytes: number): Uint8Array => {
    if (bytes > view.length) {
      memory.grow(Math.ceil((bytes + SLACK - memory.buffer.byteLength) / 65536));
      view = new Uint8Array(memory.buffer, 0, memory.buffer.byteLength - SLACK);
      words = new DataView(memory.buffer, 0, 65536);
    }
    return view;
  };
  const scratch = new Utf8Scratch(room);
  return {
    encode(s) {
      const n = s.length;
      return n <= SHORT_STRING && writeAsciiWords(s, n, words) ? n : scratch.encode(s);
    },
    load(bytes, length) {
      room(length).set(length === bytes.length ? bytes : bytes.subarray(0, length));
    },
    boost181: exports.boost181,
    boost182: exports.boost182,
  };
}

/**
 * Writes a short key four units to a little-endian word at offset 0 of `w` and says whether it was
 * all ASCII (each unit then its byte; otherwise what was written must not be used). A quarter of
 * the stores of writing it byte by byte, which cost more than the hash itself on short keys (11-unit
 * keys: 27 -> 21 ns a key encoded and hashed). The last word may write up to 3 bytes past the key,
 * which the hashes mask off (SLACK).
 */
function writeAsciiWords(s: string, n: number, w: DataView): boolean {
  let or = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    or |= c0 | c1 | c2 | c3;
    w.setInt32(i, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24), true);
  }
  const rest = n - i;
  if (rest > 0) {
    const c0 = s.charCodeAt(i);
    const c1 = rest > 1 ? s.charCodeAt(i + 1) : 0;
    const c2 = rest > 2 ? s.charCodeAt(i + 2) : 0;
    or |= c0 | c1 | c2;
    w.setInt32(i, c0 | (c1 << 8) | (c2 << 16), true);
  }
  return or <= 0x7f;
}
