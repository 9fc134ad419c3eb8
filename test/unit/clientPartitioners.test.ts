import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { utf8 } from '../../src/engine/bytes';
import { crc32 } from '../../src/engine/pulsar/crc32';
import { stringKey, bytesKey } from '../../src/engine/key';
import { fnv1a } from '../../src/engine/kafka/fnv1a';
import { murmur2 } from '../../src/engine/kafka/murmur2';
import { PARTITIONER_NAMES, PARTITIONERS, place, type KafkaPartitionerName } from '../../src/engine/kafka/partitioners';
import { kafkajsLegacyMurmur2 } from '../../src/engine/kafka/partitioners/kafkajsLegacy';
import { countCongruent } from '../../src/engine/kafka/partitioners/partitioner';
import { boostHash180Low } from '../../src/engine/pulsar/boostHash180';
import { boostHash181Low } from '../../src/engine/pulsar/boostHash181';
import { boostHash182Low } from '../../src/engine/pulsar/boostHash182';
import { javaStringHashCode } from '../../src/engine/pulsar/javaStringHash';
import { javaStringHashCpp } from '../../src/engine/pulsar/javaStringHashCpp';
import { murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { HASHING_SCHEMES, producerPlacement, type HashingScheme } from '../../src/engine/pulsar/producerRouting';
import { parseSettings } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import * as A from './fixtures/clientAnswers';
import { propertyRuns, randInt, randomBytes, randomString, rng } from './helpers';

// kafkajs 2.2.4 (a devDependency) is the live oracle for kafkajs-legacy and for java.
const requireNode = createRequire(__filename);
const { Partitioners } = requireNode('kafkajs') as { Partitioners: Record<string, () => (a: unknown) => number> };
const kafkajsLegacyLibMurmur2 = requireNode('kafkajs/src/producer/partitioners/legacy/murmur2') as (k: Buffer | string) => number;

const bytesOf = A.KEYS.map((k) => utf8(k));
const int32Count = fc.oneof(fc.integer({ min: 1, max: 0x7fffffff }), fc.constantFrom(1, 2, 3, 6, 7, 0x7ffffffe, 0x7fffffff));
const INT32_MIN = -0x80000000;

function partitionOf(name: KafkaPartitionerName, b: Uint8Array, n: number): number | null {
  return place(PARTITIONERS[name], b, b.length, n).partition;
}

describe('Kafka client partitioners: known answers', () => {
  test('user-1..user-6 on 6 partitions (CLIENT-PARTITIONERS.md): librdkafka 2 4 0 3 3 3, Sarama 0 3 2 3 2 5, Java 2 2 5 1 4 5', () => {
    const users = [1, 2, 3, 4, 5, 6].map((i) => utf8(`user-${i}`));
    assert.deepEqual(users.map((b) => partitionOf('librdkafka', b, 6)), [2, 4, 0, 3, 3, 3]);
    assert.deepEqual(users.map((b) => partitionOf('librdkafka-consistent', b, 6)), [2, 4, 0, 3, 3, 3]);
    assert.deepEqual(users.map((b) => partitionOf('sarama', b, 6)), [0, 3, 2, 3, 2, 5]);
    assert.deepEqual(users.map((b) => partitionOf('java', b, 6)), [2, 2, 5, 1, 4, 5]);
  });

  test('every corpus key at 1, 3, 6, 7, 12, 64, 1000 and 2^31-1 partitions equals librdkafka, Sarama and kafka-go', () => {
    A.KEYS.forEach((key, i) => {
      const b = bytesOf[i];
      A.N.forEach((n, j) => {
        const at = `${JSON.stringify(key)} on ${n}`;
        assert.equal(partitionOf('java', b, n), A.LIBRDKAFKA_MURMUR2[i][j], `java ${at}`);
        assert.equal(partitionOf('librdkafka-consistent', b, n), A.LIBRDKAFKA_CONSISTENT[i][j], `librdkafka-consistent ${at}`);
        // consistent_random: the same except that an empty key is not hashed.
        assert.equal(partitionOf('librdkafka', b, n), b.length > 0 || n === 1 ? A.LIBRDKAFKA_CONSISTENT[i][j] : null, `librdkafka ${at}`);
        assert.equal(partitionOf('sarama', b, n), A.SARAMA[i][j], `sarama ${at}`);
        assert.equal(partitionOf('sarama', b, n), A.LIBRDKAFKA_FNV1A[i][j], `librdkafka fnv1a ${at}`);
        assert.equal(partitionOf('sarama-reference', b, n), A.SARAMA_REFERENCE[i][j], `sarama-reference ${at}`);
        if (j < A.KAFKA_GO_02[i].length) assert.equal(partitionOf('kafka-go-0.2', b, n), A.KAFKA_GO_02[i][j], `kafka-go-0.2 ${at}`);
        assert.equal(partitionOf('kafka-go', b, n), n === 1 ? 0 : null, `kafka-go ${at}`);
      });
    });
  });

  test('INT32_MIN: FNV-1a of ";K$25" is exactly 0x80000000; Sarama and librdkafka both give 2^31 % n (1 on 2^31-1)', () => {
    const b = utf8(';K$25');
    assert.equal(fnv1a(b), INT32_MIN);
    const i = A.KEYS.indexOf(';K$25');
    assert.deepEqual(A.SARAMA[i], [0, 2, 2, 2, 8, 0, 648, 1]);
    assert.deepEqual(A.N.map((n) => partitionOf('sarama', b, n)), A.N.map((n) => 2 ** 31 % n));
    assert.deepEqual(A.N.map((n) => partitionOf('sarama-reference', b, n)), A.N.map(() => 0));
    assert.deepEqual(A.N.map((n) => partitionOf('kafka-go-0.2', b, n)), A.N.map((n) => 2 ** 31 % n));
  });

  test('INT32_MIN: murmur2 of "\'^Ilx" is exactly 0x80000000, masked to partition 0 everywhere', () => {
    const b = utf8("'^Ilx");
    assert.equal(murmur2(b), INT32_MIN);
    assert.deepEqual(A.N.map((n) => partitionOf('java', b, n)), A.N.map(() => 0));
  });

  test('the empty key: java hashes it, librdkafka default places it at random (0 on one partition), librdkafka consistent gives 0, Sarama the offset basis', () => {
    const e = new Uint8Array(0);
    assert.deepEqual(place(PARTITIONERS.java, e, 0, 6), { partition: A.LIBRDKAFKA_MURMUR2[A.KEYS.indexOf('')][2], hash: 275646681 });
    const random = place(PARTITIONERS.librdkafka, e, 0, 6);
    assert.equal(random.partition, null);
    assert.equal(random.hash, undefined);
    assert.match(random.note!, /empty key.*random \(sticky\) partition/);
    assert.deepEqual(place(PARTITIONERS.librdkafka, e, 0, 1), { partition: 0 });
    assert.deepEqual(place(PARTITIONERS['librdkafka-consistent'], e, 0, 6), { partition: 0, hash: 0 });
    assert.equal(fnv1a(e), 0x811c9dc5 | 0);
    const rr = place(PARTITIONERS['kafka-go'], utf8('user-1'), 6, 6);
    assert.equal(rr.partition, null);
    assert.match(rr.note!, /RoundRobin\) ignores the key/);
  });
});

