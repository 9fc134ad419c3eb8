/**
 * The geometry both renderers of the bar and the ring share (SVG for few segments and keys, canvas
 * for many): which of the two draws a chart, where the ring's pointer is in hash space, the window
 * a click or a wheel turn makes, the zoom wedge, and the cursor's outline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorSpan, DENSE_MARKERS, DENSE_SEGMENTS, drawnOnCanvas, labelsHeight, ROW_H, wheelWindow } from '../../src/webview/views/barShared';
import { badgeRadii, valueAtPoint, wedgePath, windowAtClick } from '../../src/webview/views/ring';
import { Segments } from '../../src/shared/view/segments';
import { angleOf } from '../../src/shared/view/ring';
import { rng } from './helpers';

const SLOTS: [number, number] = [0, 65535];
const RING31: [number, number] = [0, 2147483647];

/** Where a badge at `r` from the centre sits, for a key of hash `value`, as the ring draws it. */
function badgeCentre(value: number, r: number, space: [number, number]): [number, number] {
  const a = angleOf(value + 0.5, space);
  return [r * Math.sin(a), -r * Math.cos(a)];
}

test('key badges on the ring never overprint: outside the band, else inside, else none; across the top too', () => {
  // The ring of the panel at its full size (460 px): band from 180 to 196 px from the centre.
  const [rInner, rOuter] = [180, 196];
  const random = rng(59);
  for (const [count, space] of [[100, RING31], [100, SLOTS], [8, RING31], [30, SLOTS]] as const) {
    for (let round = 0; round < 20; round++) {
      // Half the keys anywhere, half within a few hashes of an earlier one (same point, or close).
      const values: number[] = [];
      for (let i = 0; i < count; i++) values.push(i > 0 && random() < 0.5 ? Math.min(space[1], values[Math.floor(random() * i)] + Math.floor(random() * 3e-3 * space[1])) : Math.floor(random() * (space[1] + 1)));
      const radii = badgeRadii(values.map((value) => ({ value })), space, rInner, rOuter);
      const shown: Array<[number, number, number]> = [];
      values.forEach((v, i) => {
        const r = radii[i];
        assert.ok([0, rOuter + 24, rInner - 34].includes(r), `badge radius ${r}`);
        const clash = (lane: number) => {
          const [cx, cy] = badgeCentre(v, lane, space);
          return shown.some(([x, y, rr]) => rr === lane && Math.hypot(x - cx, y - cy) < 18);
        };
        // A key goes inside only where outside is taken, and has none only where both are.
        if (r !== rOuter + 24) assert.ok(clash(rOuter + 24), `key ${i + 1} of ${count}: not outside though there was room`);
        if (r === 0) assert.ok(clash(rInner - 34), `key ${i + 1} of ${count}: no badge though there was room inside`);
        else {
          assert.ok(!clash(r), `key ${i + 1} of ${count} (hash ${v}) overprints a badge at ${r} px`);
          shown.push([...badgeCentre(v, r, space), r]);
        }
      });
      // A hundred keys on one ring cannot all have a badge; eight spread keys can.
      if (count === 100) assert.ok(radii.includes(0), 'a hundred keys all had a badge');
    }
  }
  // Far apart: all outside. On one hash: outside, inside, then none. Either side of the top: apart.
  assert.deepEqual(badgeRadii([0, 16384, 32768, 49152].map((value) => ({ value })), SLOTS, rInner, rOuter), [220, 220, 220, 220]);
  assert.deepEqual(badgeRadii([7, 7, 7].map((value) => ({ value })), SLOTS, rInner, rOuter), [220, 146, 0]);
  assert.deepEqual(badgeRadii([65535, 0].map((value) => ({ value })), SLOTS, rInner, rOuter), [220, 146]);
  // A ring too small for a lane inside the centre's text: outside or none.
  assert.deepEqual(badgeRadii([7, 7].map((value) => ({ value })), SLOTS, 100, 116), [140, 0]);
});

test('the hash under the pointer on a ring runs clockwise from the top, inside the space', () => {
  assert.equal(valueAtPoint(0, 0, SLOTS), null);
  assert.equal(valueAtPoint(0, -100, SLOTS), 0);
  assert.equal(valueAtPoint(100, 0, SLOTS), 16384);
  assert.equal(valueAtPoint(0, 100, SLOTS), 32768);
  assert.equal(valueAtPoint(-100, 0, SLOTS), 49152);
  // Just left of the top: the last hash, never past it.
  assert.equal(valueAtPoint(-1e-9, -100, SLOTS), 65535);
  assert.equal(valueAtPoint(-1e-9, -100, RING31), 2147483647);
  // And the inverse of the angle the ring draws a hash at, for any hash.
  const random = rng(7);
  for (let i = 0; i < 1000; i++) {
    const v = Math.floor(random() * 65536);
    const a = angleOf(v + 0.5, SLOTS);
    assert.equal(valueAtPoint(Math.sin(a) * 200, -Math.cos(a) * 200, SLOTS), v);
  }
});

test('a click on the ring centres the strip there: a 32nd of the space from the full ring, else as wide as it was', () => {
  // Centred on the middle of the hash clicked (windowAround): as many hashes up to it as after it.
  assert.deepEqual(windowAtClick(16384, { from: 0, to: 65535 }, SLOTS), { from: 15361, to: 17408 });
  assert.deepEqual(windowAtClick(16384, { from: 100, to: 199 }, SLOTS), { from: 16335, to: 16434 });
  // Near an end the window stays inside the space, as wide.
  assert.deepEqual(windowAtClick(10, { from: 0, to: 65535 }, SLOTS), { from: 0, to: 2047 });
  const w = windowAtClick(2147483600, { from: 0, to: 2147483647 }, RING31);
  assert.equal(w.to, 2147483647);
  assert.equal(w.to - w.from + 1, Math.round(2 ** 31 / 32));
});

