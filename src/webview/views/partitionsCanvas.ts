/**
 * A topic's partitions on a canvas, for counts the SVG row would need thousands of elements for:
 * the same cells as `partitions.ts` (a cell is one partition, or a run of them when there are more
 * than fit), the keys' partitions highlighted with their numbers, and a paged table of every
 * partition under it. Nothing here is per partition: a topic of 2,147,483,647 partitions draws
 * as many cells as one of 1,000.
 */
import { cellOf } from '../../shared/view/topicView';
import { register, Surface } from '../canvas/surface';
import { paletteColour, theme } from '../canvas/theme';
import { h } from '../dom';
import { thousands } from '../format';
import { l10n } from '../l10n';
import type { ChartHandle } from './barShared';
import { lazyDetails, pagedTable } from './pagedTable';
import { cellOwners, cellTip, markRows, partitionCells, type PartitionMark, type PartitionsSpec } from './partitions';
import { keyText } from '../../shared/keyText';

const CELL_H = 30;

export function renderPartitionsCanvas(spec: PartitionsSpec): ChartHandle {
  const { count, width, ui } = spec;
  const { cells, byCell } = partitionCells(spec);
  const owners = cellOwners(spec, cells);
  const emphasised = [...(spec.emphasise ?? [])].sort((a, b) => a - b);
  const emphCell = new Set(emphasised.map((p) => cellOf(cells, p)));
  const { row, x: markX, labelsH } = markRows(cells, byCell);
  const height = labelsH + CELL_H + 16;
  const surface = new Surface(width, height, {
    class: 'partitions partitions-canvas',
    role: 'img',
    'aria-label': `${spec.label}: ${thousands(count)} partitions; ${spec.marks.length} keys in ${byCell.size} of the ${cells.length} cells drawn (listed in the table below)`,
  });
  const handle = { alive: true, draw: () => draw() };

  function draw(): void {
    if (!surface.canvas.isConnected && handle.alive && drawn) {
      handle.alive = false;
      return;
    }
    drawn = true;
    const t = theme();
    surface.resize(width, height);
    const ctx = surface.ctx;
    if (owners) {
      // A group's members: one fill per colour, the cells with keys outlined below.
      const byColour = new Map<string, number[]>();
      owners.forEach((v, i) => {
        const colour = v >= 0 ? paletteColour(t, v) : v === -1 ? t.unownedFill : t.cell;
        let l = byColour.get(colour);
        if (!l) byColour.set(colour, (l = []));
        l.push(i);
      });
      for (const [colour, list] of byColour) {
        ctx.fillStyle = colour;
        ctx.beginPath();
        for (const i of list) ctx.rect(cells[i].x0 + 0.5, labelsH, Math.max(1, cells[i].x1 - cells[i].x0 - 1), CELL_H);
        ctx.fill();
      }
      ctx.strokeStyle = t.cellHit;
      ctx.lineWidth = 2;
      ctx.beginPath();
      for (const i of byCell.keys()) ctx.rect(cells[i].x0 + 1, labelsH + 1, Math.max(1, cells[i].x1 - cells[i].x0 - 2), CELL_H - 2);
      ctx.stroke();
    } else {
      // Plain cells, then cells with keys, in one fill each.
      for (const hit of [false, true]) {
        ctx.fillStyle = hit ? t.cellHit : t.cell;
        ctx.beginPath();
        cells.forEach((cell, i) => {
          if (byCell.has(i) === hit) ctx.rect(cell.x0 + 0.5, labelsH, Math.max(1, cell.x1 - cell.x0 - 1), CELL_H);
        });
        ctx.fill();
      }
    }
    if (cells.length <= width / 3) {
      ctx.strokeStyle = t.cellStroke;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const cell of cells) ctx.rect(cell.x0 + 0.5, labelsH, Math.max(1, cell.x1 - cell.x0 - 1), CELL_H);
      ctx.stroke();
    }
    if (emphCell.size) {
      ctx.strokeStyle = t.emphasis;
      ctx.lineWidth = 2;
      ctx.setLineDash([3, 2]);
      ctx.beginPath();
      for (const i of emphCell) if (i >= 0) ctx.rect(cells[i].x0 + 0.5, labelsH, Math.max(1, cells[i].x1 - cells[i].x0 - 1), CELL_H);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.font = t.font;
    ctx.textAlign = 'center';
    cells.forEach((cell, i) => {
      const w = cell.x1 - cell.x0;
      if (cell.first === cell.last && w >= 14 + String(cell.first).length * 6) {
        ctx.fillStyle = byCell.has(i) && !owners ? t.cellHitText : t.text;
        ctx.fillText(String(cell.first), (cell.x0 + cell.x1) / 2, labelsH + CELL_H / 2 + 4);
      }
    });
    ctx.font = t.boldFont;
    ctx.fillStyle = t.text;
    for (const marks of byCell.values()) for (const mk of marks) if (row.get(mk)! >= 0) ctx.fillText(String(mk.n), markX.get(mk)!, labelsH - 4 - row.get(mk)! * 14);
    ctx.font = t.font;
    ctx.textAlign = 'left';
    ctx.fillText('0', 0, height - 2);
    ctx.textAlign = 'right';
    ctx.fillText(String(count - 1), width, height - 2);
  }
  let drawn = false;

  surface.canvas.addEventListener('mousemove', (ev) => {
    const { x } = surface.at(ev);
    let lo = 0;
    let hi = cells.length - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (x < cells[mid].x0) hi = mid - 1;
      else if (x >= cells[mid].x1) lo = mid + 1;
      else {
        i = mid;
        break;
      }
    }
    if (i < 0) return ui.hideTip();
    ui.showTip(ev.clientX, ev.clientY, cellTip(spec, cells[i], owners?.[i], byCell.get(i) ?? []));
  });
  surface.canvas.addEventListener('mouseleave', () => ui.hideTip());

  const table = partitionsTable(spec);
  const element = h('div', { class: 'chart chart-canvas', 'data-chart': spec.id, tabindex: 0, role: 'group', 'aria-label': spec.label }, surface.canvas, table);
  draw();
  register(handle);
  return { element, window: () => ({ from: 0, to: count - 1 }), setWindow: () => undefined };
}

