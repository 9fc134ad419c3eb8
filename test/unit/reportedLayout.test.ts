// ReportedRing (engine/observed/reportedLayout.ts), 4.x: a report's ranges, whatever order the
// broker listed consumers and ranges in, become the layout routes read: the ranges by start, a
// consumer's adjacent ranges one segment, every hash value routed to the consumer whose range holds
// it. Checked against the report read value by value at every bound.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReportedRing } from '../../src/engine/observed/reportedLayout';
import { createSelector } from '../../src/engine/pulsar/keyShared/subscription';
import type { Consumer, HashRange } from '../../src/engine/pulsar/keyShared/selector';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { reportedRanges } from './brokerReports';
import { propertyRuns } from './helpers';

const RING4 = { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, hashRangeSize: 65536 } as const;
const RING3 = { ...RING4, brokerVersion: '3.0' } as const;

/** Cuts of 1..65535 into ranges, an owner (of five, two of them sharing a name) for each, a report order. */
const reportArb = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 2, max: 65535 }), { maxLength: 40 }),
    fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 41, maxLength: 41 }),
    fc.array(fc.integer(), { minLength: 41, maxLength: 41 }),
  )
  .map(([cuts, owners, order]) => {
    const bounds = [1, ...cuts.sort((a, b) => a - b), 65536];
    const ranges = bounds.slice(0, -1).map((start, i): { range: HashRange; owner: number; rank: number } => ({ range: [start, bounds[i + 1] - 1], owner: owners[i], rank: order[i] }));
    return ranges;
  });

const CONSUMERS: Consumer[] = [
  { id: 'C1', name: 'C1' },
  { id: 'C2', name: 'C2' },
  { id: 'C3', name: 'C3' },
  { id: 'same', name: 'same' },
  { id: 'same#2', name: 'same' },
];

describe('ReportedRing, 4.x', () => {
  test('routes every value to the consumer whose reported range holds it, in any report order', () => {
    fc.assert(
      fc.property(reportArb, fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 }), (ranges, consumerOrder) => {
        // The report: consumers in some order, each with its ranges in some order.
        const order = [...new Set([...consumerOrder, 0, 1, 2, 3, 4])];
        const reported = order.map((o) => ({
          consumer: CONSUMERS[o],
          ranges: ranges
            .filter((r) => r.owner === o)
            .sort((a, b) => a.rank - b.rank)
            .map((r) => r.range),
        }));
        const ring = new ReportedRing(createSelector(RING4), reported);
        const ownerAt = (h: number) => ranges.find((r) => r.range[0] <= h && h <= r.range[1]);
        // Segments: the ranges by start, a consumer's adjacent ones merged.
        const want: Array<{ start: number; end: number; ids: string[] }> = [];
        for (const r of [...ranges].sort((a, b) => a.range[0] - b.range[0])) {
          const last = want[want.length - 1];
          if (last && last.ids[0] === CONSUMERS[r.owner].id && last.end + 1 === r.range[0]) last.end = r.range[1];
          else want.push({ start: r.range[0], end: r.range[1], ids: [CONSUMERS[r.owner].id] });
        }
        assert.deepEqual(
          ring.segments().map((s) => ({ start: s.start, end: s.end, ids: s.consumers.map((c) => c.id) })),
          want,
        );
        for (const r of ranges) {
          for (const h of [r.range[0] - 1, r.range[0], r.range[1], r.range[1] + 1]) {
            if (h < 1 || h > 65535) continue;
            assert.equal(ring.select(h)?.id, CONSUMERS[ownerAt(h)!.owner].id, `hash ${h}`);
          }
        }
      }),
      propertyRuns(500),
    );
  });

  test('a report without ranges is an empty layout', () => {
    const ring = new ReportedRing(createSelector(RING4), [{ consumer: CONSUMERS[0], ranges: [] }]);
    assert.deepEqual(ring.segments(), []);
    assert.equal(ring.select(100), null);
  });
});

