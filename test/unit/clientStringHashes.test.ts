import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fnv1a, fnv1aOfString } from '../../src/engine/kafka/fnv1a';
import { PARTITIONER_NAMES, PARTITIONERS, partitionOfString, place } from '../../src/engine/kafka/partitioners';
import { kafkajsLegacyMurmur2, kafkajsLegacyMurmur2OfString } from '../../src/engine/kafka/partitioners/kafkajsLegacy';
import { boostHash180, boostHash180OfString } from '../../src/engine/pulsar/boostHash180';
import { boostHash181, boostHash181OfString } from '../../src/engine/pulsar/boostHash181';
import { boostHash182, boostHash182OfString } from '../../src/engine/pulsar/boostHash182';
import { javaStringHashCpp, javaStringHashCppOfString } from '../../src/engine/pulsar/javaStringHashCpp';
import { HASHING_SCHEMES, producerPlacement, pulsarPartition } from '../../src/engine/pulsar/producerRouting';
import { LONG_STRING } from '../../src/engine/bytes';
import { edgeString, javaUtf8Reference, randInt, randomBytes, rng } from './helpers';

// The client hashes' string entry points (FNV-1a, kafkajs 1.x murmur2, the Pulsar C++ client's
// JavaStringHash and Boost hashes) read ASCII keys from their code units and go on from a non-ASCII
// unit with its bytes, or encode into a reused buffer; each must equal the hash of the bytes Java's
// getBytes(UTF_8) writes (kafkajs: of Buffer.from(key), U+FFFD for an unpaired surrogate). They, and the
// byte functions under them, are checked against slow references written apart from the engine:
// BigInt arithmetic straight from the algorithms' definitions, and kafkajs's own murmur2.

const requireNode = createRequire(__filename);
const kafkajsLib = requireNode('kafkajs/src/producer/partitioners/legacy/murmur2') as (k: Buffer) => number;

const M32 = (1n << 32n) - 1n;
const M64 = (1n << 64n) - 1n;
const i32 = (x: bigint): number => Number(BigInt.asIntN(32, x));
const masked = (x: bigint): number => Number(x & 0x7fffffffn);
const signedByte = (b: number): bigint => BigInt((b << 24) >> 24);

function fnv1aReference(b: Uint8Array): number {
  let h = 0x811c9dc5n;
  for (const x of b) h = ((h ^ BigInt(x)) * 0x01000193n) & M32;
  return i32(h);
}

/** `31 * h + (char) b` in uint32 over signed bytes, masked. */
function javaStringHashCppReference(b: Uint8Array): number {
  let h = 0n;
  for (const x of b) h = (31n * h + signedByte(x)) & M32;
  return masked(h);
}

/** Boost up to 1.80: hash_combine_impl<64> per signed char. */
function boost180Reference(b: Uint8Array): number {
  const m = 0xc6a4a7935bd1e995n;
  let h = 0n;
  for (const x of b) {
    let k = signedByte(x) & M64;
    k = (k * m) & M64;
    k ^= k >> 47n;
    k = (k * m) & M64;
    h = (((h ^ k) * m) & M64) + 0xe6546b64n;
    h &= M64;
  }
  return masked(h);
}

function hashMixReference(x: bigint): bigint {
  const m = 0xe9846af9b1a615dn;
  x ^= x >> 32n;
  x = (x * m) & M64;
  x ^= x >> 32n;
  x = (x * m) & M64;
  return x ^ (x >> 28n);
}

/** Boost 1.81: 32-bit little-endian words through hash_mix, the rest under a 0x01 marker byte. */
function boost181Reference(b: Uint8Array): number {
  let seed = 0n;
  let i = 0;
  for (; b.length - i >= 4; i += 4) {
    const w = BigInt(b[i]) | (BigInt(b[i + 1]) << 8n) | (BigInt(b[i + 2]) << 16n) | (BigInt(b[i + 3]) << 24n);
    seed = hashMixReference((seed + 0x9e3779b9n + w) & M64);
  }
  let w = 1n << BigInt(8 * (b.length - i));
  for (let j = i; j < b.length; j++) w |= BigInt(b[j]) << BigInt(8 * (j - i));
  return masked(hashMixReference((seed + 0x9e3779b9n + w) & M64));
}

