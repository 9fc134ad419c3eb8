import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { Topology, PulsarTopicState } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { parseEvent } from '../../src/engine/events';
import { segmentsOfTable, type Consumer, type HashRange, type Segment, type SegmentTable } from '../../src/engine/pulsar/keyShared/selector';
import { buildTopicView } from '../../src/shared/view/topicView';
import { buildWhatIf } from '../../src/shared/view/whatIfView';
import { orderingNote } from '../../src/shared/view/orderingNote';
import { ColorMap, OwnerTable, ownerIndexes } from '../../src/shared/view/owners';
import { binPoints, type PointBin, type RingModel } from '../../src/shared/view/ring';
import { buildSegments, fullWindow, layoutSegments, segmentIndexAt, type Run, type SegmentsModel, type ZoomWindow } from '../../src/shared/view/segments';
import { plainModel, randInt, rng } from './helpers';

// The panel's view model is built from the selectors' columns in single passes. The oracles here
// are the straightforward versions they replaced (one object per segment, closures per column),
// and for the what-if a topology built again from the settings instead of a clone.

function settingsOf(sub: Record<string, unknown>, consumers: number, brokerVersion: '3.0' | '4.0'): Settings {
  const names = Array.from({ length: consumers }, (_, i) => ({ name: i % 9 === 0 ? 'dup' : `consumer-${(i * 7) % 60}` }));
  const { settings, problems } = parseSettings({
    'keyRouting.topics': [
      { name: 't', system: 'pulsar', partitions: 3, brokerVersion, subscription: { name: 's', type: 'Key_Shared', ...sub, consumers: 'ranges' in sub ? sub.consumers : names } },
    ],
  });
  assert.deepEqual(problems, []);
  return settings;
}

