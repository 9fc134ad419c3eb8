/**
 * A namespace's bundles on the 32-bit ring: boundaries as spokes, the bundle holding the key's
 * partition highlighted, every partition topic as a dot at its hash; beside it that bundle in
 * detail with each split algorithm's positions.
 */
import type { NamespaceViewModel } from '../../shared/view/namespaceView';
import { h, px, svg } from '../dom';
import { hex8 } from '../format';
import type { Ui } from '../ui';

const SPACE = 0x100000000;
const MAX_SPOKES = 1024;

export function renderNamespace(v: NamespaceViewModel, size: number, width: number, ui: Ui): HTMLElement {
  const c = size / 2;
  const r = c - 30;
  const pt = (value: number, rad: number): [number, number] => {
    const a = (value / SPACE) * 2 * Math.PI;
    return [c + rad * Math.sin(a), c - rad * Math.cos(a)];
  };
  const ring = svg('svg', { width: size, height: size, class: 'ns-ring', role: 'img', 'aria-label': `namespace ${v.namespace}: ${v.layout.size} bundles; ${v.topic} in bundle ${v.focus.name}` });
  ring.append(svg('circle', { class: 'ns-track', cx: c, cy: c, r }));
  // The focus bundle as a thick arc.
  const [fx0, fy0] = pt(v.focus.lower, r);
  const [fx1, fy1] = pt(v.focus.upper, r);
  const large = v.focus.upper - v.focus.lower > SPACE / 2 ? 1 : 0;
  const whole = v.layout.size === 1;
  ring.append(
    whole
      ? svg('circle', { class: 'ns-focus', cx: c, cy: c, r })
      : svg('path', { class: 'ns-focus', d: `M${px(fx0)} ${px(fy0)}A${r} ${r} 0 ${large} 1 ${px(fx1)} ${px(fy1)}` }),
  );
  if (v.layout.size <= MAX_SPOKES) {
    const spokes: string[] = [];
    for (let i = 0; i < v.layout.size; i++) {
      const [x0, y0] = pt(v.layout.boundary(i), r - 8);
      const [x1, y1] = pt(v.layout.boundary(i), r + 8);
      spokes.push(`M${px(x0)} ${px(y0)}L${px(x1)} ${px(y1)}`);
    }
    ring.append(svg('path', { class: 'ns-boundary', d: spokes.join('') }));
  }
  for (const m of v.marks) {
    const [x, y] = pt(m.hash, r - 16);
    ring.append(
      svg('circle', {
        class: `ns-topic${m.keys.length ? ' hit' : ''}`,
        cx: px(x),
        cy: px(y),
        r: m.keys.length ? 5 : 3,
        'data-hash': m.hash,
        'data-partition': m.partition ?? '',
      }, svg('title', {}, `${m.name}: hash ${hex8(m.hash)}${m.keys.length ? `, keys ${m.keys.map((n) => `#${n}`).join(' ')}` : ''}`)),
    );
  }
  ring.append(svg('text', { class: 'axis', x: c, y: c - 4, 'text-anchor': 'middle' }, `${v.layout.size} bundle${v.layout.size === 1 ? '' : 's'}`));
  ring.append(svg('text', { class: 'axis muted', x: c, y: c + 12, 'text-anchor': 'middle' }, '0x00000000 at the top'));

  // The focus bundle in detail, with the split positions.
  const bw = width;
  const lo = v.focus.lower;
  const hi = v.focus.upper;
  const xOf = (value: number) => ((value - lo) / Math.max(1, hi - lo)) * (bw - 2) + 1;
  const rows = v.splits.length;
  const detail = svg('svg', { width: bw, height: 60 + rows * 18, class: 'ns-detail', role: 'img', 'aria-label': `bundle ${v.focus.name} in detail with split positions` });
  detail.append(svg('rect', { class: 'ns-bundle', x: 0, y: 18, width: bw, height: 24 }));
  detail.append(svg('text', { class: 'axis', x: 0, y: 12 }, hex8(lo)));
  detail.append(svg('text', { class: 'axis', x: bw, y: 12, 'text-anchor': 'end' }, hex8(hi)));
  for (const o of v.owned) {
    const mark = v.marks.find((m) => m.name === o.name);
    detail.append(svg('circle', { class: `ns-topic${mark?.keys.length ? ' hit' : ''}`, cx: px(xOf(o.hash)), cy: 30, r: mark?.keys.length ? 5 : 3, 'data-hash': o.hash }));
  }
  v.splits.forEach((s, i) => {
    const y = 58 + i * 18;
    detail.append(svg('text', { class: 'split-name', x: 0, y }, s.algorithm));
    for (const p of s.positions ?? []) {
      const x = xOf(p);
      detail.append(svg('line', { class: 'split-line', x1: px(x), x2: px(x), y1: 16, y2: 44 }));
      detail.append(svg('text', { class: 'split-pos', x: px(Math.min(bw - 4, Math.max(4, x))), y, 'text-anchor': x > bw - 80 ? 'end' : 'start', 'data-algorithm': s.algorithm }, hex8(p)));
    }
  });
  detail.addEventListener('mousemove', (ev) => {
    const x = ev.clientX - detail.getBoundingClientRect().left;
    const value = Math.round(lo + ((x - 1) / (bw - 2)) * (hi - lo));
    ui.showTip(ev.clientX, ev.clientY, [`hash ${hex8(Math.max(lo, Math.min(hi, value)))}`, `bundle ${v.focus.name}`]);
  });
  detail.addEventListener('mouseleave', () => ui.hideTip());
  return h('div', { class: 'ns-charts' }, h('div', { class: 'chart', 'data-chart': 'namespace-ring', tabindex: 0, role: 'group', 'aria-label': `namespace ${v.namespace} ring` }, ring), h('div', { class: 'chart', 'data-chart': 'namespace-detail' }, detail));
}
