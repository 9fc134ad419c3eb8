/**
 * The geometry both renderers of the bar and the ring share (SVG for few segments and keys, canvas
 * for many): which of the two draws a chart, where the ring's pointer is in hash space, the window
 * a click or a wheel turn makes, the zoom wedge, and the cursor's outline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorSpan, DENSE_MARKERS, DENSE_SEGMENTS, drawnOnCanvas, labelsHeight, ROW_H, wheelWindow } from '../../src/webview/views/barShared';
import { valueAtPoint, wedgePath, windowAtClick } from '../../src/webview/views/ring';
import { Segments } from '../../src/shared/view/segments';
import { angleOf } from '../../src/shared/view/ring';
import { rng } from './helpers';

const SLOTS: [number, number] = [0, 65535];
const RING31: [number, number] = [0, 2147483647];

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
