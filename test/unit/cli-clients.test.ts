// The command line on topics with client choices (CONTRACT.md section 3): route, what-if and
// analyze with other clients' partitioners, producers, typed keys and int32 partition counts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, configFile } from './cliRun';
import { murmur2Reference } from './helpers';
import * as A from './fixtures/clientAnswers';
import { scratchDir } from './scratch';

const enc = (s: string) => new TextEncoder().encode(s);
const USERS = 'user-1\nuser-2\nuser-3\nuser-4\nuser-5\nuser-6\n';
const at = (key: string) => A.KEYS.indexOf(key);

const settings = {
  'keyRouting.topics': [
    { name: 'rd', system: 'kafka', partitions: 6, partitioner: 'librdkafka' },
    { name: 'mixed', system: 'kafka', partitions: 6, producers: ['java', 'librdkafka', 'sarama'] },
    { name: 'ids', system: 'kafka', partitions: 12, keySerializer: 'long' },
    { name: 'avro', system: 'kafka', partitions: 64, keySerializer: 'avro-int', schemaId: 42, partitioner: 'sarama' },
    { name: 'raw', system: 'kafka', partitions: 7, keySerializer: 'bytes' },
    { name: 'huge', system: 'kafka', partitions: 2147483647, partitioner: 'sarama' },
    { name: 'rr', system: 'kafka', partitions: 6, partitioner: 'kafka-go' },
    { name: 'persistent://public/default/cpp', system: 'pulsar', partitions: 6, hashingScheme: 'BoostHash-1.82', producers: ['JavaStringHash', 'BoostHash-1.82'] },
    { name: 'persistent://public/default/big', system: 'pulsar', partitions: 2147483647, subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } },
  ],
};

