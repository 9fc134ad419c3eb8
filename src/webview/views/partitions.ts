/**
 * A topic's partitions as a row of cells, the keys' partitions highlighted with their numbers.
 * More partitions than fit are drawn as cells of several partitions each.
 */
import { cellOf, layoutPartitions, type PartitionCell } from '../../shared/view/topicView';
import { h, px, svg } from '../dom';
import type { Ui } from '../ui';
import { keyText } from '../../shared/keyText';

export interface PartitionMark {
  n: number;
  label: string;
  partition: number | null;
}

export interface PartitionsSpec {
  id: string;
  label: string;
  count: number;
  width: number;
  marks: PartitionMark[];
  /** Partitions to emphasise (a what-if's moved keys' partitions). */
  emphasise?: Set<number>;
  /** A consumer group's owners: the member index of each partition (-1 nobody) and the members' names. */
  owners?: { of: Int32Array; names: readonly string[] };
  ui: Ui;
}

/** A cell's owner: the member index where every partition in it has that owner, -1 nobody, -2 mixed. */
export function cellOwners(spec: PartitionsSpec, cells: readonly PartitionCell[]): Int32Array | null {
  const o = spec.owners?.of;
  if (!o) return null;
  const out = new Int32Array(cells.length);
  cells.forEach((c, i) => {
    let v = o[c.first] ?? -1;
    for (let p = c.first + 1; p <= c.last && v !== -2; p++) if (o[p] !== v) v = -2;
    out[i] = v;
  });
  return out;
}

/** The colour class of a cell's owner. */
export function ownerClass(v: number): string {
  return v >= 0 ? ` owned c${v % 12}` : v === -1 ? ' unowned-cell' : ' mixed-cell';
}

/**
 * A cell's tooltip, the same on both charts: its partitions and their share (more decimals where
 * the cell is under 1/10,000 of them), its owner (`v`: see `cellOwners`) and up to 8 of its keys.
 */
export function cellTip(spec: PartitionsSpec, cell: PartitionCell, v: number | undefined, marks: readonly PartitionMark[]): string[] {
  const n = cell.last - cell.first + 1;
  return [
    n === 1 ? `partition ${cell.first}` : `partitions ${cell.first}–${cell.last}`,
    `${((n / spec.count) * 100).toFixed(n < spec.count / 1e4 ? 6 : 2)} % of the partitions`,
    ...(spec.owners && v !== undefined ? [v >= 0 ? `member ${spec.owners.names[v]}` : v === -1 ? 'no member' : 'several members'] : []),
    ...marks.slice(0, 8).map((k) => `key ${k.n}: ${keyText(k.label)} (partition ${k.partition})`),
    ...(marks.length > 8 ? [`and ${marks.length - 8} more keys`] : []),
  ];
}

const CELL_H = 30;

/** The cells of a partitions row, and the keys in each (by cell index). */
export function partitionCells(spec: PartitionsSpec): { cells: PartitionCell[]; byCell: Map<number, PartitionMark[]> } {
  const cells = layoutPartitions(spec.count, spec.width, spec.count <= 64 ? 14 : 4);
  const byCell = new Map<number, PartitionMark[]>();
  for (const mk of spec.marks) {
    if (mk.partition === null) continue;
    const c = cellOf(cells, mk.partition);
    if (c < 0) continue;
    let list = byCell.get(c);
    if (!list) byCell.set(c, (list = []));
    list.push(mk);
  }
  return { cells, byCell };
}

/**
 * The row (0 to 3, upwards) of each key's number above its cell, so that no two print over one
 * another: a cell's keys stack, and a number beside a close one takes the first row where it
 * clears it. A number that has no room in four rows is left out (-1), as on the bar: its cell is
 * still marked, and its tooltip and the keys table list the key. With the x each number is
 * centred on (its cell's centre, but inside the drawing) and the height the rows take.
 */
