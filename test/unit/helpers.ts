/** Shared test helpers: a seeded PRNG and independent reference implementations. */
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';

/** Settings from their raw JSON form, which must have no problem. */
export function settingsOf(raw: unknown): Settings {
  const { settings, problems } = parseSettings(raw);
  assert.deepEqual(problems, []);
  return settings;
}

/** mulberry32: small, seeded, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randInt(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

export function randomBytes(r: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

const M32 = (1n << 32n) - 1n;
const toSigned = (x: bigint): number => Number(BigInt.asIntN(32, x));

/**
 * Kafka's murmur2 written from its definition with BigInt arithmetic, independently of the
 * engine's Math.imul version, to cross-check it on arbitrary bytes.
 */
export function murmur2Reference(data: Uint8Array): number {
  const m = 0x5bd1e995n;
  const mul = (a: bigint, b: bigint): bigint => (a * b) & M32;
  let h = (0x9747b28cn ^ BigInt(data.length)) & M32;
  const n4 = Math.floor(data.length / 4);
  for (let i = 0; i < n4; i++) {
    const o = i * 4;
    let k = BigInt(data[o]) | (BigInt(data[o + 1]) << 8n) | (BigInt(data[o + 2]) << 16n) | (BigInt(data[o + 3]) << 24n);
    k = mul(k, m);
    k ^= k >> 24n;
    k = mul(k, m);
    h = mul(h, m);
    h ^= k;
  }
  const rest = data.length % 4;
  const base = n4 * 4;
  if (rest >= 3) h ^= BigInt(data[base + 2]) << 16n;
  if (rest >= 2) h ^= BigInt(data[base + 1]) << 8n;
  if (rest >= 1) {
    h ^= BigInt(data[base]);
    h = mul(h, m);
  }
  h ^= h >> 13n;
  h = mul(h, m);
  h ^= h >> 15n;
  return toSigned(h);
}

/** Java's String.hashCode with BigInt, over UTF-16 code units. */
export function javaHashCodeReference(s: string): number {
  let h = 0n;
  for (let i = 0; i < s.length; i++) h = (h * 31n + BigInt(s.charCodeAt(i))) & M32;
  return toSigned(h);
}

/** Random strings mixing ASCII, 2- and 3-byte UTF-8, astral characters and lone surrogates. */
export function randomString(r: () => number, maxLen: number): string {
  const len = randInt(r, 0, maxLen);
  let s = '';
  for (let i = 0; i < len; i++) {
    const p = r();
    if (p < 0.6) s += String.fromCharCode(randInt(r, 0x20, 0x7e));
    else if (p < 0.75) s += String.fromCharCode(randInt(r, 0x80, 0x7ff));
    else if (p < 0.9) s += String.fromCharCode(randInt(r, 0x800, 0xd7ff));
    else if (p < 0.98) s += String.fromCodePoint(randInt(r, 0x10000, 0x10ffff));
    else s += String.fromCharCode(randInt(r, 0xd800, 0xdfff));
  }
  return s;
}