const CASES: Array<[string, Record<string, unknown>, '3.0' | '4.0']> = [
  ['ring 3.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 40 }, '3.0'],
  ['ring 4.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 40 }, '4.0'],
  ['auto-split 3.0, range 256', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false, hashRangeSize: 256 }, '3.0'],
  ['auto-split 4.0', { keySharedMode: 'AUTO_SPLIT', consistentHashing: false }, '4.0'],
];

const keys = Array.from({ length: 12 }, (_, i) => ({ label: `k-${i}`, key: stringKey(`k-${i}`) }));

describe('panel view model from the selector columns', () => {
  for (const [label, sub, version] of CASES) {
    test(`${label}: segments model equals the one built from segment objects; layouts and bins equal the plain versions`, () => {
      const settings = settingsOf(sub, 300, version);
      const topic = new Topology(settings, []).topics[0] as PulsarTopicState;
      const sel = topic.subscription!.selector;
      const fast = buildSegments(sel.segmentTable(), sel.keyHashRange, sel.keyValues, new OwnerTable(new ColorMap()), topic.subscription!.consumers);
      const ref = buildSegmentsReference(sel.segments(), sel.keyHashRange, sel.keyValues, new OwnerTable(new ColorMap()), topic.subscription!.consumers);
      assert.deepEqual(plainModel(fast), plainModel(ref));
      const view = buildTopicView(topic, keys);
      const m = view.selector!.segments;
      const r = rng(label.length);
      const windows: ZoomWindow[] = [fullWindow(m.space)];
      for (let i = 0; i < 12; i++) {
        const from = randInt(r, m.space[0], m.space[1]);
        windows.push({ from, to: Math.min(m.space[1], from + randInt(r, 0, Math.floor((m.space[1] - m.space[0]) / randInt(r, 1, 5000)))) });
      }
      for (const w of windows) {
        for (const width of [1, 37, 572, 1168]) {
          assert.deepEqual(layoutSegments(m, w, width), layoutReference(m, w, width), `${w.from}-${w.to} @ ${width}`);
          if (view.selector!.ring) assert.deepEqual(binPoints(view.selector!.ring, w, width), binReference(view.selector!.ring, w, width));
        }
      }
    });

    test(`${label}: the what-if on a clone of the panel's topic equals the one built from the settings, and leaves the topic as it was`, () => {
      const settings = settingsOf(sub, 120, version);
      const topic = new Topology(settings, []).topics[0] as PulsarTopicState;
      const ids = topic.subscription!.consumers.map((c) => c.id);
      const before = plainModel(buildTopicView(topic, keys));
      for (const evs of [['+extra'], [`-${ids[3]}`, '+dup', `-${ids[0]}`], ['partitions=5', '+late'], [`-${ids[7]}`, `+${topic.subscription!.consumers[7].name}`]]) {
        const events = evs.map(parseEvent);
        const fromClone = buildWhatIf(settings, 't', events, keys, undefined, undefined, topic)!;
        const fromSettings = buildWhatIf(settings, 't', events, keys)!;
        assert.deepEqual(plainModel(fromClone), plainModel(fromSettings), evs.join(' '));
        const noteClone = orderingNote(settings, 't', events, keys, fromClone, topic);
        const noteSettings = orderingNote(settings, 't', events, keys, fromSettings);
        assert.deepEqual(noteClone, noteSettings);
        assert.deepEqual(plainModel(buildTopicView(topic, keys)), before, 'the panel topic is unchanged');
      }
    });
  }

  test('a table with gaps and an empty segment goes through the general path: gaps are nobody\'s, the empty one is skipped', () => {
    const a: Consumer = { id: 'a', name: 'a' };
    const b: Consumer = { id: 'b', name: 'b' };
    const segs: Segment[] = [
      { start: 0, end: 9, consumers: [a] },
      { start: 20, end: 29, consumers: [a] },
      { start: 30, end: 39, consumers: [b] },
      { start: 40, end: 39, consumers: [a] },
      { start: 40, end: 63, consumers: [b] },
    ];
    const space: HashRange = [0, 63];
    const m = buildSegments(segs, space, space, new OwnerTable(new ColorMap()));
    assert.deepEqual(plainModel(m), plainModel(buildSegmentsReference(segs, space, space, new OwnerTable(new ColorMap()))));
    assert.deepEqual(Array.from(m.starts), [0, 10, 20, 30]);
    assert.deepEqual(m.owners.map((o) => [o.label, o.values]), [['nobody', 10], ['a', 20], ['b', 34]]);
    assert.deepEqual(plainModel(segmentsOfTable({ count: 0, starts: new Float64Array(0), ends: new Float64Array(0), owner: new Int32Array(0), owners: [] })), []);
  });

  test('owner sets are interned in the order their first segment or point holds them, and only those', () => {
    const [x, y, z, w] = ['x', 'y', 'z', 'w'].map((id): Consumer => ({ id, name: id }));
    const table = new OwnerTable(new ColorMap());
    // Holders as a ring keeps them: >= 0 a code, < 0 a shared entry standing for shared[~h].
    const index = ownerIndexes(Int32Array.from([3, ~0, 1, ~1, 3]), 5, [[x], [y], [z], [w], [x, y]], table, Int32Array.from([2, 0]));
    assert.deepEqual(Array.from(index), [4, 3, 2, 1, -1]);
    assert.deepEqual(table.owners.map((o) => o.label), ['nobody', 'w', 'z', 'y', 'x']);
  });

  test('a covering table whose neighbours hold equal owner sets goes through the general path, with the same owners', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id): Consumer => ({ id, name: id }));
    // Codes 0 and 2 are two lists of the same consumer: their segments merge into one of a's.
    const src: SegmentTable = {
      count: 4,
      starts: Int32Array.from([0, 10, 20, 30]),
      ends: Int32Array.from([9, 19, 29, 63]),
      owner: Int32Array.from([1, 0, 2, 1]),
      owners: [[a], [b], [a], [c]],
    };
    const space: HashRange = [0, 63];
    const m = buildSegments(src, space, space, new OwnerTable(new ColorMap()));
    assert.deepEqual(plainModel(m), plainModel(buildSegmentsReference(segmentsOfTable(src), space, space, new OwnerTable(new ColorMap()))));
    assert.deepEqual(Array.from(m.starts), [0, 10, 30]);
    assert.deepEqual(m.owners.map((o) => [o.label, o.values]), [['nobody', 0], ['b', 44], ['a', 20]]);
  });
});

// ---------------------------------------------------------------------------------------------
// Oracles: the versions these replaced.

function buildSegmentsReference(
  segments: readonly Segment[],
  space: HashRange,
  keyValues: HashRange,
  table: OwnerTable,
  consumers: readonly Consumer[] = [],
): SegmentsModel {
  table.addConsumers(consumers);
  const [lo, hi] = space;
  const cap = segments.length * 2 + 1;
  const starts = new Float64Array(cap);
  const ends = new Float64Array(cap);
  const owner = new Int32Array(cap);
  let n = 0;
  let next = lo;
  const push = (s: number, e: number, o: number): void => {
    // Adjacent runs of the same owner merge (a gap next to nobody's segment, say).
    if (n > 0 && owner[n - 1] === o && ends[n - 1] + 1 === s) {
      ends[n - 1] = e;
      return;
    }
    starts[n] = s;
    ends[n] = e;
    owner[n] = o;
    n++;
  };
  for (const seg of segments) {
    const s = Math.max(seg.start, lo);
    const e = Math.min(seg.end, hi);
    if (e < s || e < next) continue;
    if (s > next) push(next, s - 1, 0);
    push(Math.max(s, next), e, table.indexOf(seg.consumers));
    next = e + 1;
  }
  if (next <= hi) push(next, hi, 0);
  const model: SegmentsModel = {
    space: [lo, hi],
    keyValues: [keyValues[0], keyValues[1]],
    count: n,
    starts: starts.subarray(0, n),
    ends: ends.subarray(0, n),
    owner: owner.subarray(0, n),
    owners: table.owners,
  };
  computeSharesReference(model);
  return model;
}

