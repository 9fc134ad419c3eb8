/**
 * The hash-range bar drawn on a canvas, for topics whose segments are too many for SVG elements
 * (a ring of 100,000 points): the same picture as `bar.ts` (owned runs per pixel column, unowned
 * hatched, moved ranges, ring points, the keys with their hashes), redrawn in the next animation
 * frame when the zoom window changes instead of being built again. Hover, click, wheel, drag and
 * the keyboard work as on the SVG bar; the segments are listed in a paged table under it.
 */
import { binsOf, layoutOf, warmLayouts } from '../../shared/view/layoutCache';
import { panWindow, runAt, segmentIndexAt, segmentInfo, xOf, type Run, type ZoomWindow } from '../../shared/view/segments';
import { register, requestDraw, Surface, warmLater } from '../canvas/surface';
import { hatchPattern, paletteColour, theme, type Theme } from '../canvas/theme';
import { h } from '../dom';
import { pct, range, thousands } from '../format';
import { l10n } from '../l10n';
import {
  arcSpans,
  BAR_H,
  chartKey,
  cursorSpan,
  describeSegment,
  fit,
  KEYBOARD_HELP,
  labelsHeight,
  markerRows,
  markerTextWidth,
  mixedLines,
  moveCursor,
  movedTester,
  MOVED_H,
  ownersSummary,
  ROW_H,
  TICK_H,
  UNLABELLED_TICK,
  zoomControls,
  wheelWindow,
  zoomNote,
  type BarMarker,
  type BarSpec,
  type ChartHandle,
} from './barShared';
import { lazyDetails, pagedTable } from './pagedTable';
import { keyText } from '../../shared/keyText';

/** A bar on a canvas, which can show another bar's spec in place of its own. */
export interface BarCanvasHandle extends ChartHandle {
  /**
   * Shows `next` (another model, window, keys, moved ranges) on this chart's canvas, drawn at once,
   * and rebuilds the controls and table around it: a what-if step draws its before and after bars
   * again, and a new canvas costs more than the drawing (getContext, and a backing store of fresh
   * memory, which this machine's page faults make dear).
   */
  show(next: BarSpec): void;
}