test('the zoom wedge: none at the full space, else from the window\'s first hash to past its last, under a full turn', () => {
  const c = 230;
  const rInner = 180;
  const rOuter = 196;
  assert.equal(wedgePath({ from: 0, to: 65535 }, SLOTS, c, rInner, rOuter), '');
  const angleOfPoint = (x: number, y: number) => {
    const a = Math.atan2(x - c, c - y);
    return a < 0 ? a + 2 * Math.PI : a;
  };
  for (const w of [{ from: 16384, to: 32767 }, { from: 0, to: 15 }, { from: 1, to: 65535 }, { from: 60000, to: 65535 }]) {
    const d = wedgePath(w, SLOTS, c, rInner, rOuter);
    const nums = d.match(/-?[\d.]+/g)!.map(Number);
    // M: the start on the outer edge.
    assert.ok(Math.abs(angleOfPoint(nums[0], nums[1]) - angleOf(w.from, SLOTS)) < 0.01, `${JSON.stringify(w)}: ${d}`);
    assert.ok(Math.abs(Math.hypot(nums[0] - c, nums[1] - c) - (rOuter + 12)) < 0.01);
    const [ex, ey] = d.slice(d.indexOf('L') + 1).match(/-?[\d.]+/g)!.map(Number);
    // L: the end on the inner edge, at least a sliver past the start, never back at it.
    const end = angleOf(w.to + 1, SLOTS);
    const want = Math.min(angleOf(w.from, SLOTS) + 2 * Math.PI - 1e-3, Math.max(angleOf(w.from, SLOTS) + 0.01, end));
    assert.ok(Math.abs(angleOfPoint(ex, ey) - (want % (2 * Math.PI))) < 0.01, `${JSON.stringify(w)}: ${d}`);
    assert.ok(Math.abs(Math.hypot(ex - c, ey - c) - (rInner - 22)) < 0.01);
  }
});

test('a wheel turn zooms in (up) or out (down) keeping the hash under the pointer in place', () => {
  const w = { from: 1000, to: 1999 };
  const width = 500;
  const x = 125; // a quarter of the way: hash 1250
  const zin = wheelWindow(w, SLOTS, width, x, -100);
  assert.equal(zin.to - zin.from + 1, 500);
  assert.ok(Math.abs(zin.from + (x / width) * 500 - 1250) <= 1, JSON.stringify(zin));
  const zout = wheelWindow(w, SLOTS, width, x, 100);
  assert.equal(zout.to - zout.from + 1, 2000);
  assert.ok(Math.abs(zout.from + (x / width) * 2000 - 1250) <= 1, JSON.stringify(zout));
  // Out past the space: the whole space.
  assert.deepEqual(wheelWindow({ from: 0, to: 40000 }, SLOTS, width, x, 100), { from: 0, to: 65535 });
});

test('the cursor\'s outline covers its segment\'s visible part, two pixels at least, and none out of the window', () => {
  const m = new Segments([0, 65535], [0, 65535], 3, new Int32Array([0, 100, 101]), new Int32Array([99, 100, 65535]), new Int32Array([0, 1, 0]), []);
  const w = { from: 0, to: 999 };
  assert.deepEqual(cursorSpan(m, 0, w, 1000), [0, 100]);
  // A one-hash segment: 1 px wide, drawn 2.
  assert.deepEqual(cursorSpan(m, 1, w, 1000), [100, 102]);
  // Cut by the window's end.
  assert.deepEqual(cursorSpan(m, 2, w, 1000), [101, 1000]);
  assert.equal(cursorSpan(m, 0, { from: 100, to: 65535 }, 1000), null);
  assert.equal(cursorSpan(m, 2, { from: 0, to: 99 }, 1000), null);
});

test('a chart is drawn on a canvas past 1,500 segments or ring points or past 32 keys, or as the state asks', () => {
  const model = (count: number) => ({ count }) as unknown as Segments;
  const ring = (points: number) => ({ points: new Int32Array(points) }) as never;
  const keys = (n: number) => Array.from({ length: n }, (_, i) => i);
  assert.equal(DENSE_SEGMENTS, 1500);
  assert.equal(DENSE_MARKERS, 32);
  assert.equal(drawnOnCanvas({ model: model(1500), markers: keys(32) }), false);
  assert.equal(drawnOnCanvas({ model: model(1501), markers: [] }), true);
  assert.equal(drawnOnCanvas({ model: model(300), ring: ring(1501), markers: [] }), true);
  assert.equal(drawnOnCanvas({ model: model(300), ring: ring(300), markers: keys(32) }), false);
  // A 10-consumer ring with the panel's 100 keys: each key is several SVG elements, made at every zoom.
  assert.equal(drawnOnCanvas({ model: model(1000), ring: ring(1000), markers: keys(33) }), true);
  assert.equal(drawnOnCanvas({ model: model(1000), ring: ring(1000), markers: keys(100) }, 'auto'), true);
  assert.equal(drawnOnCanvas({ model: model(100000), ring: ring(100000), markers: keys(100) }, 'svg'), false);
  assert.equal(drawnOnCanvas({ model: model(3), markers: [] }, 'canvas'), true);
});

test('the room for key labels above a bar depends on the number of keys only (a row each, up to three), never on the window', () => {
  // So that a zoom, which shows fewer or more of the keys, never moves the bar under the pointer.
  assert.deepEqual([0, 1, 2, 3, 4, 100].map(labelsHeight), [ROW_H + 4, ROW_H + 4, 2 * ROW_H + 4, 3 * ROW_H + 4, 3 * ROW_H + 4, 3 * ROW_H + 4]);
});
