/**
 * The consistent-hashing ring: the owned arcs as a band, every point as a tick outside it (binned
 * per half degree), each key as a spoke with its number and the arc it travels clockwise to its
 * point on an inner track, and the zoom window as a wedge. Clicking the ring moves the window
 * there; the bar below (the "detail" strip) shows the window itself. A zoom or pan changes the
 * wedge only (nothing else on the ring depends on the window).
 */
import { angleOf, arcAngles, binPoints, type RingModel } from '../../shared/view/ring';
import { fullWindow, isFullWindow, layoutSegments, segmentIndexAt, windowAround, type SegmentsModel, type ZoomWindow } from '../../shared/view/segments';
import { ClassPaths, colourClass, px, svg } from '../dom';
import { pct } from '../format';
import type { Ui } from '../ui';
import type { BarMarker } from './bar';
import type { ChartHandle } from './barShared';

const COLUMNS = 720;

export interface RingSpec {
  label: string;
  model: SegmentsModel;
  ring: RingModel;
  window: ZoomWindow;
  size: number;
  markers: BarMarker[];
  onWindow: (w: ZoomWindow) => void;
  ui: Ui;
}

/** The side of the ring's square in a view `width` px wide. */
export function ringSize(width: number): number {
  return Math.min(460, width);
}

export function renderRing(spec: RingSpec): ChartHandle<SVGSVGElement> {
  const { model: m, ring, size } = spec;
  const c = size / 2;
  const rOuter = c - 34;
  const band = 16;
  const rInner = rOuter - band;
  const full = fullWindow(m.space);
  const root = svg('svg', {
    width: size,
    height: size,
    class: 'ring',
    role: 'img',
    'aria-label': `${spec.label}: ${ring.points.length} points of ${m.owners.filter((o) => o.ids.length).length} owners; ${spec.markers.map((k) => `key ${k.n} at hash ${k.hash} goes to ${k.consumer ?? 'nobody'}`).join('; ')}`,
  });
  const pt = (a: number, r: number): [number, number] => [c + r * Math.sin(a), c - r * Math.cos(a)];
  const sector = (a0: number, a1: number, r0: number, r1: number): string => {
    if (a1 - a0 >= 2 * Math.PI - 1e-9) a1 = a0 + 2 * Math.PI - 1e-6;
    const large = a1 - a0 > Math.PI ? 1 : 0;
    const [x0, y0] = pt(a0, r1);
    const [x1, y1] = pt(a1, r1);
    const [x2, y2] = pt(a1, r0);
    const [x3, y3] = pt(a0, r0);
    return `M${px(x0)} ${px(y0)}A${r1} ${r1} 0 ${large} 1 ${px(x1)} ${px(y1)}L${px(x2)} ${px(y2)}A${r0} ${r0} 0 ${large} 0 ${px(x3)} ${px(y3)}Z`;
  };

  // The band: the segments laid out over 720 angular columns, one path per colour class.
  const arcs = new ClassPaths();
  for (const r of layoutSegments(m, full, COLUMNS)) {
    arcs.add(`seg ${colourClass(m.owners[r.owner].color)}${r.mixed ? ' mixed' : ''}`, sector((r.x0 / COLUMNS) * 2 * Math.PI, (r.x1 / COLUMNS) * 2 * Math.PI, rInner, rOuter));
  }
  root.append(arcs.group('band'));

  // Points: a tick per angular bin outside the band, longer where several points fall.
  const ticks = new ClassPaths();
  for (const b of binPoints(ring, full, COLUMNS)) {
    const a = ((b.bin + 0.5) / COLUMNS) * 2 * Math.PI;
    const [x0, y0] = pt(a, rOuter + 2);
    const [x1, y1] = pt(a, rOuter + (b.count > 2 ? 10 : b.count > 1 ? 8 : 6));
    ticks.add(`tick ${colourClass(m.owners[b.owner].color)}`, `M${px(x0)} ${px(y0)}L${px(x1)} ${px(y1)}`);
  }
  root.append(ticks.group('points'));

  // The zoom window.
  let w = spec.window;
  const wedge = svg('path', { class: 'zoom-wedge', d: wedgePath(w, m.space, c, rInner, rOuter) });
  root.append(wedge);

  // Keys: the arc to the owning point on an inner track, and a spoke with the key's number.
  const gKeys = svg('g', { class: 'markers' });
  const badges = badgeRadii(spec.markers, m.space, rInner, rOuter);
  spec.markers.forEach((k, i) => {
    const a = angleOf(k.value + 0.5, m.space);
    const g = svg('g', { class: 'key-marker ring-marker', 'data-n': k.n, 'data-hash': k.hash, 'data-key': k.label });
    if (k.arc) {
      const r = rInner - 6 - (i % 4) * 4;
      const [a0, a1] = arcAngles(k.arc, m.space);
      const [x0, y0] = pt(a0, r);
      const [x1, y1] = pt(a1, r);
      g.append(svg('path', { class: 'arc', d: `M${px(x0)} ${px(y0)}A${r} ${r} 0 ${a1 - a0 > Math.PI ? 1 : 0} 1 ${px(x1)} ${px(y1)}` }));
      g.append(svg('circle', { class: 'arc-point', cx: px(x1), cy: px(y1), r: 2.5 }));
    }
    const [sx, sy] = pt(a, rInner - 24);
    const [ex, ey] = pt(a, rOuter + 14);
    g.append(svg('line', { class: 'marker-line', x1: px(sx), y1: px(sy), x2: px(ex), y2: px(ey) }));
    if (badges[i] > 0) {
      const [tx, ty] = pt(a, badges[i]);
      g.append(svg('circle', { class: 'marker-badge', cx: px(tx), cy: px(ty), r: 8 }));
      g.append(svg('text', { class: 'marker-badge-text', x: px(tx), y: px(ty + 4), 'text-anchor': 'middle' }, String(k.n)));
    }
    gKeys.append(g);
  });
  root.append(gKeys);

  // Where 0 is, and the size of the space.
  root.append(svg('text', { class: 'axis', x: c, y: c - 4, 'text-anchor': 'middle' }, `${m.space[0]}–${m.space[1]}`));
  root.append(svg('text', { class: 'axis muted', x: c, y: c + 12, 'text-anchor': 'middle' }, `${ring.points.length} points, clockwise from the top`));

  const at = (ev: MouseEvent): [number, number] => {
    const rect = root.getBoundingClientRect();
    return [ev.clientX - rect.left - c, ev.clientY - rect.top - c];
  };
  root.addEventListener('mousemove', (ev) => {
    const [dx, dy] = at(ev);
    const v = valueAtPoint(dx, dy, m.space);
    const d = Math.hypot(dx, dy);
    if (v === null || d < rInner - 30 || d > rOuter + 16) return spec.ui.hideTip();
    const i = segmentIndexAt(m, v);
    if (i < 0) return spec.ui.hideTip();
    const o = m.owners[m.owner[i]];
    spec.ui.showTip(ev.clientX, ev.clientY, [
      o.ids.length ? o.label : 'nobody',
      `hash ≈ ${v} (segment ${m.starts[i]}–${m.ends[i]})`,
      `${o.ids.length ? `${o.label} holds ${pct(o.share)} in all` : ''}`,
      'click to zoom the strip below here',
    ]);
  });
  root.addEventListener('mouseleave', () => spec.ui.hideTip());
  root.addEventListener('click', (ev) => {
    const v = valueAtPoint(...at(ev), m.space);
    if (v !== null) spec.onWindow(windowAtClick(v, w, m.space));
  });
  return {
    element: root,
    window: () => w,
    setWindow(next: ZoomWindow): void {
      w = next;
      wedge.setAttribute('d', wedgePath(w, m.space, c, rInner, rOuter));
    },
  };
}

