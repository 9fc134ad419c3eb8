/**
 * The settings in the state message (src/shared/packedSettings.ts): the host packs the broker's
 * reported ranges into one Int32Array per report and each subscription's consumers into one JSON
 * string, the panel unpacks them, and the settings come back as the engine parsed them, consumers
 * without ranges and both kinds of report included.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { packSettings, unpackSettings } from '../../src/shared/packedSettings';
import { clonedObjects } from './helpers';

function settings(): Settings {
  const report = (shift: number) => ({
    at: '2026-12-01T10:00:00Z',
    consumers: [
      { name: 'c1', ranges: [[0, 99 + shift], [1001, 2147483647]] },
      { name: 'c2' },
      { name: 'c3', ranges: [[100 + shift, 1000]] },
    ],
  });
  const sub = (extra: Record<string, unknown>) => ({ name: 's', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers: [{ name: 'c1' }, { name: 'c2' }, { name: 'c3' }], ...extra });
  const { settings, problems } = parseSettings({
    'keyRouting.topics': [
      { name: 'persistent://t/ns/one', system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: sub({ observed: report(0) }) },
      { name: 'persistent://t/ns/parts', system: 'pulsar', partitions: 2, brokerVersion: '3.0', subscription: sub({ observedPartitions: [report(1), report(2)] }) },
      { name: 'plain', system: 'kafka', partitions: 6 },
    ],
  });
  assert.deepEqual(problems, []);
  return settings;
}

describe('the settings in the state message', () => {
  test('packed: one Int32Array per report, no pairs left; unpacked: the settings as parsed', () => {
    const s = settings();
    const before = JSON.stringify(s);
    const packed = packSettings(s);
    assert.equal(JSON.stringify(s), before, 'packing leaves the host\'s settings as they were');
    const reports = packed.topics.flatMap((t) => (t.system === 'pulsar' && t.subscription ? [t.subscription.observed, ...(t.subscription.observedPartitions ?? [])] : [])).filter((o) => o !== undefined);
    assert.equal(reports.length, 3);
    for (const o of reports) {
      assert.ok((o as { packedRanges?: unknown }).packedRanges instanceof Int32Array);
      assert.deepEqual(o.consumers.map((c) => c.ranges.length), [0, 0, 0]);
    }
    assert.deepEqual(unpackSettings(structuredClone(packed)), s);
  });

  test('a consumer with 70,000 ranges (more bounds than a call takes as arguments)', () => {
    // Two consumers alternating over 140,000 runs of ten hashes, from 0 as a 3.x ring reports.
    const runs = (first: number) => Array.from({ length: 70_000 }, (_, i) => [(2 * i + first) * 10, (2 * i + first) * 10 + 9]);
    const { settings: s, problems } = parseSettings({
      'keyRouting.topics': [
        {
          name: 'persistent://t/ns/many',
          system: 'pulsar',
          partitions: 0,
          brokerVersion: '3.0',
          subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers: [{ name: 'a' }, { name: 'b' }], observed: { consumers: [{ name: 'a', ranges: runs(0) }, { name: 'b', ranges: runs(1) }] } },
        },
      ],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(unpackSettings(structuredClone(packSettings(s))), s);
  });

  test("a subscription's consumers go as one string, whatever their number; unpacked, as parsed", () => {
    // A message is cloned an object and a string at a time (see packedSettings.ts).
    const sized = (n: number) =>
      parseSettings({
        'keyRouting.topics': [
          {
            name: 'persistent://t/ns/sticky',
            system: 'pulsar',
            brokerVersion: '4.0',
            subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'STICKY', consumers: Array.from({ length: n }, (_, i) => ({ name: `c-${i}`, ranges: [[i * 10, i * 10 + 9]] })) },
          },
        ],
      }).settings;
    const [ten, thousand] = [sized(10), sized(1000)];
    assert.equal(clonedObjects(packSettings(thousand)), clonedObjects(packSettings(ten)));
    assert.ok(clonedObjects(thousand) > 4000);
    for (const s of [ten, thousand, settings()]) assert.deepEqual(unpackSettings(structuredClone(packSettings(s))), s);
  });

  test('settings without a report pass through', () => {
    const { settings: s } = parseSettings({ 'keyRouting.topics': [{ name: 'plain', system: 'kafka', partitions: 6 }] });
    assert.deepEqual(unpackSettings(packSettings(s)), s);
  });
});
