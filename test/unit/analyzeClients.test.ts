// The analyser on topics with client choices: key by key the same partitions as `route`, for every
// Kafka partitioner and Pulsar hashing scheme, typed keys, producers, and 2^31-1 partitions.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { KeyAnalyzer, analyzeBytes } from '../../src/analyze/index';
import { bytesKey, type MessageKey } from '../../src/engine/key';
import { utf8 } from '../../src/engine/bytes';
import { parseEvent } from '../../src/engine/events';
import { PARTITIONER_NAMES } from '../../src/engine/kafka/partitioners';
import { HASHING_SCHEMES } from '../../src/engine/pulsar/producerRouting';
import { Topology, type TopicState } from '../../src/engine/topology';
import { randInt, randomBytes, randomString, rng, settingsOf } from './helpers';
import { lastRoutes } from './analyzerRoutes';

const SETTINGS = settingsOf({
  'keyRouting.topics': [
    ...PARTITIONER_NAMES.map((p, i) => ({ name: `k-${p}`, system: 'kafka', partitions: [1, 3, 6, 7, 12, 64, 1000, 6][i], partitioner: p })),
    ...HASHING_SCHEMES.map((s, i) => ({ name: `persistent://public/default/p-${s}`, system: 'pulsar', partitions: [6, 1, 7, 12, 5, 1000][i], hashingScheme: s, subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } })),
    { name: 'mixed', system: 'kafka', partitions: 6, producers: PARTITIONER_NAMES },
    { name: 'persistent://public/default/mixed', system: 'pulsar', partitions: 6, producers: HASHING_SCHEMES },
    { name: 'ints', system: 'kafka', partitions: 12, keySerializer: 'int', partitioner: 'sarama', producers: ['java', 'sarama'] },
    { name: 'raw', system: 'kafka', partitions: 12, keySerializer: 'bytes', partitioner: 'kafkajs-legacy' },
    { name: 'avro', system: 'kafka', partitions: 9, keySerializer: 'avro-string', schemaId: 3, partitioner: 'librdkafka' },
    { name: 'huge', system: 'kafka', partitions: 2147483647, partitioner: 'librdkafka-consistent' },
    { name: 'persistent://public/default/huge', system: 'pulsar', partitions: 2147483647, hashingScheme: 'BoostHash-1.81', subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } },
  ],
});

/** Text keys (ASCII, non-ASCII, decimal numbers, hex), byte keys and the empty key. */
function lines(seed: number, n: number): Uint8Array[] {
  const r = rng(seed);
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const p = r();
    let line: Uint8Array;
    if (p < 0.3) line = utf8(randomString(r, 20).toWellFormed().replace(/[\n\r]/g, ' '));
    else if (p < 0.5) line = utf8(String(randInt(r, -3_000_000_000, 3_000_000_000)));
    else if (p < 0.65) line = utf8(Array.from(randomBytes(r, randInt(r, 0, 6)), (b) => b.toString(16).padStart(2, '0')).join(''));
    else if (p < 0.95) line = randomBytes(r, randInt(r, 1, 30)).map((b) => (b === 0x0a || b === 0x0d ? 0x0b : b));
    else line = new Uint8Array(0);
    out.push(line);
  }
  return out;
}

function joined(ls: Uint8Array[]): Uint8Array {
  const parts: number[] = [];
  for (const l of ls) parts.push(...l, 0x0a);
  return Uint8Array.from(parts);
}

/** What `route` gives key by key: partition counts (sparse), random keys, errors, disagreements. */
function expected(t: TopicState, keys: MessageKey[]) {
  const partitions = new Map<number, number>();
  let random = 0;
  let errors = 0;
  let disagree = 0;
  for (const k of keys) {
    const r = t.route(k);
    if (r.error !== undefined) errors++;
    else if (r.partition !== null) partitions.set(r.partition, (partitions.get(r.partition) ?? 0) + 1);
    else if (r.note !== undefined) random++;
    if (r.disagree) disagree++;
  }
  return { partitions, random, errors, disagree };
}

