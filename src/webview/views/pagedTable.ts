/**
 * A table of any number of rows shown a page at a time: the data a canvas chart draws, for screen
 * readers and for reading exact values. Rows are made only for the page shown (a topic of
 * 2,147,483,647 partitions has as many rows), and `aria-rowcount` / `aria-rowindex` tell assistive
 * technology where the page sits in the whole.
 */
import { h, sizedByRows } from '../dom';
import { thousands } from '../format';

export interface PagedTableSpec {
  id: string;
  label: string;
  columns: string[];
  /** Number of rows (up to 2^31 - 1). */
  count: number;
  /** Cells of row `i` (0-based): text, or the nodes of a cell. */
  row(i: number): Array<string | number | Node[]>;
  /** Extra classes for row `i` (e.g. `hit` for a row with a key). */
  rowClass?(i: number): string;
  /** Attributes of row `i`'s element (`data-*` that tests and styles find it by). */
  rowAttrs?(i: number): Record<string, string | number>;
  /** Class names of each column's cells (`num`, say). */
  cellClass?: string[];
  /** The first cell of a row is its header (`<th scope="row">`). */
  rowHeaders?: boolean;
  /** Class names of the table beside `paged-table`. */
  className?: string;
  pageSize?: number;
  /** The row to show first (its page is shown). */
  start?: number;
}

export interface PagedTable {
  element: HTMLElement;
  /** Shows the page holding row `i`. */
  show(i: number): void;
}

export function pagedTable(spec: PagedTableSpec): PagedTable {
  const size = spec.pageSize ?? 50;
  const count = Math.max(0, Math.floor(spec.count));
  let first = 0;
  const status = h('span', { class: 'muted', role: 'status' });
  const prev = h('button', { type: 'button', class: 'small', 'aria-label': `previous ${size} rows` }, 'Previous');
  const next = h('button', { type: 'button', class: 'small', 'aria-label': `next ${size} rows` }, 'Next');
  const goto = h('input', { type: 'number', min: 1, max: Math.max(1, count), 'aria-label': `go to row (1 to ${thousands(count)})`, class: 'goto' });
  const go = h('button', { type: 'button', class: 'small' }, 'Go');
  const tbody = h('tbody', {});
  const table = h(
    'table',
    { class: `paged-table${spec.className ? ` ${spec.className}` : ''}`, id: spec.id, 'aria-label': spec.label, 'aria-rowcount': count + 1 },
    h('thead', {}, h('tr', { 'aria-rowindex': 1 }, ...spec.columns.map((c) => h('th', { scope: 'col' }, c)))),
    tbody,
  );
  const show = (i: number): void => {
    const clamped = Math.max(0, Math.min(Math.max(0, count - 1), Math.floor(i)));
    first = clamped - (clamped % size);
    const last = Math.min(count, first + size);
    const rows: HTMLElement[] = [];
    for (let r = first; r < last; r++) {
      const cls = spec.rowClass?.(r) ?? '';
      const cells = spec.row(r).map((c, j) => {
        const attrs = { ...(spec.cellClass?.[j] ? { class: spec.cellClass[j] } : {}), ...(j === 0 && spec.rowHeaders ? { scope: 'row' } : {}) };
        const content = Array.isArray(c) ? c : [String(c)];
        return j === 0 && spec.rowHeaders ? h('th', attrs, ...content) : h('td', attrs, ...content);
      });
      rows.push(h('tr', { 'aria-rowindex': r + 2, ...(cls ? { class: cls } : {}), ...(spec.rowAttrs?.(r) ?? {}) }, ...cells));
    }
    tbody.replaceChildren(...rows);
    status.textContent = count === 0 ? 'no rows' : `rows ${thousands(first + 1)}–${thousands(last)} of ${thousands(count)}`;
    prev.disabled = first === 0;
    next.disabled = last >= count;
  };
  prev.addEventListener('click', () => show(first - size));
  next.addEventListener('click', () => show(first + size));
  const jump = () => {
    const v = Number(goto.value);
    if (Number.isFinite(v) && v >= 1) show(v - 1);
  };
  go.addEventListener('click', jump);
  goto.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      jump();
    }
  });
  show(spec.start ?? 0);
  // A table of one page needs no paging.
  const element = sizedByRows(h('div', { class: 'paged' }, count > size ? h('div', { class: 'row paged-nav' }, prev, next, goto, go, status) : null, table));
  return { element, show };
}

/**
 * A collapsed "data table" under a chart: the table is made the first time it is opened, so the
 * chart's first picture does not pay for it.
 */
export function lazyDetails(summary: string, make: () => HTMLElement, attrs: Record<string, string> = {}): HTMLDetailsElement {
  const d = h('details', { class: 'data-table', ...attrs }, h('summary', {}, summary));
  const fill = () => {
    if (d.open && d.childElementCount === 1) d.append(make());
  };
  d.addEventListener('toggle', fill);
  // Opened before it is attached (a page drawn again with it open): filled at once.
  queueMicrotask(fill);
  return d;
}
