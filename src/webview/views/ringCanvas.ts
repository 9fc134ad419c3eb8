/**
 * The consistent-hashing ring drawn on a canvas (the picture of `ring.ts` for rings of many
 * points): the owned arcs as a band over 720 angular columns, the points as ticks outside it,
 * each key as a spoke with its number and the arc it travels to its point, and the zoom window as
 * a wedge. Nothing on the canvas changes with the zoom window, so the wedge is an SVG path over it:
 * a zoom or pan changes one attribute, and the canvas (460 px square, copied to the compositor
 * whenever it is drawn) is drawn only when the theme or the screen's resolution changes.
 */
import { binsOf, layoutOf } from '../../shared/view/layoutCache';
import { angleOf, arcAngles, RING_COLUMNS as COLUMNS, type RingModel } from '../../shared/view/ring';
import { fullWindow, segmentIndexAt, type ZoomWindow } from '../../shared/view/segments';
import { register, Surface } from '../canvas/surface';
import { hatchPattern, paletteColour, theme, type Theme } from '../canvas/theme';
import { h, svg } from '../dom';
import { pct, range } from '../format';
import type { ChartHandle } from './barShared';
import { badgeRadii, valueAtPoint, wedgePath, windowAtClick, type RingSpec } from './ring';
import { keyText } from '../../shared/keyText';