function le(b: Uint8Array, at: number, n: number): bigint {
  let v = 0n;
  for (let j = 0; j < n; j++) v |= BigInt(b[at + j]) << BigInt(8 * j);
  return v;
}

function mulxReference(x: bigint, y: bigint): bigint {
  const r = x * y;
  return (r & M64) ^ (r >> 64n);
}

/** Boost 1.82+: mulxp1_hash. */
function boost182Reference(p: Uint8Array): number {
  const q = 0x9e3779b97f4a7c15n;
  const k = (q * q) & M64;
  let w = mulxReference(q, k);
  let h = w ^ BigInt(p.length);
  let i = 0;
  let n = p.length;
  for (; n >= 8; i += 8, n -= 8) {
    w = (w + q) & M64;
    h ^= mulxReference((le(p, i, 8) + w) & M64, k);
  }
  let v = 0n;
  if (n >= 4) v = (le(p, i + n - 4, 4) << BigInt((n - 4) * 8)) | le(p, i, 4);
  else if (n >= 1) {
    const x1 = (n - 1) & 2;
    const x2 = n >> 1;
    v = (BigInt(p[i + x1]) << BigInt(x1 * 8)) | (BigInt(p[i + x2]) << BigInt(x2 * 8)) | BigInt(p[i]);
  }
  w = (w + q) & M64;
  h ^= mulxReference((v + w) & M64, k);
  return masked(mulxReference((h + w) & M64, k));
}

/** Each hash: string path, byte path, slow reference. */
const HASHES = [
  { name: 'fnv1a', ofString: fnv1aOfString, ofBytes: fnv1a, reference: fnv1aReference },
  { name: 'kafkajs-legacy murmur2', ofString: kafkajsLegacyMurmur2OfString, ofBytes: kafkajsLegacyMurmur2, reference: (b: Uint8Array) => kafkajsLib(Buffer.from(b)) },
  { name: 'JavaStringHash-cpp', ofString: javaStringHashCppOfString, ofBytes: javaStringHashCpp, reference: javaStringHashCppReference },
  { name: 'BoostHash-1.80', ofString: boostHash180OfString, ofBytes: boostHash180, reference: boost180Reference },
  { name: 'BoostHash-1.81', ofString: boostHash181OfString, ofBytes: boostHash181, reference: boost181Reference },
  { name: 'BoostHash-1.82', ofString: boostHash182OfString, ofBytes: boostHash182, reference: boost182Reference },
];

function checkString(s: string): void {
  const b = javaUtf8Reference(s);
  // kafkajs hashes Buffer.from(key): an unpaired surrogate is EF BF BD there, '?' in Java.
  for (const h of HASHES) assert.equal(h.ofString(s), h.name.startsWith('kafkajs') ? kafkajsLib(Buffer.from(s)) : h.reference(b), `${h.name} of ${JSON.stringify(s)}`);
  for (const name of PARTITIONER_NAMES) {
    const p = PARTITIONERS[name];
    const own = name === 'kafkajs-legacy' ? Buffer.from(s) : b;
    for (const n of [1, 7, 0x7fffffff]) {
      const want = place(p, own, own.length, n).partition;
      assert.equal(partitionOfString(p, s, n), want === null ? -1 : want, `${name} partition of ${JSON.stringify(s)} on ${n}`);
      // A partitioner partitionOfString has no case for (a copy) is asked through its methods.
      assert.equal(partitionOfString({ ...p }, s, n), want === null ? -1 : want, `a copy of ${name}: partition of ${JSON.stringify(s)} on ${n}`);
    }
  }
  for (const scheme of HASHING_SCHEMES) {
    for (const n of [1, 7, 0x7fffffff]) {
      assert.equal(pulsarPartition(scheme, s, n), producerPlacement(scheme, { bytes: b, text: s }, n).partition, `${scheme} partition of ${JSON.stringify(s)} on ${n}`);
    }
  }
}

