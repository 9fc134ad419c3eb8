/**
 * observedView: what the panel draws of a broker's report. The Pulsar expectations are read off the
 * stats fixture (its ranges, draining hashes, consumers) and worked out by hand from the AUTO_SPLIT
 * rules of ALGORITHMS.md section 3; the Kafka owners off the describe output's rows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPulsarStats } from '../../src/import/pulsarStats';
import { importKafkaGroups } from '../../src/import/kafkaGroups';
import { parseSettings } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { observedView, type KafkaObservedView, type PulsarObservedView } from '../../src/engine/observed/view';
import { mergeImported } from '../../src/import/merge';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const read = (f: string) => readFileSync(join(DATA, f), 'utf8');
const TOPIC = 'persistent://public/default/orders';
const AT = '2026-12-01T10:00:00Z';

/** The layout the topic's routes read, as runs of consumer names. */
function layoutOf(t: Topology): Array<{ start: number; end: number; consumers: string[] }> {
  const state = t.topic(TOPIC) as PulsarTopicState;
  return state.selectorFor(null).segments().map((s) => ({ start: s.start, end: s.end, consumers: s.consumers.map((c) => c.id) }));
}

function topologyOf(raw: Record<string, unknown>): Topology {
  const { settings, problems } = parseSettings(raw);
  assert.deepEqual(problems, []);
  return new Topology(settings, []);
}

describe('observedView: a Pulsar report', () => {
  // The 4.x AUTO_SPLIT stats: C1 [40961, 65536] draining 17872 (2 unacked, 5 blocked) and 22049
  // (3, 6); C3 [0, 16384]; C4 [16385, 40960]; connectedSince order C1, C3, C4.
  const stats = JSON.parse(read('pulsar-4.0-auto-split-draining.json'));
  const reported = (stats.subscriptions['orders-sub'].consumers as Array<{ consumerName: string; keyHashRangeArrays: number[][]; drainingHashes: Array<{ hash: number; unackMsgs: number; blockedAttempts: number }> }>);
  const imported = importPulsarStats(read('pulsar-4.0-auto-split-draining.json'), { source: 's.json', topic: TOPIC, at: AT });
  const topology = () => topologyOf(mergeImported(undefined, imported));

  test('observed at, the reported layout and the draining marks, as the stats say', () => {
    const t = topology();
    const v = observedView(t, TOPIC) as PulsarObservedView;
    assert.equal(v.system, 'pulsar');
    assert.equal(v.at, AT);
    assert.equal(v.current, true);
    assert.equal(v.groups.length, 1);
    assert.equal(v.groups[0].partitions, null, 'a non-partitioned topic');
    const runs = reported.flatMap((c) => c.keyHashRangeArrays.map(([s, e]) => ({ start: s, end: e, consumers: [c.consumerName] }))).sort((a, b) => a.start - b.start);
    // The top key 65536 is in the report but no 4.x key hash reaches it: the bar ends at 65535.
    runs[runs.length - 1].end = Math.min(runs[runs.length - 1].end, 65535);
    // Until a consumer event, routes read the report: the topic's selector is the reported layout.
    assert.deepEqual(layoutOf(t), runs);
    assert.equal('layout' in v.groups[0], false, 'the view leaves the layout to the selector (the host frames draw it)');
    const draining = reported.flatMap((c) => c.drainingHashes.map((d) => ({ hash: d.hash, consumer: c.consumerName, unackMsgs: d.unackMsgs, blockedAttempts: d.blockedAttempts }))).sort((a, b) => a.hash - b.hash);
    assert.equal(draining.length, 2);
    assert.deepEqual(v.groups[0].draining, draining);
  });

  test('the comparison with what the configured connection order predicts', () => {
    // Connecting C1, C3, C4 afresh: C1 [0, 65536]; C3 takes the lower half [0, 32768]; C4 splits
    // the largest range, C3's (32769 values against C1's 32768), taking [0, 16384]. The report
    // has C3 [0, 16384], C4 [16385, 40960] (a consumer that left since moved the split points).
    const { predicted } = (observedView(topology(), TOPIC) as PulsarObservedView).groups[0];
    assert.equal(predicted.equal, false);
    assert.deepEqual(predicted.differences, [
      { start: 0, end: 16384, reported: ['C3'], other: ['C4'] },
      { start: 16385, end: 32768, reported: ['C4'], other: ['C3'] },
      { start: 32769, end: 40960, reported: ['C4'], other: ['C1'] },
    ]);
    assert.equal(predicted.size, 16385 + 16384 + 8192);
    assert.match(predicted.reason, /AUTO_SPLIT split points depend on the whole connection history/);
  });

  test('after a consumer event the view says routes no longer read the report, and its comparisons stay', () => {
    const t = topology();
    const state = t.topic(TOPIC) as PulsarTopicState;
    const before = observedView(t, TOPIC) as PulsarObservedView;
    const reported = layoutOf(t);
    assert.ok(state.apply({ kind: 'connect', name: 'C5' }).ok);
    const v = observedView(t, TOPIC) as PulsarObservedView;
    assert.equal(v.current, false);
    assert.deepEqual(v.groups[0].predicted, before.groups[0].predicted, 'the comparison is of the report, not of the routes');
    assert.deepEqual(v.groups[0].draining, before.groups[0].draining);
    assert.notDeepEqual(layoutOf(t).map((r) => r.start), reported.map((r) => r.start), 'the routes follow the event');
  });

  test('a topic without a report has no view', () => {
    const t = topologyOf({ 'keyRouting.topics': [{ name: TOPIC, system: 'pulsar', subscription: { name: 's', type: 'Key_Shared', consumers: [{ name: 'C1' }] } }] });
    assert.equal(observedView(t, TOPIC), undefined);
    assert.equal(observedView(t, 'no-such-topic'), undefined);
  });
});

describe('observedView: a Kafka report', () => {
  test('each group reading the topic, with the owners the describe output lists', () => {
    const text = read('kafka-groups-describe.txt');
    const t = topologyOf(mergeImported(undefined, importKafkaGroups(text, { source: 'g.txt', at: AT })));
    const v = observedView(t, 'orders') as KafkaObservedView;
    assert.equal(v.system, 'kafka');
    assert.equal(v.groups.length, 1);
    assert.equal(v.groups[0].group, 'billing');
    assert.equal(v.groups[0].at, AT);
    assert.equal(v.groups[0].current, true);
    const rows = text.split('\n').map((l) => l.trim().split(/\s+/)).filter((c) => c[0] === 'billing' && c[1] === 'orders');
    const want: Array<string | null> = Array(6).fill(null);
    for (const c of rows) want[Number(c[2])] = c[6] === '-' ? null : c[6];
    assert.deepEqual(v.groups[0].owners, want);
  });
});
