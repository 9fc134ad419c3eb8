import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerRows, markerTextWidth, MARKER_ROWS, type BarMarker } from '../../src/webview/views/barShared';
import { markRows, type PartitionMark } from '../../src/webview/views/partitions';
import { cellOf, layoutPartitions } from '../../src/shared/view/topicView';
import { randInt, rng } from './helpers';

/** Where `markerRows` puts a label's left end (labels past the right edge are drawn leftwards). */
function labelSpan(k: BarMarker, x: number, width: number): [number, number] {
  const w = markerTextWidth(k);
  const left = x + w > width ? x - w : x;
  return [left, left + w];
}

test('marker labels never overprint: each gets a free row of three, or none when no row has room', () => {
  const random = rng(14);
  for (const [count, width] of [[100, 570], [100, 1164], [8, 570], [30, 200], [1, 320]]) {
    for (let round = 0; round < 20; round++) {
      const markers: BarMarker[] = Array.from({ length: count }, (_, i) => ({ n: i + 1, label: `k${i}`, value: randInt(random, 0, 65535), hash: randInt(random, 0, 2 ** 31 - 1), consumer: null }));
      markers.sort((a, b) => a.value - b.value);
      const xOf = (k: BarMarker) => (k.value / 65536) * width;
      const { rows, used } = markerRows(markers, xOf, width);
      assert.equal(rows.length, markers.length);
      assert.ok(used <= MARKER_ROWS);
      const ends: number[] = [];
      markers.forEach((k, i) => {
        const [left, right] = labelSpan(k, xOf(k), width);
        if (rows[i] < 0) {
          // Unlabelled only where every row's last label reaches this one.
          assert.equal(ends.length, MARKER_ROWS, `${count} keys on ${width} px: key ${i} unlabelled with a row unused`);
          assert.ok(ends.every((e) => e >= left - 2), `${count} keys on ${width} px: key ${i} unlabelled though a row had room`);
          return;
        }
        assert.ok(rows[i] < MARKER_ROWS);
        if (ends[rows[i]] !== undefined) assert.ok(ends[rows[i]] < left - 2, `${count} keys on ${width} px: key ${i} overprints row ${rows[i]}`);
        ends[rows[i]] = right;
      });
      // A hundred keys on a what-if bar cannot all have a label: those without are ticks.
      if (count === 100 && width === 570) assert.ok(rows.some((r) => r < 0), 'a hundred keys on 570 px all labelled');
    }
  }
});

test('keys far apart are all labelled in the first row', () => {
  const markers: BarMarker[] = [0, 20000, 40000, 60000].map((value, i) => ({ n: i + 1, label: `k${i}`, value, hash: value, consumer: null }));
  assert.deepEqual(markerRows(markers, (k) => (k.value / 65536) * 1164, 1164).rows, [0, 0, 0, 0]);
});

test('key numbers above partitions never overprint: a cell\'s keys stack, close cells share rows, four rows at most, none cut at an end', () => {
  const random = rng(59);
  for (const [partitions, keys, width] of [[10_000, 100, 1164], [6, 8, 1164], [64, 30, 570], [1_000_000, 100, 570], [3, 12, 320], [64, 120, 570]]) {
    const cells = layoutPartitions(partitions, width, partitions <= 64 ? 14 : 4);
    const byCell = new Map<number, PartitionMark[]>();
    // The first and the last partition always hold a key: their numbers are the ones an end cuts.
    for (let n = 1; n <= keys; n++) {
      const p = n === 1 ? 0 : n === keys ? partitions - 1 : randInt(random, 0, partitions - 1);
      const c = cellOf(cells, p);
      byCell.set(c, [...(byCell.get(c) ?? []), { n, label: `k${n}`, partition: cells[c].first }]);
    }
    const { row, x, labelsH } = markRows(cells, byCell);
    // Numbers are drawn centred on x, 7 px a digit, and need 4 px between them.
    const span = (mk: PartitionMark): [number, number] => [x.get(mk)! - String(mk.n).length * 3.5 - 2, x.get(mk)! + String(mk.n).length * 3.5 + 2];
    const placed: Array<[number, number, number, PartitionMark]> = [];
    for (const marks of byCell.values()) for (const mk of marks) if (row.get(mk)! >= 0) placed.push([row.get(mk)!, ...span(mk), mk]);
    for (const [i, marks] of byCell) {
      for (const mk of marks) {
        const r = row.get(mk)!;
        const [a, b] = span(mk);
        // Within the drawing, and over its cell (a number is moved in only as far as the end needs).
        assert.ok(a >= 0 && b <= width, `${partitions} partitions: key ${mk.n} drawn at ${a}-${b} of ${width} px`);
        const centre = (cells[i].x0 + cells[i].x1) / 2;
        assert.ok(Math.abs(x.get(mk)! - centre) <= (b - a) / 2 && (x.get(mk) === centre || a === 0 || b === width), `${partitions} partitions: key ${mk.n} moved off its cell`);
        const clashes = (rr: number) => placed.filter(([pr, pa, pb, other]) => other !== mk && pr === rr && pa < b && a < pb).length;
        assert.ok(r >= -1 && r < 4, `row ${r}`);
        if (r >= 0) assert.equal(clashes(r), 0, `${partitions} partitions: key ${mk.n} overprints row ${r}`);
        else for (let rr = 0; rr < 4; rr++) assert.ok(clashes(rr) > 0, `${partitions} partitions: key ${mk.n} left out though row ${rr} had room`);
      }
    }
    const used = Math.max(0, ...[...row.values()].map((r) => r + 1));
    assert.equal(labelsH, Math.max(1, used) * 14 + 4);
  }
  // Wide cells: every key labelled, a cell's keys stacked upwards in their order.
  const cells = layoutPartitions(6, 1164, 14);
  const marks = [1, 2, 3].map((n) => ({ n, label: `k${n}`, partition: 2 }));
  const { row } = markRows(cells, new Map([[cellOf(cells, 2), marks], [cellOf(cells, 3), [{ n: 4, label: 'k4', partition: 3 }]]]));
  assert.deepEqual([...row.values()], [0, 1, 2, 0]);
});
