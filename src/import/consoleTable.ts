/**
 * The column tables Kafka's command-line tools print: a header line of labels, then rows whose
 * cells start where the labels start, because header and rows go through the same `%-Ns` format
 * with each width at least as wide as the longest cell (ConsumerGroupCommand's printOffsets,
 * printMembers). Cells are cut at the label offsets; the last column takes the rest of the line.
 */

export interface Column {
  label: string;
  start: number;
}

export interface Row {
  /** 1-based line number in the text. */
  line: number;
  text: string;
  cells: Map<string, string>;
}

/** The labels of a header line with their offsets; a label like `(ID)` joins the one before it. */
export function headerColumns(line: string): Column[] {
  const out: Column[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[0].startsWith('(') && out.length > 0) out[out.length - 1].label += ` ${m[0]}`;
    else out.push({ label: m[0], start: m.index });
  }
  return out;
}

/** A row's cells, cut at the header's offsets. */
export function cutRow(columns: readonly Column[], text: string, line: number): Row {
  const cells = new Map<string, string>();
  columns.forEach((c, i) => {
    const end = i + 1 < columns.length ? columns[i + 1].start : text.length;
    cells.set(c.label, text.slice(c.start, end).trim());
  });
  return { line, text, cells };
}

/**
 * The same row split on white space instead, for text whose alignment was lost (pasted through a
 * tool that squeezed spaces): only where it gives one cell per column, the last taking the rest.
 */
export function splitRow(columns: readonly Column[], text: string, line: number): Row | undefined {
  const tokens = text.trim().split(/\s+/);
  if (tokens.length < columns.length) return undefined;
  const cells = new Map<string, string>();
  columns.forEach((c, i) => cells.set(c.label, i + 1 < columns.length ? tokens[i] : tokens.slice(i).join(' ')));
  return { line, text, cells };
}