/**
 * Where each key's numbered badge goes, as its distance from the centre: outside the band, else at
 * the spoke's inner end, else 0 (the spoke alone, as the bar draws a key its label rows have no
 * room for), so that close keys' numbers never print over one another, across the top as well.
 * Keys in their order: the first ones added keep their badge outside.
 */
export function badgeRadii(markers: readonly { value: number }[], space: readonly [number, number], rInner: number, rOuter: number): number[] {
  // Each radius with the angles of the badges on it; inside only where it stays clear of the
  // centre's text (rings of 370 px and more).
  const placed = new Map<number, number[]>([[rOuter + 24, []]]);
  if (rInner > 134) placed.set(rInner - 34, []);
  return markers.map((k) => {
    const a = angleOf(k.value + 0.5, space);
    for (const [r, angles] of placed) {
      // Two badges of radius 8 at one radius: 18 px apart at the least (the chord between them).
      if (angles.every((b) => 2 * r * Math.abs(Math.sin((a - b) / 2)) >= 18)) {
        angles.push(a);
        return r;
      }
    }
    return 0;
  });
}

/**
 * The zoom window as a sector from just inside the keys' arcs to just outside the ticks, for a
 * ring centred at (c, c); nothing at the full space. Each arc in two halves: an SVG arc's end may
 * not be its start, and a half is under half a turn.
 */
export function wedgePath(w: ZoomWindow, space: readonly [number, number], c: number, rInner: number, rOuter: number): string {
  if (isFullWindow(w, space)) return '';
  const a0 = angleOf(w.from, space);
  const a1 = Math.min(a0 + 2 * Math.PI - 1e-3, Math.max(a0 + 0.01, angleOf(w.to + 1, space)));
  const mid = (a0 + a1) / 2;
  const r0 = rInner - 22;
  const r1 = rOuter + 12;
  const at = (a: number, r: number) => `${px(c + r * Math.sin(a))} ${px(c - r * Math.cos(a))}`;
  return `M${at(a0, r1)}A${r1} ${r1} 0 0 1 ${at(mid, r1)}A${r1} ${r1} 0 0 1 ${at(a1, r1)}` + `L${at(a1, r0)}A${r0} ${r0} 0 0 0 ${at(mid, r0)}A${r0} ${r0} 0 0 0 ${at(a0, r0)}Z`;
}

/** The hash at (dx, dy) from the ring's centre, clockwise from the top; none at the centre. */
export function valueAtPoint(dx: number, dy: number, space: readonly [number, number]): number | null {
  if (dx === 0 && dy === 0) return null;
  let a = Math.atan2(dx, -dy);
  if (a < 0) a += 2 * Math.PI;
  return Math.min(space[1], space[0] + Math.floor((a / (2 * Math.PI)) * (space[1] - space[0] + 1)));
}

/** The strip's window after a click on the ring at `v`: as wide as it was, or a 32nd of the space. */
export function windowAtClick(v: number, w: ZoomWindow, space: readonly [number, number]): ZoomWindow {
  return windowAround(v, space, isFullWindow(w, space) ? Math.round((space[1] - space[0] + 1) / 32) : w.to - w.from + 1);
}