describe('Kafka client partitioners: the formula the side bar shows is the partition', () => {
  // Each formula is run as JavaScript over the key bytes, with the names it uses bound to the
  // engine's hashes (int32 / uint32 / abs as Go and C convert), and must place every key where the
  // partitioner does: a formula that said murmur2 for an FNV-1a client, or left out a mask, fails.
  const names = {
    toPositive: (x: number) => x & 0x7fffffff,
    murmur2: (k: Uint8Array) => murmur2(k),
    crc32: (k: Uint8Array) => crc32(k),
    fnv1a: (k: Uint8Array) => fnv1a(k),
    kafkajs1Murmur2: (k: Uint8Array) => kafkajsLegacyMurmur2(k),
    int32: (x: number) => x | 0,
    uint32: (x: number) => x >>> 0,
    abs: Math.abs,
    random: null,
  };
  const run = (formula: string) => new Function(...Object.keys(names), 'key', `return ${formula};`) as (...args: unknown[]) => number | null;

  test('every hashing partitioner, on random keys (the empty one too) and partition counts', () => {
    const r = rng(61);
    for (const name of PARTITIONER_NAMES) {
      const p = PARTITIONERS[name];
      if (p.hashFunction === null) continue;
      for (const n of [1, 6, 7, 1000, 0x7fffffff]) {
        const f = run(p.formula(n));
        // librdkafka's random partition for the empty key is the only one there is on one partition.
        const args = Object.values({ ...names, random: n === 1 ? 0 : null });
        for (let i = 0; i < 300; i++) {
          const b = i === 0 ? new Uint8Array(0) : randomBytes(r, randInt(r, 1, 40));
          assert.equal(f(...args, b), partitionOf(name, b, n), `${name}: ${p.formula(n)} of ${Buffer.from(b).toString('hex')}`);
        }
      }
    }
    // FNV-1a's INT32_MIN (";K$25"): Sarama's abs gives 2^31, which the formula must keep.
    const min = utf8(';K$25');
    assert.equal(run(PARTITIONERS.sarama.formula(0x7fffffff))(...Object.values(names), min), 1);
  });
});