/** Every partition with its keys, a page at a time (the partitions with keys first, then all). */
function partitionsTable(spec: PartitionsSpec): HTMLElement {
  const keysIn = new Map<number, PartitionMark[]>();
  for (const mk of spec.marks) if (mk.partition !== null) keysIn.set(mk.partition, [...(keysIn.get(mk.partition) ?? []), mk]);
  const withKeys = [...keysIn.keys()].sort((a, b) => a - b);
  return lazyDetails(`Data: ${thousands(spec.count)} partitions as a table`, () => {
    const box = h('div', {});
    if (withKeys.length) {
      box.append(
        h('p', { class: 'muted' }, `Partitions with keys: ${withKeys.slice(0, 20).join(', ')}${withKeys.length > 20 ? ', …' : ''}`),
      );
    }
    box.append(
      pagedTable({
        id: `${spec.id}-table`,
        label: `${spec.label}: partitions and their keys`,
        columns: spec.owners ? [l10n.t('partition'), l10n.t('member'), l10n.t('keys')] : [l10n.t('partition'), l10n.t('keys')],
        count: spec.count,
        start: withKeys[0] ?? 0,
        row: (p) => {
          const keys = (keysIn.get(p) ?? []).map((k) => `#${k.n} ${keyText(k.label)}`).join(', ');
          if (!spec.owners) return [p, keys];
          const o = spec.owners.of[p];
          return [p, o >= 0 ? spec.owners.names[o] : l10n.t('nobody'), keys];
        },
        rowClass: (p) => (keysIn.has(p) ? 'hit' : ''),
      }).element,
    );
    return box;
  });
}
