import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { KeyAnalyzer, analyzeBytes, analyzeKeys, memorySource, toCsv, type AnalysisResult, type AnalyzeOptions, type ChunkSource } from '../../src/analyze/index';
import { CsvKeyReader, JsonLinesKeyReader, LineKeyReader, parseColumn, type KeySink } from '../../src/analyze/readers';
import { Utf8JavaHash } from '../../src/analyze/utf8JavaHash';
import { stickyKeyHashFromMurmur3, countCongruent } from '../../src/analyze/topicRouting';
import { HeavyKeys, select } from '../../src/analyze/heavyKeys';
import { bytesKey, stringKey, type MessageKey } from '../../src/engine/key';
import { decodeUtf8, utf8 } from '../../src/engine/bytes';
import { murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { parseEvent, type TopologyEvent } from '../../src/engine/events';
import { namespaceBundles, type Settings } from '../../src/engine/settings';
import { PulsarTopicState, Topology, type TopicState } from '../../src/engine/topology';
import { topicBundle } from '../../src/engine/pulsar/namespaceBundles';
import { edgeString, javaHashCodeReference, randInt, randomBytes, randomString, rng, settingsOf } from './helpers';
import { lastRoutes } from './analyzerRoutes';

// ---------------------------------------------------------------------------------------------
// Fixtures: every selector kind, both generations, both producer hashing schemes, partitioned and
// not, a subscription with a STICKY gap, shared 3.0 ring points, and a namespace layout.

const RAW_SETTINGS = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 12 },
    { name: 'persistent://public/default/payments', system: 'pulsar', partitions: 4, brokerVersion: '4.0', subscription: { consumers: ['C1', 'C2', 'C3', 'C1', 'C4'] } },
    { name: 'legacy', system: 'pulsar', brokerVersion: '3.0', subscription: { consistentHashing: false, consumers: ['A', 'B', 'C'] } },
    { name: 'ring3', system: 'pulsar', partitions: 3, hashingScheme: 'Murmur3_32Hash', brokerVersion: '3.0', subscription: { replicaPoints: 10, consumers: ['w', 'w', 'x', 'consumer-1', 'consumer-11'] } },
    { name: 'split4', system: 'pulsar', brokerVersion: '4.0', subscription: { consistentHashing: false, hashRangeSize: 256, consumers: ['P', 'Q', 'R'] } },
    {
      name: 'sticky',
      system: 'pulsar',
      partitions: 2,
      brokerVersion: '3.0',
      subscription: { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 20000]] }, { name: 'E2', ranges: [[30000, 65535]] }] },
    },
    { name: 'sticky4', system: 'pulsar', brokerVersion: '4.0', subscription: { keySharedMode: 'STICKY', consumers: [{ name: 'F1', ranges: [[0, 1], [40000, 50000]] }] } },
    { name: 'nosub', system: 'pulsar', partitions: 5 },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
};

const SETTINGS = settingsOf(RAW_SETTINGS);

/** Lines of every kind: ASCII, non-ASCII, unpaired surrogates, invalid UTF-8, empty, CRLF, heavy repeats. */
function generateLines(seed: number, n: number): Uint8Array[] {
  const r = rng(seed);
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const p = r();
    let line: Uint8Array;
    if (p < 0.3) line = utf8(`user-${randInt(r, 1, 50)}`); // heavy repeats
    else if (p < 0.6) line = utf8(`user-${randInt(r, 1, 1_000_000)}`);
    else if (p < 0.8) line = utf8(randomString(r, 30).replace(/[\n\r]/g, ''));
    else if (p < 0.95) line = randomBytes(r, randInt(r, 1, 40)).map((b) => (b === 0x0a ? 0x0b : b));
    else line = new Uint8Array(0);
    // A trailing CR would be taken for a CRLF ending.
    if (line.length > 0 && line[line.length - 1] === 0x0d) line[line.length - 1] = 0x0e;
    out.push(line);
  }
  return out;
}

function join(lines: Uint8Array[], r: () => number): Uint8Array {
  const parts: number[] = [];
  for (const l of lines) {
    for (const b of l) parts.push(b);
    if (r() < 0.2) parts.push(0x0d);
    parts.push(0x0a);
  }
  return Uint8Array.from(parts);
}

