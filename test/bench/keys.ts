/**
 * The benchmark's key sets, generated deterministically from a seeded PRNG so that every run (and
 * the unit test that checks the engine's murmur3 against murmurhash3js-revisited on every one of
 * these keys) sees the same keys. Shared by `test/bench/run.mjs` and `test/unit/*.test.ts`.
 *
 * Every key is a well-formed string (no unpaired surrogate): the peers encode with Node's
 * `Buffer.from` / `TextEncoder`, which write U+FFFD where Java writes '?', so a lone surrogate
 * would measure an encoding difference rather than speed.
 */

export type KeySetName = 'short' | 'uuid' | 'bytes200' | 'nonAscii10';

export interface KeySet {
  name: KeySetName;
  description: string;
  keys: string[];
}

export const KEY_SET_NAMES: readonly KeySetName[] = ['short', 'uuid', 'bytes200', 'nonAscii10'];

export const DEFAULT_KEY_COUNT = 1_000_000;

/** mulberry32: small, seeded, deterministic, good enough to make test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The keys as a client library is handed them (decoded from a file, a socket or JSON): flat
 * strings, one-byte where the key is Latin-1. Keys built by concatenation would be V8 "cons" strings
 * that the first contender to read them flattens for all the others, and keys cut from one big
 * string would be "sliced" strings (of a two-byte parent, for the non-ASCII set): neither is what a
 * client library gets, and both would skew the comparison. JSON.parse makes flat strings natively
 * and fast.
 */
function asRead(keys: string[]): string[] {
  return JSON.parse(JSON.stringify(keys)) as string[];
}

/** `user-123456`: the short keys most topics are keyed by (11 bytes). */
function shortKeys(r: () => number, n: number): string[] {
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = 'user-' + String(Math.floor(r() * 1_000_000)).padStart(6, '0');
  return asRead(out);
}

/** Version-4-shaped UUIDs, 36 characters. */
function uuidKeys(r: () => number, n: number): string[] {
  return asciiKeys(n, 36, (bytes, o) => {
    // Six hex digits per PRNG draw.
    let x = 0;
    let left = 0;
    for (let j = 0; j < 36; j++) {
      if (j === 8 || j === 13 || j === 18 || j === 23) {
        bytes[o++] = 45; // '-'
        continue;
      }
      if (left === 0) {
        x = Math.floor(r() * 16777216);
        left = 6;
      }
      const d = x & 15;
      x >>>= 4;
      left--;
      if (j === 14) bytes[o++] = 52; // version 4
      else if (j === 19) bytes[o++] = HEX.charCodeAt(8 + (d & 3)); // variant 10xx
      else bytes[o++] = HEX.charCodeAt(d);
    }
    return o;
  });
}

/** 200-byte ASCII keys (composite keys, paths, serialized ids). */
function bytes200Keys(r: () => number, n: number): string[] {
  return asciiKeys(n, 200, (bytes, o) => {
    // Four characters per PRNG draw keeps generation quick; the keys still differ everywhere.
    for (let j = 0; j < 200; j += 4) {
      const x = Math.floor(r() * 16777216);
      bytes[o++] = ALNUM.charCodeAt(x & 63);
      bytes[o++] = ALNUM.charCodeAt((x >>> 6) & 63);
      bytes[o++] = ALNUM.charCodeAt((x >>> 12) & 63);
      bytes[o++] = ALNUM.charCodeAt((x >>> 18) & 63);
    }
    return o;
  });
}

/**
 * Keys written as ASCII bytes by `write(bytes, offset, i)` (returning the next offset; no quote or
 * backslash), parsed as one JSON array so that each comes out a flat string.
 */
function asciiKeys(n: number, maxLen: number, write: (bytes: Uint8Array, o: number, i: number) => number): string[] {
  const bytes = new Uint8Array(n * (maxLen + 3) + 2);
  let o = 0;
  bytes[o++] = 0x5b; // [
  for (let i = 0; i < n; i++) {
    if (i > 0) bytes[o++] = 0x2c; // ,
    bytes[o++] = 0x22; // "
    o = write(bytes, o, i);
    bytes[o++] = 0x22;
  }
  bytes[o++] = 0x5d; // ]
  return JSON.parse(new TextDecoder().decode(bytes.subarray(0, o))) as string[];
}

/** Words that take 2-, 3- and 4-byte UTF-8 sequences (the last ones astral: surrogate pairs). */
const NON_ASCII = ['café', 'Müller', 'Ørsted', 'Ελλάδα', 'Москва', 'ユーザー', '用户', '사용자', 'שלום', 'مستخدم', '😀', '🚀x', 'naïve', '𝔘𝔫𝔦'];

/** 10% of the keys carry non-ASCII characters; the rest are short and UUID-like ASCII keys. */
function nonAscii10Keys(r: () => number, n: number): string[] {
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const id = String(Math.floor(r() * 100_000_000));
    if (r() < 0.1) {
      const w = NON_ASCII[Math.floor(r() * NON_ASCII.length)];
      out[i] = r() < 0.5 ? `${w}-${id}` : `customer:${id}/${w}`;
    } else {
      out[i] = r() < 0.5 ? `customer:${id}` : `order-${id}-${String(Math.floor(r() * 1000)).padStart(3, '0')}`;
    }
  }
  return asRead(out);
}

const GENERATORS: Record<KeySetName, { seed: number; description: string; make: (r: () => number, n: number) => string[] }> = {
  short: { seed: 0x5eed0001, description: 'user-123456 (11 bytes)', make: shortKeys },
  uuid: { seed: 0x5eed0002, description: '36-char UUIDs', make: uuidKeys },
  bytes200: { seed: 0x5eed0003, description: '200-byte ASCII keys', make: bytes200Keys },
  nonAscii10: { seed: 0x5eed0004, description: '10% non-ASCII (2-4 byte UTF-8)', make: nonAscii10Keys },
};

export function keySet(name: KeySetName, count: number = DEFAULT_KEY_COUNT): KeySet {
  const g = GENERATORS[name];
  return { name, description: g.description, keys: g.make(prng(g.seed), count) };
}

export function allKeySets(count: number = DEFAULT_KEY_COUNT): KeySet[] {
  return KEY_SET_NAMES.map((n) => keySet(n, count));
}
