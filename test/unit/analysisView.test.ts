// The Analysis view's model (src/shared/view/analysisView.ts): bars from real analyser figures,
// grouping of many units, the hottest unit, and status lines that never call partial figures whole.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeBytes } from '../../src/analyze/run';
import type { AnalysisResult } from '../../src/analyze/figures';
import { parseEvent } from '../../src/engine/events';
import { Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { analysisTopicView, runStatusText, shareChart, MAX_BARS } from '../../src/shared/view/analysisView';
import type { AnalysisRunInfo } from '../../src/shared/protocol';
import { sanitizeState } from '../../src/webview/state';
import { randInt, rng, settingsOf } from './helpers';

const SETTINGS = settingsOf({
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'wide', system: 'kafka', partitions: 1000 },
    { name: 'persistent://public/default/payments', system: 'pulsar', partitions: 4, brokerVersion: '4.0', subscription: { consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] } },
    { name: 'persistent://public/default/gap', system: 'pulsar', brokerVersion: '3.0', subscription: { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 30000]] }] } },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
});

function keys(n: number, seed = 7): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => (r() < 0.2 ? 'hot-key' : `user-${randInt(r, 1, 100_000)}`));
}

const KEYS = keys(5000);
const RESULT: AnalysisResult = analyzeBytes(KEYS.join('\n') + '\n', { settings: SETTINGS });

describe('analysis view model', () => {
  test('partition bars carry the engine\'s counts key by key, and the hottest is marked', () => {
    const v = analysisTopicView(RESULT, 'orders')!;
    const chart = v.before.partitions!;
    assert.equal(chart.grouping, 'none');
    const topic = new Topology(SETTINGS, []).topic('orders')!;
    const want = new Array(6).fill(0);
    for (const k of KEYS) want[topic.route(stringKey(k)).partition!]++;
    assert.deepEqual(chart.bars.map((b) => b.keys), want);
    const max = Math.max(...want);
    assert.deepEqual(chart.bars.filter((b) => b.hottest).map((b) => b.unit), [String(want.indexOf(max))]);
    assert.equal(chart.hottest!.keys, max);
    for (const b of chart.bars) {
      // The 31-bit hashes h with h % 6 = p, over all 2^31 of them.
      const p = Number(b.unit);
      assert.equal(b.hashShare, (Math.floor(2 ** 31 / 6) + (p < 2 ** 31 % 6 ? 1 : 0)) / 2 ** 31);
      assert.ok(Math.abs(b.ratio! - b.keyShare / b.hashShare!) < 1e-12);
    }
    assert.ok(chart.scaleMax >= Math.max(...chart.bars.map((b) => b.keyShare)));
    assert.equal(chart.skew!.max, max);
  });

  test('a thousand partitions are drawn in ranges that add up to every key', () => {
    const chart = analysisTopicView(RESULT, 'wide')!.before.partitions!;
    assert.equal(chart.grouping, 'ranges');
    assert.ok(chart.bars.length <= MAX_BARS);
    assert.equal(chart.units, 1000);
    assert.equal(chart.bars.reduce((s, b) => s + b.keys, 0), KEYS.length);
    assert.equal(chart.bars.reduce((s, b) => s + b.units, 0), 1000);
    assert.ok(Math.abs(chart.bars.reduce((s, b) => s + b.hashShare!, 0) - 1) < 1e-9);
    assert.equal(chart.bars[0].label, 'p0–p20');
    // The bar holding the busiest partition is the hottest, and only it.
    const hot = chart.bars.filter((b) => b.hottest);
    assert.equal(hot.length, 1);
    const unit = Number(chart.hottest!.unit);
    const [from, to] = hot[0].label.split('–').map((x) => Number(x.slice(1)));
    assert.ok(unit >= from && unit <= to);
  });

  test('consumers: shares of keys and hash space, unowned keys of a STICKY gap', () => {
    const pay = analysisTopicView(RESULT, 'persistent://public/default/payments')!;
    assert.deepEqual(pay.before.consumers!.bars.map((b) => b.unit), ['C1', 'C2', 'C3']);
    assert.equal(pay.before.consumers!.bars.reduce((s, b) => s + b.keys, 0) + pay.before.unowned!.keys, KEYS.length);
    assert.equal(pay.before.unowned!.keys, 0);
    assert.ok(pay.before.bundles, 'public/default has a bundle layout');
    assert.equal(pay.before.bundles!.bars.every((b) => b.hashShare === null && b.ratio === null), true);
    const gap = analysisTopicView(RESULT, 'persistent://public/default/gap')!;
    const topic = new Topology(SETTINGS, []).topic('persistent://public/default/gap')!;
    const unowned = KEYS.filter((k) => topic.route(stringKey(k)).consumer === null).length;
    assert.ok(unowned > 0);
    assert.equal(gap.before.unowned!.keys, unowned);
    assert.equal(gap.before.unowned!.share, unowned / KEYS.length);
  });

  test('many consumers: the busiest are kept and the rest summed into one bar', () => {
    const units = Array.from({ length: 100 }, (_, i) => ({ name: `c${i}`, label: `c${i}`, keys: i === 57 ? 1000 : i, keyShare: 0, hashShare: 0.01 }));
    const chart = shareChart('consumer', units, null, 10);
    assert.equal(chart.grouping, 'top');
    assert.equal(chart.bars.length, 10);
    assert.equal(chart.bars.at(-1)!.label, '91 other consumers');
    assert.equal(chart.bars.at(-1)!.units, 91);
    assert.deepEqual(chart.bars.slice(0, 9).map((b) => b.unit), ['c57', 'c92', 'c93', 'c94', 'c95', 'c96', 'c97', 'c98', 'c99']);
    assert.equal(chart.bars.reduce((s, b) => s + b.keys, 0), units.reduce((s, u) => s + u.keys, 0));
    assert.equal(chart.hottest!.unit, 'c57');
  });

  test('no keys: empty bars, a usable scale, no skew ratio', () => {
    const empty = analyzeBytes('', { settings: SETTINGS });
    const v = analysisTopicView(empty, 'orders')!;
    assert.equal(v.before.partitions!.scaleMax > 0, true);
    assert.equal(v.before.partitions!.skew!.maxOverMean, null);
    assert.equal(analysisTopicView(empty, 'no-such-topic'), undefined);
  });

  test('under a what-if: after figures, moved keys, and each heavy key\'s route after', () => {
    const events = [parseEvent('+C4')];
    const r = analyzeBytes(KEYS.join('\n'), { settings: SETTINGS, topic: 'persistent://public/default/payments', events });
    const v = analysisTopicView(r, 'persistent://public/default/payments')!;
    const before = new Topology(SETTINGS, []).topic('persistent://public/default/payments')!;
    const after = new Topology(SETTINGS, []).topic('persistent://public/default/payments')!;
    assert.ok(after.apply(events[0]).ok);
    let moved = 0;
    const perConsumer = new Map<string, number>();
    for (const k of KEYS) {
      const a = after.route(stringKey(k));
      if (a.consumer !== before.route(stringKey(k)).consumer) moved++;
      perConsumer.set(a.consumer!, (perConsumer.get(a.consumer!) ?? 0) + 1);
    }
    assert.equal(v.after!.movedKeys, moved);
    assert.deepEqual(new Map(v.after!.consumers!.bars.map((b) => [b.unit!, b.keys])), perConsumer);
    const hot = v.heavy.rows[0];
    assert.equal(hot.key, 'hot-key');
    assert.equal(hot.after!.consumer, after.route(stringKey('hot-key')).consumer);
  });
});