describe('key-routing route with client partitioners', () => {
  const cfg = configFile(settings);

  test('librdkafka: user-1..user-6 go to 2 4 0 3 3 3 with the CRC-32 as the hash; the empty key has no fixed partition', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'rd'], USERS + '\n');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines.slice(0, 6).map((l) => l.partition), [2, 4, 0, 3, 3, 3]);
    for (const l of r.lines.slice(0, 6)) assert.deepEqual(Object.keys(l), ['key', 'topic', 'system', 'partition', 'hash']);
    const empty = r.lines[6];
    assert.deepEqual(Object.keys(empty), ['key', 'topic', 'system', 'partition', 'note']);
    assert.equal(empty.partition, null);
    assert.match(empty.note, /librdkafka's default partitioner \(consistent_random\) does not hash an empty key/);
  });

  test('producers: byProducer and disagree on every line', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'mixed'], USERS);
    assert.deepEqual(r.lines.map((l) => l.byProducer), [
      { java: 2, librdkafka: 2, sarama: 0 },
      { java: 2, librdkafka: 4, sarama: 3 },
      { java: 5, librdkafka: 0, sarama: 2 },
      { java: 1, librdkafka: 3, sarama: 3 },
      { java: 4, librdkafka: 3, sarama: 2 },
      { java: 5, librdkafka: 3, sarama: 5 },
    ]);
    assert.ok(r.lines.every((l) => l.disagree === true));
    assert.deepEqual(r.lines.map((l) => l.partition), [2, 2, 5, 1, 4, 5]);
    assert.deepEqual(Object.keys(r.lines[0]), ['key', 'topic', 'system', 'partition', 'hash', 'byProducer', 'disagree']);
  });

  test('typed keys: keyHex, the hash of those bytes; a key the serializer refuses is {key, topic, error} and the run goes on', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'ids'], '42\nabc\n9223372036854775808\n-1\n');
    assert.equal(r.code, 0, r.stderr);
    const b42 = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 42]);
    assert.deepEqual(r.lines[0], { key: '42', topic: 'ids', system: 'kafka', partition: (murmur2Reference(b42) & 0x7fffffff) % 12, hash: murmur2Reference(b42), keyHex: '000000000000002a' });
    assert.deepEqual(r.lines[1], { key: 'abc', topic: 'ids', error: '"abc" is not a long (-9223372036854775808..9223372036854775807)' });
    assert.deepEqual(Object.keys(r.lines[2]), ['key', 'topic', 'error']);
    assert.equal(r.lines[3].keyHex, 'ffffffffffffffff');
  });

  test('avro-int with schemaId 42 under Sarama; bytes keys from text or from --key-format hex', async () => {
    const a = await cli(['route', '--config', cfg, '--topic', 'avro'], '-65\n2147483648\n');
    assert.equal(a.lines[0].keyHex, '000000002a8101');
    assert.match(a.lines[1].error, /is not an int/);
    const t = await cli(['route', '--config', cfg, '--topic', 'raw'], 'deadBEEF\nxyz\n');
    assert.equal(t.lines[0].keyHex, 'deadbeef');
    assert.match(t.lines[1].error, /^"xyz" is not hex/);
    const h = await cli(['route', '--config', cfg, '--topic', 'raw', '--key-format', 'hex'], 'deadbeef\n');
    assert.equal(h.lines[0].keyHex, 'deadbeef');
    assert.equal(h.lines[0].hash, murmur2Reference(Uint8Array.from([0xde, 0xad, 0xbe, 0xef])));
  });

  test('2^31-1 partitions: Kafka (Sarama, the INT32_MIN key) and Pulsar route', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'huge'], ';K$25\nuser-1\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0].partition, 1);
    assert.equal(r.lines[0].hash, -2147483648);
    assert.equal(r.lines[1].partition, A.SARAMA[at('user-1')][7]);
    const p = await cli(['route', '--config', cfg, '--topic', 'persistent://public/default/big'], 'polygenelubricants\nuser-1\n');
    assert.equal(p.lines[0].partition, 0);
    assert.equal(p.lines[1].partition, (A.JAVA_HASH_CODE[at('user-1')] & 0x7fffffff) % 2147483647);
    assert.ok(['C1', 'C2'].includes(p.lines[1].consumer));
  });

  test('kafka-go round-robin: no partition, a note, no hash', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'rr'], 'user-1\n');
    assert.deepEqual(Object.keys(r.lines[0]), ['key', 'topic', 'system', 'partition', 'note']);
    assert.match(r.lines[0].note, /RoundRobin/);
  });

  test('Pulsar C++ BoostHash with producers: the client hash and each producer\'s partition', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'persistent://public/default/cpp'], USERS);
    const boost = A.KEYS.slice(0, 6).map((_, i) => parseInt(A.BOOST_182[i].slice(8), 16) & 0x7fffffff);
    assert.deepEqual(r.lines.map((l) => l.partition), boost.map((h) => h % 6));
    assert.deepEqual(r.lines.map((l) => l.hash), boost);
    assert.deepEqual(r.lines.map((l) => l.byProducer.JavaStringHash), [5, 0, 1, 2, 3, 4]);
    assert.deepEqual(r.lines.map((l) => l.disagree), boost.map((h, i) => h % 6 !== [5, 0, 1, 2, 3, 4][i]));
  });

  test('settings errors name the path: a partition count past int32, an unknown partitioner, a producer twice, a missing schemaId', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'k', system: 'kafka', partitions: 2147483648 }, /keyRouting\.topics\[0\]\.partitions: must be an integer from 1 to 2147483647 \(got 2147483648\)/],
      [{ name: 'k', system: 'kafka', partitions: 0 }, /keyRouting\.topics\[0\]\.partitions: must be an integer from 1 to 2147483647/],
      [{ name: 'p', system: 'pulsar', partitions: 2147483648 }, /keyRouting\.topics\[0\]\.partitions: must be an integer from 0 to 2147483647/],
      [{ name: 'k', system: 'kafka', partitions: 1, partitioner: 'murmur3' }, /keyRouting\.topics\[0\]\.partitioner: must be one of "java", "librdkafka"/],
      [{ name: 'k', system: 'kafka', partitions: 1, producers: ['java', 'java'] }, /keyRouting\.topics\[0\]\.producers\[1\]: "java" is listed twice/],
      [{ name: 'k', system: 'kafka', partitions: 1, producers: ['BoostHash-1.82'] }, /keyRouting\.topics\[0\]\.producers\[0\]: must be one of "java"/],
      [{ name: 'p', system: 'pulsar', producers: 'JavaStringHash' }, /keyRouting\.topics\[0\]\.producers: must be an array/],
      [{ name: 'k', system: 'kafka', partitions: 1, keySerializer: 'avro-long' }, /keyRouting\.topics\[0\]\.schemaId: is required with "keySerializer": "avro-long"/],
      [{ name: 'k', system: 'kafka', partitions: 1, keySerializer: 'avro-int', schemaId: -1 }, /keyRouting\.topics\[0\]\.schemaId: must be an integer from 0 to 2147483647/],
      [{ name: 'k', system: 'kafka', partitions: 1, keySerializer: 'float' }, /keyRouting\.topics\[0\]\.keySerializer: must be one of "string", "short"/],
    ];
    for (const [topic, want] of cases) {
      const r = await cli(['route', '--config', configFile({ 'keyRouting.topics': [topic] })], 'a\n');
      assert.equal(r.code, 2, JSON.stringify(topic));
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.match(r.stderr, want);
    }
  });
});

