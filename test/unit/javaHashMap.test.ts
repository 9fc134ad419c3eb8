import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { INTEGER, JavaHashMap, JavaHashSet, spread, STRING, tableSizeFor, type KeyType } from '../../src/engine/kafka/javaHashMap';
import { TimelineHashMap } from '../../src/engine/kafka/timelineHashMap';
import { compareUuid, parseUuid, uuidHashCode, UUID, type Uuid } from '../../src/engine/kafka/uuid';
import { TOPIC_PARTITION, TopicPartitions } from '../../src/engine/kafka/assignors/types';
import hashMapVectors from './data/java-hashmap-order.json';
import timelineVectors from './data/kafka-timeline-hashmap-order.json';

const uuid = (s: string): Uuid => {
  const u = parseUuid(s);
  assert.notEqual(typeof u, 'string', String(u));
  return u as Uuid;
};

describe('Kafka Uuid (known answers from org.apache.kafka.common.Uuid on OpenJDK 17)', () => {
  const cases: Array<[string, number]> = [
    ['GgSK5_X1Pp6B_v5u4SBqxg', -1892736815],
    ['3NHVvglWJqhiTMpQ344zdg', 1749355056],
    ['AAAAAAAAAAAAAAAAAAAAAg', 2],
    ['_____________________w', 0],
    ['gAAAAAAAAAAAAAAAAAAAAA', -2147483648],
  ];
  for (const [text, hash] of cases) {
    test(`${text}: toString round trip and hashCode ${hash}`, () => {
      const u = uuid(text);
      assert.equal(u.text, text);
      assert.equal(uuidHashCode(u), hash);
    });
  }
  test('compareTo is signed on each half: 0x8000... sorts before 0x0000...02', () => {
    assert.equal(compareUuid(uuid('gAAAAAAAAAAAAAAAAAAAAA'), uuid('AAAAAAAAAAAAAAAAAAAAAg')), -1);
    assert.equal(compareUuid(uuid('GgSK5_X1Pp6B_v5u4SBqxg'), uuid('3NHVvglWJqhiTMpQ344zdg')), 1);
    assert.equal(compareUuid(uuid('GgSK5_X1Pp6B_v5u4SBqxg'), uuid('GgSK5_X1Pp6B_v5u4SBqxg')), 0);
  });
  test("fromString's leniency and refusals, as Java's decoder", () => {
    // The unused low bits of the last character are ignored; padding is accepted.
    assert.equal(uuid('GgSK5_X1Pp6B_v5u4SBqxh').text, 'GgSK5_X1Pp6B_v5u4SBqxg');
    assert.equal(uuid('GgSK5_X1Pp6B_v5u4SBqxg==').text, 'GgSK5_X1Pp6B_v5u4SBqxg');
    assert.match(parseUuid('GgSK5_X1Pp6B_v5u4SBqx') as string, /final unit of one character/);
    assert.match(parseUuid('GgSK5_X1Pp6B_v5u4SBq') as string, /15 bytes/);
    assert.match(parseUuid('GgSK5+X1Pp6B_v5u4SBqxg') as string, /not URL-safe base64/);
    assert.match(parseUuid('GgSK5_X1Pp6B_v5u4SBqxgAAA') as string, /too long/);
  });
});

