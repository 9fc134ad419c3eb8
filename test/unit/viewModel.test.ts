import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { Topology, PulsarTopicState, type TopicState } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { utf8 } from '../../src/engine/bytes';
import { runWhatIf } from '../../src/engine/whatIf';
import { parseEvent } from '../../src/engine/events';
import { buildTopicView, layoutPartitions, cellOf, type ShownKey } from '../../src/shared/view/topicView';
import { layoutSegments, segmentIndexAt, zoomWindow, panWindow, fullWindow, clampWindow, valueAt, xOf, windowAround, type SegmentsModel } from '../../src/shared/view/segments';
import { arcOf, binPoints, owningPoint, angleOf } from '../../src/shared/view/ring';
import { buildWhatIf, mergeRanges, rebuildDifference, topicFromSettings } from '../../src/shared/view/whatIfView';
import { buildNamespaceView } from '../../src/shared/view/namespaceView';
import { orderingNote } from '../../src/shared/view/orderingNote';
import { crc32 as zlibCrc32Raw } from 'node:zlib';
import { randInt } from './helpers';
import { rangesOutside } from '../../src/engine/pulsar/keyShared/selector';

function settingsOf(topics: unknown[]): Settings {
  const { settings, problems } = parseSettings({ 'keyRouting.topics': topics });
  assert.deepEqual(problems, []);
  return settings;
}

function topicOf(topics: unknown[], name?: string): TopicState {
  const t = new Topology(settingsOf(topics), []);
  return name ? t.topic(name)! : t.topics[0];
}

function keys(labels: string[]): ShownKey[] {
  return labels.map((l) => ({ label: l, key: stringKey(l) }));
}

