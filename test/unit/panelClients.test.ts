/**
 * The panel with main's client choices and int32 partition counts: the hash a topic's routes show
 * is named by its partitioner, a namespace too large to hash is summarised (not counted from a part
 * of its topics), and the Analysis view draws a sparse partition count over every partition.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { buildTopicView } from '../../src/shared/view/topicView';
import { buildNamespaceView, MAX_HASHED_TOPICS } from '../../src/shared/view/namespaceView';
import { sparsePartitionChart } from '../../src/shared/view/analysisView';
import { buildFrame } from '../../src/shared/view/frame';

function settingsOf(raw: Record<string, unknown>): Settings {
  const { settings, problems } = parseSettings(raw);
  assert.deepEqual(problems, []);
  return settings;
}

describe('panel: client choices', () => {
  test('the hash column is named by the topic\'s partitioner; a client that ignores keys has none', () => {
    const s = settingsOf({
      'keyRouting.topics': [
        { name: 'a', system: 'kafka', partitions: 6 },
        { name: 'b', system: 'kafka', partitions: 6, partitioner: 'librdkafka' },
        { name: 'c', system: 'kafka', partitions: 6, partitioner: 'sarama' },
        { name: 'd', system: 'kafka', partitions: 6, partitioner: 'kafka-go' },
        { name: 'persistent://public/default/e', system: 'pulsar', partitions: 6, hashingScheme: 'BoostHash-1.81' },
      ],
    });
    const t = new Topology(s, []);
    const names = t.topics.map((x) => buildTopicView(x, []).partitions?.hash);
    assert.deepEqual(names, ['murmur2', 'CRC-32', 'FNV-1a', null, 'BoostHash-1.81']);
    // A frame carries the same model as the panel's own view.
    for (const x of t.topics) assert.deepEqual(buildFrame(x, []).partitions, buildTopicView(x, []).partitions);
  });

  test('each key\'s route carries every producer\'s partition as the engine routes it', () => {
    const s = settingsOf({ 'keyRouting.topics': [{ name: 'o', system: 'kafka', partitions: 6, producers: ['java', 'librdkafka'] }] });
    const topic = new Topology(s, []).topics[0];
    const labels = ['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6'];
    const v = buildTopicView(topic, labels.map((l) => ({ label: l, key: stringKey(l) })));
    for (const m of v.markers) assert.deepEqual(m.route.byProducer, topic.route(stringKey(m.label)).byProducer);
    // CLIENT-PARTITIONERS.md: user-1..user-6 on 6 partitions, librdkafka default 2 4 0 3 3 3.
    assert.deepEqual(v.markers.map((m) => m.route.byProducer!.librdkafka), [2, 4, 0, 3, 3, 3]);
    assert.ok(v.markers.some((m) => m.route.disagree));
  });
});

describe('panel: int32 partition counts', () => {
  test('a namespace with more partition topics than the panel hashes is summarised; the splits that count topics say so', () => {
    const s = settingsOf({
      'keyRouting.topics': [
        { name: 'persistent://t/ns/small', system: 'pulsar', partitions: 3 },
        { name: 'persistent://t/ns/huge', system: 'pulsar', partitions: 2147483647 },
      ],
    });
    const v = buildNamespaceView(s, 'persistent://t/ns/small', 3, [1], null);
    assert.ok(!('error' in v));
    assert.deepEqual(v.unhashed, [{ topic: 'persistent://t/ns/huge', partitions: 2147483647 }]);
    for (const sp of v.splits) {
      if (sp.algorithm === 'range_equally_divide') assert.deepEqual(sp.positions, [v.focus.lower + Math.floor((v.focus.upper - v.focus.lower) / 2)]);
      else {
        assert.equal(sp.positions, null);
        assert.match(sp.skipped!, /huge: 2,147,483,647/);
      }
    }
    // Below the cap every topic is hashed and nothing is skipped.
    const ok = buildNamespaceView(settingsOf({ 'keyRouting.topics': [{ name: 'persistent://t/ns/x', system: 'pulsar', partitions: MAX_HASHED_TOPICS }] }), 'persistent://t/ns/x', MAX_HASHED_TOPICS, [0], null);
    assert.ok(!('error' in ok));
    assert.deepEqual(ok.unhashed, []);
    assert.ok(ok.splits.every((sp) => sp.skipped === undefined));
  });

  test('a sparse partition count is drawn over every partition: runs sum their partitions\' keys, the hash share is not guessed', () => {
    const n = 2147483647;
    const held = [
      { partition: 0, keys: 3, keyShare: 0.3 },
      { partition: 44739242, keys: 1, keyShare: 0.1 },
      { partition: 44739243, keys: 5, keyShare: 0.5 },
      { partition: n - 1, keys: 1, keyShare: 0.1 },
    ];
    const c = sparsePartitionChart(n, held, null, 48);
    assert.equal(c.units, n);
    assert.equal(c.bars.length, 48);
    assert.equal(c.bars.reduce((a, b) => a + b.units, 0), n);
    assert.equal(c.bars.reduce((a, b) => a + b.keys, 0), 10);
    const size = Math.ceil(n / 48); // 44739243
    assert.equal(c.bars[0].keys, 4); // partitions 0 and 44739242
    assert.equal(c.bars[1].keys, 5);
    assert.equal(c.bars[1].label, `p${size}–p${2 * size - 1}`);
    assert.equal(c.bars[47].keys, 1);
    assert.ok(c.bars.every((b) => b.hashShare === null));
    assert.deepEqual(c.hottest, { unit: '44739243', label: 'p44739243', keys: 5, keyShare: 0.5 });
    assert.ok(c.bars[1].hottest && !c.bars[0].hottest);
  });
});
