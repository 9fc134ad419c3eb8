/**
 * The key hash space as a bar: owned segments laid out per pixel column at the current zoom,
 * unowned gaps hatched, the keys' markers with their hash values, moved ranges (what-if) and
 * ring points (consistent hashing) on top. Hover lists consumer, range and share; the keyboard
 * moves a cursor from segment to segment (arrows), zooms (+, -, 0) and jumps to keys (k).
 */
import type { RingModel } from '../../shared/view/ring';
import { binPoints } from '../../shared/view/ring';
import {
  fullWindow,
  layoutSegments,
  panWindow,
  runAt,
  segmentIndexAt,
  segmentInfo,
  windowAround,
  xOf,
  zoomWindow,
  type SegmentsModel,
  type ZoomWindow,
} from '../../shared/view/segments';
import { h, px, svg } from '../dom';
import { pct, range } from '../format';
import { l10n } from '../l10n';
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
  ring?: RingModel | null;
  onWindow?: (w: ZoomWindow) => void;
  ui: Ui;
}

const BAR_H = 36;
const ROW_H = 14;
const TICK_H = 8;
const AXIS_H = 16;
const MOVED_H = 6;

export function renderBar(spec: BarSpec): HTMLElement {
  const { model: m, window: w, width, ui } = spec;
  const runs = layoutSegments(m, w, width);
  // Marker labels in rows so that close keys do not overprint.
  const visible = spec.markers.filter((k) => k.value >= w.from && k.value <= w.to).sort((a, b) => a.value - b.value);
  const rowEnds: number[] = [];
  const rows = visible.map((k) => {
    const xm = xOf(k.value + 0.5, w, width);
    const textW = 10 + String(k.hash).length * 7 + String(k.n).length * 7;
    const x = xm + textW > width ? xm - textW : xm;
    let r = rowEnds.findIndex((end) => end < x - 2);
    if (r < 0 || r > 2) r = rowEnds.length < 3 ? rowEnds.length : rowEnds.indexOf(Math.min(...rowEnds));
    rowEnds[r] = x + textW;
    return r;
  });
  const labelsH = Math.max(1, rowEnds.length) * ROW_H + 4;
  const barY = labelsH;
  const movedY = barY + BAR_H + 2;
  const ticksY = movedY + (spec.moved ? MOVED_H + 2 : 0);
  const axisY = ticksY + (spec.ring ? TICK_H + 2 : 0);
  const height = axisY + AXIS_H;

  const root = svg('svg', { width, height, class: 'bar', role: 'img', 'aria-label': `${spec.label}: ${ownersSummary(m)}` });
  const gRuns = svg('g', { class: 'runs' });
  const moved = spec.moved;
  // With moved ranges (what-if), what did not move is drawn faded so that what moved stands out.
  let mi = 0;
  const touchesMoved = (s: number, e: number): boolean => {
    if (!moved) return true;
    while (mi < moved.length && moved[mi][1] < s) mi++;
    return mi < moved.length && moved[mi][0] <= e;
  };
  // One path per colour class (a rectangle per run inside it), not an element per run: a full ring
  // is a run per pixel column, and a thousand elements cost more to lay out and paint than to build.
  const byClass = new Map<string, string[]>();
  const labels: SVGTextElement[] = [];
  for (const r of runs) {
    const o = m.owners[r.owner];
    const faded = moved && !touchesMoved(Math.max(m.starts[r.first], w.from), Math.min(m.ends[r.last], w.to));
    const cls = `seg ${o.color < 0 ? 'unowned' : `c${o.color}`}${r.mixed ? ' mixed' : ''}${faded ? ' faded' : ''}`;
    let d = byClass.get(cls);
    if (!d) byClass.set(cls, (d = []));
    d.push(`M${r.x0} ${barY}h${r.x1 - r.x0}v${BAR_H}h${r.x0 - r.x1}z`);
    if (!r.mixed && r.x1 - r.x0 > 44 && o.ids.length > 0) {
      labels.push(svg('text', { class: 'seg-label', x: px((r.x0 + r.x1) / 2), y: barY + BAR_H / 2 + 4, 'text-anchor': 'middle' }, fit(o.label, r.x1 - r.x0)));
    }
  }
  for (const [cls, d] of byClass) gRuns.append(svg('path', { class: cls, d: d.join('') }));
  gRuns.append(...labels);
  root.append(gRuns);

  if (spec.moved) {
    // The moved ranges as a band under the bar, at least a pixel wide each.
    const g = svg('g', { class: 'moved-ranges' });
    for (const [s, e] of spec.moved) {
      if (e < w.from || s > w.to) continue;
      const x0 = xOf(Math.max(s, w.from), w, width);
      const x1 = Math.max(x0 + 1, xOf(Math.min(e, w.to) + 1, w, width));
      g.append(svg('rect', { class: 'moved', x: px(x0), y: movedY, width: px(x1 - x0), height: MOVED_H, 'data-range': `${s}-${e}` }));
    }
    root.append(g);
  }

  if (spec.ring) {
    // Ring points as ticks under the bar, one per pixel column at most, one path per colour.
    const bins = binPoints(spec.ring, w, Math.max(1, Math.floor(width)));
    const paths = new Map<string, string[]>();
    for (const b of bins) {
      const o = m.owners[b.owner];
      const cls = `tick ${o.color < 0 ? 'unowned' : `c${o.color}`}${b.mixed ? ' mixed' : ''}`;
      let list = paths.get(cls);
      if (!list) paths.set(cls, (list = []));
      list.push(`M${px(b.bin + 0.5)} ${ticksY}v${b.count > 1 ? TICK_H : TICK_H - 3}`);
    }
    const g = svg('g', { class: 'points' });
    for (const [cls, d] of paths) g.append(svg('path', { class: cls, d: d.join('') }));
    root.append(g);
  }

  // Arcs from a key's hash to its ring point, just above the bar.
  const gArcs = svg('g', { class: 'arcs' });
  for (const k of spec.markers) {
    if (!k.arc) continue;
    const pieces: Array<[number, number]> = k.arc.wraps ? [[k.arc.from, m.space[1]], [m.space[0], k.arc.to]] : [[k.arc.from, k.arc.to]];
    for (const [s, e] of pieces) {
      if (e < w.from || s > w.to) continue;
      const x0 = xOf(Math.max(s, w.from), w, width);
      const x1 = xOf(Math.min(e, w.to) + 1, w, width);
      gArcs.append(svg('path', { class: 'arc', d: `M${px(x0)} ${barY - 3}H${px(Math.max(x1, x0 + 1))}` }));
      if (e === k.arc.to && e <= w.to) gArcs.append(svg('circle', { class: 'arc-point', cx: px(x1 - 0.5), cy: barY - 3, r: 2.5 }));
    }
  }
  root.append(gArcs);

  const gMarkers = svg('g', { class: 'markers' });
  visible.forEach((k, i) => {
    const x = xOf(k.value + 0.5, w, width);
    const y = rows[i] * ROW_H + ROW_H - 2;
    const textW = 10 + String(k.hash).length * 7 + String(k.n).length * 7;
    const atEnd = x + textW > width;
    const g = svg(
      'g',
      {
        class: 'key-marker',
        'data-n': k.n,
        'data-hash': k.hash,
        'data-slot': k.value,
        'data-key': k.label,
        role: 'img',
        'aria-label': `key ${k.n} ${k.label}: hash ${k.hash}, ${k.consumer ? `consumer ${k.consumer}` : 'no consumer'}`,
      },
      svg('line', { class: 'marker-line', x1: px(x), x2: px(x), y1: y + 2, y2: barY + BAR_H }),
      svg('text', { class: 'marker-label', x: px(atEnd ? x - 3 : x + 3), y, 'text-anchor': atEnd ? 'end' : 'start' }, svg('tspan', { class: 'marker-n' }, `${k.n}`), svg('tspan', { class: 'marker-hash', dx: 4 }, `${k.hash}`)),
    );
    gMarkers.append(g);
  });
  root.append(gMarkers);

  const axis = svg('g', { class: 'axis' });
  axis.append(svg('text', { x: 0, y: axisY + 12 }, String(w.from)));
  axis.append(svg('text', { x: width, y: axisY + 12, 'text-anchor': 'end' }, String(w.to)));
  const full = fullWindow(m.space);
  if (w.from !== full.from || w.to !== full.to) {
    axis.append(svg('text', { x: width / 2, y: axisY + 12, 'text-anchor': 'middle', class: 'zoom-note' }, `zoomed: ${pct((w.to - w.from + 1) / (full.to - full.from + 1))} of the space`));
  }
  root.append(axis);

  const cursorRect = svg('rect', { class: 'cursor', x: 0, y: barY - 1, width: 0, height: BAR_H + 2, visibility: 'hidden' });
  root.append(cursorRect);

  const chart = h('div', { class: 'chart', tabindex: 0, role: 'group', 'aria-label': `${spec.label}. Arrow keys move between segments, plus and minus zoom, 0 resets, k jumps to the next key.`, 'data-chart': spec.id });
  let cursor = -1;
  const describe = (i: number): string[] => {
    const info = segmentInfo(m, i);
    const o = info.owner;
    return [
      o.ids.length ? o.label : 'nobody (unowned)',
      `range ${range(info.range)}`,
      `${pct(info.share)} of key hashes here${o.ids.length ? `; ${o.label} holds ${pct(o.share)} in all` : ''}`,
    ];
  };
  const setCursor = (i: number, announce: boolean): void => {
    cursor = Math.max(0, Math.min(m.count - 1, i));
    const s = m.starts[cursor];
    const e = m.ends[cursor];
    if (e < w.from || s > w.to) {
      spec.onWindow?.(windowAround(s, m.space, w.to - w.from + 1));
      return;
    }
    const x0 = xOf(Math.max(s, w.from), w, width);
    const x1 = Math.max(x0 + 2, xOf(Math.min(e, w.to) + 1, w, width));
    cursorRect.setAttribute('x', px(x0));
    cursorRect.setAttribute('width', px(x1 - x0));
    cursorRect.setAttribute('visibility', 'visible');
    if (announce) ui.announce(describe(cursor).join(', '));
  };

  root.addEventListener('mousemove', (ev) => {
    const rect = root.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    if (y < barY - 4 || y > barY + BAR_H + TICK_H + 4) return ui.hideTip();
    const r = runAt(runs, x);
    if (!r) return ui.hideTip();
    const lines = r.first === r.last ? describe(r.first) : mixedLines(m, r.first, r.last);
    ui.showTip(ev.clientX, ev.clientY, lines);
  });
  root.addEventListener('mouseleave', () => ui.hideTip());
  root.addEventListener('click', (ev) => {
    const rect = root.getBoundingClientRect();
    const r = runAt(runs, ev.clientX - rect.left);
    if (r) setCursor(r.first, true);
    chart.focus();
  });
  if (spec.onWindow) {
    const onWindow = spec.onWindow;
    root.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        const rect = root.getBoundingClientRect();
        const center = w.from + ((ev.clientX - rect.left) / width) * (w.to - w.from + 1);
        onWindow(zoomWindow(w, m.space, ev.deltaY < 0 ? 0.5 : 2, center));
      },
      { passive: false },
    );
  }
  chart.addEventListener('keydown', (ev) => {
    const center = cursor >= 0 ? (m.starts[cursor] + m.ends[cursor]) / 2 : undefined;
    let handled = true;
    switch (ev.key) {
      case 'ArrowRight':
        setCursor(cursor < 0 ? segmentIndexAt(m, w.from) : cursor + 1, true);
        break;
      case 'ArrowLeft':
        setCursor(cursor < 0 ? segmentIndexAt(m, w.to) : cursor - 1, true);
        break;
      case 'Home':
        setCursor(0, true);
        break;
      case 'End':
        setCursor(m.count - 1, true);
        break;
      case '+':
      case '=':
        spec.onWindow?.(zoomWindow(w, m.space, 0.5, center));
        break;
      case '-':
        spec.onWindow?.(zoomWindow(w, m.space, 2, center));
        break;
      case '0':
        spec.onWindow?.(fullWindow(m.space));
        break;
      case 'PageDown':
        spec.onWindow?.(panWindow(w, m.space, 0.5));
        break;
      case 'PageUp':
        spec.onWindow?.(panWindow(w, m.space, -0.5));
        break;
      case 'k': {
        const sorted = [...spec.markers].sort((a, b) => a.value - b.value);
        const cur = cursor >= 0 ? m.ends[cursor] : -1;
        const next = sorted.find((k) => k.value > cur) ?? sorted[0];
        if (next) {
          setCursor(segmentIndexAt(m, next.value), false);
          ui.announce(`key ${next.n} ${next.label}: hash ${next.hash}; ${describe(segmentIndexAt(m, next.value)).join(', ')}`);
        }
        break;
      }
      default:
        handled = false;
    }
    if (handled) ev.preventDefault();
  });
  chart.append(root);
  if (spec.onWindow) chart.prepend(zoomControls(spec));
  return chart;
}