describe('run status line', () => {
  const run = (status: AnalysisRunInfo['status'], extra: Partial<AnalysisRunInfo> = {}): AnalysisRunInfo => ({ id: 1, source: 'keys.txt', inputLabel: 'one key per line (text)', where: 'a worker thread', status, ...extra });
  const progress = { phase: 'count' as const, bytes: 500, totalBytes: 2000, lines: 40, keys: 40, problems: 0, elapsedMs: 10 };

  test('only a complete run reads as complete', () => {
    assert.match(runStatusText(run('complete', { result: RESULT })), /^Complete: 5,000 keys/);
    const partial = runStatusText(run('running', { progress, result: { ...RESULT, status: 'partial' } }));
    assert.match(partial, /^Running: .* partial/);
    assert.match(partial, /25 % of the input read/);
    const cancelled = runStatusText(run('cancelled', { progress, result: { ...RESULT, status: 'cancelled', input: { ...RESULT.input, bytes: 600, keys: 48 } } }));
    assert.match(cancelled, /^Cancelled: the figures cover only the 48 keys read before the stop \(30 % of the input read\), not the whole input/);
    assert.match(runStatusText(run('failed', { error: 'boom' })), /^Failed: boom/);
    for (const t of [partial, cancelled]) assert.doesNotMatch(t, /Complete/);
  });

  test('a stop in the second pass says every key was counted but heavy counts are bounds', () => {
    const t = runStatusText(run('cancelled', { progress: { ...progress, phase: 'exact', totalBytes: RESULT.input.bytes }, result: { ...RESULT, status: 'cancelled' } }));
    assert.match(t, /second pass: all 5,000 keys were counted/);
  });
});

describe('panel state', () => {
  test('the Analysis view is a view the saved state keeps', () => {
    assert.deepEqual({ ...sanitizeState({ version: 1, views: { orders: 'analysis', p: 'bogus' } }).views }, { orders: 'analysis' });
  });
});
