import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerRows, markerTextWidth, MARKER_ROWS, type BarMarker } from '../../src/webview/views/barShared';
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
