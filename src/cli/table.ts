/**
 * Aligned text tables for `--format table`, and the colours they may use. Cells never carry a
 * terminal control character from the data: a key holding ESC is shown as `\u001b`, so routing
 * a hostile key cannot repaint the user's terminal.
 */

import { escapeHidden } from '../shared/keyText';

export interface Style {
  readonly colour: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

const sgr = (on: number, off: number) => (s: string) => (s === '' ? s : `\x1b[${on}m${s}\x1b[${off}m`);
const same = (s: string): string => s;

export const COLOUR: Style = { colour: true, bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39) };
export const PLAIN: Style = { colour: false, bold: same, dim: same, red: same, green: same, yellow: same };

/**
 * Whether to colour: never with `NO_COLOR` set to anything (no-color.org); `FORCE_COLOR` (any value
 * but `0` or `false`) colours even into a pipe; otherwise only on a terminal that is not `dumb`.
 */
export function wantColour(env: Record<string, string | undefined>, terminal: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return terminal && env.TERM !== 'dumb';
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text with control characters, and the other characters the panel escapes, written as escapes. */
export function visible(text: string): string {
  // The three common ones first, as `\n`, `\r` and `\t`: what they become has nothing to escape.
  return escapeHidden(text.replace(/[\n\r\t]/g, (c) => ESCAPES[c]));
}

/**
 * Columns a string takes on a terminal: combining marks and zero-width characters take none, East
 * Asian wide and fullwidth characters and emoji two (the common ranges of wcwidth's table).
 */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (/\p{M}/u.test(ch) || (c >= 0x200b && c <= 0x200f) || c === 0xfeff) continue;
    w += isWide(c) ? 2 : 1;
  }
  return w;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}

export interface Column {
  header: string;
  /** Numbers line up on the right. */
  right?: boolean;
}

/** A cell: its text, and optionally a colour for it (applied after padding is worked out). */
export type Cell = string | { text: string; paint: (s: string) => string };

/**
 * The rows under a bold header, columns two spaces apart, no trailing blanks, one string a line.
 * Columns whose cells are all empty are left out (a table without rows keeps its header: with no
 * column left, the header line had no last cell to read). Lines, not one string: a table of ten
 * million rows (a 3.x ring's segments) is longer than a JavaScript string can be.
 */
export function tableLines(columns: readonly Column[], rows: readonly Cell[][], style: Style): string[] {
  const text = (c: Cell | undefined): string => visible(c === undefined ? '' : typeof c === 'string' ? c : c.text);
  const keep = columns.map((_, i) => rows.length === 0 || rows.some((r) => text(r[i]) !== ''));
  const cols = columns.map((c, i) => ({ ...c, i })).filter((c) => keep[c.i]);
  // A loop, not Math.max(...widths): spreading 130,000 rows overflowed the stack.
  const widths = cols.map((c) => {
    let w = displayWidth(c.header);
    for (const r of rows) w = Math.max(w, displayWidth(text(r[c.i])));
    return w;
  });
  const line = (cells: Array<{ text: string; paint: (s: string) => string }>): string => {
    const parts = cells.map((cell, k) => {
      const pad = ' '.repeat(widths[k] - displayWidth(cell.text));
      const last = k === cells.length - 1;
      if (cols[k].right) return pad + cell.paint(cell.text);
      return cell.paint(cell.text) + (last ? '' : pad);
    });
    const joined = parts.join('  ');
    // An empty last cell would leave the separators dangling; data's own blanks stay.
    return (cells[cells.length - 1].text === '' ? joined.replace(/ +$/, '') : joined) + '\n';
  };
  const out = [line(cols.map((c) => ({ text: c.header, paint: style.bold })))];
  for (const r of rows) {
    out.push(
      line(
        cols.map((c) => {
          const cell = r[c.i];
          return { text: text(cell), paint: cell === undefined || typeof cell === 'string' ? same : cell.paint };
        }),
      ),
    );
  }
  return out;
}

/** `tableLines` as one string, for tables of a bounded size. */
export function renderTable(columns: readonly Column[], rows: readonly Cell[][], style: Style): string {
  return tableLines(columns, rows, style).join('');
}

/** A share as a percentage with two decimals: `0.25` → `25.00%`. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(2)}%`;
}