/** A small deterministic generator, so property tests replay. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const pulsar = (sub: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'persistent://public/default/t',
  system: 'pulsar',
  partitions: 0,
  ...extra,
  subscription: { name: 's', type: 'Key_Shared', ...sub },
});

const names = (n: number, prefix = 'c') => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }));

const SELECTOR_CASES: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['4.0 auto-split', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: names(5) }, { brokerVersion: '4.0' }],
  ['3.0 auto-split', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: names(7) }, { brokerVersion: '3.0' }],
  ['4.0 ring', { consumers: names(20), replicaPoints: 50 }, { brokerVersion: '4.0' }],
  ['3.0 ring', { consumers: [...names(12), { name: 'c1' }], replicaPoints: 30 }, { brokerVersion: '3.0' }],
  [
    '4.0 sticky with gaps',
    {
      keySharedMode: 'STICKY',
      consumers: [
        { name: 'E1', ranges: [[0, 16383], [32768, 40000]] },
        { name: 'E2', ranges: [[50000, 50000]] },
        { name: 'E3', ranges: [[60000, 65535]] },
      ],
    },
    { brokerVersion: '4.0' },
  ],
  ['3.0 sticky, one range', { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[100, 200]] }] }, { brokerVersion: '3.0' }],
  ['4.0 ring, no consumers', { consumers: [] }, { brokerVersion: '4.0' }],
];

function assertCovers(m: SegmentsModel): void {
  assert.ok(m.count > 0);
  assert.equal(m.starts[0], m.space[0]);
  assert.equal(m.ends[m.count - 1], m.space[1]);
  for (let i = 0; i < m.count; i++) {
    assert.ok(m.starts[i] <= m.ends[i], `segment ${i} is not empty`);
    if (i > 0) assert.equal(m.starts[i], m.ends[i - 1] + 1, `segment ${i} starts where ${i - 1} ends`);
    if (i > 0) assert.ok(m.owner[i] !== m.owner[i - 1], `segments ${i - 1} and ${i} of the same owner are merged`);
  }
  const total = m.owners.reduce((a, o) => a + o.values, 0);
  assert.equal(total, m.keyValues[1] - m.keyValues[0] + 1, 'owners share every key value once');
}

describe('segments model', () => {
  for (const [label, sub, extra] of SELECTOR_CASES) {
    test(`${label}: segments cover the key hash space, once, and agree with select()`, () => {
      const topic = topicOf([pulsar(sub, extra)]) as PulsarTopicState;
      const view = buildTopicView(topic, []);
      const m = view.selector!.segments;
      assertCovers(m);
      const sel = topic.subscription!.selector;
      assert.deepEqual(m.space, [...sel.keyHashRange]);
      // Every segment's owner is who select() picks inside it (sampled at both ends and middle).
      for (let i = 0; i < m.count; i++) {
        for (const slot of [m.starts[i], m.ends[i], Math.floor((m.starts[i] + m.ends[i]) / 2)]) {
          if (slot < sel.keyValues[0]) continue;
          // For the 3.x hash-range selectors the slot is hash % rangeSize; slot itself is such a hash.
          const picked = sel.select(slot);
          const ids = m.owners[m.owner[i]].ids;
          if (picked === null) assert.deepEqual(ids, [], `slot ${slot}: nobody`);
          else assert.ok(ids.includes(picked.id), `slot ${slot}: ${picked.id} in ${ids}`);
        }
      }
    });
  }

  for (const v of ['3.0', '4.0'] as const) {
    test(`${v} STICKY: gaps between different consumers are nobody's; a gap inside one consumer's span is ${v === '3.0' ? 'its own' : "nobody's"}`, () => {
      const topic = topicOf([pulsar(SELECTOR_CASES[4][1], { brokerVersion: v })]);
      const m = buildTopicView(topic, []).selector!.segments;
      const at = (slot: number) => m.owners[m.owner[segmentIndexAt(m, slot)]].ids;
      // Between E1's two ranges: E1's on 3.x (floor and ceiling both E1), in no range on 4.x.
      assert.deepEqual(at(20000), v === '3.0' ? ['E1'] : []);
      assert.deepEqual(at(45000), []); // between E1 and E2
      assert.deepEqual(at(50000), ['E2']);
      assert.deepEqual(at(55000), []);
      assert.deepEqual(at(65535), ['E3']);
      assert.equal(m.owners.find((o) => o.label === 'E2')!.values, 1);
      // 3.x: 0..40000; 4.x: its two ranges alone, without slot 0 (no key hashes to it there).
      assert.equal(m.owners.find((o) => o.label === 'E1')!.values, v === '3.0' ? 40001 : 16383 + 7233);
    });
  }
});

describe('key markers', () => {
  test('the documented key Order-3459134: 3.0 hash-range slot 6067, 4.0 ring hash h % 65535 + 1', () => {
    const h = murmur3Masked(utf8('Order-3459134'));
    assert.equal(h, 964695987); // ALGORITHMS.md, section 2
    const t3 = topicOf([pulsar({ consistentHashing: false, consumers: names(3) }, { brokerVersion: '3.0' })]);
    const m3 = buildTopicView(t3, keys(['Order-3459134'])).markers[0];
    assert.equal(m3.route.stickyKeyHash, 964695987);
    assert.equal(m3.slot, 6067);
    const t4 = topicOf([pulsar({ consumers: names(3) }, { brokerVersion: '4.0' })]);
    const m4 = buildTopicView(t4, keys(['Order-3459134'])).markers[0];
    assert.equal(m4.slot, (964695987 % 65535) + 1);
  });

  for (const [label, sub, extra] of SELECTOR_CASES) {
    test(`${label}: each key's marker sits in the segment of the consumer it routes to`, () => {
      const topic = topicOf([pulsar(sub, extra)]);
      const ks = keys(Array.from({ length: 300 }, (_, i) => `key-${i}`));
      const view = buildTopicView(topic, ks);
      const m = view.selector!.segments;
      for (const mk of view.markers) {
        assert.ok(mk.slot !== null && mk.segment >= 0);
        assert.ok(m.starts[mk.segment] <= mk.slot! && mk.slot! <= m.ends[mk.segment]);
        const ids = m.owners[m.owner[mk.segment]].ids;
        if (mk.route.consumer === null) assert.deepEqual(ids, []);
        else assert.ok(ids.includes(mk.route.consumer!), `${mk.label}: ${mk.route.consumer} in ${ids}`);
        if (mk.route.range) assert.ok(mk.route.range[0] >= m.starts[mk.segment] - 0 || ids.length > 1);
      }
      assert.deepEqual(view.markers.map((x) => x.n), ks.map((_, i) => i + 1));
    });
  }

  test('Kafka: markers carry the partition the engine routes to; partition cells cover every partition once', () => {
    const topic = topicOf([{ name: 'orders', system: 'kafka', partitions: 6 }]);
    const view = buildTopicView(topic, keys(['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6']));
    // ALGORITHMS.md section 1: user-1..user-6 with 6 partitions give 2, 2, 5, 1, 4, 5.
    assert.deepEqual(view.markers.map((m) => m.route.partition), [2, 2, 5, 1, 4, 5]);
    assert.equal(view.selector, null);
    for (const [count, width] of [[6, 600], [1000, 300], [100000, 1234], [1, 10]]) {
      const cells = layoutPartitions(count, width);
      assert.equal(cells[0].first, 0);
      assert.equal(cells[cells.length - 1].last, count - 1);
      for (let i = 1; i < cells.length; i++) assert.equal(cells[i].first, cells[i - 1].last + 1);
      for (const p of [0, count - 1, Math.floor(count / 2)]) {
        const c = cellOf(cells, p);
        assert.ok(cells[c].first <= p && p <= cells[c].last);
      }
    }
  });
});

describe('ring', () => {
  test('arcs go clockwise to the owning point and wrap past the top to the first point', () => {
    for (const version of ['3.0', '4.0']) {
      const topic = topicOf([pulsar({ consumers: names(3), replicaPoints: 5 }, { brokerVersion: version })]);
      const ks = keys(Array.from({ length: 2000 }, (_, i) => `k${i}`));
      const view = buildTopicView(topic, ks);
      const ring = view.selector!.ring!;
      assert.equal(ring.points.length, 15 - 0); // 3 x 5 points, no collision for these names
      const last = ring.points[ring.points.length - 1];
      let wrapped = 0;
      for (const mk of view.markers) {
        const arc = mk.arc!;
        assert.equal(arc.from, mk.slot);
        const pi = owningPoint(ring, mk.slot!);
        assert.equal(arc.to, ring.points[pi]);
        // The point's owner is the consumer the key goes to.
        assert.ok(view.selector!.segments.owners[ring.owner[pi]].ids.includes(mk.route.consumer!));
        if (mk.slot! > last) {
          wrapped++;
          assert.ok(arc.wraps);
          assert.equal(arc.to, ring.points[0]);
          const size = ring.space[1] - ring.space[0] + 1;
          assert.equal(arc.length, ring.space[1] - mk.slot! + 1 + (ring.points[0] - ring.space[0] + 1));
          assert.ok(arc.length <= size);
        } else {
          assert.ok(!arc.wraps);
          assert.ok(arc.to >= mk.slot!);
          assert.equal(arc.length, arc.to - arc.from + 1);
          // No point lies strictly inside the arc.
          assert.ok(pi === 0 || ring.points[pi - 1] < mk.slot!);
        }
      }
      assert.ok(wrapped > 0, `${version}: some of 2000 keys land above the last point`);
    }
  });

  test('a hash exactly on a point is owned by that point, with an arc of length 1', () => {
    const topic = topicOf([pulsar({ consumers: names(2), replicaPoints: 3 }, { brokerVersion: '4.0' })]);
    const ring = buildTopicView(topic, []).selector!.ring!;
    const p = ring.points[1];
    const arc = arcOf(ring, p)!;
    assert.deepEqual([arc.to, arc.wraps, arc.length], [p, false, 1]);
    assert.equal(angleOf(ring.space[0], ring.space), 0);
  });

  test('binned points add up to the points in the window', () => {
    const topic = topicOf([pulsar({ consumers: names(50), replicaPoints: 100 }, { brokerVersion: '3.0' })]);
    const ring = buildTopicView(topic, []).selector!.ring!;
    for (const w of [fullWindow(ring.space), { from: 1e8, to: 3e8 }]) {
      const bins = binPoints(ring, w, 360);
      const inWindow = Array.from(ring.points).filter((p) => p >= w.from && p <= w.to).length;
      assert.equal(bins.reduce((a, b) => a + b.count, 0), inWindow);
      assert.ok(bins.every((b, i) => b.bin >= 0 && b.bin < 360 && (i === 0 || b.bin > bins[i - 1].bin)));
    }
  });
});

describe('layout (decimation)', () => {
  test('runs tile the width exactly, and each unmixed run shows the owner of the values under it', () => {
    const next = rng(7);
    for (const [label, sub, extra] of SELECTOR_CASES) {
      const topic = topicOf([pulsar(sub, extra)]);
      const m = buildTopicView(topic, []).selector!.segments;
      for (let trial = 0; trial < 20; trial++) {
        const width = 50 + Math.floor(next() * 900);
        const full = fullWindow(m.space);
        const w = trial === 0 ? full : zoomWindow(full, m.space, next() * 0.5 + 0.0001, m.space[0] + next() * (m.space[1] - m.space[0]));
        const runs = layoutSegments(m, w, width);
        assert.equal(runs[0].x0, 0, label);
        assert.equal(runs[runs.length - 1].x1, width, label);
        for (let i = 1; i < runs.length; i++) assert.equal(runs[i].x0, runs[i - 1].x1, `${label}: contiguous`);
        assert.ok(runs.length <= width, `${label}: at most one run per column`);
        for (const r of runs) {
          if (r.mixed) continue;
          // Every value under an unmixed run belongs to its owner.
          for (const x of [r.x0 + 0.01, (r.x0 + r.x1) / 2, r.x1 - 0.01]) {
            const v = valueAt(x, w, width);
            assert.equal(m.owner[segmentIndexAt(m, v)], r.owner, `${label}: x=${x} v=${v}`);
          }
        }
      }
    }
  });

  test('1,000 consumers x 100 points: 100,000 segments become at most one run per pixel column', () => {
    const topic = topicOf([pulsar({ consumers: names(1000), replicaPoints: 100 }, { brokerVersion: '3.0' })]);
    const view = buildTopicView(topic, []);
    const m = view.selector!.segments;
    assert.ok(m.count > 90_000, `${m.count} segments`);
    const runs = layoutSegments(m, fullWindow(m.space), 1200);
    assert.ok(runs.length <= 1200);
    assert.ok(runs.some((r) => r.mixed));
    // Zoomed in far enough, nothing is mixed any more.
    const w = windowAround(m.starts[5000], m.space, 1200);
    assert.ok(layoutSegments(m, w, 1200).every((r) => !r.mixed));
    assert.equal(binPoints(view.selector!.ring!, fullWindow(m.space), 720).reduce((a, b) => a + b.count, 0), view.selector!.ring!.points.length);
  });

  test('zoom and pan stay inside the space; clampWindow repairs bad saved windows', () => {
    const space: [number, number] = [1, 65535];
    let w = fullWindow(space);
    w = zoomWindow(w, space, 0.25, 65535);
    assert.equal(w.to, 65535);
    assert.equal(w.to - w.from + 1, Math.round(65535 * 0.25));
    w = panWindow(w, space, 10);
    assert.equal(w.to, 65535);
    w = panWindow(w, space, -10);
    assert.equal(w.from, 1);
    const tiny = zoomWindow(w, space, 1e-9);
    assert.equal(tiny.to - tiny.from + 1, 16); // the smallest window
    assert.ok(tiny.from <= 8192 && 8192 <= tiny.to, 'zoomed around the centre of the window');
    assert.deepEqual(zoomWindow(w, space, 1e9), fullWindow(space));
    assert.deepEqual(clampWindow({ from: NaN, to: 3 }, space), fullWindow(space));
    assert.deepEqual(clampWindow({ from: 900, to: 100 }, space), { from: 900, to: 900 });
    assert.deepEqual(clampWindow({ from: -5, to: 1e12 }, space), fullWindow(space));
    assert.equal(xOf(1, fullWindow(space), 100), 0);
    assert.equal(valueAt(99.999, fullWindow(space), 100), 65535);
  });
});

describe('what-if model', () => {
  const autoSplit = [pulsar({ consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }] }, { brokerVersion: '3.0' })];

  test('adding C3 to C1, C2 (AUTO_SPLIT): C3 takes [0, 16384] from C2, as the documented scenario says', () => {
    const settings = settingsOf(autoSplit);
    const ks = keys(Array.from({ length: 400 }, (_, i) => `order-${i}`));
    const w = buildWhatIf(settings, 'persistent://public/default/t', [parseEvent('+C3')], ks)!;
    assert.deepEqual(w.movedRanges, [[0, 16384]]);
    assert.equal(w.movedFraction, 16385 / 65536);
    assert.deepEqual(w.steps[0].lost, { C2: [[0, 16384]] });
    assert.deepEqual(w.steps[0].gained, { C3: [[0, 16384]] });
    // The moved keys are exactly those whose slot is in the moved range.
    for (const k of w.keys) {
      const slot = murmur3Masked(utf8(k.key)) % 65536;
      assert.equal(k.moved, slot <= 16384, k.key);
      if (k.moved) assert.deepEqual([k.before.consumer, k.after.consumer], ['C2', 'C3']);
    }
    assert.equal(w.movedKeyFraction, w.keys.filter((k) => k.moved).length / 400);
    // Colours follow ids from before to after.
    const colorOf = (v: typeof w.before, id: string) => v.selector!.segments.owners.find((o) => o.label === id)!.color;
    assert.equal(colorOf(w.before, 'C2'), colorOf(w.after, 'C2'));
    assert.notEqual(colorOf(w.after, 'C3'), colorOf(w.after, 'C2'));
    assert.deepEqual(w.apply.consumers, [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }]);
    assert.equal(w.applyDiffers, 0);
  });

  test('the overall moved share equals the engine\'s runWhatIf for one step, and the union over several', () => {
    const settings = settingsOf([pulsar({ consumers: names(10), replicaPoints: 100 }, { brokerVersion: '4.0' })]);
    const name = settings.topics[0].name;
    const events = [parseEvent('+extra')];
    const w = buildWhatIf(settings, name, events, [])!;
    const direct = runWhatIf(new Topology(settings, []).topic(name)!, events, []);
    assert.equal(w.movedFraction, direct.steps[0].movedFraction);
    // Add then remove the same consumer: the 4.x ring gives its points back, nothing moved overall.
    const back = buildWhatIf(settings, name, [parseEvent('+extra'), parseEvent('-extra')], [])!;
    assert.equal(back.movedFraction, 0);
    assert.deepEqual(back.movedRanges, []);
    assert.ok(back.steps[0].movedFraction > 0 && back.steps[1].movedFraction > 0);
  });

  test('a history the settings cannot express is flagged: removing C1 from C1, C2, C3 (AUTO_SPLIT)', () => {
    const settings = settingsOf([pulsar({ consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] }, { brokerVersion: '3.0' })]);
    const w = buildWhatIf(settings, settings.topics[0].name, [parseEvent('-C1')], [])!;
    assert.deepEqual(w.apply.consumers, [{ name: 'C2' }, { name: 'C3' }]);
    // After: C3 [0,16384], C2 [16385,65536]; rebuilt from [C2, C3]: C3 [0,32768], C2 above.
    assert.equal(w.applyDiffers, (32768 - 16384) / 65536);
  });

  test('on a subscription as the broker reported it, the rebuild check drops the report as Apply does', () => {
    // The report names x and y; after "-x" Apply writes [y] without it. The check kept the report,
    // which then named a consumer the settings did not list, and restoring it threw.
    const observed = { consumers: [{ name: 'x', ranges: [[1, 30000]] }, { name: 'y', ranges: [[30001, 65535]] }] };
    const settings = settingsOf([pulsar({ replicaPoints: 4, consumers: [{ name: 'x' }, { name: 'y' }], observed }, { brokerVersion: '4.0' })]);
    const w = buildWhatIf(settings, settings.topics[0].name, [parseEvent('-x')], [])!;
    assert.deepEqual(w.apply.consumers, [{ name: 'y' }]);
    assert.equal(w.applyDiffers, 0, 'y alone owns every hash either way');
  });

  test('joins alone need no rebuild check: the settings listing the consumers in order give the same layout', () => {
    // buildWhatIf skips the rebuild for joins; this checks the claim it relies on, per selector.
    for (const [label, sub, extra] of SELECTOR_CASES) {
      const settings = settingsOf([pulsar(sub, extra)]);
      const name = settings.topics[0].name;
      const sticky = (sub as { keySharedMode?: string }).keySharedMode === 'STICKY';
      const events = sticky
        ? [parseEvent('+N1:20000-20010'), parseEvent('+N2:20100-20200')]
        : [parseEvent('+c1'), parseEvent('+new'), parseEvent('+c3'), parseEvent('+new')];
      const after = topicFromSettings(settings, name)!;
      for (const e of events) after.apply(e);
      const consumers = (after as PulsarTopicState).subscription!.consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([a, b]) => [a, b] as [number, number]) } : { name: c.name }));
      assert.equal(rebuildDifference(settings, name, after, consumers), 0, label);
    }
  });

  test('Kafka partitions=N: the moved keys are the ones whose partition changed', () => {
    const settings = settingsOf([{ name: 'orders', system: 'kafka', partitions: 6 }]);
    const ks = keys(['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6']);
    const w = buildWhatIf(settings, 'orders', [parseEvent('partitions=8')], ks)!;
    assert.equal(w.movedFraction, null);
    assert.equal(w.apply.partitions, 8);
    assert.equal(w.apply.consumers, null);
    for (const k of w.keys) assert.equal(k.moved, k.before.partition !== k.after.partition);
    assert.equal(w.steps[0].movedFraction, w.keys.filter((k) => k.moved).length / 6);
    // A refused step (fewer partitions) is reported and changes nothing.
    const bad = buildWhatIf(settings, 'orders', [parseEvent('partitions=3')], ks)!;
    assert.match(bad.steps[0].error!, /higher than the requested 3/);
    assert.equal(bad.apply.partitions, 6);
  });

  test('3.0 ring, a same-named consumer joins: every point changes its owner set (lists change in place)', () => {
    const settings = settingsOf([pulsar({ consumers: [{ name: 'C1' }], replicaPoints: 20 }, { brokerVersion: '3.0' })]);
    const w = buildWhatIf(settings, settings.topics[0].name, [parseEvent('+C1')], [])!;
    // Before, every point holds [C1]; after, [C1, C1#2] (keys split by hash % 2).
    assert.equal(w.movedFraction, 1);
    assert.deepEqual(w.movedRanges, [[0, 0x7fffffff]]);
    assert.deepEqual(w.after.selector!.consumers, ['C1', 'C1#2']);
    assert.deepEqual(w.before.selector!.segments.owners.slice(1).map((o) => o.label), ['C1']);
  });

  test('the ordering note (4.0): a moved key\'s hash drains at its previous consumer', () => {
    const settings = settingsOf([pulsar({ consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }] }, { brokerVersion: '4.0' })]);
    const name = settings.topics[0].name;
    // +C3 splits C2's [0, 32768] and takes [0, 16384]: keys hashing there move from C2 to C3.
    const all = keys(Array.from({ length: 200 }, (_, i) => `k${i}`));
    const movedKey = all.find((k) => { const h = murmur3Masked(k.key.bytes) % 65536; return h >= 1 && h <= 16384; })!;
    const stayKey = all.find((k) => murmur3Masked(k.key.bytes) % 65536 > 32768)!;
    const shown = [movedKey, stayKey];
    const events = [parseEvent('+C3')];
    const w = buildWhatIf(settings, name, events, shown)!;
    const note = orderingNote(settings, name, events, shown, w)!;
    assert.equal(note.generation, '4.0');
    assert.equal(note.steps.length, 1);
    const text = note.steps[0].lines.join('\n');
    const hash = murmur3Masked(movedKey.key.bytes) % 65536;
    assert.match(text, new RegExp(`Hash ${hash} drains at C2`));
    assert.match(text, /move from C2 to C3/);
    assert.equal(orderingNote(settings, name, [], shown, w), null);
  });

  test('mergeRanges sorts, merges adjacent and overlapping ranges, and clips', () => {
    assert.deepEqual(mergeRanges([[10, 20], [0, 4], [5, 6], [18, 30], [70000, 80000]], [0, 65535]), [[0, 6], [10, 30]]);
    assert.deepEqual(mergeRanges([[0, 65536]], [0, 65535]), [[0, 65535]]);
  });

  test('mergeRanges gives the runs of the values its ranges cover within the bounds, ascending or not', () => {
    const r = rng(416);
    for (let trial = 0; trial < 300; trial++) {
      const ranges = Array.from({ length: randInt(r, 0, 8) }, (): [number, number] => {
        const s = randInt(r, -5, 60);
        return [s, s + randInt(r, -2, 12)];
      });
      if (r() < 0.5) ranges.sort((a, b) => a[0] - b[0]);
      const bounds: [number, number] = [randInt(r, -3, 10), randInt(r, 30, 70)];
      // The covered values, one by one, and their runs.
      const want: Array<[number, number]> = [];
      for (let v = bounds[0]; v <= bounds[1]; v++) {
        if (!ranges.some(([s, e]) => s <= v && v <= e)) continue;
        const last = want[want.length - 1];
        if (last && last[1] === v - 1) last[1] = v;
        else want.push([v, v]);
      }
      assert.deepEqual(mergeRanges(ranges, bounds), want, JSON.stringify({ ranges, bounds }));
    }
  });

  test('rangesOutside leaves the values of its runs that no window holds, in runs cut at the windows', () => {
    const r = rng(417);
    /** Ascending, disjoint, maybe adjacent ranges within 0..40. */
    const runs = (): Array<[number, number]> => {
      const out: Array<[number, number]> = [];
      for (let v = randInt(r, 0, 3); v <= 40; v += randInt(r, 1, 4)) {
        const e = Math.min(40, v + randInt(r, 0, 5));
        out.push([v, e]);
        v = e;
      }
      return out.filter(() => r() < 0.7);
    };
    for (let trial = 0; trial < 500; trial++) {
      const from = runs();
      const windows = runs();
      const want: Array<[number, number]> = [];
      for (const [s, e] of from) {
        for (let v = s; v <= e; v++) {
          if (windows.some(([a, b]) => a <= v && v <= b)) continue;
          const last = want[want.length - 1];
          if (last && last[1] === v - 1 && last[0] >= s) last[1] = v;
          else want.push([v, v]);
        }
      }
      assert.deepEqual(rangesOutside(from, windows), want, JSON.stringify({ from, windows }));
    }
    assert.deepEqual(rangesOutside([[0, 10], [11, 12]], [[3, 4], [12, 20]]), [[0, 2], [5, 10], [11, 11]]);
  });
});