describe('kafkajs: LegacyPartitioner and the Java-compatible partitioner run live', () => {
  const meta = (n: number) => Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 }));
  const metas = new Map<number, ReturnType<typeof meta>>();
  const kafkajs = (which: string, key: Buffer, n: number) => {
    if (!metas.has(n)) metas.set(n, meta(n));
    return Partitioners[which]()({ topic: 't', partitionMetadata: metas.get(n), message: { key } });
  };

  test('kafkajs 1.x murmur2.spec.js literals', () => {
    const cases: Array<[string, number]> = [
      ['0', 272173970], ['1', 1311020360], ['128', 2053105854], ['2187', -2081355488], ['16384', 204404061],
      ['78125', -677491393], ['279936', -622460209], ['823543', 651276451], ['2097152', 944683677],
      ['4782969', -892695770], ['10000000', -1778616326], ['19487171', -518311627], ['35831808', 556972389],
      ['62748517', -233806557], ['105413504', -109398538], ['170859375', 102939717],
    ];
    for (const [k, h] of cases) assert.equal(kafkajsLegacyMurmur2(utf8(k)), h, k);
  });

  test('the hash equals kafkajs\'s own legacy murmur2 on 5,000 random keys of every length mod 4', () => {
    const r = rng(21);
    for (let i = 0; i < 5000; i++) {
      const b = randomBytes(r, randInt(r, 0, i < 4000 ? 23 : 300));
      assert.equal(kafkajsLegacyMurmur2(b), kafkajsLegacyLibMurmur2(Buffer.from(b)), Buffer.from(b).toString('hex'));
    }
  });

  test('partitions equal LegacyPartitioner and JavaCompatiblePartitioner on 3,000 keys x partition counts', () => {
    const r = rng(22);
    const counts = [1, 2, 3, 6, 7, 12, 64, 1000, 4099];
    for (let i = 0; i < 3000; i++) {
      // Random text (lone surrogates aside: Node's Buffer writes U+FFFD where Java writes '?') or bytes.
      const b = i % 2 ? utf8(randomString(r, 40).toWellFormed()) : randomBytes(r, randInt(r, 0, 40));
      const n = counts[i % counts.length];
      assert.equal(partitionOf('kafkajs-legacy', b, n), kafkajs('LegacyPartitioner', Buffer.from(b), n));
      assert.equal(partitionOf('java', b, n), kafkajs('JavaCompatiblePartitioner', Buffer.from(b), n));
    }
  });

  test('the legacy hash differs from Java\'s for most keys (the fractional loop bound and double products)', () => {
    const differ = A.KEYS.filter((_, i) => kafkajsLegacyMurmur2(bytesOf[i]) !== murmur2(bytesOf[i])).length;
    assert.ok(differ > A.KEYS.length * 0.9, `${differ} of ${A.KEYS.length}`);
    assert.equal(kafkajsLegacyMurmur2(new Uint8Array(0)), 275646684); // Java: 275646681
  });

  test('a reused buffer longer than the key reads as zeros past its end, as kafkajs\'s Buffer does', () => {
    const buf = Uint8Array.from([0x61, 0x62, 0x63, 0x64, 0x65, 0xff, 0xff, 0xff]);
    assert.equal(kafkajsLegacyMurmur2(buf, 5), kafkajsLegacyLibMurmur2(Buffer.from('abcde')));
  });
});