describe('key-routing what-if with client partitioners', () => {
  const cfg = configFile(settings);

  test('partitions=N uses the topic\'s partitioner: librdkafka 6 -> 7 moves the keys whose CRC-32 % 7 differs from % 6', async () => {
    const keys = A.KEYS.filter((k) => k !== '');
    const r = await cli(['what-if', '--config', cfg, '--topic', 'rd', '--then', 'partitions=7'], keys.join('\n') + '\n');
    assert.equal(r.code, 0, r.stderr);
    const out = r.lines[0];
    const moved = keys.filter((k) => A.LIBRDKAFKA_CONSISTENT[at(k)][2] !== A.LIBRDKAFKA_CONSISTENT[at(k)][3]);
    assert.equal(out.steps[0].movedFraction, moved.length / keys.length);
    out.keys.forEach((k: any) => {
      assert.equal(k.before.partition, A.LIBRDKAFKA_CONSISTENT[at(k.key)][2]);
      assert.equal(k.after.partition, A.LIBRDKAFKA_CONSISTENT[at(k.key)][3]);
    });
  });

  test('growing to 2^31-1 partitions is accepted; past it is a usage error', async () => {
    const r = await cli(['what-if', '--config', cfg, '--topic', 'rd', '--then', 'partitions=2147483647'], 'user-1\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0].keys[0].after.partition, A.LIBRDKAFKA_CONSISTENT[at('user-1')][7]);
    const past = await cli(['what-if', '--config', cfg, '--topic', 'rd', '--then', 'partitions=2147483648'], 'user-1\n');
    assert.equal(past.code, 2);
    assert.match(past.stderr, /partitions=2147483648.*at most 2147483647/);
  });

  test('typed keys: a refused key is {key, topic, error} before and after', async () => {
    const r = await cli(['what-if', '--config', cfg, '--topic', 'ids', '--then', 'partitions=13'], 'abc\n7\n');
    const [bad, good] = r.lines[0].keys;
    assert.deepEqual(bad.before, { key: 'abc', topic: 'ids', error: '"abc" is not a long (-9223372036854775808..9223372036854775807)' });
    assert.equal(bad.moved, false);
    assert.equal(good.after.keyHex, '0000000000000007');
  });
});

describe('key-routing analyze with client partitioners', () => {
  const cfg = configFile(settings);
  const dir = scratchDir('key-routing-');
  const input = join(dir, 'keys.txt');
  writeFileSync(input, A.KEYS.join('\n') + '\n');

  test('per topic: keys per partition by the topic\'s client, and the share of keys its producers disagree on', async () => {
    const r = await cli(['analyze', '--config', cfg, '--input', input]);
    assert.equal(r.code, 0, r.stderr);
    const topic = (name: string) => r.lines[0].topics.find((t: any) => t.topic === name);
    const rd = topic('rd');
    const want = new Array(6).fill(0);
    A.KEYS.forEach((k, i) => k !== '' && want[A.LIBRDKAFKA_CONSISTENT[i][2]]++);
    assert.deepEqual(rd.partitionKeys.map((p: any) => p.keys), want);
    assert.equal(rd.randomKeys, 1); // the empty key
    const mixed = topic('mixed');
    const disagree = A.KEYS.filter((k, i) => {
      const ps = [A.LIBRDKAFKA_MURMUR2[i][2], k === '' ? null : A.LIBRDKAFKA_CONSISTENT[i][2], A.SARAMA[i][2]];
      return ps[0] === null || ps.some((p) => p !== ps[0]);
    }).length;
    assert.deepEqual(mixed.producers, { names: ['java', 'librdkafka', 'sarama'], disagreeKeys: disagree, disagreeShare: disagree / A.KEYS.length });
    // Typed keys: the texts that are not longs are counted apart, with their line numbers.
    const ids = topic('ids');
    const notLong = A.KEYS.filter((k) => !/^-?[0-9]+$/.test(k) || BigInt(k) > 2n ** 63n - 1n);
    assert.equal(ids.keyErrors.count, notLong.length);
    assert.deepEqual(ids.keyErrors.first[0], { line: 1, message: '"user-1" is not a long (-9223372036854775808..9223372036854775807)' });
    assert.equal(ids.partitionKeys.reduce((s: number, p: any) => s + p.keys, 0), A.KEYS.length - notLong.length);
    // Round-robin: no key has a fixed partition.
    assert.equal(topic('rr').randomKeys, A.KEYS.length);
  });

  test('2^31-1 partitions: only the partitions with keys are listed, in order; the skew counts them all', async () => {
    const r = await cli(['analyze', '--config', cfg, '--topic', 'huge', '--input', input]);
    assert.equal(r.code, 0, r.stderr);
    const t = r.lines[0].topics[0];
    assert.equal(t.partitions, 2147483647);
    assert.equal(t.sparsePartitions, true);
    const want = new Map<number, number>();
    A.SARAMA.forEach((row) => want.set(row[7], (want.get(row[7]) ?? 0) + 1));
    assert.deepEqual(t.partitionKeys.map((p: any) => [p.partition, p.keys]), [...want.entries()].sort((a, b) => a[0] - b[0]));
    assert.equal(t.partitionSkew.units, 2147483647);
    assert.equal(t.partitionSkew.min, 0);
    assert.equal(t.partitionSkew.mean, A.KEYS.length / 2147483647);
    const big = await cli(['analyze', '--config', cfg, '--topic', 'persistent://public/default/big', '--input', input]);
    assert.equal(big.code, 0, big.stderr);
    const b = big.lines[0].topics[0];
    assert.equal(b.partitionKeys.reduce((s: number, p: any) => s + p.keys, 0), A.KEYS.length);
    assert.equal(b.consumers.reduce((s: number, c: any) => s + c.keys, 0), A.KEYS.length);
    assert.ok(Math.abs(b.consumers.reduce((s: number, c: any) => s + c.hashShare, 0) - 1) < 1e-12);
  });

  test('murmur2 reference agrees on a Java-partitioned hex input', async () => {
    const r = await cli(['analyze', '--config', cfg, '--topic', 'mixed', '--key-format', 'hex'], Buffer.from('user-1').toString('hex') + '\n');
    assert.equal(r.lines[0].topics[0].partitionKeys[(murmur2Reference(enc('user-1')) & 0x7fffffff) % 6].keys, 1);
  });
});
