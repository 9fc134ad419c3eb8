import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import murmurLib from 'murmurhash3js-revisited';
import { murmur2, murmur2OfString } from '../../src/engine/kafka/murmur2';
import { kafkaPartition } from '../../src/engine/kafka/partitioner';
import { murmur3, murmur3OfString } from '../../src/engine/pulsar/murmur3';
import { javaStringHash, javaStringHashCode } from '../../src/engine/pulsar/javaStringHash';
import { crc32, crc32OfString } from '../../src/engine/pulsar/crc32';
import { LONG_STRING, utf8 } from '../../src/engine/bytes';
import { KAFKA_MURMUR2_LITERALS, edgeString, javaHashCodeReference, javaUtf8Reference, murmur2Reference, randInt, rng } from './helpers';

// The string hashes read a key's UTF-16 code units (four ASCII units to a block) or encode it
// into a reused buffer (long keys, non-ASCII keys); every path must give the hash of the bytes
// Java's getBytes(UTF_8) writes. Each is checked here against references written apart from the
// engine: the platform TextEncoder (unpaired surrogates mended to '?' as Java does) followed by
// Kafka's murmur2 in BigInt arithmetic, murmurhash3js-revisited, zlib's CRC-32, and String.hashCode
// in BigInt arithmetic over the code units.

/** Every string hash against its reference on `s`; the message names the hash and the key. */
function checkAll(s: string): void {
  const bytes = javaUtf8Reference(s);
  const key = JSON.stringify(s);
  const m2 = murmur2Reference(bytes);
  assert.equal(murmur2OfString(s), m2, `murmur2 ${key}`);
  assert.equal(kafkaPartition(s, 1000), (m2 & 0x7fffffff) % 1000, `kafkaPartition ${key}`);
  assert.equal(murmur3OfString(s) >>> 0, murmurLib.x86.hash32(bytes), `murmur3 ${key}`);
  assert.equal(crc32OfString(s), zlibCrc32(bytes), `crc32 ${key}`);
  assert.equal(javaStringHashCode(s), javaHashCodeReference(s), `javaStringHashCode ${key}`);
  assert.equal(javaStringHash(s), javaHashCodeReference(s) & 0x7fffffff, `javaStringHash ${key}`);
}

describe('string hashes against references on every kind of string', () => {
  (murmurLib as unknown as { inputValidation: boolean }).inputValidation = false;

  test('known answers through the string paths', () => {
    for (const [s, h] of KAFKA_MURMUR2_LITERALS) assert.equal(murmur2OfString(s), h, s);
    // ALGORITHMS.md: user-1..user-6 on 6 partitions; Order-3459134's Murmur3_32 (raw and masked).
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((i) => kafkaPartition(`user-${i}`, 6)), [2, 2, 5, 1, 4, 5]);
    assert.equal(murmur3OfString('Order-3459134') >>> 0, 3112179635);
    assert.equal(murmur3OfString('Order-3459134') & 0x7fffffff, 964695987);
    // The empty key: murmur2 of nothing, CRC-32 0, hashCode 0, murmur3 0.
    assert.equal(murmur2OfString(''), 275646681);
    assert.equal(crc32OfString(''), 0);
    assert.equal(murmur3OfString(''), 0);
    assert.equal(javaStringHashCode(''), 0);
    // CRC-32's check value; String.hashCode of "hello".
    assert.equal(crc32OfString('123456789'), 0xcbf43926);
    assert.equal(javaStringHashCode('hello'), 99162322);
  });

  test('ASCII keys of every length 0..300 (each block and tail size, both sides of LONG_STRING)', () => {
    const r = rng(11);
    for (let n = 0; n <= 300; n++) {
      for (let k = 0; k < 3; k++) checkAll(edgeString(r, n, 1));
      checkAll(String.fromCharCode(0).repeat(n));
      checkAll(String.fromCharCode(0x7f).repeat(n));
    }
  });

  test('one non-ASCII unit, pair or lone surrogate at every position of ASCII keys up to 70 units', () => {
    const odd = ['\u0080', '\u00ff', '\u0100', '\u07ff', '\u0800', '\uffff', '\ud800', '\udfff', '\ud83d\ude00', '\udc00\ud800', '\u0000'];
    const r = rng(12);
    for (let n = 1; n <= 70; n++) {
      const ascii = edgeString(r, n, 1);
      for (let at = 0; at < n; at++) {
        for (const o of odd) checkAll(ascii.slice(0, at) + o + ascii.slice(at + 1));
      }
    }
  });

  test('random strings of every length 0..300 mixing every UTF-16 edge', () => {
    const r = rng(13);
    for (let n = 0; n <= 300; n++) {
      for (let k = 0; k < 12; k++) checkAll(edgeString(r, n, k < 6 ? 0 : 0.9));
    }
  });

  test('strings around the long-key threshold: ASCII, well-formed non-ASCII, lone surrogates', () => {
    const r = rng(14);
    for (let n = LONG_STRING - 9; n <= LONG_STRING + 9; n++) {
      for (let k = 0; k < 40; k++) {
        checkAll(edgeString(r, n, 1));
        checkAll(edgeString(r, n - 2, 1) + '\ud83d\ude00');
        checkAll(edgeString(r, n - 1, 1) + '\ud83d');
        checkAll('\ude00' + edgeString(r, n - 1, 1));
        checkAll(edgeString(r, n, 0.5));
      }
    }
  });

  test('a key far longer than the reused buffer grows it, and the keys after it still hash right', () => {
    const r = rng(15);
    checkAll('é'.repeat(5000) + '\ud800');
    checkAll('x'.repeat(100_000));
    checkAll(edgeString(r, 20_000));
    for (let k = 0; k < 100; k++) checkAll(edgeString(r, randInt(r, 0, 120), 0.7));
  });

  test('the byte paths agree with the references too (the analyser hashes bytes)', () => {
    const r = rng(16);
    for (let k = 0; k < 3000; k++) {
      const b = javaUtf8Reference(edgeString(r, randInt(r, 0, 300), 0.5));
      assert.equal(murmur2(b), murmur2Reference(b));
      assert.equal(murmur3(b), murmurLib.x86.hash32(b));
      assert.equal(crc32(b), zlibCrc32(b));
      assert.deepEqual(utf8(new TextDecoder().decode(b)), b);
    }
  });
});
