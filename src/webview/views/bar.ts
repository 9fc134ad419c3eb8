/**
 * The key hash space as a bar: owned segments laid out per pixel column at the current zoom,
 * unowned gaps hatched, the keys' markers with their hash values, moved ranges (what-if) and
 * ring points (consistent hashing) on top. Hover lists consumer, range and share; the keyboard
 * moves a cursor from segment to segment (arrows), zooms (+, -, 0) and jumps to keys (k).
 *
 * A zoom or pan draws the SVG again in the next frame inside the same chart element, not the
 * panel again: the focus and the cursor stay where they were, and a wheel turn costs one bar.
 */
import { binPoints } from '../../shared/view/ring';
import { layoutSegments, runAt, xOf, type Run, type ZoomWindow } from '../../shared/view/segments';
import { requestDraw } from '../canvas/surface';
import { ClassPaths, colourClass, h, px, svg } from '../dom';
import {
  arcSpans,
  AXIS_H,
  BAR_H,
  chartKey,
  cursorSpan,
  describeSegment,
  fit,
  KEYBOARD_HELP,
  labelsHeight,
  markerRows,
  UNLABELLED_TICK,
  markerTextWidth,
  mixedLines,
  moveCursor,
  movedTester,
  MOVED_H,
  ownersSummary,
  ROW_H,
  TICK_H,
  zoomControls,
  wheelWindow,
  zoomNote,
  type BarSpec,
  type ChartHandle,
} from './barShared';

import { l10n } from '../l10n';
import { keyText } from '../../shared/keyText';

export type { BarMarker, BarSpec } from './barShared';

