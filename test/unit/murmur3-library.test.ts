import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import murmurLib from 'murmurhash3js-revisited';
import { KEY_SET_NAMES, keySet } from '../bench/keys';
import { Utf8Scratch, javaWellFormed, utf8 } from '../../src/engine/bytes';
import { murmur2, murmur2OfString } from '../../src/engine/kafka/murmur2';
import { murmur3, murmur3OfString } from '../../src/engine/pulsar/murmur3';
import { randInt, randomString, rng } from './helpers';

// The engine computes MurmurHash3 x86_32 with its own Math.imul loop instead of calling the
// product's reference library, murmurhash3js-revisited, because the library is several times slower
// in bulk. This checks the two agree on the first 250,000 keys of every benchmark key set (the
// same generator the benchmark uses; all 1,000,000 took a tenth of the unit tests' time), through
// the built library bundle dist/engine.js that the benchmark times.

interface EngineBundle {
  murmur2(bytes: Uint8Array, length?: number): number;
  murmur3(bytes: Uint8Array, length?: number): number;
  kafkaPartition(key: string | Uint8Array, partitions: number): number;
  pulsarMurmur3Hash(key: string | Uint8Array): number;
}

// The bundle is loaded at run time (it is what `npm run bench` times), not bundled into this test.
const engine = require(resolve(__dirname, '../../engine.js')) as EngineBundle;

describe('the engine library bundle (dist/engine.js)', () => {
  test('exports murmur2, kafkaPartition, murmur3 and pulsarMurmur3Hash', () => {
    for (const name of ['murmur2', 'kafkaPartition', 'murmur3', 'pulsarMurmur3Hash'] as const) assert.equal(typeof engine[name], 'function', name);
    // Known answers: Kafka's murmur2 test literal; user-1 on 6 partitions; MurmurHash3 of "" and "hello".
    assert.equal(engine.murmur2(utf8('21')), -973932308);
    assert.equal(engine.kafkaPartition('user-1', 6), 2);
    assert.equal(engine.kafkaPartition(utf8('user-1'), 6), 2);
    assert.equal(engine.murmur3(new Uint8Array(0)), 0);
    assert.equal(engine.murmur3(utf8('hello')), 0x248bfa47);
    assert.equal(engine.pulsarMurmur3Hash('hello'), 0x248bfa47 & 0x7fffffff);
  });
});

describe('murmur3 against murmurhash3js-revisited on every benchmark key', () => {

  const encoder = new TextEncoder();
  // The library checks that every element is a byte before hashing; a Uint8Array always is, and
  // the check would double the time of this test.
  (murmurLib as unknown as { inputValidation: boolean }).inputValidation = false;
  for (const name of KEY_SET_NAMES) {
    test(`${name}: murmur3 (bytes and string paths) equals the library on every key`, () => {
      // One set at a time (the first 250,000 keys the benchmark generates), dropped after.
      const set = keySet(name, 250_000);
      assert.equal(set.keys.length, 250_000);
      const scratch = new Utf8Scratch();
      // The platform encoder (not the engine's) gives the reference bytes, into a reused buffer.
      const buf = new Uint8Array(1024);
      let nonAscii = 0;
      for (let i = 0; i < set.keys.length; i++) {
        const key = set.keys[i];
        const bytes = buf.subarray(0, encoder.encodeInto(key, buf).written);
        if (bytes.length !== key.length) nonAscii++;
        const want = murmurLib.x86.hash32(bytes);
        const got = engine.murmur3(bytes);
        if (got !== want) assert.fail(`${name} key #${i} ${JSON.stringify(key)}: engine ${got}, library ${want}`);
        // The string path encodes into a reused buffer: same bytes, same hash.
        const n = scratch.encode(key);
        if (engine.murmur3(scratch.bytes, n) !== want || engine.pulsarMurmur3Hash(key) !== (want & 0x7fffffff)) {
          assert.fail(`${name} key #${i} ${JSON.stringify(key)}: the string path differs`);
        }
        // Kafka's string path (hashed from the code units where ASCII) against its byte path.
        if (engine.kafkaPartition(key, 12) !== (engine.murmur2(bytes) & 0x7fffffff) % 12) {
          assert.fail(`${name} key #${i} ${JSON.stringify(key)}: kafkaPartition(string) differs from murmur2 of its bytes`);
        }
      }
      if (name === 'nonAscii10') assert.ok(nonAscii > 22_500 && nonAscii < 27_500, `${nonAscii} non-ASCII keys`);
      else assert.equal(nonAscii, 0);
    });
  }
});

/** Java's UTF-8 bytes of a string by the platform encoder (independent of the engine's own loop). */
const javaUtf8 = (s: string): Uint8Array => new TextEncoder().encode(javaWellFormed(s));

describe('hashing string keys straight from their code units', () => {
  test('murmur2OfString and murmur3OfString equal the byte hashes of utf8(s): ASCII, non-ASCII at any position, lone surrogates, long keys', () => {
    const r = rng(7);
    const strings: string[] = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', '\u00e9', 'abc\u00e9', 'abcd\u00e9', '\ud800', 'x'.repeat(1000) + '\u00e9'];
    for (let i = 0; i < 30000; i++) {
      const ascii = r() < 0.5;
      let s = ascii ? Array.from({ length: randInt(r, 0, 40) }, () => String.fromCharCode(randInt(r, 0, 127))).join('') : randomString(r, randInt(r, 0, 1) ? 20 : 300);
      if (r() < 0.2) s = s + String.fromCharCode(randInt(r, 0x80, 0xffff));
      strings.push(s);
    }
    for (const s of strings) {
      const b = javaUtf8(s);
      assert.equal(murmur2OfString(s), murmur2(b), JSON.stringify(s));
      assert.equal(murmur3OfString(s) >>> 0, murmur3(b), JSON.stringify(s));
    }
  });
});

describe('the reused-buffer UTF-8 encoder', () => {
  test('writes what Java writes for short and long strings, lone surrogates included', () => {
    const r = rng(2024);
    const scratch = new Utf8Scratch();
    for (let i = 0; i < 30000; i++) {
      const s = randomString(r, randInt(r, 0, 1) ? 30 : 80);
      const n = scratch.encode(s);
      const want = javaUtf8(s);
      assert.deepEqual(scratch.bytes.slice(0, n), want, JSON.stringify(s));
      assert.deepEqual(utf8(s), want, JSON.stringify(s));
    }
    // A key much longer than the buffer grows it.
    const long = 'é'.repeat(5000);
    const n = scratch.encode(long);
    assert.deepEqual(scratch.bytes.slice(0, n), javaUtf8(long));
    // utf8() returns a copy the next call does not overwrite.
    const a = utf8('first');
    utf8('second');
    assert.deepEqual(a, javaUtf8('first'));
  });
});
