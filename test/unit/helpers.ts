/** Shared test helpers: a seeded PRNG and independent reference implementations. */
import assert from 'node:assert/strict';
import type fc from 'fast-check';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { Segments } from '../../src/shared/view/segments';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import type { Consumer } from '../../src/engine/pulsar/keyShared/selector';

/**
 * fast-check's parameters for a property of `numRuns` runs: a new seed each run, or `FC_SEED=N`'s,
 * which replays a failure (the failure prints its seed).
 */
export function propertyRuns(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
  return { numRuns, ...(seed !== undefined ? { seed } : {}) };
}

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

/** Kafka's `UtilsTest.testMurmur2` literals: key (UTF-8) and `Utils.murmur2` of its bytes. */
export const KAFKA_MURMUR2_LITERALS: ReadonlyArray<[string, number]> = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
];

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

/**
 * The UTF-8 bytes Java's `String.getBytes(UTF_8)` writes, by the platform's TextEncoder after
 * replacing each unpaired surrogate with '?' as Java does (TextEncoder would write U+FFFD): a
 * reference written apart from the engine's encoders.
 */
export function javaUtf8Reference(s: string): Uint8Array {
  let mended = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const high = c >= 0xd800 && c <= 0xdbff;
    const low = c >= 0xdc00 && c <= 0xdfff;
    const next = i + 1 < s.length ? s.charCodeAt(i + 1) : -1;
    if (high && next >= 0xdc00 && next <= 0xdfff) {
      mended += s[i] + s[i + 1];
      i++;
    } else mended += high || low ? '?' : s[i];
  }
  return new TextEncoder().encode(mended);
}

/** Code units at the edges of UTF-8 and UTF-16: 1-, 2-, 3-byte boundaries, U+0000, U+FFFF, surrogates. */
const EDGE_UNITS = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x100, 0x7ff, 0x800, 0xfff, 0x1000, 0xd7ff, 0xe000, 0xfffe, 0xffff];
const HIGH = [0xd800, 0xdbff, 0xd83d];
const LOW = [0xdc00, 0xdfff, 0xde00];

/** One random code unit or pair: ASCII, an edge unit, a lone high or low surrogate, or a pair. */
function edgePiece(r: () => number): string {
  const p = r();
  if (p < 0.45) return String.fromCharCode(randInt(r, 0, 0x7f));
  if (p < 0.6) return String.fromCharCode(EDGE_UNITS[randInt(r, 0, EDGE_UNITS.length - 1)]);
  if (p < 0.7) return String.fromCharCode(randInt(r, 0x80, 0xffff));
  if (p < 0.78) return String.fromCharCode(HIGH[randInt(r, 0, HIGH.length - 1)]);
  if (p < 0.86) return String.fromCharCode(LOW[randInt(r, 0, LOW.length - 1)]);
  if (p < 0.93) return String.fromCharCode(HIGH[randInt(r, 0, HIGH.length - 1)], LOW[randInt(r, 0, LOW.length - 1)]);
  return String.fromCodePoint(randInt(r, 0x10000, 0x10ffff));
}

/**
 * A random string of `units` UTF-16 units (a pair may run one over) built from `edgePiece`s; with
 * `asciiShare` the share of plain ASCII pieces is raised, so that long ASCII runs with an odd unit
 * in them (the blocks' slow paths) come up too.
 */
export function edgeString(r: () => number, units: number, asciiShare = 0): string {
  let s = '';
  while (s.length < units) s += r() < asciiShare ? String.fromCharCode(randInt(r, 0x20, 0x7e)) : edgePiece(r);
  return s;
}

/**
 * A view model as plain data for comparing: typed arrays as arrays, functions left out, and a
 * segments model (whose starts a getter gives) as the fields of its interface.
 */
export function plainModel(x: unknown): unknown {
  return JSON.parse(
    JSON.stringify(x, (_k, v) => {
      if (ArrayBuffer.isView(v)) return Array.from(v as unknown as number[]);
      if (typeof v === 'function') return undefined;
      if (!(v instanceof Segments)) return v;
      const { space, keyValues, count, starts, ends, owner, owners } = v;
      return { space, keyValues, count, starts, ends, owner, owners };
    }),
  );
}

/**
 * The objects and strings a structured clone of `v` copies one at a time (typed arrays, whose
 * buffers go whole, not counted): what a state message costs the webview beside its bytes.
 */
export function clonedObjects(v: unknown): number {
  if (typeof v === 'string') return 1;
  if (!v || typeof v !== 'object' || ArrayBuffer.isView(v)) return 0;
  return Object.values(v).reduce((n: number, x) => n + clonedObjects(x), 1);
}

/**
 * Every point of a consistent-hashing ring, ascending, read through the columns the product uses
 * (`pointColumns`): on 3.x with all its consumers, on 4.x with the selected consumer and the queue
 * of colliding ones behind it.
 */
export function ringPoints(s: ConsistentHashing4Selector): Array<[number, Consumer, readonly Consumer[]]>;
export function ringPoints(s: ConsistentHashing3Selector): Array<[number, readonly Consumer[]]>;
export function ringPoints(s: ConsistentHashing3Selector | ConsistentHashing4Selector): Array<[number, readonly Consumer[]] | [number, Consumer, readonly Consumer[]]> {
  const cols = s.pointColumns();
  return Array.from(cols.points, (p, i) => {
    const holders = cols.holders(i);
    return s instanceof ConsistentHashing4Selector ? [p, holders[0], holders.slice(1)] : [p, holders];
  });
}