describe('Pulsar hashing schemes: known answers', () => {
  test('user-1..user-6 on 6 partitions: JavaStringHash 5 0 1 2 3 4', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((i) => producerPlacement('JavaStringHash', stringKey(`user-${i}`), 6).partition), [5, 0, 1, 2, 3, 4]);
  });

  test('BoostHash 1.80 / 1.81 / 1.82 equal boost::hash<std::string> (low 32 bits) on every corpus key', () => {
    A.KEYS.forEach((key, i) => {
      const low = (h: string) => parseInt(h.slice(8), 16);
      assert.equal(boostHash180Low(bytesOf[i]), low(A.BOOST_180[i]), `1.80 ${JSON.stringify(key)}`);
      assert.equal(boostHash181Low(bytesOf[i]), low(A.BOOST_181[i]), `1.81 ${JSON.stringify(key)}`);
      assert.equal(boostHash182Low(bytesOf[i]), low(A.BOOST_182[i]), `1.82 ${JSON.stringify(key)}`);
    });
  });

  test('the C++ client\'s JavaStringHash and Murmur3_32Hash, and Java\'s String.hashCode, on every corpus key', () => {
    A.KEYS.forEach((key, i) => {
      assert.equal(javaStringHashCpp(bytesOf[i]), A.CPP_JAVA_STRING_HASH[i], `cpp JavaStringHash ${JSON.stringify(key)}`);
      assert.equal(murmur3Masked(bytesOf[i]), A.CPP_MURMUR3[i], `cpp Murmur3 ${JSON.stringify(key)}`);
      assert.equal(javaStringHashCode(key), A.JAVA_HASH_CODE[i], `Java hashCode ${JSON.stringify(key)}`);
    });
  });

  test('partitions per scheme and count: the Java client signSafeMod, the C++ client % n and 0 on one partition', () => {
    const cppHash: Partial<Record<HashingScheme, (i: number) => number>> = {
      'JavaStringHash-cpp': (i) => A.CPP_JAVA_STRING_HASH[i],
      'BoostHash-1.80': (i) => parseInt(A.BOOST_180[i].slice(8), 16) & 0x7fffffff,
      'BoostHash-1.81': (i) => parseInt(A.BOOST_181[i].slice(8), 16) & 0x7fffffff,
      'BoostHash-1.82': (i) => parseInt(A.BOOST_182[i].slice(8), 16) & 0x7fffffff,
    };
    A.KEYS.forEach((key, i) => {
      for (const n of A.N) {
        const javaP = producerPlacement('JavaStringHash', stringKey(key), n);
        assert.deepEqual(javaP, { partition: (A.JAVA_HASH_CODE[i] & 0x7fffffff) % n, hash: A.JAVA_HASH_CODE[i] & 0x7fffffff });
        assert.deepEqual(producerPlacement('Murmur3_32Hash', stringKey(key), n), { partition: A.CPP_MURMUR3[i] % n, hash: A.CPP_MURMUR3[i] });
        for (const [scheme, h] of Object.entries(cppHash)) {
          const want = n === 1 ? { partition: 0 } : { partition: h(i) % n, hash: h(i) };
          assert.deepEqual(producerPlacement(scheme as HashingScheme, stringKey(key), n), want, `${scheme} ${JSON.stringify(key)} on ${n}`);
        }
      }
    });
  });

  test('"polygenelubricants" has String.hashCode Integer.MIN_VALUE: masked to 0, partition 0 (Java and C++ ports)', () => {
    assert.equal(javaStringHashCode('polygenelubricants'), INT32_MIN);
    for (const n of A.N) {
      assert.equal(producerPlacement('JavaStringHash', stringKey('polygenelubricants'), n).partition, 0);
      assert.equal(producerPlacement('JavaStringHash-cpp', stringKey('polygenelubricants'), n).partition, 0);
    }
  });

  test('non-ASCII: the C++ port reads UTF-8 bytes as signed char, so it differs from Java for every boundary code point', () => {
    for (const s of ['\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', '\u{10ffff}']) {
      assert.notEqual(javaStringHashCpp(utf8(s)), javaStringHashCode(s) & 0x7fffffff, JSON.stringify(s));
    }
    // ASCII agrees.
    assert.equal(javaStringHashCpp(utf8('keykeykey2')), javaStringHashCode('keykeykey2') & 0x7fffffff);
  });

  test('a byte key: the Java client routes its base64 text, the C++ client its bytes', () => {
    const k = bytesKey(Uint8Array.from([0xff, 0x00, 0x80]));
    assert.equal(producerPlacement('JavaStringHash', k, 1000).hash, javaStringHashCode('/wCA') & 0x7fffffff);
    assert.equal(producerPlacement('JavaStringHash-cpp', k, 1000).hash, javaStringHashCpp(k.bytes));
  });
});