describe('client string hashes against slow references on every kind of string', () => {
  test('known answers: the empty key and ASCII (where the C++ JavaStringHash equals Java\'s)', () => {
    assert.equal(fnv1aOfString(''), 0x811c9dc5 | 0);
    assert.equal(javaStringHashCppOfString(''), 0);
    assert.equal(javaStringHashCppOfString('hello'), 99162322);
    assert.equal(kafkajsLegacyMurmur2OfString(''), 275646684);
    for (const h of HASHES) assert.equal(h.ofString(''), h.reference(new Uint8Array(0)), h.name);
    // A byte >= 0x80 is a negative char in the C++ client: 'é' is C3 A9, so 31 * -61 + -87.
    assert.equal(javaStringHashCppOfString('é'), (31 * -61 - 87) & 0x7fffffff);
  });

  test('the byte functions equal the references on random bytes of every length 0..80 and some long ones', () => {
    const r = rng(21);
    for (let n = 0; n <= 80; n++) {
      for (let k = 0; k < 8; k++) {
        const b = randomBytes(r, n);
        for (const h of HASHES) assert.equal(h.ofBytes(b, b.length), h.reference(b), `${h.name} of ${Buffer.from(b).toString('hex')}`);
      }
    }
    for (let k = 0; k < 20; k++) {
      const b = randomBytes(r, randInt(r, 81, 700));
      for (const h of HASHES) assert.equal(h.ofBytes(b, b.length), h.reference(b), h.name);
    }
    // All 0xff and all 0x80 (sign-extended chars, carries through every word).
    for (const fill of [0x00, 0x7f, 0x80, 0xff]) {
      for (let n = 0; n <= 40; n++) {
        const b = new Uint8Array(n).fill(fill);
        for (const h of HASHES) assert.equal(h.ofBytes(b, b.length), h.reference(b), `${h.name} of ${n} x ${fill}`);
      }
    }
  });

  test('ASCII keys of every length 0..120, both sides of LONG_STRING', () => {
    const r = rng(22);
    for (let n = 0; n <= 120; n++) {
      checkString(edgeString(r, n, 1));
      checkString(String.fromCharCode(0x7f).repeat(n));
    }
  });

  test('one non-ASCII unit, pair or lone surrogate at every position of ASCII keys up to 48 units, and far into a long one', () => {
    const odd = ['\u0080', '\u00ff', '\u07ff', '\u0800', '\uffff', '\ud800', '\udfff', '\ud83d\ude00', '\udc00\ud800', '\u0000'];
    const r = rng(23);
    for (let n = 1; n <= 48; n += n < LONG_STRING - 4 ? 3 : 1) {
      const ascii = edgeString(r, n, 1);
      for (let at = 0; at < n; at++) for (const o of odd) checkString(ascii.slice(0, at) + o + ascii.slice(at + 1));
    }
    // FNV-1a, BoostHash 1.80 and kafkajs 1.x's murmur2 read an ASCII key of any length from its
    // units; at the first non-ASCII unit, however far in, the first two go on with its bytes and
    // kafkajs starts again from the encoded key.
    const long = edgeString(r, 300, 1);
    for (const at of [0, 41, 150, 299]) for (const o of odd) checkString(long.slice(0, at) + o + long.slice(at + 1));
  });

  test('random strings mixing every UTF-16 edge (lone surrogates, 4-byte UTF-8, U+0000, U+FFFF)', () => {
    const r = rng(24);
    for (let n = 0; n <= 120; n++) for (let k = 0; k < 4; k++) checkString(edgeString(r, n, k < 2 ? 0 : 0.8));
    checkString('é'.repeat(3000) + '\ud800');
    checkString('\ud83d\ude00'.repeat(500));
  });
});
