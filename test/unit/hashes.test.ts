import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import murmurLib from 'murmurhash3js-revisited';
import { murmur2, toPositive } from '../../src/engine/kafka/murmur2';
import { kafkaPartition, partitionForKey } from '../../src/engine/kafka/partitioner';
import { murmur3, murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { javaStringHash, javaStringHashCode } from '../../src/engine/pulsar/javaStringHash';
import { pulsarPartition, signSafeMod } from '../../src/engine/pulsar/producerRouting';
import { base64, parseHex, utf8, Utf8Scratch, decodeUtf8 } from '../../src/engine/bytes';
import { stickyKeyHash3, stickyKeyHash4, reduceIntoRange } from '../../src/engine/pulsar/keyShared/stickyKeyHash';
import { bytesKey, pulsarRoutingKey, stringKey } from '../../src/engine/key';
import { KAFKA_MURMUR2_LITERALS, javaHashCodeReference, murmur2Reference, randInt, randomBytes, randomString, rng } from './helpers';

describe('Kafka murmur2 and keyed partition', () => {
  test("Kafka's UtilsTest.testMurmur2 literals", () => {
    for (const [s, h] of KAFKA_MURMUR2_LITERALS) assert.equal(murmur2(utf8(s)), h, s);
  });

  test('the empty key hashes to 275646681 (seed then the final mix only)', () => {
    assert.equal(murmur2(new Uint8Array(0)), 275646681);
  });

  test('user-1..user-6 on 6 partitions go to 2, 2, 5, 1, 4, 5', () => {
    const got = [1, 2, 3, 4, 5, 6].map((i) => kafkaPartition(`user-${i}`, 6));
    assert.deepEqual(got, [2, 2, 5, 1, 4, 5]);
  });

  test('toPositive is a mask, not Math.abs', () => {
    assert.equal(toPositive(-2147483648), 0);
    assert.equal(toPositive(-1), 0x7fffffff);
    assert.equal(toPositive(5), 5);
  });

  test('murmur2 equals an independent BigInt implementation on random bytes of every length mod 4', () => {
    const r = rng(1);
    for (let i = 0; i < 2000; i++) {
      const b = randomBytes(r, randInt(r, 0, i < 1000 ? 16 : 1100));
      assert.equal(murmur2(b), murmur2Reference(b));
    }
  });

  test('string keys are UTF-8; the reused buffer gives the same partition as fresh bytes', () => {
    const r = rng(2);
    for (let i = 0; i < 3000; i++) {
      const s = randomString(r, i < 2900 ? 40 : 600);
      const n = randInt(r, 1, 1000);
      assert.equal(kafkaPartition(s, n), partitionForKey(utf8(s), n));
      assert.equal(partitionForKey(utf8(s), n), (murmur2Reference(utf8(s)) & 0x7fffffff) % n);
    }
  });
});

describe('Java-compatible bytes', () => {
  test('unpaired surrogates encode as "?" like String.getBytes(UTF_8)', () => {
    assert.deepEqual([...utf8('a\ud800b')], [0x61, 0x3f, 0x62]);
    assert.deepEqual([...utf8('\udc00')], [0x3f]);
    assert.deepEqual([...utf8('\ud83d\ude00')], [0xf0, 0x9f, 0x98, 0x80]);
    const s = new Utf8Scratch();
    const n = s.encode('x\ud800');
    assert.deepEqual([...s.bytes.subarray(0, n)], [0x78, 0x3f]);
  });

  test('hex parsing accepts either case and names the bad digit', () => {
    assert.deepEqual([...parseHex('00ffAb')], [0, 255, 0xab]);
    assert.deepEqual([...parseHex('')], []);
    assert.throws(() => parseHex('abc'), /odd number of digits/);
    assert.throws(() => parseHex('zz'), /"z" at position 0/);
    // A character that is not a hex digit is named before the count is judged: "75 73" has four
    // digits and a space (it said "odd number of digits (5)").
    assert.throws(() => parseHex('75 73'), /^Error: invalid hex: " " at position 2$/);
    assert.throws(() => parseHex('0x7573'), /^Error: invalid hex: "x" at position 1$/);
    assert.throws(() => parseHex('abcg'), /"g" at position 3/);
  });

  test('base64 matches Node for every length', () => {
    const r = rng(3);
    for (let n = 0; n < 50; n++) {
      const b = randomBytes(r, n);
      assert.equal(base64(b), Buffer.from(b).toString('base64'));
    }
  });

  test('valid UTF-8 bytes are a string key, other bytes a byte key routed on base64', () => {
    assert.equal(bytesKey(utf8('héllo')).text, 'héllo');
    const raw = new Uint8Array([0xff, 0x00, 0x80]);
    const k = bytesKey(raw);
    assert.equal(k.text, null);
    assert.equal(pulsarRoutingKey(k), '/wCA');
    assert.equal(decodeUtf8(new Uint8Array([0xc3])), null);
    assert.equal(pulsarRoutingKey(stringKey('a')), 'a');
  });
});

describe('Pulsar hashes', () => {
  test('Murmur3_32 of Order-3459134 is 964695987 masked (3112179635 raw), slot 6067', () => {
    const b = utf8('Order-3459134');
    assert.equal(murmur3(b), 3112179635);
    assert.equal(murmurLib.x86.hash32(b), 3112179635);
    assert.equal(murmur3Masked(b), 964695987);
    assert.equal(stickyKeyHash3(b), 964695987);
    assert.equal(stickyKeyHash3(b) % 65536, 6067);
  });

  test('4.x sticky hashes reduce into the selector range and never return 0', () => {
    const b = utf8('Order-3459134');
    assert.equal(stickyKeyHash4([1, 65535], b), (964695987 % 65535) + 1);
    assert.equal(stickyKeyHash4([0, 65535], b), 6067);
    // The empty key hashes to 0: 3.x keeps 0, 4.x makes it 1 in both ranges.
    assert.equal(stickyKeyHash3(new Uint8Array(0)), 0);
    assert.equal(stickyKeyHash4([0, 65535], new Uint8Array(0)), 1);
    assert.equal(stickyKeyHash4([1, 65535], new Uint8Array(0)), 1);
    assert.equal(reduceIntoRange(65536 * 7, [0, 65535]), 1);
    assert.equal(reduceIntoRange(65535 * 3, [1, 65535]), 1);
  });

  test('the engine murmur3 equals murmurhash3js-revisited on random bytes', () => {
    const r = rng(4);
    for (let i = 0; i < 3000; i++) {
      const b = randomBytes(r, randInt(r, 0, i < 2000 ? 16 : 1100));
      assert.equal(murmur3(b), murmurLib.x86.hash32(b));
    }
  });

  test('JavaStringHash is String.hashCode over UTF-16 code units, masked', () => {
    assert.equal(javaStringHashCode('hello'), 99162322);
    assert.equal(javaStringHashCode(''), 0);
    const r = rng(5);
    for (let i = 0; i < 2000; i++) {
      const s = randomString(r, 60);
      assert.equal(javaStringHashCode(s), javaHashCodeReference(s));
      assert.equal(javaStringHash(s), javaHashCodeReference(s) & 0x7fffffff);
    }
  });

  test('signSafeMod adds the divisor to negative remainders', () => {
    assert.equal(signSafeMod(-1, 4), 3);
    assert.equal(signSafeMod(-8, 4), 0);
    assert.equal(signSafeMod(7, 4), 3);
  });

  test('producer routing: JavaStringHash by default, Murmur3_32Hash of UTF-8 when chosen', () => {
    for (const k of ['user-1', 'Order-3459134', '', 'ключ']) {
      assert.equal(pulsarPartition('JavaStringHash', k, 7), (javaHashCodeReference(k) & 0x7fffffff) % 7);
      assert.equal(pulsarPartition('Murmur3_32Hash', k, 7), (murmurLib.x86.hash32(utf8(k)) & 0x7fffffff) % 7);
    }
  });
});
