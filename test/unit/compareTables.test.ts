// compareTables: the reported layout against another (the rebuilt ring, the configured order's
// prediction), checked against a value-by-value reading of both tables on small hash spaces, with
// gaps on either side, owner lists that repeat, lists equal by id but not the same objects (a
// prediction builds its own consumers), several owners, and nobody.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareTables, type LayoutDifference } from '../../src/engine/observed/compare';
import { tableOf, type Consumer, type SegmentTable } from '../../src/engine/pulsar/keyShared/selector';
import { propertyRuns } from './helpers';

const consumer = (id: string): Consumer => ({ id, name: id }) as Consumer;

/** Segments [start, end] and their owners' ids, ascending, not overlapping, gaps allowed. */
type Spec = Array<{ start: number; end: number; owners: readonly string[] }>;

/** A table as a selector hands one out (the engine's `tableOf`), every segment's owners objects of its own. */
function tableOfSpec(spec: Spec): SegmentTable {
  return tableOf(spec.map((s) => ({ start: s.start, end: s.end, consumers: s.owners.map(consumer) })));
}

/** Owner ids at each value, value by value: the comparison's meaning, with no sweep to get wrong. */
function byValue(reported: Spec, other: Spec): { differences: LayoutDifference[]; size: number } {
  const at = (spec: Spec, v: number) => spec.find((s) => s.start <= v && v <= s.end)?.owners ?? [];
  const differences: LayoutDifference[] = [];
  let size = 0;
  const lo = Math.min(...[...reported, ...other].map((s) => s.start));
  const hi = Math.max(...[...reported, ...other].map((s) => s.end));
  for (let v = lo; v <= hi; v++) {
    const a = at(reported, v);
    const b = at(other, v);
    if (a.join('\0') === b.join('\0')) continue;
    size++;
    const last = differences[differences.length - 1];
    if (last && last.end + 1 === v && last.reported.join('\0') === a.join('\0') && last.other.join('\0') === b.join('\0')) last.end = v;
    else differences.push({ start: v, end: v, reported: [...a], other: [...b] });
  }
  return { differences, size };
}

/** A table over 0..span: cut points, a gap or an owner list (from a small pool) for each piece. */
const specArb = (span: number): fc.Arbitrary<Spec> =>
  fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 1, max: span }), { maxLength: 12 }),
      fc.array(fc.option(fc.constantFrom(['C1'], ['C2'], ['C3'], ['C1', 'C2'], ['C2', 'C1'], []), { freq: 4 }), { minLength: 13, maxLength: 13 }),
    )
    .map(([cuts, owners]) => {
      const bounds = [0, ...cuts.sort((a, b) => a - b), span + 1];
      const spec: Spec = [];
      for (let i = 0; i + 1 < bounds.length; i++) {
        const o = owners[i];
        if (o !== null) spec.push({ start: bounds[i], end: bounds[i + 1] - 1, owners: o });
      }
      return spec;
    });

describe('compareTables', () => {
  test('equals a value-by-value reading of both tables', () => {
    fc.assert(
      fc.property(specArb(40), specArb(40), (r, o) => {
        const got = compareTables(tableOfSpec(r), tableOfSpec(o), 'why');
        const want = byValue(r, o);
        assert.deepEqual(got.differences, want.differences);
        assert.equal(got.size, want.size);
        assert.equal(got.equal, want.differences.length === 0);
        assert.equal(got.reason, got.equal ? '' : 'why');
      }),
      propertyRuns(2000),
    );
  });

  test('a gap on one side is nobody there; runs with the same owners on both sides merge across segments', () => {
    const got = compareTables(
      tableOfSpec([
        { start: 0, end: 9, owners: ['C1'] },
        { start: 10, end: 19, owners: ['C2'] },
        { start: 25, end: 30, owners: ['C1'] },
      ]),
      tableOfSpec([
        { start: 0, end: 4, owners: ['C1'] },
        { start: 5, end: 14, owners: ['C3'] },
        { start: 15, end: 30, owners: ['C3'] },
      ]),
      'why',
    );
    assert.deepEqual(got.differences, [
      { start: 5, end: 9, reported: ['C1'], other: ['C3'] },
      { start: 10, end: 19, reported: ['C2'], other: ['C3'] },
      { start: 20, end: 24, reported: [], other: ['C3'] },
      { start: 25, end: 30, reported: ['C1'], other: ['C3'] },
    ]);
    assert.equal(got.size, 26);
  });

  test('empty tables are equal; one empty table differs wherever the other has owners', () => {
    const empty = tableOfSpec([]);
    assert.deepEqual(compareTables(empty, empty, 'why'), { equal: true, differences: [], size: 0, reason: '' });
    const one = tableOfSpec([{ start: 3, end: 7, owners: ['C1', 'C2'] }]);
    assert.deepEqual(compareTables(empty, one, 'why').differences, [{ start: 3, end: 7, reported: [], other: ['C1', 'C2'] }]);
  });
});