function hexOf(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The counts `route` gives, key by key, for the topics of a topology. */
function expectedCounts(topics: TopicState[], keys: MessageKey[]) {
  return topics.map((t) => {
    const partitions = new Array<number>(t.partitions).fill(0);
    const consumers = new Map<string, number>();
    let unowned = 0;
    for (const k of keys) {
      const r = t.route(k);
      if (r.partition !== null) partitions[r.partition]++;
      if (r.consumer !== undefined) {
        if (r.consumer === null) unowned++;
        else consumers.set(r.consumer, (consumers.get(r.consumer) ?? 0) + 1);
      }
    }
    return { topic: t.name, partitions, consumers, unowned };
  });
}

function assertFiguresMatch(result: AnalysisResult, topics: TopicState[], keys: MessageKey[], which: 'before' | 'after') {
  const expected = expectedCounts(topics, keys);
  assert.equal(result.topics.length, expected.length);
  result.topics.forEach((tf, i) => {
    const f = which === 'before' ? tf : tf.after!;
    const e = expected[i];
    assert.equal(tf.topic, e.topic);
    if (e.partitions.length > 0) assert.deepEqual(f.partitionKeys!.map((p) => p.keys), e.partitions, `${e.topic} partitions (${which})`);
    else assert.equal(f.partitionKeys, undefined);
    const t = topics[i];
    if (t instanceof PulsarTopicState && t.subscription) {
      const got = new Map(f.consumers!.map((c) => [c.id, c.keys]));
      for (const c of t.subscription.consumers) assert.equal(got.get(c.id), e.consumers.get(c.id) ?? 0, `${e.topic} consumer ${c.id} (${which})`);
      assert.equal(f.consumers!.length, t.subscription.consumers.length);
      assert.equal(f.unowned, e.unowned, `${e.topic} unowned (${which})`);
      const sum = f.consumers!.reduce((s, c) => s + c.keys, 0) + f.unowned!;
      assert.equal(sum, keys.length);
    } else {
      assert.equal(f.consumers, undefined);
    }
  });
}

function topologyAfter(settings: Settings, events: TopologyEvent[], topic?: string): TopicState[] {
  const t = new Topology(settings, []);
  const topics = topic ? [t.topic(topic)!] : t.topics;
  for (const e of events) {
    const targets = topic ? topics : topics.filter((x) => x instanceof PulsarTopicState && x.subscription);
    for (const x of targets) x.apply(e);
  }
  return topics;
}

/** Feeds `bytes` in random chunk sizes (1 byte to a few KiB), as a stream splits it anywhere. */
function feedRandomly(a: { feed(b: Uint8Array): void; end(): void }, bytes: Uint8Array, r: () => number) {
  let off = 0;
  while (off < bytes.length) {
    const n = r() < 0.3 ? randInt(r, 1, 3) : randInt(r, 1, 4000);
    a.feed(bytes.subarray(off, Math.min(bytes.length, off + n)));
    off += n;
  }
  a.end();
}

// ---------------------------------------------------------------------------------------------

describe('analyse: figures equal route, key by key', () => {
  const lines = generateLines(11, 6000);
  const keys = lines.map((l) => bytesKey(l));
  const file = join(lines, rng(12));
  const events = ['+C9', '-C2', '+w', '-A', '+C1'].map(parseEvent);

  test('every topic kind: counts per partition, consumer and unowned equal the counts of route', () => {
    const result = analyzeBytes(file, { settings: SETTINGS });
    assert.equal(result.status, 'complete');
    assert.equal(result.input.keys, lines.length);
    assert.equal(result.input.lines, lines.length);
    assert.equal(result.problems.count, 0);
    assertFiguresMatch(result, new Topology(SETTINGS, []).topics, keys, 'before');
  });

  test('each key goes where route sends it (every topic, before and after a what-if)', () => {
    const a = new KeyAnalyzer({ settings: SETTINGS, events });
    const before = new Topology(SETTINGS, []).topics;
    const after = topologyAfter(SETTINGS, events);
    for (const [i, line] of lines.entries()) {
      a.feed(line);
      a.feed(Uint8Array.of(0x0a));
      const got = lastRoutes(a, 'before');
      const gotAfter = lastRoutes(a, 'after');
      before.forEach((t, j) => {
        const r = t.route(keys[i]);
        assert.deepEqual(got[j], { topic: t.name, partition: r.partition, consumer: r.consumer ?? null }, `${t.name} key #${i + 1}`);
        const ra = after[j].route(keys[i]);
        assert.deepEqual(gotAfter[j], { topic: t.name, partition: ra.partition, consumer: ra.consumer ?? null }, `${t.name} after, key #${i + 1}`);
      });
    }
  });

  test('a what-if: the same figures after the events, and the keys that moved', () => {
    const result = analyzeBytes(file, { settings: SETTINGS, events });
    const before = new Topology(SETTINGS, []).topics;
    const after = topologyAfter(SETTINGS, events);
    assertFiguresMatch(result, after, keys, 'after');
    result.topics.forEach((tf, i) => {
      const moved = keys.filter((k) => {
        const b = before[i].route(k);
        const x = after[i].route(k);
        return b.partition !== x.partition || (b.consumer ?? null) !== (x.consumer ?? null);
      }).length;
      assert.equal(tf.after!.movedKeys, moved, tf.topic);
    });
    // -C2 only applies where a C2 is connected: elsewhere the broker's answer is recorded.
    const outcomes = result.whatIf!.events;
    assert.ok(outcomes.some((o) => o.event === '-C2' && o.topic === 'persistent://public/default/payments' && o.error === undefined));
    assert.ok(outcomes.some((o) => o.event === '-C2' && o.topic === 'legacy' && /no connected consumer/.test(o.error ?? '')));
  });

  test('a partition change on one topic: Kafka and Pulsar keys re-spread as route says', () => {
    for (const [topic, n] of [['orders', 13], ['persistent://public/default/payments', 7], ['ring3', 5]] as const) {
      const ev = [parseEvent(`partitions=${n}`)];
      const result = analyzeBytes(file, { settings: SETTINGS, topic, events: ev });
      assert.equal(result.topics.length, 1);
      const t = new Topology(SETTINGS, []).topic(topic)!;
      assertFiguresMatch(result, [t], keys, 'before');
      assertFiguresMatch(result, topologyAfter(SETTINGS, ev, topic), keys, 'after');
      assert.equal(result.topics[0].after!.partitions, n);
    }
  });

  test('hex input gives the same figures as the text it encodes; chunk boundaries do not matter', () => {
    const plain = analyzeBytes(file, { settings: SETTINGS, topKeys: 0 });
    const hexFile = utf8(lines.map((l) => `  ${hexOf(l).toUpperCase()}\t`).join('\n') + '\n');
    const viaHex = analyzeBytes(hexFile, { settings: SETTINGS, keyFormat: 'hex', topKeys: 0 });
    assert.deepEqual(viaHex.topics, plain.topics);
    const a = new KeyAnalyzer({ settings: SETTINGS, topKeys: 0 });
    feedRandomly(a, file, rng(99));
    assert.deepEqual(a.result().topics, plain.topics);
  });

  test('hash-space shares: a partition gets its share of 2^31 hashes; consumers share the selector exactly', () => {
    const result = analyzeBytes(file, { settings: SETTINGS, topKeys: 0 });
    for (const tf of result.topics) {
      for (const p of tf.partitionKeys ?? []) assert.equal(p.hashShare, countCongruent(0, 0x7fffffff, p.partition, tf.partitions) / 2 ** 31);
      if (tf.consumers) {
        const owned = tf.consumers.reduce((s, c) => s + c.hashShare, 0);
        if (tf.topic === 'sticky') {
          // The gap 20001..29999 belongs to nobody (10,000 of 65,536 slots).
          assert.ok(Math.abs(owned - (65536 - 9999) / 65536) < 1e-12, String(owned));
        } else if (tf.topic === 'sticky4') {
          // F1's two ranges alone (on 4.x the gap between them is nobody's): 1..1 and 40000..50000 of 1..65535.
          assert.ok(Math.abs(owned - 10002 / 65535) < 1e-12, String(owned));
        } else assert.ok(Math.abs(owned - 1) < 1e-12, `${tf.topic}: ${owned}`);
      }
    }
    const legacy = result.topics.find((t) => t.topic === 'legacy')!;
    // AUTO_SPLIT, three consumers: A keeps the upper half, B and C quarters (65,536 slots).
    assert.deepEqual(
      legacy.consumers!.map((c) => [c.id, c.hashShare * 65536]),
      [['A', 32767], ['B', 16384], ['C', 16385]],
    );
    const ring = result.topics.find((t) => t.topic === 'ring3')!;
    // Same-named consumers share every point: w and w#2 each get half of the hashes there.
    const w = ring.consumers!.find((c) => c.id === 'w')!.hashShare;
    const w2 = ring.consumers!.find((c) => c.id === 'w#2')!.hashShare;
    assert.ok(Math.abs(w - w2) < 1e-6, `${w} vs ${w2}`);
  });

  test('skew: max over mean and coefficient of variation of the counts', () => {
    const result = analyzeBytes(file, { settings: SETTINGS, topKeys: 0 });
    const kafka = result.topics[0];
    const counts = kafka.partitionKeys!.map((p) => p.keys);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    const sd = Math.sqrt(counts.reduce((s, c) => s + (c - mean) ** 2, 0) / counts.length);
    assert.equal(kafka.partitionSkew!.maxOverMean, Math.max(...counts) / mean);
    assert.ok(Math.abs(kafka.partitionSkew!.cv! - sd / mean) < 1e-12);
    assert.equal(kafka.partitionSkew!.units, 12);
  });

  test('bundles: each partition topic counts in the bundle its resolved name hashes to', () => {
    const result = analyzeBytes(file, { settings: SETTINGS, topKeys: 0 });
    const payments = result.topics.find((t) => t.topic === 'persistent://public/default/payments')!;
    const layout = namespaceBundles(SETTINGS.namespaces[0]);
    const expected = new Map<string, number>();
    payments.partitionKeys!.forEach((p) => {
      const b = topicBundle(`persistent://public/default/payments-partition-${p.partition}`, layout).bundle.name;
      expected.set(b, (expected.get(b) ?? 0) + p.keys);
    });
    assert.deepEqual(new Map(payments.bundles!.map((b) => [b.bundle, b.keys])), expected);
    // Short names resolve into public/default too; a topic in an unconfigured namespace has none.
    assert.ok(result.topics.find((t) => t.topic === 'legacy')!.bundles);
    const other = analyzeBytes('k\n', { settings: settingsOf({ 'keyRouting.topics': [{ name: 'persistent://t/ns/x', system: 'pulsar' }], 'keyRouting.pulsarNamespaces': [{ name: 'public/default' }] }) });
    assert.equal(other.topics[0].bundles, undefined);
  });

  test('the sticky key hash from the key\u2019s masked murmur3 equals each selector\u2019s makeStickyKeyHash', () => {
    const r = rng(5);
    for (const t of new Topology(SETTINGS, []).topics) {
      if (!(t instanceof PulsarTopicState)) continue;
      for (let p = 0; p < Math.max(1, t.partitions); p++) {
        const s = t.selectorFor(t.partitions > 0 ? p : null);
        for (let i = 0; i < 300; i++) {
          const b = randomBytes(r, randInt(r, 0, 50));
          assert.equal(stickyKeyHashFromMurmur3(s, murmur3Masked(b)), s.makeStickyKeyHash(b));
        }
      }
    }
  });
});

describe('analyse: JSON-serialisable result and CSV export', () => {
  test('the result survives JSON and the CSV holds every figure with RFC 4180 quoting', () => {
    const text = 'a,b\n"q""uote"\nplain\nplain\n';
    const result = analyzeBytes(text, { settings: SETTINGS, events: [parseEvent('+Z')] });
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    const csv = toCsv(result);
    const rows: string[][] = [];
    const reader = new CsvKeyReader(
      {
        key: () => {},
        problem: (line, m) => assert.fail(`CSV export line ${line}: ${m}`),
        blank: () => {},
      },
      'utf8',
      { index: 1 },
      ',',
    );
    reader.feed(utf8(csv));
    reader.end();
    // Parse again, keeping whole rows, with a simple split where no field is quoted.
    for (const line of csv.split('\r\n').filter((l) => l !== '')) rows.push(line.includes('"') ? [line] : line.split(','));
    assert.deepEqual(rows[0], ['section', 'topic', 'scenario', 'name', 'keys', 'key_share', 'hash_share', 'exact']);
    const partitionRows = rows.filter((r) => r[0] === 'partition' && r[1] === 'orders');
    assert.equal(partitionRows.length, 24); // 12 before, 12 after
    assert.ok(csv.includes('heavy_key,,,"a,b",1,'));
    assert.ok(csv.includes('heavy_key,,,"""q""""uote""",1,'));
    assert.ok(csv.includes('heavy_key,,,plain,2,'));
  });
});

// ---------------------------------------------------------------------------------------------

/** A sink that records what a reader emits. */
function recorder() {
  const keys: Array<{ key: string; line: number; text: string | null }> = [];
  const problems: Array<{ line: number; message: string }> = [];
  const blanks: number[] = [];
  const sink: KeySink = {
    key: (b, n, text, line) => keys.push({ key: new TextDecoder().decode(b.slice(0, n)), line, text }),
    problem: (line, message) => problems.push({ line, message }),
    blank: (line) => blanks.push(line),
  };
  return { sink, keys, problems, blanks };
}

function readAll(make: (sink: KeySink) => { feed(b: Uint8Array): void; end(): void }, text: string, chunked = false) {
  const rec = recorder();
  const reader = make(rec.sink);
  const bytes = utf8(text);
  if (chunked) for (const b of bytes) reader.feed(Uint8Array.of(b));
  else reader.feed(bytes);
  reader.end();
  return rec;
}

describe('readers: malformed lines are reported with their line number and skipped', () => {
  test('bad hex lines', () => {
    for (const chunked of [false, true]) {
      const rec = readAll((s) => new LineKeyReader(s, 'hex'), '75736572\n7g\nabc\n\n41\r\n75 73\n', chunked);
      assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['user', 1], ['', 4], ['A', 5]]);
      assert.deepEqual(rec.problems, [
        { line: 2, message: 'invalid hex: "g" at position 1' },
        { line: 3, message: 'invalid hex: odd number of digits (3)' },
        // Four digits and a space: the space is what is wrong, not the count.
        { line: 6, message: 'invalid hex: " " at position 2' },
      ]);
    }
  });

  test('one key per line: CRLF and LF, empty lines are empty keys, no key after the final newline', () => {
    const rec = readAll((s) => new LineKeyReader(s, 'utf8'), 'a\r\n\nb\nc');
    assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['a', 1], ['', 2], ['b', 3], ['c', 4]]);
    assert.deepEqual(readAll((s) => new LineKeyReader(s, 'utf8'), 'a\n').keys.length, 1);
    assert.deepEqual(readAll((s) => new LineKeyReader(s, 'utf8'), '').keys.length, 0);
  });

  test('a line over the key limit is reported, not kept in memory', () => {
    const rec = readAll((s) => new LineKeyReader(s, 'utf8', 8), 'short\n0123456789\n12345678\r\nok\n', true);
    assert.deepEqual(rec.keys.map((k) => k.key), ['short', '12345678', 'ok']);
    assert.deepEqual(rec.problems.map((p) => p.line), [2]);
    assert.match(rec.problems[0].message, /longer than the 8-byte key limit/);
  });

  test('CSV: quoting (delimiters, doubled quotes, line breaks inside quotes), CRLF, missing columns, bad quotes', () => {
    const text = [
      'id,key,rest', // 1 (a data row here: the column is a number)
      '1,plain,x', // 2
      '2,"with, comma",x', // 3
      '3,"say ""hi""",x', // 4
      '4,"two', // 5
      'lines",x', // 6
      '5,"",x', // 7
      '6', // 8: one field: column 2 missing
      '7,bad"quote,x', // 9
      '8,"closed"junk,x', // 10
      '', // 11: blank
      '9,last,x\r', // 12
      '10,"crlf"\r', // 13
      '11,end', // 14, no final newline
    ].join('\n');
    for (const chunked of [false, true]) {
      const rec = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 2 }), text, chunked);
      assert.deepEqual(
        rec.keys.map((k) => [k.key, k.line]),
        [['key', 1], ['plain', 2], ['with, comma', 3], ['say "hi"', 4], ['two\nlines', 5], ['', 7], ['last', 12], ['crlf', 13], ['end', 14]],
      );
      assert.deepEqual(rec.problems.map((p) => p.line), [8, 9, 10]);
      assert.match(rec.problems[0].message, /1 field; column 2 is missing/);
      assert.match(rec.problems[1].message, /quote inside unquoted field 2/);
      assert.match(rec.problems[2].message, /after the closing quote of field 2/);
      assert.deepEqual(rec.blanks, [11]);
    }
  });

  test('CSV: an unbalanced quote costs its own line only; reading resumes on the next line', () => {
    const text = 'a,1\nb,"broken\nc,3\nd,4\ne,"ok"\n';
    for (const chunked of [false, true]) {
      const rec = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 1 }), text, chunked);
      assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['a', 1], ['c', 3], ['d', 4], ['e', 5]]);
      assert.deepEqual(rec.problems.map((p) => p.line), [2]);
      assert.match(rec.problems[0].message, /not closed properly \(a character after the closing quote of field 2\); only this line is skipped, reading resumes on line 3/);
    }
    // The quote closes later but what follows is not CSV: also rewound.
    const rec = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 1 }), 'x,"open\ny,2\nz,"3"q\nw,4\n');
    assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['y', 2], ['w', 4]]);
    assert.deepEqual(rec.problems.map((p) => p.line), [1, 3]);
    // Never closed at all: the same, at the end of the input.
    const eof = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 1 }), 'p,"open\nq,2\nr,3');
    assert.deepEqual(eof.keys.map((k) => [k.key, k.line]), [['q', 2], ['r', 3]]);
    assert.match(eof.problems[0].message, /no closing quote before the end of the input/);
    assert.equal(eof.problems[0].line, 1);
    // A quoted field may not run on for ever: over maxRecordBytes it is rewound too.
    const long = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 1 }, ',', 1 << 20, 16), 'k,"a\n' + 'b,1\n'.repeat(10));
    assert.equal(long.keys.length, 10);
    assert.deepEqual(long.problems.map((p) => p.line), [1]);
  });

  test('CSV: a header names the column; TSV is recognised from the first line', () => {
    const rec = readAll((s) => new CsvKeyReader(s, 'utf8', parseColumn('user id')), 'n,"user id"\n1,alice\n2,bob\n');
    assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['alice', 2], ['bob', 3]]);
    const tsv = readAll((s) => new CsvKeyReader(s, 'utf8', { index: 2 }), 'a\tb,c\td\n1\tx,y\t2\n');
    assert.deepEqual(tsv.keys.map((k) => k.key), ['b,c', 'x,y']);
    assert.throws(() => readAll((s) => new CsvKeyReader(s, 'utf8', parseColumn('nope')), 'a,b\n1,2\n'), /no such column in the header on line 1 \(columns: "a", "b"\)/);
    assert.throws(() => parseColumn('0'), /counts from 1/);
    assert.deepEqual(parseColumn('3'), { index: 3 });
  });

  test('CSV with hex keys: a bad hex field is reported with its line', () => {
    const rec = readAll((s) => new CsvKeyReader(s, 'hex', { index: 1 }), '4142,x\nzz,y\n"43",z\n');
    assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['AB', 1], ['C', 3]]);
    assert.deepEqual(rec.problems, [{ line: 2, message: 'invalid hex: "z" at position 0' }]);
  });

  test('JSON Lines: a field of each object; bad JSON, non-objects, missing or non-string fields are reported', () => {
    const text = [
      '{"user":"alice","n":1}',
      '{"user":"b\\u00fcr"}',
      'not json',
      '[1,2]',
      '{"other":1}',
      '',
      '{"user":42}',
      '{"user":null}',
      '{"user":"\\ud800x"}',
      '  {"user": "spaced"}  ',
    ].join('\n');
    const rec = readAll((s) => new JsonLinesKeyReader(s, 'utf8', 'user'), text);
    assert.deepEqual(rec.keys.map((k) => [k.key, k.line]), [['alice', 1], ['bür', 2], ['42', 7], ['?x', 9], ['spaced', 10]]);
    // JSON strings are string keys: the text is kept (an unpaired surrogate included).
    assert.equal(rec.keys[3].text, '\ud800x');
    assert.deepEqual(rec.problems.map((p) => p.line), [3, 4, 5, 8]);
    assert.match(rec.problems[0].message, /not valid JSON/);
    assert.match(rec.problems[1].message, /not a JSON object \(got an array\)/);
    assert.match(rec.problems[2].message, /no field "user"/);
    assert.match(rec.problems[3].message, /field "user" is null, not a string/);
    assert.deepEqual(rec.blanks, [6]);
  });

  test('JSON Lines keys route as the string keys they are', () => {
    const text = '{"k":"\\ud800x"}\n{"k":"user-1"}\n';
    const settings = SETTINGS;
    const a = new KeyAnalyzer({ settings, input: { kind: 'jsonl', field: 'k' } });
    const topics = new Topology(settings, []).topics;
    const want = ['\ud800x', 'user-1'];
    const lines = text.split('\n').filter((l) => l);
    lines.forEach((l, i) => {
      a.feed(utf8(l + '\n'));
      const got = lastRoutes(a);
      topics.forEach((t, j) => {
        const r = t.route(stringKey(want[i]));
        assert.deepEqual(got[j], { topic: t.name, partition: r.partition, consumer: r.consumer ?? null });
      });
    });
  });

  test('the analyser counts problems beyond the ones it lists', () => {
    const bad = Array.from({ length: 250 }, (_, i) => (i % 2 ? 'zz' : '41')).join('\n');
    const r = analyzeBytes(bad, { settings: SETTINGS, keyFormat: 'hex', maxProblems: 10 });
    assert.equal(r.problems.count, 125);
    assert.equal(r.problems.first.length, 10);
    assert.deepEqual(r.problems.first.map((p) => p.line), [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    assert.equal(r.input.keys, 125);
  });
});