describe('partitioner properties', () => {
  test('for any bytes and any n in 1..2^31-1 every client gives a partition in [0, n) (or none where it may)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), int32Count, (b, n) => {
        for (const name of PARTITIONER_NAMES) {
          const p = place(PARTITIONERS[name], b, b.length, n);
          if (p.partition === null) {
            assert.ok(name === 'kafka-go' || (name === 'librdkafka' && b.length === 0), `${name} gave no partition`);
            assert.ok(n > 1 && p.note !== undefined);
          } else assert.ok(Number.isInteger(p.partition) && p.partition >= 0 && p.partition < n, `${name}: ${p.partition} of ${n}`);
          if (p.hash !== undefined) assert.equal(p.hash, p.hash | 0, `${name} hash is an int32`);
        }
        for (const scheme of HASHING_SCHEMES) {
          const p = producerPlacement(scheme, bytesKey(b), n);
          assert.ok(Number.isInteger(p.partition) && p.partition >= 0 && p.partition < n, `${scheme}: ${p.partition} of ${n}`);
          if (p.hash !== undefined) assert.ok(p.hash >= 0 && p.hash <= 0x7fffffff, `${scheme} hash is 31 bits`);
        }
      }),
      propertyRuns(2000),
    );
  });

  test('a hash that is the same for two buffers holding the same key (reused-buffer reads stay within length)', () => {
    const r = rng(32);
    for (let i = 0; i < 1000; i++) {
      const b = randomBytes(r, randInt(r, 0, 40));
      const big = new Uint8Array(b.length + 16).fill(0xa5);
      big.set(b);
      for (const name of PARTITIONER_NAMES) assert.equal(PARTITIONERS[name].hash(big, b.length), PARTITIONERS[name].hash(b, b.length), name);
      assert.equal(boostHash182Low(big, b.length), boostHash182Low(b), '1.82');
      assert.equal(boostHash181Low(big, b.length), boostHash181Low(b), '1.81');
      assert.equal(boostHash180Low(big, b.length), boostHash180Low(b), '1.80');
    }
  });

  test('hash shares: each client\'s shares over all partitions sum to 1, and equal counts of the hash values', () => {
    for (const n of [1, 3, 6, 7, 12, 64, 1000]) {
      for (const name of PARTITIONER_NAMES) {
        let sum = 0;
        for (let p = 0; p < n; p++) sum += PARTITIONERS[name].hashShare(p, n);
        assert.ok(Math.abs(sum - 1) < 1e-9, `${name} on ${n}: ${sum}`);
      }
    }
    // Sarama on 3 partitions over all int32 h: |h| % 3, |INT32_MIN| = 2^31 (2^31 % 3 = 2).
    const saramaOn3 = (p: number) => (2 * countCongruent(1, 2 ** 31 - 1, p, 3) + (p === 0 ? 1 : 0) + (p === 2 ? 1 : 0)) / 2 ** 32;
    for (let p = 0; p < 3; p++) assert.equal(PARTITIONERS.sarama.hashShare(p, 3), saramaOn3(p));
  });
});