describe('analyze with client partitioners', () => {
  const ls = lines(41, 1500);
  const keys = ls.map((l) => bytesKey(l));

  test('each key goes where route sends it, every client and serializer', () => {
    const a = new KeyAnalyzer({ settings: SETTINGS, topKeys: 0 });
    const topics = new Topology(SETTINGS, []).topics;
    ls.forEach((line, i) => {
      a.feed(line);
      a.feed(Uint8Array.of(0x0a));
      const got = lastRoutes(a);
      topics.forEach((t, j) => {
        const r = t.route(keys[i]);
        const want = { topic: t.name, partition: r.partition, consumer: r.consumer ?? null, ...(r.error !== undefined ? { error: true } : {}) };
        assert.deepEqual(got[j], want, `${t.name} key #${i + 1} ${Buffer.from(line).toString('hex')}`);
      });
    });
  });

  test('figures: keys per partition (sparse at 2^31-1), keys without a fixed partition, serializer errors, producers\' disagreement', () => {
    const result = analyzeBytes(joined(ls), { settings: SETTINGS, topKeys: 0 });
    const topics = new Topology(SETTINGS, []).topics;
    result.topics.forEach((f, i) => {
      const e = expected(topics[i], keys);
      const got = new Map(f.partitionKeys!.filter((p) => p.keys > 0).map((p) => [p.partition, p.keys] as const));
      assert.deepEqual(got, e.partitions, f.topic);
      assert.equal(f.randomKeys ?? 0, e.random, `${f.topic} random`);
      assert.equal(f.keyErrors?.count ?? 0, e.errors, `${f.topic} errors`);
      if (f.producers) assert.equal(f.producers.disagreeKeys, e.disagree, `${f.topic} disagree`);
      if (f.partitions > 100_000) {
        assert.equal(f.sparsePartitions, true);
        assert.ok(f.partitionKeys!.every((p) => p.keys > 0));
        assert.equal(f.partitionSkew!.units, f.partitions);
      } else assert.equal(f.partitionKeys!.length, f.partitions, f.topic);
    });
    const mixed = result.topics.find((t) => t.topic === 'mixed')!;
    assert.ok(mixed.producers!.disagreeShare > 0.9, 'eight Kafka clients rarely all agree');
    assert.ok(result.topics.find((t) => t.topic === 'ints')!.keyErrors!.first.length > 0);
  });

  test('hex input: a bytes serializer takes the bytes as they are; figures match route on the same keys', () => {
    const hexLines = ls.map((l) => utf8(Buffer.from(l).toString('hex')));
    const result = analyzeBytes(joined(hexLines), { settings: SETTINGS, keyFormat: 'hex', topKeys: 0 });
    const topics = new Topology(SETTINGS, []).topics;
    const hexKeys = ls.map((l) => bytesKey(l, true));
    result.topics.forEach((f, i) => {
      const e = expected(topics[i], hexKeys);
      assert.deepEqual(new Map(f.partitionKeys!.filter((p) => p.keys > 0).map((p) => [p.partition, p.keys] as const)), e.partitions, f.topic);
      assert.equal(f.keyErrors?.count ?? 0, e.errors, `${f.topic} errors`);
    });
    assert.equal(result.topics.find((t) => t.topic === 'raw')!.keyErrors, undefined, 'hex bytes are never refused');
  });

  test('a what-if to 2^31-1 partitions on a Kafka topic: keys re-spread by the topic\'s partitioner', () => {
    const events = [parseEvent('partitions=2147483647')];
    const result = analyzeBytes(joined(ls), { settings: SETTINGS, topic: 'k-sarama', events, topKeys: 0 });
    const t = new Topology(SETTINGS, []).topic('k-sarama')!;
    t.apply(events[0]);
    const after = result.topics[0].after!;
    assert.equal(after.partitions, 2147483647);
    assert.deepEqual(new Map(after.partitionKeys!.map((p) => [p.partition, p.keys] as const)), expected(t, keys).partitions);
  });

  test('hash shares follow each client\'s arithmetic: Sarama\'s partition 0 of 3 carries 0 and 2^31 once, the rest twice', () => {
    const result = analyzeBytes(utf8('a\n'), { settings: settingsOf({ 'keyRouting.topics': [{ name: 's', system: 'kafka', partitions: 3, partitioner: 'sarama' }, { name: 'c', system: 'kafka', partitions: 3, partitioner: 'librdkafka' }] }), topKeys: 0 });
    const [s, c] = result.topics;
    const sum = (f: typeof s) => f.partitionKeys!.reduce((x, p) => x + p.hashShare, 0);
    assert.ok(Math.abs(sum(s) - 1) < 1e-12 && Math.abs(sum(c) - 1) < 1e-12);
    // Unsigned mod 3 over 2^32 values: 2^32 = 3 * 1431655765 + 1, so partition 0 has one more.
    assert.equal(c.partitionKeys![0].hashShare, 1431655766 / 2 ** 32);
    assert.equal(c.partitionKeys![1].hashShare, 1431655765 / 2 ** 32);
  });
});
