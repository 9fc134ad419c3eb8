/**
 * How a key file is laid out (one key per line, a CSV/TSV column, a JSON Lines field) and how its
 * keys are written (text or hex): a guess from the file's name and first line, the analyser's
 * input spec, and a label for people. Pure (no `vscode`), so it is unit-tested.
 */
import type { InputSpec } from '../../analyze/analyzer';
import { parseColumn, type KeyFormat } from '../../analyze/readers';

export type Layout = 'lines' | 'csv' | 'tsv' | 'jsonl';

export interface FormatGuess {
  layout: Layout;
  keyFormat: KeyFormat;
  /** The column (CSV/TSV: a header name or a number from 1) or field (JSON Lines) to offer. */
  column?: string;
  field?: string;
  /** Why, for the quick pick: "from the .csv extension". */
  reason: string;
}

/** The first line of `head` (without its line break), at most `max` characters. */
export function firstLine(head: string, max = 4096): string {
  const nl = head.indexOf('\n');
  const line = nl < 0 ? head : head.slice(0, nl);
  return line.replace(/\r$/, '').replace(/^\uFEFF/, '').slice(0, max);
}

/** The string-valued fields of a JSON object line, in order; null if the line is no JSON object. */
export function jsonFields(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    return Object.entries(v).filter(([, x]) => typeof x === 'string').map(([k]) => k);
  } catch {
    return null;
  }
}

/** The fields of a header line (quotes stripped; no embedded delimiters expected in a header). */
export function headerFields(line: string, delimiter: ',' | '\t'): string[] {
  return line.split(delimiter).map((f) => f.trim().replace(/^"(.*)"$/, '$1').replace(/""/g, '"'));
}

/** A header field that names the key, or undefined. */
function keyName(names: string[]): string | undefined {
  const exact = names.find((n) => /^(message[_ -]?)?key$/i.test(n));
  if (exact) return exact;
  return names.find((n) => /key/i.test(n)) ?? names.find((n) => /^(id|.*[_ -]id)$/i.test(n));
}

/** Does the line look like a header: every field a short name, not a number or empty? */
function looksLikeHeader(fields: string[]): boolean {
  return fields.length > 1 && fields.every((f) => /^[A-Za-z_][\w .-]{0,63}$/.test(f));
}

function extension(name: string | undefined): string {
  const m = /\.([^./\\]+)$/.exec(name ?? '');
  return m ? m[1].toLowerCase() : '';
}

/** A guess at the layout of a key file from its name and its first bytes (as text). */
export function guessFormat(fileName: string | undefined, head: string): FormatGuess {
  const ext = extension(fileName);
  const line = firstLine(head);
  const fields = jsonFields(line);
  const columnGuess = (delimiter: ',' | '\t'): string => {
    const names = headerFields(line, delimiter);
    return looksLikeHeader(names) ? (keyName(names) ?? names[0]) : '1';
  };
  if (ext === 'csv') return { layout: 'csv', keyFormat: 'utf8', column: columnGuess(','), reason: 'from the .csv extension' };
  if (ext === 'tsv' || ext === 'tab') return { layout: 'tsv', keyFormat: 'utf8', column: columnGuess('\t'), reason: `from the .${ext} extension` };
  if (ext === 'jsonl' || ext === 'ndjson' || (fields !== null && (ext === 'json' || ext === '' || ext === 'txt' || ext === 'log'))) {
    const field = fields ? (keyName(fields) ?? fields[0] ?? 'key') : 'key';
    return { layout: 'jsonl', keyFormat: 'utf8', field, reason: fields ? 'the first line is a JSON object' : `from the .${ext} extension` };
  }
  if (ext === 'hex') return { layout: 'lines', keyFormat: 'hex', reason: 'from the .hex extension' };
  if (line.includes('\t') && looksLikeHeader(headerFields(line, '\t'))) {
    return { layout: 'tsv', keyFormat: 'utf8', column: columnGuess('\t'), reason: 'the first line is a tab-separated header' };
  }
  return { layout: 'lines', keyFormat: 'utf8', reason: ext ? `a .${ext} file: one key per line` : 'one key per line' };
}

/** Why a column or field text is not usable, or undefined (for an input box's validation). */
export function checkWhere(layout: Layout, where: string | undefined): string | undefined {
  const w = (where ?? '').trim();
  if (layout === 'lines') return undefined;
  if (layout === 'jsonl') return w === '' ? 'Give the name of the JSON field that holds the key.' : undefined;
  if (w === '') return 'Give a column number (from 1) or a header name.';
  if (/^\d+$/.test(w)) {
    if (Number(w) < 1) return 'Columns count from 1: the first column is 1.';
    if (Number(w) > 1_000_000) return 'That column number is too large.';
  }
  return undefined;
}

/**
 * The analyser's input spec. `where` is the column (CSV/TSV: a number from 1 or a header name) or
 * the field (JSON Lines); throws an Error saying what is wrong when it is not usable.
 */
export function inputSpec(layout: Layout, where?: string): InputSpec {
  const problem = checkWhere(layout, where);
  if (problem) throw new Error(problem);
  switch (layout) {
    case 'lines':
      return { kind: 'lines' };
    case 'csv':
    case 'tsv':
      return { kind: 'csv', column: parseColumn(where!.trim()), delimiter: layout === 'tsv' ? '\t' : ',' };
    case 'jsonl':
      return { kind: 'jsonl', field: where! };
  }
}

/** How the keys are read, for people: "one key per line (text)", "column \"key\" of CSV (hex)". */
export function describeInput(spec: InputSpec, keyFormat: KeyFormat): string {
  const fmt = keyFormat === 'hex' ? 'hex bytes' : 'text';
  switch (spec.kind) {
    case 'lines':
      return `one key per line (${fmt})`;
    case 'csv': {
      const col = 'index' in spec.column ? `column ${spec.column.index}` : `column ${JSON.stringify(spec.column.name)}`;
      const kind = spec.delimiter === '\t' ? 'TSV' : spec.delimiter === ',' ? 'CSV' : 'CSV/TSV';
      return `${col} of ${kind} (${fmt})`;
    }
    case 'jsonl':
      return `field ${JSON.stringify(spec.field)} of JSON Lines (${fmt})`;
  }
}