describe('ReportedRing, 3.x', () => {

  test('the report of a real 3.x ring reads back as that ring: its segments, a shared point\'s consumers by name, the wrap above the last point', () => {
    // Names from a small pool, so that consumers of one name share every point (a list at the point).
    const names = fc.array(fc.constantFrom('a', 'b', 'c', 'B', 'é', 'z0'), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 40 }), fc.array(fc.integer(), { minLength: 8, maxLength: 8 }), (list, points, order) => {
        const ring = new ConsistentHashing3Selector(points);
        const counts = new Map<string, number>();
        const consumers = list.map((name): Consumer => {
          const k = (counts.get(name) ?? 0) + 1;
          counts.set(name, k);
          return { id: k === 1 ? name : `${name}#${k}`, name };
        });
        for (const c of consumers) ring.addConsumer(c);
        const ranges = reportedRanges(ring, consumers);
        // The report may list consumers in any order, but those of one name in the order they
        // connected (the dispatcher's list), which is what orders them at a shared point.
        const shuffled = consumers.map((c, i) => ({ c, rank: order[i] })).sort((x, y) => x.rank - y.rank).map(({ c }) => c);
        const next = new Map<string, number>();
        const inOrder = shuffled.map((c) => {
          const k = next.get(c.name) ?? 0;
          next.set(c.name, k + 1);
          return consumers.filter((x) => x.name === c.name)[k];
        });
        const reported = inOrder.map((c) => ({ consumer: c, ranges: ranges.get(c)! }));
        const read = new ReportedRing(createSelector(RING3), reported);
        const ids = (segs: ReturnType<typeof ring.segments>) => segs.map((x) => [x.start, x.end, x.consumers.map((c) => c.id)]);
        assert.deepEqual(ids(read.segments()), ids(ring.segments()));
      }),
      propertyRuns(300),
    );
  });
});

describe('ReportedRing, 3.x past 2^22 ranges', () => {
  test('a report too long for the packed sort is ordered by its comparator: every point where it is, a shared point by name, then report order', () => {
    // 2,600,000 points of 4 values each at the top of the hash space: point k is b's, a's, or
    // shared by a, a#2 (both named "a") and b (k % 3). That is 4,333,333 ranges, past the 2^22 =
    // 4,194,304 up to which the sort key start * n + i is exact (here it would pass 2^53, where
    // doubles are 2 apart). a reports first, its ranges from the highest down; a#2 and b then list
    // theirs from the lowest.
    const points = 2_600_000;
    const base = 0x7fffffff - 4 * points - 15;
    const range = (k: number): HashRange => [k === 0 ? 0 : base + 4 * k, base + 4 * k + 3];
    const a: Consumer = { id: 'a', name: 'a' };
    const a2: Consumer = { id: 'a#2', name: 'a' };
    const b: Consumer = { id: 'b', name: 'b' };
    const ranges = (own: number): HashRange[] => {
      const out: HashRange[] = [];
      for (let k = 0; k < points; k++) if (k % 3 === own || k % 3 === 2) out.push(range(k));
      return out;
    };
    const reported = [
      { consumer: a, ranges: ranges(1).reverse() },
      { consumer: a2, ranges: ranges(2) },
      { consumer: b, ranges: ranges(0) },
    ];
    const n = reported.reduce((sum, r) => sum + r.ranges.length, 0);
    assert.ok(n > 2 ** 22 && base * n > 2 ** 53);
    const ring = new ReportedRing(createSelector(RING3), reported);
    const table = ring.segmentTable();
    // Each point a segment of its own (neighbours differ), then the wrap above the last point to the first point's.
    assert.equal(table.count, points + 1);
    const ids = (i: number) => table.owners[table.owner[i]].map((c) => c.id).join(',');
    const want = ['b', 'a', 'a,a#2,b'];
    for (const k of [0, 1, 2, 3, 4, 5, 1_398_100, 1_398_101, 1_398_102, 2_097_151, 2_097_152, points - 2, points - 1]) {
      assert.deepEqual([table.starts[k], table.ends[k], ids(k)], [...range(k), want[k % 3]], `point ${k}`);
    }
    assert.deepEqual([table.starts[points], table.ends[points], ids(points)], [base + 4 * points, 0x7fffffff, 'b']);
    // A key on a shared point goes to list[hash % 3].
    const shared = base + 4 * 5;
    assert.deepEqual([0, 1, 2, 3].map((d) => ring.select(shared + d)?.id), [0, 1, 2, 3].map((d) => ['a', 'a#2', 'b'][(shared + d) % 3]));
  });
});
