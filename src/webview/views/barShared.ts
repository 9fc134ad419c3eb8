/**
 * What the hash-range bar means, whichever way it is drawn (SVG for a few segments, canvas for many):
 * its spec, the words hovering and the keyboard read out, the zoom controls, and the keys.
 */
import { arcPieces, type RingModel } from '../../shared/view/ring';
import {
  fullWindow,
  isFullWindow,
  panWindow,
  segmentIndexAt,
  segmentInfo,
  windowAround,
  xOf,
  zoomWindow,
  type SegmentsModel,
  type ZoomWindow,
} from '../../shared/view/segments';
import { l10n } from '../l10n';
import { h } from '../dom';
import { pct, range } from '../format';
import { cut, keyText } from '../../shared/keyText';
import type { Renderer } from '../state';
import type { Ui } from '../ui';

export interface BarMarker {
  n: number;
  label: string;
  /** The slot the key is looked up at. */
  value: number;
  /** The hash as printed (the sticky key hash). */
  hash: number;
  consumer: string | null;
  arc?: { from: number; to: number; wraps: boolean } | null;
}

export interface BarSpec {
  /** Names the chart for tests and labels: `ranges`, `detail`, `before`, `after`. */
  id: string;
  label: string;
  model: SegmentsModel;
  window: ZoomWindow;
  width: number;
  markers: BarMarker[];
  moved?: Array<[number, number]>;
  /** Hashes the broker reported draining (4.x), each with the consumer still holding it. */
  draining?: ReadonlyArray<{ hash: number; consumer: string }>;
  ring?: RingModel | null;
  /** Asked to show another window (zoom, pan): every bar the panel draws zooms. */
  onWindow: (w: ZoomWindow) => void;
  /**
   * False where the chart is drawn again at every what-if step: its zoom layouts are not warmed
   * when idle (see `warmLayouts`), a 12-layout task that would run after each step.
   */
  warm?: boolean;
  ui: Ui;
}

/** A chart that zooms (SVG or canvas): the panel gives every chart of a zoom group the new window. */
export interface ChartHandle<E extends Element = HTMLElement> {
  element: E;
  window(): ZoomWindow;
  /** Shows another window (drawn in place: at once, or in the next frame). */
  setWindow(w: ZoomWindow): void;
}

/** Segments or ring points above which a chart is drawn on a canvas (SVG elements cost more). */
export const DENSE_SEGMENTS = 1500;
/**
 * Keys above which a chart is drawn on a canvas however few its segments: each key is a group of
 * three to five SVG elements, made again at every zoom and step. A 3.x ring of 10 consumers x 100
 * points with 100 keys (the panel bench, one run each): zoom 10 / 17 ms of CPU (p50 / p95) and
 * what-if steps 46-73 ms in SVG, 6 / 12 and 28-37 on a canvas.
 */
export const DENSE_MARKERS = 32;

/** Whether a bar or a ring is drawn on a canvas: where SVG would take too many elements, or as the panel's state asks. */
export function drawnOnCanvas(spec: { model: SegmentsModel; ring?: RingModel | null; markers: readonly unknown[] }, renderer: Renderer = 'auto'): boolean {
  if (renderer !== 'auto') return renderer === 'canvas';
  return spec.model.count > DENSE_SEGMENTS || (spec.ring?.points.length ?? 0) > DENSE_SEGMENTS || spec.markers.length > DENSE_MARKERS;
}

export const BAR_H = 36;
export const ROW_H = 14;
export const TICK_H = 8;
export const AXIS_H = 16;
export const MOVED_H = 6;

/**
 * Whether `[s, e]` touches one of the moved ranges (ascending), for runs asked in ascending order;
 * true for every run where nothing moved. (A what-if draws what did not move faded.)
 */