export function renderRingCanvas(spec: RingSpec): ChartHandle {
  const { model: m, ring, size, ui } = spec;
  let w = spec.window;
  const c = size / 2;
  const rOuter = c - 34;
  const band = 16;
  const rInner = rOuter - band;
  const rMid = (rInner + rOuter) / 2;
  const badgeAt = badgeRadii(spec.markers, m.space, rInner, rOuter);
  const full = fullWindow(m.space);
  const surface = new Surface(size, size, {
    class: 'ring ring-canvas',
    role: 'img',
    'aria-label': `${spec.label}: ${ring.points.length} points of ${m.owners.filter((o) => o.ids.length).length} owners; ${spec.markers.length} keys (listed in the keys table)`,
  });
  const wedge = svg('path', { class: 'ring-wedge' });
  const overlay = svg('svg', { class: 'ring-overlay', width: size, height: size, viewBox: `0 0 ${size} ${size}`, 'aria-hidden': 'true' }, wedge);
  const element = h('div', { class: 'ring-canvas-box' }, surface.canvas, overlay);
  element.style.width = `${size}px`;
  element.style.height = `${size}px`;
  const handle = { alive: true, draw: () => draw() };
  let drawn = false;

  const pt = (a: number, r: number): [number, number] => [c + r * Math.sin(a), c - r * Math.cos(a)];
  // Canvas angles run clockwise from 3 o'clock; the ring's from 12 o'clock.
  const ca = (a: number) => a - Math.PI / 2;

  /** Band and ticks. */
  function drawBand(ctx: CanvasRenderingContext2D, t: Theme, dpr: number): void {
    const runs = layoutOf(m, full, COLUMNS);
    const groups = new Map<number, number[]>();
    runs.forEach((r, i) => {
      const key = (m.owners[r.owner].color + 1) * 2 + (r.mixed ? 1 : 0);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(i);
    });
    for (const [key, list] of groups) {
      const color = (key >> 1) - 1;
      // A run is an arc stroked as wide as the band (half the work of filling a sector).
      ctx.strokeStyle = color < 0 ? hatchPattern(ctx, t, dpr) : paletteColour(t, color);
      ctx.globalAlpha = key & 1 ? t.mixedAlpha : 1;
      ctx.lineWidth = band;
      ctx.beginPath();
      for (const i of list) {
        const r = runs[i];
        let a1 = (r.x1 / COLUMNS) * 2 * Math.PI;
        const a0 = (r.x0 / COLUMNS) * 2 * Math.PI;
        if (a1 - a0 >= 2 * Math.PI - 1e-9) a1 = a0 + 2 * Math.PI - 1e-6;
        ctx.moveTo(...pt(a0, rMid));
        ctx.arc(c, c, rMid, ca(a0), ca(a1));
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    if (t.highContrast) {
      ctx.strokeStyle = t.segStroke;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(c, c, rOuter, 0, 2 * Math.PI);
      ctx.moveTo(c + rInner, c);
      ctx.arc(c, c, rInner, 0, 2 * Math.PI);
      ctx.stroke();
    }
    // Points: a tick per angular bin outside the band, longer where several points fall.
    const ticks = new Map<number, Array<[number, number]>>();
    for (const b of binsOf(ring, full, COLUMNS)) {
      const color = m.owners[b.owner].color;
      let list = ticks.get(color);
      if (!list) ticks.set(color, (list = []));
      list.push([((b.bin + 0.5) / COLUMNS) * 2 * Math.PI, b.count > 2 ? 10 : b.count > 1 ? 8 : 6]);
    }
    ctx.lineWidth = 1.2;
    for (const [color, list] of ticks) {
      ctx.strokeStyle = paletteColour(t, color);
      ctx.beginPath();
      for (const [a, len] of list) {
        ctx.moveTo(...pt(a, rOuter + 2));
        ctx.lineTo(...pt(a, rOuter + len));
      }
      ctx.stroke();
    }
    ctx.fillStyle = t.text;
    ctx.font = t.font;
    ctx.textAlign = 'center';
    ctx.fillText(`${m.space[0]}–${m.space[1]}`, c, c - 4);
    ctx.fillStyle = t.muted;
    ctx.fillText(`${ring.points.length} points, clockwise from the top`, c, c + 12);
  }

  function draw(): void {
    if (!surface.canvas.isConnected && drawn) {
      handle.alive = false;
      return;
    }
    const t = theme();
    surface.resize(size, size);
    const ctx = surface.ctx;
    drawBand(ctx, t, surface.dpr);
    // The wedge's colours change with the theme only; its outline with the zoom window.
    wedge.setAttribute('fill', t.wedgeFill);
    wedge.setAttribute('fill-opacity', String(t.wedgeAlpha));
    wedge.setAttribute('stroke', t.wedgeStroke);
    drawWedge();
    drawn = true;
    // Keys: the arc to the owning point on an inner track, and a spoke with the key's number.
    // Each kind of mark in one path (a style set per mark costs more than the drawing).
    const arcs = new Path2D();
    const ends = new Path2D();
    const spokes = new Path2D();
    const badges = new Path2D();
    spec.markers.forEach((k, i) => {
      const rBadge = badgeAt[i];
      const a = angleOf(k.value + 0.5, m.space);
      if (k.arc) {
        const r = rInner - 6 - (i % 4) * 4;
        const [a0, a1] = arcAngles(k.arc, m.space);
        arcs.moveTo(...pt(a0, r));
        arcs.arc(c, c, r, ca(a0), ca(a1));
        const [ex, ey] = pt(a1, r);
        ends.moveTo(ex + 2.5, ey);
        ends.arc(ex, ey, 2.5, 0, 2 * Math.PI);
      }
      spokes.moveTo(...pt(a, rInner - 24));
      spokes.lineTo(...pt(a, rOuter + 14));
      if (rBadge === 0) return;
      const [tx, ty] = pt(a, rBadge);
      badges.moveTo(tx + 8, ty);
      badges.arc(tx, ty, 8, 0, 2 * Math.PI);
    });
    ctx.strokeStyle = t.arc;
    ctx.lineWidth = 2;
    ctx.stroke(arcs);
    ctx.fillStyle = t.arc;
    ctx.fill(ends);
    ctx.strokeStyle = t.markerLine;
    ctx.lineWidth = 1.5;
    ctx.stroke(spokes);
    ctx.fillStyle = t.badge;
    ctx.fill(badges);
    ctx.font = t.boldFont;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = t.badgeText;
    spec.markers.forEach((k, i) => {
      if (badgeAt[i] === 0) return;
      const [tx, ty] = pt(angleOf(k.value + 0.5, m.space), badgeAt[i]);
      ctx.fillText(String(k.n), tx, ty + 0.5);
    });
    ctx.textBaseline = 'alphabetic';
  }

  const drawWedge = (): void => wedge.setAttribute('d', wedgePath(w, m.space, c, rInner, rOuter));

  const valueAt = (x: number, y: number): number | null => valueAtPoint(x - c, y - c, m.space);

  surface.canvas.addEventListener('mousemove', (ev) => {
    const { x, y } = surface.at(ev);
    const d = Math.hypot(x - c, y - c);
    // A key's badge first, then the band and ticks.
    const badge = spec.markers.find((k, i) => {
      const [tx, ty] = pt(angleOf(k.value + 0.5, m.space), badgeAt[i]);
      return badgeAt[i] > 0 && Math.hypot(x - tx, y - ty) <= 9;
    });
    if (badge) return ui.showTip(ev.clientX, ev.clientY, [`key ${badge.n}: ${keyText(badge.label)}`, `hash ${badge.hash}`, badge.consumer ? `consumer ${badge.consumer}` : 'no consumer', ...(badge.arc ? [`travels to the point at ${badge.arc.to}`] : [])]);
    if (d < rInner - 30 || d > rOuter + 16) return ui.hideTip();
    const v = valueAt(x, y);
    if (v === null) return ui.hideTip();
    const i = segmentIndexAt(m, v);
    if (i < 0) return ui.hideTip();
    const o = m.owners[m.owner[i]];
    const queued = ring.queued(pointIndexAt(ring, m.ends[i]));
    ui.showTip(ev.clientX, ev.clientY, [
      o.ids.length ? o.label : 'nobody',
      `hash ≈ ${v} (segment ${range([m.starts[i], m.ends[i]])})`,
      o.ids.length ? `${o.label} holds ${pct(o.share)} in all` : '',
      ...(queued.length ? [`queued at this point: ${queued.slice(0, 4).join(', ')}${queued.length > 4 ? ', …' : ''}`] : []),
      'click to zoom the strip below here',
    ]);
  });
  surface.canvas.addEventListener('mouseleave', () => ui.hideTip());
  surface.canvas.addEventListener('click', (ev) => {
    const { x, y } = surface.at(ev);
    const v = valueAt(x, y);
    if (v !== null) spec.onWindow(windowAtClick(v, w, m.space));
  });

  draw();
  register(handle);
  return {
    element,
    window: () => w,
    setWindow(next: ZoomWindow) {
      if (next.from === w.from && next.to === w.to) return;
      w = next;
      drawWedge();
    },
  };
}

/** The index of the point at `hash` exactly, or -1. */
function pointIndexAt(ring: RingModel, hash: number): number {
  let lo = 0;
  let hi = ring.points.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ring.points[mid] < hash) lo = mid + 1;
    else if (ring.points[mid] > hash) hi = mid - 1;
    else return mid;
  }
  return -1;
}