describe('namespace bundles view', () => {
  // An independent CRC-32 (zlib's), the hash the broker takes of the full topic name.
  const zlibCrc32 = (s: string): number => zlibCrc32Raw(s);

  test('each partition is its own topic on the 32-bit ring; the key\'s partition picks the bundle shown', () => {
    const settings = settingsOf([{ name: 'persistent://public/default/orders', system: 'pulsar', partitions: 6 }]);
    const v = buildNamespaceView(settings, 'persistent://public/default/orders', 6, [4], null);
    assert.ok(!('error' in v));
    assert.equal(v.configured, false); // not configured: the broker default of 4 bundles
    assert.equal(v.layout.size, 4);
    assert.equal(v.marks.length, 6);
    for (const m of v.marks) {
      assert.equal(m.hash, zlibCrc32(`persistent://public/default/orders-partition-${m.partition}`));
      assert.equal(m.bundle, Math.floor(m.hash / 0x40000000));
    }
    const mark4 = v.marks.find((m) => m.partition === 4)!;
    assert.deepEqual(mark4.keys, [1]);
    assert.equal(v.focus.index, mark4.bundle);
    // range_equally_divide: the middle of the bundle.
    const range = v.splits.find((s) => s.algorithm === 'range_equally_divide')!;
    assert.deepEqual(range.positions, [v.focus.lower + Math.floor((v.focus.upper - v.focus.lower) / 2)]);
    // specified_positions_divide without positions: the broker's exception.
    assert.equal(v.splits.find((s) => s.algorithm === 'specified_positions_divide')!.error, "SplitBoundaries can't be empty");
    // flow_or_qps without load figures: no split, and the help text tells of the +1.
    const flow = v.splits.find((s) => s.algorithm === 'flow_or_qps_equally_divide')!;
    assert.equal(flow.positions, null);
    assert.match(flow.note, /96, not 95/);
    // The owned topics are the partitions hashing into the focus bundle.
    assert.deepEqual(v.owned.map((o) => o.name).sort(), v.marks.filter((m) => m.bundle === v.focus.index).map((m) => m.name).sort());
    const tc = v.splits.find((s) => s.algorithm === 'topic_count_equally_divide')!;
    if (v.owned.length <= 1) assert.equal(tc.positions, null);
    else {
      const h = v.owned.map((o) => o.hash).sort((a, b) => a - b);
      const half = Math.floor(h.length / 2);
      const [a, b] = [h[Math.max(half - 1, 0)], h[half]];
      assert.deepEqual(tc.positions, [a + Math.floor((b - a) / 2)]);
    }
  });

  test('configured boundaries and given positions are used; a non-partitioned topic is one mark', () => {
    const { settings, problems } = parseSettings({
      'keyRouting.topics': [
        { name: 'persistent://tenant/ns/a', system: 'pulsar' },
        { name: 'persistent://tenant/ns/b', system: 'pulsar' },
      ],
      'keyRouting.pulsarNamespaces': [{ name: 'tenant/ns', boundaries: ['0x00000000', '0xffffffff'] }],
    });
    assert.deepEqual(problems, []);
    const v = buildNamespaceView(settings, 'persistent://tenant/ns/a', 0, [null], [0x10, 0x7fffffff, 0x10000000]);
    assert.ok(!('error' in v));
    assert.equal(v.configured, true);
    assert.equal(v.layout.size, 1);
    assert.equal(v.marks.length, 1);
    assert.equal(v.marks[0].partition, null);
    assert.equal(v.marks[0].hash, zlibCrc32('persistent://tenant/ns/a'));
    assert.equal(v.owned.length, 2); // both topics are in the one bundle
    assert.deepEqual(v.splits.find((s) => s.algorithm === 'specified_positions_divide')!.positions, [0x10, 0x10000000, 0x7fffffff]);
    assert.ok('error' in buildNamespaceView(settings, 'persistent://a/b', 0, [], null));
  });
});