export function movedTester(moved: ReadonlyArray<readonly [number, number]> | undefined): (s: number, e: number) => boolean {
  let mi = 0;
  return (s, e) => {
    if (!moved) return true;
    while (mi < moved.length && moved[mi][1] < s) mi++;
    return mi < moved.length && moved[mi][0] <= e;
  };
}

/** What hovering or the keyboard says about segment `i`. */
export function describeSegment(m: SegmentsModel, i: number): string[] {
  const info = segmentInfo(m, i);
  const o = info.owner;
  return [
    o.ids.length ? o.label : 'nobody (unowned)',
    `range ${range(info.range)}`,
    `${pct(info.share)} of key hashes here${o.ids.length ? `; ${o.label} holds ${pct(o.share)} in all` : ''}`,
  ];
}

/** What hovering a pixel column that several segments share says. */
export function mixedLines(m: SegmentsModel, first: number, last: number): string[] {
  const owners = new Map<number, number>();
  for (let i = first; i <= last; i++) owners.set(m.owner[i], (owners.get(m.owner[i]) ?? 0) + (m.ends[i] - m.starts[i] + 1));
  const top = [...owners.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
  return [
    `${last - first + 1} segments in this pixel`,
    `range ${m.starts[first]}–${m.ends[last]}`,
    ...top.map(([o, n]) => `${m.owners[o].ids.length ? m.owners[o].label : 'nobody'}: ${n} hash${n === 1 ? '' : 'es'}`),
    'zoom in to tell them apart',
  ];
}

/** The owners and their shares, for the chart's accessible name. */
export function ownersSummary(m: SegmentsModel): string {
  const owned = m.owners.filter((o) => o.ids.length > 0 && o.values > 0);
  const head = owned.slice(0, 6).map((o) => `${o.label} ${pct(o.share)}`).join(', ');
  const nobody = m.owners[0].values > 0 ? `; unowned ${pct(m.owners[0].share)}` : '';
  return `${owned.length} owners${owned.length ? `: ${head}${owned.length > 6 ? ', …' : ''}` : ''}${nobody}`;
}

/** A label cut to fit `width` pixels (about 7 px a character). */
export function fit(label: string, width: number): string {
  return cut(label, Math.max(2, Math.floor((width - 8) / 7)));
}

/** How wide a marker's label is drawn ("n hash"). */
export function markerTextWidth(k: BarMarker): number {
  return 10 + String(k.hash).length * 7 + String(k.n).length * 7;
}

/**
 * The label row (0..2) of each visible marker, so that close keys do not overprint; markers
 * sorted by value. A marker whose label fits in none of the rows gets -1: it is drawn as a tick
 * without a label (its number and hash are in its tooltip and the keys table, and zooming in
 * makes room), where a hundred keys on a bar used to print their labels over one another, and
 * four hundred texts were most of a what-if step's drawing. Returns the rows and how many are used.
 */
export function markerRows(visible: readonly BarMarker[], xOfMarker: (k: BarMarker) => number, width: number): { rows: number[]; used: number } {
  const rowEnds: number[] = [];
  const rows = visible.map((k) => {
    const xm = xOfMarker(k);
    const textW = markerTextWidth(k);
    const x = xm + textW > width ? xm - textW : xm;
    let r = rowEnds.findIndex((end) => end < x - 2);
    if (r < 0) {
      if (rowEnds.length >= MARKER_ROWS) return -1;
      r = rowEnds.length;
    }
    rowEnds[r] = x + textW;
    return r;
  });
  return { rows, used: rowEnds.length };
}

/** Label rows above a bar. */
export const MARKER_ROWS = 3;

/**
 * The height above a bar for its keys' labels: a row for each key up to three, whatever the window
 * shows, so that zooming never moves the bar under the pointer.
 */
export function labelsHeight(keys: number): number {
  return Math.max(1, Math.min(MARKER_ROWS, keys)) * ROW_H + 4;
}

/** How far above the bar the tick of a marker without a label starts. */
export const UNLABELLED_TICK = 4;

export const KEYBOARD_HELP = 'Arrow keys move between segments, Shift+arrows and Page Up/Down pan, plus and minus zoom, 0 resets, k jumps to the next key.';

/** The state a chart's keyboard handler works on. */
export interface ChartKeys {
  model: SegmentsModel;
  markers: readonly BarMarker[];
  window(): ZoomWindow;
  cursor(): number;
  setCursor(i: number, announce: boolean): void;
  onWindow?: (w: ZoomWindow) => void;
  ui: Ui;
}

/** One key press on a bar chart; true where it was one of the chart's keys. */
export function chartKey(ev: KeyboardEvent, c: ChartKeys): boolean {
  const m = c.model;
  const w = c.window();
  const cursor = c.cursor();
  const center = cursor >= 0 ? (m.starts[cursor] + m.ends[cursor]) / 2 : undefined;
  switch (ev.key) {
    case 'ArrowRight':
      if (ev.shiftKey) c.onWindow?.(panWindow(w, m.space, 0.1));
      else c.setCursor(cursor < 0 ? segmentIndexAt(m, w.from) : cursor + 1, true);
      return true;
    case 'ArrowLeft':
      if (ev.shiftKey) c.onWindow?.(panWindow(w, m.space, -0.1));
      else c.setCursor(cursor < 0 ? segmentIndexAt(m, w.to) : cursor - 1, true);
      return true;
    case 'Home':
      c.setCursor(0, true);
      return true;
    case 'End':
      c.setCursor(m.count - 1, true);
      return true;
    case '+':
    case '=':
      c.onWindow?.(zoomWindow(w, m.space, 0.5, center));
      return true;
    case '-':
      c.onWindow?.(zoomWindow(w, m.space, 2, center));
      return true;
    case '0':
      c.onWindow?.(fullWindow(m.space));
      return true;
    case 'PageDown':
      c.onWindow?.(panWindow(w, m.space, 0.5));
      return true;
    case 'PageUp':
      c.onWindow?.(panWindow(w, m.space, -0.5));
      return true;
    case 'k': {
      const sorted = [...c.markers].sort((a, b) => a.value - b.value);
      const cur = cursor >= 0 ? m.ends[cursor] : -1;
      const next = sorted.find((k) => k.value > cur) ?? sorted[0];
      if (next) {
        const i = segmentIndexAt(m, next.value);
        c.setCursor(i, false);
        c.ui.announce(`key ${next.n} ${keyText(next.label)}: hash ${next.hash}; ${describeSegment(m, i).join(', ')}`);
      }
      return true;
    }
    default:
      return false;
  }
}

/** The cursor's outline over segment `i` in the window `w`: its x from and to (2 px at least), or null out of the window. */
export function cursorSpan(m: SegmentsModel, i: number, w: ZoomWindow, width: number): [number, number] | null {
  const s = m.starts[i];
  const e = m.ends[i];
  if (e < w.from || s > w.to) return null;
  const x0 = xOf(Math.max(s, w.from), w, width);
  return [x0, Math.max(x0 + 2, xOf(Math.min(e, w.to) + 1, w, width))];
}

/**
 * Where a bar's cursor goes for segment `i` (clamped to the segments): a segment out of the window
 * `w` brings the window to it, and `announce` reads the segment out.
 */
export function moveCursor(spec: BarSpec, w: ZoomWindow, i: number, announce: boolean): number {
  const m = spec.model;
  const c = Math.max(0, Math.min(m.count - 1, i));
  if (m.ends[c] < w.from || m.starts[c] > w.to) spec.onWindow(windowAround(m.starts[c], m.space, w.to - w.from + 1));
  if (announce) spec.ui.announce(describeSegment(m, c).join(', '));
  return c;
}

/** The window after a wheel turn with the pointer at `x`: zoomed in (up) or out around the hash there. */
export function wheelWindow(w: ZoomWindow, space: readonly [number, number], width: number, x: number, deltaY: number): ZoomWindow {
  return zoomWindow(w, space, deltaY < 0 ? 0.5 : 2, w.from + (x / width) * (w.to - w.from + 1));
}

/** Zoom, pan and "zoom to key" buttons; they act on the chart's window as it is when clicked. */
export function zoomControls(spec: BarSpec, current: () => ZoomWindow): HTMLElement {
  const m = spec.model;
  const onWindow = spec.onWindow;
  const bar = h('div', { class: 'zoom-controls', role: 'toolbar', 'aria-label': `zoom ${spec.label}` });
  const button = (label: string, title: string, act: () => void, cls = '') => {
    const b = h('button', { type: 'button', class: `small ${cls}`, title, 'aria-label': title }, label);
    b.addEventListener('click', act);
    return b;
  };
  bar.append(
    button('+', l10n.t('Zoom in'), () => onWindow(zoomWindow(current(), m.space, 0.25))),
    button('−', l10n.t('Zoom out'), () => onWindow(zoomWindow(current(), m.space, 4))),
    button('◀', l10n.t('Pan left'), () => onWindow(panWindow(current(), m.space, -0.5))),
    button('▶', l10n.t('Pan right'), () => onWindow(panWindow(current(), m.space, 0.5))),
    button(l10n.t('Reset'), l10n.t('Show the whole hash space'), () => onWindow(fullWindow(m.space))),
  );
  const around = (k: BarMarker) => onWindow(windowAround(k.value, m.space, Math.max(64, Math.round((m.space[1] - m.space[0] + 1) / 512))));
  if (spec.markers.length <= 5) {
    for (const k of spec.markers) bar.append(button(l10n.t('Key {0}', k.n), l10n.t('Zoom to key {0} ({1}, hash {2})', k.n, keyText(k.label), k.hash), () => around(k), 'zoom-key'));
  } else {
    const pick = h('select', { class: 'zoom-key-select', 'aria-label': `zoom ${spec.label} to a key` }, h('option', { value: '' }, l10n.t('Zoom to key…')));
    // The options are made when the list is first opened: a hundred keys cost the first picture nothing.
    const fill = () => {
      if (pick.options.length > 1) return;
      pick.append(...spec.markers.map((k) => h('option', { value: String(k.n) }, `${k.n}: ${keyText(k.label)} (${k.hash})`)));
    };
    pick.addEventListener('focus', fill);
    pick.addEventListener('pointerdown', fill);
    pick.addEventListener('change', () => {
      const k = spec.markers.find((x) => String(x.n) === pick.value);
      if (k) around(k);
    });
    bar.append(pick);
  }
  return bar;
}

/** "zoomed: 1.23 % of the space", or nothing at the full space. */
export function zoomNote(m: SegmentsModel, w: ZoomWindow): string {
  return isFullWindow(w, m.space) ? '' : `zoomed: ${pct((w.to - w.from + 1) / (m.space[1] - m.space[0] + 1))} of the space`;
}

/**
 * The keys' arcs (hash to ring point) as the bar shows them in the window `w`: each visible piece's
 * x from and to (at least a pixel long), and whether it ends at the arc's ring point, which both
 * renderers mark with a dot at `x1 - 0.5`.
 */
export function arcSpans(markers: readonly BarMarker[], space: readonly [number, number], w: ZoomWindow, width: number): Array<{ x0: number; x1: number; point: boolean }> {
  const out: Array<{ x0: number; x1: number; point: boolean }> = [];
  for (const k of markers) {
    if (!k.arc) continue;
    for (const [s, e] of arcPieces(k.arc, space)) {
      if (e < w.from || s > w.to) continue;
      const x0 = xOf(Math.max(s, w.from), w, width);
      const x1 = xOf(Math.min(e, w.to) + 1, w, width);
      out.push({ x0, x1, point: e === k.arc.to && e <= w.to });
    }
  }
  return out;
}