export function renderBarCanvas(first: BarSpec): BarCanvasHandle {
  let spec = first;
  let m = spec.model;
  let width = spec.width;
  const ui = spec.ui;
  let w = spec.window;
  let cursor = -1;
  // Heights fixed for a spec's life, so zooming never moves the page under the pointer (see `show`).
  let barY = 0;
  let movedY = 0;
  let ticksY = 0;
  let height = 0;
  // At the first spec's size: a spare canvas of that size (see Surface) is taken as it is.
  const surface = new Surface(first.width, barLayout(first).height, { role: 'img', class: 'bar-canvas' });
  const from = h('span', { class: 'axis-from' });
  const note = h('span', { class: 'zoom-note' });
  const to = h('span', { class: 'axis-to' });
  const axis = h('div', { class: 'axis-row', 'aria-hidden': 'true' }, from, note, to);
  const chart = h('div', { class: 'chart chart-canvas', tabindex: 0, role: 'group' });
  let runs: Run[] = [];
  let runsFor: ZoomWindow | undefined;
  let markersSorted: BarMarker[] = [];

  const handle = {
    alive: true,
    draw: () => draw(),
  };
  const layout = (): Run[] => {
    if (!runsFor || runsFor.from !== w.from || runsFor.to !== w.to) {
      runs = layoutOf(m, w, width);
      runsFor = w;
    }
    return runs;
  };

  function draw(): void {
    if (!chart.isConnected && runsFor) {
      handle.alive = false;
      return;
    }
    const t = theme();
    surface.resize(width, height);
    const ctx = surface.ctx;
    const rs = layout();
    drawRuns(ctx, t, surface.dpr, rs, barY);
    if (spec.moved) drawMoved(ctx, t, movedY);
    if (spec.ring) drawTicks(ctx, t, ticksY);
    drawArcs(ctx, t);
    drawMarkers(ctx, t);
    if (cursor >= 0) drawCursor(ctx, t);
    from.textContent = String(w.from);
    to.textContent = String(w.to);
    note.textContent = zoomNote(m, w);
  }

  function drawRuns(ctx: CanvasRenderingContext2D, t: Theme, dpr: number, rs: Run[], y: number): void {
    const moved = spec.moved;
    // With moved ranges (what-if), what did not move is drawn faded so that what moved stands out.
    const touchesMoved = movedTester(moved);
    // Runs grouped by how they are painted: one fill per colour and alpha, not one per run.
    const groups = new Map<number, number[]>();
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i];
      const o = m.owners[r.owner];
      const faded = moved !== undefined && !touchesMoved(Math.max(m.starts[r.first], w.from), Math.min(m.ends[r.last], w.to));
      const key = (o.color + 1) * 4 + (r.mixed ? 1 : 0) + (faded ? 2 : 0);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(i);
    }
    for (const [key, list] of groups) {
      const color = Math.floor(key / 4) - 1;
      ctx.globalAlpha = (key & 2 ? t.fadedAlpha : 1) * (key & 1 ? t.mixedAlpha : 1);
      ctx.fillStyle = color < 0 ? hatchPattern(ctx, t, dpr) : paletteColour(t, color);
      ctx.beginPath();
      for (const i of list) ctx.rect(rs[i].x0, y, rs[i].x1 - rs[i].x0, BAR_H);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    // Edges between runs wide enough to show one, in the editor background (high contrast: its border).
    ctx.strokeStyle = t.segStroke;
    ctx.lineWidth = t.highContrast ? Math.max(1, t.segStrokeWidth) : t.segStrokeWidth;
    ctx.beginPath();
    for (let i = 1; i < rs.length; i++) {
      if (rs[i].x1 - rs[i].x0 < 3 || rs[i - 1].x1 - rs[i - 1].x0 < 3) continue;
      ctx.moveTo(rs[i].x0, y);
      ctx.lineTo(rs[i].x0, y + BAR_H);
    }
    if (t.highContrast) ctx.rect(0, y, width, BAR_H);
    ctx.stroke();
    // Consumer names on runs wide enough, in the editor's text colour with a halo.
    ctx.font = t.boldFont;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    for (const r of rs) {
      const o = m.owners[r.owner];
      if (r.mixed || r.x1 - r.x0 <= 44 || o.ids.length === 0) continue;
      const label = fit(o.label, r.x1 - r.x0);
      const x = (r.x0 + r.x1) / 2;
      ctx.strokeStyle = t.labelHalo;
      ctx.lineWidth = 3;
      ctx.strokeText(label, x, y + BAR_H / 2);
      ctx.fillStyle = t.labelFill;
      ctx.fillText(label, x, y + BAR_H / 2);
    }
  }

  function drawMoved(ctx: CanvasRenderingContext2D, t: Theme, y: number): void {
    ctx.fillStyle = t.moved;
    ctx.beginPath();
    // The ranges come ascending and merged: those that meet on screen make one rect (the same
    // picture: no pixel off by more than 3 of 255 in a check of 200 bars). After 20 joins on a 3.0
    // ring of 100 x 1,000 points, 20,000 moved arcs on bars of 600 px, a rect each, took 4.5 ms of
    // a step for its two bars; now 0.4.
    let x0 = 0;
    let x1 = -1;
    for (const [s, e] of spec.moved!) {
      if (e < w.from || s > w.to) continue;
      const a = xOf(Math.max(s, w.from), w, width);
      if (a > x1) {
        if (x1 >= 0) ctx.rect(x0, y, x1 - x0, MOVED_H);
        x0 = a;
      }
      x1 = Math.max(x1, a + 1, xOf(Math.min(e, w.to) + 1, w, width));
    }
    if (x1 >= 0) ctx.rect(x0, y, x1 - x0, MOVED_H);
    ctx.fill();
  }

  function drawTicks(ctx: CanvasRenderingContext2D, t: Theme, y: number): void {
    const bins = binsOf(spec.ring!, w, Math.max(1, Math.floor(width)));
    const groups = new Map<number, number[]>();
    for (let i = 0; i < bins.length; i++) {
      const key = (m.owners[bins[i].owner].color + 1) * 2 + (bins[i].mixed ? 1 : 0);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(i);
    }
    ctx.lineWidth = 1.2;
    for (const [key, list] of groups) {
      ctx.strokeStyle = paletteColour(t, (key >> 1) - 1);
      ctx.globalAlpha = key & 1 ? t.tickMixedAlpha : 1;
      ctx.beginPath();
      for (const i of list) {
        const b = bins[i];
        ctx.moveTo(b.bin + 0.5, y);
        ctx.lineTo(b.bin + 0.5, y + (b.count > 1 ? TICK_H : TICK_H - 3));
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  function drawArcs(ctx: CanvasRenderingContext2D, t: Theme): void {
    // Every key's arc in one path, their end points in another.
    const lines = new Path2D();
    const points = new Path2D();
    for (const { x0, x1, point } of arcSpans(spec.markers, m.space, w, width)) {
      lines.moveTo(x0, barY - 3);
      lines.lineTo(Math.max(x1, x0 + 1), barY - 3);
      if (point) {
        points.moveTo(x1 - 0.5 + 2.5, barY - 3);
        points.arc(x1 - 0.5, barY - 3, 2.5, 0, 2 * Math.PI);
      }
    }
    ctx.strokeStyle = t.arc;
    ctx.lineWidth = 2;
    ctx.stroke(lines);
    ctx.fillStyle = t.arc;
    ctx.fill(points);
  }

  /** The visible markers with their label rows and x, as last drawn (for hovering). */
  let placed: Array<{ k: BarMarker; x: number; y: number; atEnd: boolean }> = [];

  function drawMarkers(ctx: CanvasRenderingContext2D, t: Theme): void {
    const visible = markersSorted.filter((k) => k.value >= w.from && k.value <= w.to);
    const { rows } = markerRows(visible, (k) => xOf(k.value + 0.5, w, width), width);
    placed = visible.map((k, i) => {
      const x = xOf(k.value + 0.5, w, width);
      return { k, x, y: rows[i] < 0 ? -1 : rows[i] * ROW_H + ROW_H - 2, atEnd: x + markerTextWidth(k) > width };
    });
    ctx.strokeStyle = t.markerLine;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const p of placed) {
      ctx.moveTo(p.x, p.y < 0 ? barY - UNLABELLED_TICK : p.y + 2);
      ctx.lineTo(p.x, barY + BAR_H);
    }
    ctx.stroke();
    // Numbers in bold, then hashes: two fonts set once each, widths measured once per text.
    const labelled = placed.filter((p) => p.y >= 0);
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillStyle = t.text;
    ctx.font = t.boldFont;
    const xs = labelled.map((p) => {
      const nw = textWidth(ctx, t.boldFont, String(p.k.n));
      const hw = textWidth(ctx, t.font, String(p.k.hash));
      const x0 = p.atEnd ? p.x - 3 - nw - 4 - hw : p.x + 3;
      ctx.fillText(String(p.k.n), x0, p.y);
      return x0 + nw + 4;
    });
    ctx.font = t.font;
    labelled.forEach((p, i) => ctx.fillText(String(p.k.hash), xs[i], p.y));
  }

  function drawCursor(ctx: CanvasRenderingContext2D, t: Theme): void {
    const span = cursorSpan(m, cursor, w, width);
    if (!span) return;
    const [x0, x1] = span;
    ctx.strokeStyle = t.cursor;
    ctx.lineWidth = 2;
    ctx.strokeRect(x0, barY - 1, x1 - x0, BAR_H + 2);
  }

  const setCursor = (i: number, announce: boolean): void => {
    cursor = moveCursor(spec, w, i, announce);
    requestDraw(handle);
  };

  // Hover: the run under the pointer (or a key's label above the bar).
  surface.canvas.addEventListener('mousemove', (ev) => {
    if (dragging) return;
    const { x, y } = surface.at(ev);
    if (y < barY - 4) {
      const p = placed.find((q) => Math.abs(q.x - x) <= 3 || (q.y >= 0 && y <= q.y + 2 && y >= q.y - ROW_H + 2 && (q.atEnd ? x <= q.x && x >= q.x - markerTextWidth(q.k) : x >= q.x && x <= q.x + markerTextWidth(q.k))));
      if (!p) return ui.hideTip();
      const i = segmentIndexAt(m, p.k.value);
      return ui.showTip(ev.clientX, ev.clientY, [`key ${p.k.n}: ${keyText(p.k.label)}`, `hash ${p.k.hash}`, p.k.consumer ? `consumer ${p.k.consumer}` : 'no consumer', ...(i >= 0 ? [`segment ${range([m.starts[i], m.ends[i]])}`] : [])]);
    }
    if (y > height) return ui.hideTip();
    const r = runAt(layout(), x);
    if (!r) return ui.hideTip();
    ui.showTip(ev.clientX, ev.clientY, r.first === r.last ? describeSegment(m, r.first) : mixedLines(m, r.first, r.last));
  });
  surface.canvas.addEventListener('mouseleave', () => ui.hideTip());

  // Click selects a segment; a drag pans the window (a press that moves is not a click).
  let dragging = false;
  let dragStart: { x: number; w: ZoomWindow; id: number } | undefined;
  surface.canvas.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    dragStart = { x: ev.clientX, w, id: ev.pointerId };
  });
  surface.canvas.addEventListener('pointermove', (ev) => {
    if (!dragStart) return;
    const dx = ev.clientX - dragStart.x;
    if (!dragging && Math.abs(dx) < 4) return;
    if (!dragging) {
      dragging = true;
      surface.canvas.setPointerCapture(dragStart.id);
      ui.hideTip();
    }
    spec.onWindow(panWindow(dragStart.w, m.space, -dx / width));
  });
  const endDrag = (ev: PointerEvent) => {
    const wasDragging = dragging;
    dragging = false;
    dragStart = undefined;
    if (surface.canvas.hasPointerCapture(ev.pointerId)) surface.canvas.releasePointerCapture(ev.pointerId);
    return wasDragging;
  };
  surface.canvas.addEventListener('pointerup', (ev) => {
    const wasDragging = endDrag(ev);
    if (wasDragging) return;
    const { x } = surface.at(ev);
    const r = runAt(layout(), x);
    if (r) setCursor(r.first, true);
    chart.focus();
  });
  surface.canvas.addEventListener('pointercancel', endDrag);
  surface.canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      spec.onWindow(wheelWindow(w, m.space, width, surface.at(ev).x, ev.deltaY));
    },
    { passive: false },
  );
  chart.addEventListener('keydown', (ev) => {
    if (chartKey(ev, { model: m, markers: spec.markers, window: () => w, cursor: () => cursor, setCursor, onWindow: spec.onWindow, ui })) ev.preventDefault();
  });

  const self: BarCanvasHandle = {
    element: chart,
    window: () => w,
    setWindow(next: ZoomWindow) {
      if (next.from === w.from && next.to === w.to) return;
      w = next;
      requestDraw(handle);
    },
    show(next: BarSpec): void {
      spec = next;
      m = next.model;
      width = next.width;
      w = next.window;
      cursor = -1;
      runsFor = undefined;
      ({ barY, movedY, ticksY, height } = barLayout(spec));
      markersSorted = [...spec.markers].sort((a, b) => a.value - b.value);
      surface.canvas.setAttribute('aria-label', `${spec.label}: ${ownersSummary(m)}`);
      chart.setAttribute('aria-label', `${spec.label}. ${KEYBOARD_HELP}`);
      chart.setAttribute('data-chart', spec.id);
      // Through the CSSOM: the panel's CSP refuses style attributes.
      axis.style.width = `${width}px`;
      chart.replaceChildren(zoomControls(spec, () => w), surface.canvas, axis, segmentsTable(spec, () => w));
      // Drawn now (a chart shown again may be out of the page until its caller puts it back).
      handle.alive = true;
      draw();
      register(handle);
    },
  };
  self.show(first);
  if (spec.warm !== false) warmLater(() => chart.isConnected && warmLayouts(m, spec.ring, width));
  return self;
}