describe('client partitioners in routes (Topology)', () => {
  const topology = (topics: unknown[]) => {
    const { settings, problems } = parseSettings({ 'keyRouting.topics': topics });
    assert.deepEqual(problems, []);
    return new Topology(settings, []);
  };

  test('a Kafka topic routes with its partitioner and, with producers, says where each puts the key', () => {
    const t = topology([{ name: 'orders', system: 'kafka', partitions: 6, partitioner: 'librdkafka', producers: ['java', 'librdkafka', 'sarama'] }]);
    const r = t.topics[0].route(stringKey('user-1'));
    assert.deepEqual(r, {
      topic: 'orders',
      system: 'kafka',
      partition: 2,
      hash: crc32(utf8('user-1')) | 0,
      byProducer: { java: 2, librdkafka: 2, sarama: 0 },
      disagree: true,
    });
    // user-1: java 2, librdkafka 2 agree; user-4: java 1, librdkafka 3.
    const two = topology([{ name: 'o', system: 'kafka', partitions: 6, producers: ['java', 'librdkafka'] }]).topics[0];
    assert.equal(two.route(stringKey('user-1')).disagree, false);
    assert.deepEqual(two.route(stringKey('user-4')).byProducer, { java: 1, librdkafka: 3 });
    assert.equal(two.route(stringKey('user-4')).disagree, true);
    // The empty key: librdkafka has no fixed partition, which disagrees with any other producer.
    const empty = two.route(stringKey(''));
    assert.deepEqual(empty.byProducer, { java: A.LIBRDKAFKA_MURMUR2[A.KEYS.indexOf('')][2], librdkafka: null });
    assert.equal(empty.disagree, true);
  });

  test('kafkajs 1.x routes a key with an unpaired surrogate on the bytes kafkajs writes (U+FFFD), Java on its own (\'?\')', () => {
    // kafkajs's own partitioner: toPositive(murmur2(key)) % n, its murmur2 over Buffer.from(key).
    const kafkajsPartitioner = Partitioners.LegacyPartitioner();
    const metadata = Array.from({ length: 7 }, (_, i) => ({ partitionId: i, leader: 0 }));
    const t = topology([{ name: 'o', system: 'kafka', partitions: 7, partitioner: 'kafkajs-legacy', producers: ['kafkajs-legacy', 'java'] }]).topics[0];
    let differ = 0;
    for (const key of ['\ud800', 'a\udc00', '\udfff\ud800x', 'user-\ud83d', 'ok\ud83d\ude00']) {
      const want = kafkajsPartitioner({ topic: 'o', partitionMetadata: metadata, message: { key } });
      const r = t.route(stringKey(key));
      assert.equal(r.partition, want, JSON.stringify(key));
      assert.equal(r.hash, kafkajsLegacyMurmur2(Buffer.from(key)), JSON.stringify(key));
      const java = (murmur2(utf8(key)) & 0x7fffffff) % 7;
      assert.deepEqual(r.byProducer, { 'kafkajs-legacy': want, java }, JSON.stringify(key));
      if (java !== want) differ++;
    }
    assert.ok(differ > 0, 'some of the keys go elsewhere with Java\'s bytes');
  });

  test('librdkafka: the CRC-32 is the route\'s hash, as a signed int', () => {
    const t = topology([{ name: 'o', system: 'kafka', partitions: 6, partitioner: 'librdkafka' }]);
    const r = t.topics[0].route(stringKey('user-1'));
    assert.deepEqual(Object.keys(r), ['topic', 'system', 'partition', 'hash']);
    assert.equal(((r.hash as number) >>> 0) % 6, 2);
    const e = t.topics[0].route(stringKey(''));
    assert.deepEqual(Object.keys(e), ['topic', 'system', 'partition', 'note']);
    assert.equal(e.partition, null);
  });

  test('2^31-1 partitions: Kafka and Pulsar route, what-if grows to it', () => {
    const t = topology([
      { name: 'k', system: 'kafka', partitions: 2147483647, partitioner: 'sarama' },
      { name: 'persistent://public/default/p', system: 'pulsar', partitions: 2147483647, hashingScheme: 'BoostHash-1.82', subscription: { consumers: [{ name: 'C1' }] } },
    ]);
    const i = A.KEYS.indexOf(';K$25');
    assert.equal(t.topics[0].route(stringKey(';K$25')).partition, A.SARAMA[i][7]);
    const p = t.topics[1].route(stringKey('user-1'));
    assert.equal(p.partition, (parseInt(A.BOOST_182[0].slice(8), 16) & 0x7fffffff) % 2147483647);
    assert.equal(p.consumer, 'C1');
  });

  test('Pulsar: the C++ schemes and producers add the client hash and the producers; Java schemes keep section 2\'s line', () => {
    const t = topology([
      { name: 'persistent://public/default/a', system: 'pulsar', partitions: 6 },
      { name: 'persistent://public/default/b', system: 'pulsar', partitions: 6, hashingScheme: 'BoostHash-1.80', producers: ['JavaStringHash', 'BoostHash-1.80'] },
      { name: 'persistent://public/default/c', system: 'pulsar', partitions: 1, hashingScheme: 'JavaStringHash-cpp' },
    ]);
    const [a, b, c] = t.topics.map((x) => x.route(stringKey('user-1')));
    assert.deepEqual(Object.keys(a), ['topic', 'system', 'partition', 'stickyKeyHash', 'consumer', 'range']);
    assert.equal(a.partition, 5);
    const boost = parseInt(A.BOOST_180[0].slice(8), 16) & 0x7fffffff;
    assert.deepEqual(b, { topic: 'persistent://public/default/b', system: 'pulsar', partition: boost % 6, hash: boost, byProducer: { JavaStringHash: 5, 'BoostHash-1.80': boost % 6 }, disagree: boost % 6 !== 5, stickyKeyHash: a.stickyKeyHash, consumer: null, range: null });
    // One partition: the C++ router returns 0 without hashing.
    assert.deepEqual(Object.keys(c), ['topic', 'system', 'partition', 'stickyKeyHash', 'consumer', 'range']);
    assert.equal(c.partition, 0);
  });

  test('typed keys: keyHex is what the partitioner hashed; a key the serializer refuses is an error', () => {
    const t = topology([{ name: 'ids', system: 'kafka', partitions: 12, keySerializer: 'long', producers: ['java', 'sarama'] }]);
    const r = t.topics[0].route(stringKey('-1'));
    assert.equal(r.keyHex, 'ffffffffffffffff');
    assert.equal(r.partition, (murmur2(Uint8Array.from(Array(8).fill(0xff))) & 0x7fffffff) % 12);
    assert.equal(r.hash, murmur2(Uint8Array.from(Array(8).fill(0xff))));
    const bad = t.topics[0].route(stringKey('abc'));
    assert.equal(bad.error, '"abc" is not a long (-9223372036854775808..9223372036854775807)');
    assert.equal(bad.partition, null);
  });
});