function computeSharesReference(m: SegmentsModel): void {
  for (const o of m.owners) o.values = 0;
  const [vlo, vhi] = m.keyValues;
  for (let i = 0; i < m.count; i++) {
    const s = Math.max(m.starts[i], vlo);
    const e = Math.min(m.ends[i], vhi);
    if (e >= s) m.owners[m.owner[i]].values += e - s + 1;
  }
  const total = vhi - vlo + 1;
  for (const o of m.owners) o.share = o.values / total;
}

function layoutReference(m: SegmentsModel, w: ZoomWindow, width: number): Run[] {
  const runs: Run[] = [];
  if (m.count === 0 || width <= 0) return runs;
  const span = w.to - w.from + 1;
  // Multiply before dividing: (span * width) / span is exactly width, so the runs end at width.
  const px = (v: number): number => ((v - w.from) * width) / span;
  let i = Math.max(0, segmentIndexAt(m, w.from));
  // The column being accumulated from partial segments: cover per owner in a flat array, with
  // the owners touched listed, so 100 segments per column cost no allocation.
  let col = -1;
  const cover = new Float64Array(m.owners.length);
  const touched: number[] = [];
  let colFirst = 0;
  let colLast = 0;
  const flush = (): void => {
    if (col < 0) return;
    let best = touched[0];
    for (const o of touched) if (cover[o] > cover[best]) best = o;
    pushRun(runs, { x0: col, x1: col + 1, owner: best, mixed: touched.length > 1, first: colFirst, last: colLast });
    for (const o of touched) cover[o] = 0;
    touched.length = 0;
    col = -1;
  };
  const addToColumn = (c: number, owner: number, amount: number, seg: number): void => {
    if (c !== col) {
      flush();
      col = c;
      colFirst = seg;
    }
    colLast = seg;
    if (cover[owner] === 0) touched.push(owner);
    // A sliver too thin to register still counts as present.
    cover[owner] += amount > 0 ? amount : Number.MIN_VALUE;
  };
  for (; i < m.count && m.starts[i] <= w.to; i++) {
    const a = px(Math.max(m.starts[i], w.from));
    const b = px(Math.min(m.ends[i], w.to) + 1);
    const o = m.owner[i];
    const ca = Math.floor(a);
    const cb = Math.ceil(b) - 1; // last column touched
    if (ca === cb) {
      // Inside one column, or exactly filling it.
      if (b - a >= 1 && col !== ca) {
        flush();
        pushRun(runs, { x0: ca, x1: ca + 1, owner: o, mixed: false, first: i, last: i });
      } else addToColumn(ca, o, b - a, i);
      continue;
    }
    // The partial head column, the full middle columns, the partial tail column.
    let fullFrom = ca;
    if (a > ca || col === ca) {
      addToColumn(ca, o, ca + 1 - a, i);
      fullFrom = ca + 1;
    }
    const fullTo = b < cb + 1 ? cb - 1 : cb;
    if (fullTo >= fullFrom) {
      flush();
      pushRun(runs, { x0: fullFrom, x1: fullTo + 1, owner: o, mixed: false, first: i, last: i });
    }
    if (fullTo < cb) addToColumn(cb, o, b - cb, i);
  }
  flush();
  return runs;
}

function pushRun(runs: Run[], r: Run): void {
  const last = runs[runs.length - 1];
  if (last && last.x1 === r.x0 && last.owner === r.owner && last.mixed === r.mixed) {
    last.x1 = r.x1;
    last.last = r.last;
    return;
  }
  runs.push(r);
}

function binReference(ring: RingModel, w: ZoomWindow, bins: number): PointBin[] {
  const out: PointBin[] = [];
  const n = ring.points.length;
  if (n === 0 || bins <= 0) return out;
  const span = w.to - w.from + 1;
  // Points per owner in the current bin, in a flat array with the owners touched listed.
  let owners = 0;
  for (let i = 0; i < n; i++) if (ring.owner[i] >= owners) owners = ring.owner[i] + 1;
  const counts = new Int32Array(owners);
  const touched: number[] = [];
  let cur: PointBin | null = null;
  const close = (): void => {
    if (!cur) return;
    let best = touched[0];
    for (const o of touched) if (counts[o] > counts[best]) best = o;
    cur.owner = best;
    cur.mixed = touched.length > 1;
    out.push(cur);
    for (const o of touched) counts[o] = 0;
    touched.length = 0;
    cur = null;
  };
  let i = lowerBoundReference(ring.points, w.from);
  for (; i < n && ring.points[i] <= w.to; i++) {
    const b = Math.min(bins - 1, Math.floor(((ring.points[i] - w.from) * bins) / span));
    if (!cur || cur.bin !== b) {
      close();
      cur = { bin: b, count: 0, owner: 0, mixed: false, first: i };
    }
    cur.count++;
    const o = ring.owner[i];
    if (counts[o]++ === 0) touched.push(o);
  }
  close();
  return out;
}

function lowerBoundReference(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