export function markRows(cells: readonly PartitionCell[], byCell: ReadonlyMap<number, readonly PartitionMark[]>): { row: Map<PartitionMark, number>; x: Map<PartitionMark, number>; labelsH: number } {
  const ends: number[] = [];
  const row = new Map<PartitionMark, number>();
  const xs = new Map<PartitionMark, number>();
  for (const i of [...byCell.keys()].sort((a, b) => a - b)) {
    for (const mk of byCell.get(i)!) {
      // Centred on the cell, 7 px a digit and 4 between numbers; moved in at the ends (the cells
      // span 0 to the width), where a centred "55" would show as "5".
      const half = String(mk.n).length * 3.5 + 2;
      const x = Math.min(Math.max((cells[i].x0 + cells[i].x1) / 2, half), cells.at(-1)!.x1 - half);
      let r = ends.findIndex((end) => end <= x - half);
      if (r < 0) r = ends.length < 4 ? ends.length : -1;
      if (r >= 0) ends[r] = x + half;
      row.set(mk, r);
      xs.set(mk, x);
    }
  }
  return { row, x: xs, labelsH: Math.max(1, ends.length) * 14 + 4 };
}

export function renderPartitions(spec: PartitionsSpec): HTMLElement {
  const { count, width, ui } = spec;
  const { cells, byCell } = partitionCells(spec);
  const owners = cellOwners(spec, cells);
  const { row, x: markX, labelsH } = markRows(cells, byCell);
  const height = labelsH + CELL_H + 16;
  const root = svg('svg', {
    width,
    height,
    class: 'partitions',
    role: 'img',
    'aria-label': `${spec.label}: ${count} partitions; ${spec.marks.map((k) => `key ${k.n} ${keyText(k.label)} in partition ${k.partition ?? 'none'}`).join('; ')}`,
  });
  cells.forEach((cell, i) => {
    const marks = byCell.get(i);
    const emph = spec.emphasise && [...spec.emphasise].some((p) => p >= cell.first && p <= cell.last);
    const cls = `cell${marks ? ' hit' : ''}${emph ? ' emphasised' : ''}${owners ? ownerClass(owners[i]) : ''}`;
    root.append(
      svg('rect', {
        class: cls,
        x: px(cell.x0 + 0.5),
        y: labelsH,
        width: px(Math.max(1, cell.x1 - cell.x0 - 1)),
        height: CELL_H,
        'data-partition': cell.first === cell.last ? cell.first : `${cell.first}-${cell.last}`,
        ...(owners && owners[i] >= 0 ? { 'data-member': spec.owners!.names[owners[i]] } : {}),
      }),
    );
    const w = cell.x1 - cell.x0;
    if (cell.first === cell.last && w >= 14 + String(cell.first).length * 6) {
      root.append(svg('text', { class: `cell-label${marks ? ' hit' : ''}`, x: px((cell.x0 + cell.x1) / 2), y: labelsH + CELL_H / 2 + 4, 'text-anchor': 'middle' }, String(cell.first)));
    }
    for (const mk of marks ?? []) {
      const r = row.get(mk)!;
      if (r < 0) continue;
      root.append(
        svg(
          'text',
          { class: 'key-marker partition-marker', 'data-n': mk.n, 'data-partition': mk.partition ?? '', x: px(markX.get(mk)!), y: labelsH - 4 - r * 14, 'text-anchor': 'middle' },
          `${mk.n}`,
        ),
      );
    }
  });
  root.append(svg('text', { class: 'axis', x: 0, y: height - 2 }, '0'));
  root.append(svg('text', { class: 'axis', x: width, y: height - 2, 'text-anchor': 'end' }, String(count - 1)));
  root.addEventListener('mousemove', (ev) => {
    const x = ev.clientX - root.getBoundingClientRect().left;
    const i = cells.findIndex((c) => x >= c.x0 && x < c.x1);
    if (i < 0) return ui.hideTip();
    ui.showTip(ev.clientX, ev.clientY, cellTip(spec, cells[i], owners?.[i], byCell.get(i) ?? []));
  });
  root.addEventListener('mouseleave', () => ui.hideTip());
  return h('div', { class: 'chart', 'data-chart': spec.id, tabindex: 0, role: 'group', 'aria-label': spec.label }, root);
}