function zoomControls(spec: BarSpec): HTMLElement {
  const { model: m, window: w } = spec;
  const onWindow = spec.onWindow!;
  const bar = h('div', { class: 'zoom-controls', role: 'toolbar', 'aria-label': `zoom ${spec.label}` });
  const button = (label: string, title: string, act: () => void, cls = '') => {
    const b = h('button', { type: 'button', class: `small ${cls}`, title, 'aria-label': title }, label);
    b.addEventListener('click', act);
    return b;
  };
  bar.append(
    button('+', l10n.t('Zoom in'), () => onWindow(zoomWindow(w, m.space, 0.25))),
    button('−', l10n.t('Zoom out'), () => onWindow(zoomWindow(w, m.space, 4))),
    button('◀', l10n.t('Pan left'), () => onWindow(panWindow(w, m.space, -0.5))),
    button('▶', l10n.t('Pan right'), () => onWindow(panWindow(w, m.space, 0.5))),
    button(l10n.t('Reset'), l10n.t('Show the whole hash space'), () => onWindow(fullWindow(m.space))),
  );
  const around = (k: BarMarker) => onWindow(windowAround(k.value, m.space, Math.max(64, Math.round((m.space[1] - m.space[0] + 1) / 512))));
  if (spec.markers.length <= 5) {
    for (const k of spec.markers) bar.append(button(l10n.t('Key {0}', k.n), l10n.t('Zoom to key {0} ({1}, hash {2})', k.n, k.label, k.hash), () => around(k), 'zoom-key'));
  } else {
    const pick = h('select', { class: 'zoom-key-select', 'aria-label': `zoom ${spec.label} to a key` }, h('option', { value: '' }, l10n.t('Zoom to key…')), ...spec.markers.map((k) => h('option', { value: String(k.n) }, `${k.n}: ${k.label} (${k.hash})`)));
    pick.addEventListener('change', () => {
      const k = spec.markers.find((x) => String(x.n) === pick.value);
      if (k) around(k);
    });
    bar.append(pick);
  }
  return bar;
}