describe('HashMap sizing', () => {
  test('tableSizeFor and the spread', () => {
    assert.deepEqual([0, 1, 2, 3, 16, 17, 1 << 30, (1 << 30) + 1].map(tableSizeFor), [1, 1, 2, 4, 16, 32, 1 << 30, 1 << 30]);
    assert.equal(spread(0x12345678), 0x12345678 ^ 0x1234);
    assert.equal(spread(-1), 0xffff0000 | 0);
  });
  test('new HashSet<>(collection) sizes for max((int) (n / .75f) + 1, 16): 12 elements get 32 buckets', () => {
    const twelve = JavaHashSet.copyOf(INTEGER, [0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // With 32 buckets 16 follows 10 (it would sit next to 0 with 16).
    assert.deepEqual([...twelve], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16]);
    const eleven = JavaHashSet.copyOf(INTEGER, [0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual([...eleven], [0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
  test('computeIfAbsent puts a new key at the head of its bucket, put at the tail', () => {
    const a = new JavaHashMap<number, number>(INTEGER);
    a.set(1, 0).set(17, 0);
    const b = new JavaHashMap<number, number>(INTEGER);
    b.computeIfAbsent(1, () => 0);
    b.computeIfAbsent(17, () => 0);
    assert.deepEqual([...a.keys()], [1, 17]);
    assert.deepEqual([...b.keys()], [17, 1]);
  });
});

/** Replays the operations of a vector in the model and prints what Java's `iter` printed. */
function replay(ops: readonly string[], types: Record<string, KeyType<string>>): string[] {
  const objs = new Map<string, JavaHashMap<string, number> | JavaHashSet<string>>();
  const out: string[] = [];
  const keys = (o: JavaHashMap<string, number> | JavaHashSet<string>): string[] => (o instanceof JavaHashMap ? [...o.keys()] : [...o]);
  for (const line of ops) {
    const p = line.split(' ');
    const [op, name] = p;
    if (op === 'map') {
      const t = types[p[2]];
      objs.set(name, p[3] === 'new' ? new JavaHashMap(t) : p[3] === 'cap' ? JavaHashMap.withCapacity(t, Number(p[4])) : JavaHashMap.copyOf(objs.get(p[4]) as JavaHashMap<string, number>));
      continue;
    }
    if (op === 'set') {
      const t = types[p[2]];
      objs.set(name, p[3] === 'new' ? JavaHashSet.empty(t) : p[3] === 'cap' ? JavaHashSet.withCapacity(t, Number(p[4])) : JavaHashSet.copyOf(t, p[3] === 'copy' ? p.slice(4) : keys(objs.get(p[4])!)));
      continue;
    }
    const o = objs.get(name)!;
    const m = o as JavaHashMap<string, number>;
    if (op === 'put') o instanceof JavaHashMap ? o.set(p[2], 1) : o.add(p[2]);
    else if (op === 'pia') m.putIfAbsent(p[2], 1);
    else if (op === 'cia') m.computeIfAbsent(p[2], () => 1);
    else if (op === 'putall') m.putAll(objs.get(p[2]) as JavaHashMap<string, number>);
    else if (op === 'rm') o.delete(p[2]);
    else if (op === 'itrm') o.deleteWhileIterating(p[2]);
    else if (op === 'iter') out.push(`${name}:${keys(o).map((k) => ` ${k}`).join('')}`);
  }
  return out;
}

describe('HashMap / HashSet iteration order against OpenJDK 17 (test/unit/data/java-hashmap-order.json)', () => {
  const asString = <K>(t: KeyType<K>, parse: (s: string) => K): KeyType<string> => ({
    hashCode: (s) => t.hashCode(parse(s)),
    id: (s) => s,
    compare: t.compare ? (a, b) => t.compare!(parse(a), parse(b)) : undefined,
  });
  const tp = new TopicPartitions();
  const types: Record<string, KeyType<string>> = {
    S: STRING,
    I: asString(INTEGER, Number),
    U: asString(UUID, uuid),
    T: asString(TOPIC_PARTITION, (s) => tp.get(s.slice(0, s.lastIndexOf(':')), Number(s.slice(s.lastIndexOf(':') + 1)))),
  };
  hashMapVectors.cases.forEach((c: { ops: string[]; iterations: string[] }, i: number) => {
    test(`case ${i}: ${c.ops.length} operations, ${c.iterations.length} iterations`, () => {
      assert.deepEqual(replay(c.ops, types), c.iterations);
    });
  });
});

describe("Kafka's TimelineHashMap iteration order (test/unit/data/kafka-timeline-hashmap-order.json)", () => {
  timelineVectors.cases.forEach((c: { ops: string[]; iterations: string[] }, i: number) => {
    test(`case ${i}`, () => {
      const m = new TimelineHashMap<string, number>(STRING);
      const out: string[] = [];
      for (const line of c.ops.slice(1)) {
        const [op, , k] = line.split(' ');
        if (op === 'put') m.set(k, 1);
        else if (op === 'rm') m.delete(k);
        else out.push(`t:${[...m.keys()].map((x) => ` ${x}`).join('')}`);
      }
      assert.deepEqual(out, c.iterations.map((l) => l.trimEnd()));
    });
  });
});