/** Where the bar's rows go: the keys' labels, the bar, the moved ranges, the ring's points. */
function barLayout(spec: BarSpec): { barY: number; movedY: number; ticksY: number; height: number } {
  return barRows(spec.markers.length, Boolean(spec.moved), Boolean(spec.ring));
}

/** The rows of a bar with `keys` keys, with or without moved ranges and ring points. */
export function barRows(keys: number, moved: boolean, ring: boolean): { barY: number; movedY: number; ticksY: number; height: number } {
  const barY = labelsHeight(keys);
  const movedY = barY + BAR_H + 2;
  const ticksY = movedY + (moved ? MOVED_H + 2 : 0);
  return { barY, movedY, ticksY, height: ticksY + (ring ? TICK_H + 2 : 0) + 2 };
}

/** The segments as a paged table (made when opened), starting at the window's first segment. */
function segmentsTable(spec: BarSpec, current: () => ZoomWindow): HTMLElement {
  const m = spec.model;
  return lazyDetails(`Data: ${thousands(m.count)} segments as a table`, () => {
    const w = current();
    const keysAt = new Map<number, number[]>();
    for (const k of spec.markers) {
      const i = segmentIndexAt(m, k.value);
      if (i >= 0) keysAt.set(i, [...(keysAt.get(i) ?? []), k.n]);
    }
    return pagedTable({
      id: `${spec.id}-segments`,
      label: `${spec.label}: segments`,
      columns: ['#', l10n.t('first hash'), l10n.t('last hash'), l10n.t('owner'), l10n.t('share of key hashes'), l10n.t('keys')],
      count: m.count,
      start: Math.max(0, segmentIndexAt(m, w.from)),
      row: (i) => {
        const info = segmentInfo(m, i);
        return [i + 1, info.range[0], info.range[1], info.owner.ids.length ? info.owner.label : l10n.t('nobody'), pct(info.share), (keysAt.get(i) ?? []).map((n) => `#${n}`).join(' ')];
      },
      rowClass: (i) => (keysAt.has(i) ? 'hit' : ''),
    }).element;
  });
}

const digitWidths = new Map<string, number>();

/**
 * The width of a number's digits in `font`: one measurement of "0" per font, times the digits
 * (UI fonts draw digits at one width, so a label's place is off by no more than a pixel).
 */
function textWidth(ctx: CanvasRenderingContext2D, font: string, digits: string): number {
  let w = digitWidths.get(font);
  if (w === undefined) {
    const saved = ctx.font;
    ctx.font = font;
    w = ctx.measureText('0000000000').width / 10;
    ctx.font = saved;
    digitWidths.set(font, w);
  }
  return w * digits.length;
}