function mixedLines(m: SegmentsModel, first: number, last: number): string[] {
  const owners = new Map<number, number>();
  for (let i = first; i <= last; i++) owners.set(m.owner[i], (owners.get(m.owner[i]) ?? 0) + (m.ends[i] - m.starts[i] + 1));
  const top = [...owners.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
  return [
    `${last - first + 1} segments in this pixel`,
    `range ${m.starts[first]}–${m.ends[last]}`,
    ...top.map(([o, n]) => `${m.owners[o].ids.length ? m.owners[o].label : 'nobody'}: ${n} hashes`),
    'zoom in to tell them apart',
  ];
}

function ownersSummary(m: SegmentsModel): string {
  const owned = m.owners.filter((o) => o.ids.length > 0 && o.values > 0);
  const head = owned.slice(0, 6).map((o) => `${o.label} ${pct(o.share)}`).join(', ');
  const nobody = m.owners[0].values > 0 ? `; unowned ${pct(m.owners[0].share)}` : '';
  return `${owned.length} owners${owned.length ? `: ${head}${owned.length > 6 ? ', …' : ''}` : ''}${nobody}`;
}

function fit(label: string, width: number): string {
  const max = Math.floor((width - 8) / 7);
  return label.length <= max ? label : `${label.slice(0, Math.max(1, max - 1))}…`;
}