describe('Java String.hashCode straight from UTF-8 bytes', () => {
  test('equals decoding then hashing, and rejects what the strict decoder rejects', () => {
    const h = new Utf8JavaHash();
    const r = rng(77);
    const cases: Uint8Array[] = [
      Uint8Array.of(0xef, 0xbb, 0xbf, 0x41), // BOM kept
      Uint8Array.of(0xc0, 0x80), // overlong
      Uint8Array.of(0xed, 0xa0, 0x80), // surrogate
      Uint8Array.of(0xf4, 0x90, 0x80, 0x80), // above U+10FFFF
      Uint8Array.of(0xf0, 0x9f, 0x98), // truncated
      Uint8Array.of(0xe0, 0xa0, 0x80),
    ];
    for (let i = 0; i < 20000; i++) {
      if (i % 4 === 3) cases.push(utf8(edgeString(r, randInt(r, 0, 70), 0.8)));
      else if (i % 2) cases.push(utf8(randomString(r, 20)));
      else cases.push(randomBytes(r, randInt(r, 0, 12)).map((b) => (r() < 0.5 ? b & 0x7f : b)));
    }
    for (const b of cases) {
      const text = decodeUtf8(b);
      const ok = h.run(b, b.length);
      assert.equal(ok, text !== null, hexOf(b));
      if (ok) assert.equal(h.hash, javaHashCodeReference(text!), hexOf(b));
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** A stream of n keys where key `hot-i` occurs `weights[i]` times, shuffled, with unique noise keys. */
function skewedStream(seed: number, noise: number, weights: number[]): { text: string; counts: Map<string, number> } {
  const r = rng(seed);
  const items: string[] = [];
  weights.forEach((w, i) => {
    for (let j = 0; j < w; j++) items.push(`hot-${i}`);
  });
  for (let i = 0; i < noise; i++) items.push(`noise-${i}-${randInt(r, 0, 1e9)}`);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  const counts = new Map<string, number>();
  for (const k of items) counts.set(k, (counts.get(k) ?? 0) + 1);
  return { text: items.join('\n') + '\n', counts };
}

describe('heaviest keys in bounded memory', () => {
  const weights = [900, 700, 500, 400, 300, 250, 200, 150, 120, 100];
  const { text, counts } = skewedStream(3, 30000, weights);

  test('with a second pass: exact counts for the reported keys, and a provably complete list', () => {
    const r = analyzeBytes(text, { settings: SETTINGS, topKeys: 10, heavyKeyCapacity: 1024 });
    const h = r.heavyKeys;
    assert.equal(h.method, 'misra-gries+exact-pass');
    assert.ok(h.exact && h.complete, JSON.stringify({ ...h, keys: undefined }));
    assert.deepEqual(h.keys.map((k) => [k.key, k.count]), weights.map((w, i) => [`hot-${i}`, w]));
    assert.ok(h.unlistedMax < 100);
    // Routes of a heavy key are the route of that key.
    const t = new Topology(SETTINGS, []).topics;
    assert.deepEqual(h.keys[0].routes!.map((x) => x.partition), t.map((x) => x.route(stringKey('hot-0')).partition));
  });

  test('one pass (a pipe): bounds that hold the true counts, exact where the key never left the table', async () => {
    const bytes = utf8(text);
    const source: ChunkSource = { open: () => [bytes], rereadable: false };
    const r = await analyzeKeys(source, { settings: SETTINGS, topKeys: 10, heavyKeyCapacity: 64 });
    const h = r.heavyKeys;
    assert.equal(h.method, 'misra-gries');
    for (const k of h.keys) {
      const truth = counts.get(k.key)!;
      assert.ok(k.count <= truth && truth <= (k.maxCount ?? k.count), `${k.key}: ${k.count}..${k.maxCount} vs ${truth}`);
      if (k.exact) assert.equal(k.count, truth);
    }
    for (const [key, c] of counts) if (!h.keys.some((k) => k.key === key)) assert.ok(c <= h.unlistedMax, key);
  });

  test('property: over random skewed streams the guarantees hold in both modes', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed * 31);
      const w = Array.from({ length: randInt(r, 1, 30) }, () => randInt(r, 1, 400));
      const s = skewedStream(seed, randInt(r, 0, 5000), w);
      const cap = randInt(r, 4, 80);
      const k = randInt(r, 1, 15);
      const sorted = [...s.counts.values()].sort((a, b) => b - a);
      for (const exactPass of [true, false]) {
        const h = new HeavyKeys(cap);
        const bytes = s.text.split('\n').filter((x) => x !== '').map((x) => utf8(x));
        for (const b of bytes) h.add(b, b.length, murmur3Masked(b));
        const listed = exactPass ? (() => {
          const v = h.verifier(k);
          for (const b of bytes) v.add(b, b.length, murmur3Masked(b));
          return v.results().slice(0, k);
        })() : h.candidates().slice(0, k);
        for (const c of listed) {
          const truth = s.counts.get(new TextDecoder().decode(c.bytes))!;
          assert.ok(c.count <= truth && truth <= c.count + c.err, `seed ${seed}`);
          if (exactPass) assert.equal(c.count, truth);
        }
        // Anything missing occurred at most `offset` times.
        for (const [key, c] of s.counts) {
          if (!h.candidates().some((x) => new TextDecoder().decode(x.bytes) === key)) assert.ok(c <= h.offset, `seed ${seed}: ${key} ${c} > ${h.offset}`);
        }
        if (exactPass && listed.length === k && h.offset <= listed[k - 1].count) {
          // Provably complete: the listed counts are the k largest.
          assert.deepEqual(listed.map((c) => c.count), sorted.slice(0, k), `seed ${seed}`);
        }
      }
    }
  });

  test('the median of a purge: quickselect gives the k-th smallest, duplicates and all', () => {
    const r = rng(8);
    for (let t = 0; t < 2000; t++) {
      const n = randInt(r, 1, 60);
      const a = Float64Array.from({ length: n }, () => randInt(r, 1, r() < 0.5 ? 3 : 1000));
      const sorted = Array.from(a).sort((x, y) => x - y);
      const k = randInt(r, 0, n - 1);
      assert.equal(select(a, n, k), sorted[k]);
    }
  });

  test('keys longer than the stored prefix are told apart by length and two hashes', () => {
    const h = new HeavyKeys(16, 8);
    const a = utf8('0123456789-a');
    const b = utf8('0123456789-b');
    for (let i = 0; i < 5; i++) h.add(a, a.length, 1);
    for (let i = 0; i < 3; i++) h.add(b, b.length, 1);
    const c = h.candidates();
    assert.deepEqual(c.map((x) => [x.count, x.truncated, x.length]), [[5, true, 12], [3, true, 12]]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('streaming: progress, partial results, cancellation', () => {
  const lines = generateLines(21, 3000);
  const file = join(lines, rng(22));

  test('progress and partial results while it runs; the end equals the synchronous run', async () => {
    const progress: number[] = [];
    const partial: AnalysisResult[] = [];
    const r = await analyzeKeys(memorySource(file, 512), { settings: SETTINGS }, {
      onProgress: (p) => progress.push(p.keys),
      onPartial: (x) => partial.push(x),
      progressIntervalMs: 0,
      partialIntervalMs: 0,
    });
    const sync = analyzeBytes(file, { settings: SETTINGS });
    assert.deepEqual({ ...r, elapsedMs: 0 }, { ...sync, elapsedMs: 0 });
    assert.ok(progress.length > 5);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b));
    assert.ok(partial.length > 5 && partial.every((p) => p.status === 'partial'));
    assert.ok(partial[0].input.keys < lines.length);
  });

  test('cancellation: an endless source stops within one chunk of the signal', async () => {
    const ac = new AbortController();
    let pulled = 0;
    let pulledAtAbort = -1;
    const chunk = utf8('user-1\nuser-2\nuser-3\n'.repeat(100));
    const endless: ChunkSource = {
      rereadable: true,
      async *open() {
        for (;;) {
          pulled++;
          if (pulled === 50) {
            ac.abort();
            pulledAtAbort = pulled;
          }
          yield chunk;
        }
      },
    };
    const r = await analyzeKeys(endless, { settings: SETTINGS }, { signal: ac.signal });
    assert.equal(r.status, 'cancelled');
    assert.ok(pulled - pulledAtAbort <= 1, `pulled ${pulled - pulledAtAbort} chunks after the abort`);
    assert.equal(r.input.keys, 49 * 300);
  });

  test('cancellation from outside: a source that never waits still gives the event loop a turn', async () => {
    const ac = new AbortController();
    const big = utf8('k-1\nk-2\n'.repeat(200_000));
    setTimeout(() => ac.abort(), 0);
    const r = await analyzeKeys(memorySource(big, 4096), { settings: SETTINGS }, { signal: ac.signal, yieldEveryMs: 0 });
    assert.equal(r.status, 'cancelled');
    assert.ok(r.input.keys < 400_000);
    assert.ok(r.input.keys <= 2 * 4096);
  });

  test('input that cannot be analysed rejects with what is wrong', async () => {
    await assert.rejects(
      analyzeKeys(memorySource('a,b\n1,2\n'), { settings: SETTINGS, input: { kind: 'csv', column: { name: 'zzz' } } }),
      /no such column/,
    );
    assert.throws(() => new KeyAnalyzer({ settings: SETTINGS, topic: 'nope' } as AnalyzeOptions), /no topic named "nope"/);
    assert.throws(() => new KeyAnalyzer({ settings: SETTINGS, events: [parseEvent('partitions=20')] }), /needs a topic/);
  });
});