export function renderBar(spec: BarSpec): ChartHandle {
  const { model: m, width, ui } = spec;
  let w = spec.window;
  // What the SVG drawn last holds, for the pointer and the cursor.
  let runs: Run[] = [];
  const barY = labelsHeight(spec.markers.length);
  let cursor = -1;
  const chart = h('div', { class: 'chart', tabindex: 0, role: 'group', 'aria-label': `${spec.label}. ${KEYBOARD_HELP}`, 'data-chart': spec.id });
  const cursorRect = svg('rect', { class: 'cursor', x: 0, y: barY - 1, width: 0, height: BAR_H + 2, visibility: 'hidden' });

  /** The bar for the window `w`. */
  function build(): SVGSVGElement {
    runs = layoutSegments(m, w, width);
    // Marker labels in rows so that close keys do not overprint.
    const visible = spec.markers.filter((k) => k.value >= w.from && k.value <= w.to).sort((a, b) => a.value - b.value);
    const { rows } = markerRows(visible, (k) => xOf(k.value + 0.5, w, width), width);
    const movedY = barY + BAR_H + 2;
    const ticksY = movedY + (spec.moved ? MOVED_H + 2 : 0);
    const axisY = ticksY + (spec.ring ? TICK_H + 2 : 0);
    const height = axisY + AXIS_H;

    const root = svg('svg', { width, height, class: 'bar', role: 'img', 'aria-label': `${spec.label}: ${ownersSummary(m)}` });
    const moved = spec.moved;
    // With moved ranges (what-if), what did not move is drawn faded so that what moved stands out.
    const touchesMoved = movedTester(moved);
    // A rectangle per run in its colour class's path.
    const segs = new ClassPaths();
    const labels: SVGTextElement[] = [];
    for (const r of runs) {
      const o = m.owners[r.owner];
      const faded = moved && !touchesMoved(Math.max(m.starts[r.first], w.from), Math.min(m.ends[r.last], w.to));
      segs.add(`seg ${colourClass(o.color)}${r.mixed ? ' mixed' : ''}${faded ? ' faded' : ''}`, `M${r.x0} ${barY}h${r.x1 - r.x0}v${BAR_H}h${r.x0 - r.x1}z`);
      if (!r.mixed && r.x1 - r.x0 > 44 && o.ids.length > 0) {
        labels.push(svg('text', { class: 'seg-label', x: px((r.x0 + r.x1) / 2), y: barY + BAR_H / 2 + 4, 'text-anchor': 'middle' }, fit(o.label, r.x1 - r.x0)));
      }
    }
    const gRuns = segs.group('runs');
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
      const ticks = new ClassPaths();
      for (const b of binPoints(spec.ring, w, Math.max(1, Math.floor(width)))) {
        ticks.add(`tick ${colourClass(m.owners[b.owner].color)}${b.mixed ? ' mixed' : ''}`, `M${px(b.bin + 0.5)} ${ticksY}v${b.count > 1 ? TICK_H : TICK_H - 3}`);
      }
      root.append(ticks.group('points'));
    }

    // Arcs from a key's hash to its ring point, just above the bar.
    const gArcs = svg('g', { class: 'arcs' });
    for (const { x0, x1, point } of arcSpans(spec.markers, m.space, w, width)) {
      gArcs.append(svg('path', { class: 'arc', d: `M${px(x0)} ${barY - 3}H${px(Math.max(x1, x0 + 1))}` }));
      if (point) gArcs.append(svg('circle', { class: 'arc-point', cx: px(x1 - 0.5), cy: barY - 3, r: 2.5 }));
    }
    root.append(gArcs);

    if (spec.draining?.length) {
      // Draining hashes as thin outlined bars over the runs (the foreground colour in every theme).
      const g = svg('g', { class: 'draining-marks' });
      for (const d of spec.draining) {
        if (d.hash < w.from || d.hash > w.to) continue;
        const x = xOf(d.hash, w, width);
        g.append(
          svg(
            'rect',
            { class: 'draining-mark', x: px(x), y: barY, width: px(Math.max(2, xOf(d.hash + 1, w, width) - x)), height: BAR_H, fill: 'none', stroke: 'currentColor', 'stroke-dasharray': '2 2', 'data-hash': d.hash, 'data-consumer': d.consumer },
            svg('title', {}, l10n.t('hash {0} draining at {1}', d.hash, d.consumer)),
          ),
        );
      }
      root.append(g);
    }

    const gMarkers = svg('g', { class: 'markers' });
    visible.forEach((k, i) => {
      const x = xOf(k.value + 0.5, w, width);
      const y = rows[i] * ROW_H + ROW_H - 2;
      const labelled = rows[i] >= 0;
      const atEnd = x + markerTextWidth(k) > width;
      const g = svg(
        'g',
        {
          class: 'key-marker',
          'data-n': k.n,
          'data-hash': k.hash,
          'data-slot': k.value,
          'data-key': k.label,
          role: 'img',
          'aria-label': `key ${k.n} ${keyText(k.label)}: hash ${k.hash}, ${k.consumer ? `consumer ${k.consumer}` : 'no consumer'}`,
        },
        svg('line', { class: 'marker-line', x1: px(x), x2: px(x), y1: labelled ? y + 2 : barY - UNLABELLED_TICK, y2: barY + BAR_H }),
        labelled
          ? svg('text', { class: 'marker-label', x: px(atEnd ? x - 3 : x + 3), y, 'text-anchor': atEnd ? 'end' : 'start' }, svg('tspan', { class: 'marker-n' }, `${k.n}`), svg('tspan', { class: 'marker-hash', dx: 4 }, `${k.hash}`))
          : svg('title', {}, `${k.n} ${k.hash}`),
      );
      gMarkers.append(g);
    });
    root.append(gMarkers);

    const axis = svg('g', { class: 'axis' });
    axis.append(svg('text', { x: 0, y: axisY + 12 }, String(w.from)));
    axis.append(svg('text', { x: width, y: axisY + 12, 'text-anchor': 'end' }, String(w.to)));
    const note = zoomNote(m, w);
    if (note) axis.append(svg('text', { x: width / 2, y: axisY + 12, 'text-anchor': 'middle', class: 'zoom-note' }, note));
    root.append(axis);

    placeCursor();
    root.append(cursorRect);
    listen(root);
    return root;
  }

  /** The cursor's outline over its segment, hidden while the segment is out of the window. */
  function placeCursor(): void {
    const span = cursor >= 0 ? cursorSpan(m, cursor, w, width) : null;
    if (!span) {
      cursorRect.setAttribute('visibility', 'hidden');
      return;
    }
    const [x0, x1] = span;
    cursorRect.setAttribute('x', px(x0));
    cursorRect.setAttribute('width', px(x1 - x0));
    cursorRect.setAttribute('visibility', 'visible');
  }

  const setCursor = (i: number, announce: boolean): void => {
    cursor = moveCursor(spec, w, i, announce);
    // On the bar shown now; a window moved to the cursor is drawn, with it, in the next frame.
    placeCursor();
  };

  function listen(root: SVGSVGElement): void {
    root.addEventListener('mousemove', (ev) => {
      const rect = root.getBoundingClientRect();
      const x = ev.clientX - rect.left;
      const y = ev.clientY - rect.top;
      if (y < barY - 4 || y > barY + BAR_H + TICK_H + 4) return ui.hideTip();
      const r = runAt(runs, x);
      if (!r) return ui.hideTip();
      const lines = r.first === r.last ? describeSegment(m, r.first) : mixedLines(m, r.first, r.last);
      ui.showTip(ev.clientX, ev.clientY, lines);
    });
    root.addEventListener('mouseleave', () => ui.hideTip());
    root.addEventListener('click', (ev) => {
      const rect = root.getBoundingClientRect();
      const r = runAt(runs, ev.clientX - rect.left);
      if (r) setCursor(r.first, true);
      chart.focus();
    });
    root.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        spec.onWindow(wheelWindow(w, m.space, width, ev.clientX - root.getBoundingClientRect().left, ev.deltaY));
      },
      { passive: false },
    );
  }

  chart.addEventListener('keydown', (ev) => {
    const handled = chartKey(ev, { model: m, markers: spec.markers, window: () => w, cursor: () => cursor, setCursor, onWindow: spec.onWindow, ui });
    if (handled) ev.preventDefault();
  });
  let root = build();
  chart.append(zoomControls(spec, () => w), root);

  // Drawn again in the next frame (once however many wheel events came) while on the page.
  const drawable = {
    get alive(): boolean {
      return chart.isConnected;
    },
    draw(): void {
      const next = build();
      root.replaceWith(next);
      root = next;
    },
  };
  return {
    element: chart,
    window: () => w,
    setWindow(next: ZoomWindow): void {
      if (next.from === w.from && next.to === w.to) return;
      w = next;
      requestDraw(drawable);
    },
  };
}
