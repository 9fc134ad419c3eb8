/**
 * Finds a setting path such as `keyRouting.topics[1].subscription.consumers[2].ranges` in the
 * text of a settings.json (JSON with comments and trailing commas), so a problem can be shown
 * at its line (pure: no `vscode`). Text that does not parse as VS Code reads settings.json
 * (jsoncTree.ts) yields no location, never an exception: a location in a repaired tree could point
 * anywhere.
 */
import { parseTree, propertyNamed, type JsoncNode as Node } from './jsoncTree';

export interface Location {
  /** Offsets of the text to mark: a property's key, or an array item's first line. */
  start: number;
  end: number;
  /** False where the path's last parts are absent and an enclosing node is marked instead. */
  exact: boolean;
}

type Segment = string | number;

/** `keyRouting.topics[1].subscription.name` → ["keyRouting.topics", 1, "subscription", "name"]. */
export function parsePath(path: string): Segment[] {
  const b = path.indexOf('[');
  const out: Segment[] = [b < 0 ? path : path.slice(0, b)];
  if (b < 0) return out;
  const re = /\[(\d+)\]|\.([^.[\]]+)/y;
  re.lastIndex = b;
  let m: RegExpExecArray | null;
  while (re.lastIndex < path.length && (m = re.exec(path))) out.push(m[1] !== undefined ? Number(m[1]) : m[2]);
  return out;
}

/**
 * Locates `path` in `text`; `within` names the object holding the settings (`["settings"]` in a
 * .code-workspace file).
 */
export function locate(text: string, path: string, within: readonly string[] = []): Location | undefined {
  return locator(text, within)(path);
}

/**
 * `locate` for many paths in one text, which it parses once: a settings file that holds a broker's
 * report can be tens of MB (half a second to parse), and each of its problems is placed.
 */
function locator(text: string, within: readonly string[] = []): (path: string) => Location | undefined {
  const root = parseSettingsTree(text);
  return (path) => (root?.type === 'object' ? find(text, root, [...within, ...parsePath(path)]) : undefined);
}

function find(text: string, root: Node, segs: readonly Segment[]): Location | undefined {
  let node: Node = root;
  let mark: { start: number; end: number } | undefined;
  for (const s of segs) {
    const children = node.children ?? [];
    if (typeof s === 'number' && node.type === 'array' && s < children.length) {
      node = children[s];
      mark = firstLine(text, node);
      continue;
    }
    if (typeof s === 'string' && node.type === 'object') {
      const [key, value] = propertyNamed(node, s)?.children ?? [];
      if (key && value) {
        node = value;
        mark = { start: key.offset, end: key.offset + key.length };
        continue;
      }
    }
    return mark ? { ...mark, exact: false } : undefined;
  }
  return mark ? { ...mark, exact: true } : undefined;
}

/** The syntax tree of a settings file, or undefined where it has a syntax error. */
function parseSettingsTree(text: string): Node | undefined {
  try {
    return parseTree(text);
  } catch {
    // The parser recurses per nesting level: absurdly deep text overflows the stack.
    return undefined;
  }
}

function firstLine(text: string, n: Node): { start: number; end: number } {
  const end = n.offset + n.length;
  const nl = text.indexOf('\n', n.offset);
  return { start: n.offset, end: nl < 0 || nl > end ? end : nl };
}

/** A line and character (0-based). */
export interface Position {
  line: number;
  character: number;
}

/** Line and character of an offset (0-based). */
export function positionAt(text: string, offset: number): Position {
  return positions(text)(offset);
}

/**
 * `positionAt` for many offsets in one text: its line starts are found once (two passes), then
 * each offset is a binary search. A scan per offset took 20-40 ms deep into a 34 MB settings file,
 * and each problem there is placed at two offsets.
 */
export function positions(text: string): (offset: number) => Position {
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  const starts = new Int32Array(lines);
  for (let i = 0, k = 1; i < text.length; i++) if (text.charCodeAt(i) === 10) starts[k++] = i + 1;
  return (offset) => {
    const o = Math.min(offset, text.length);
    // The last line start at or before o.
    let lo = 0;
    let hi = lines - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - starts[lo] };
  };
}

/**
 * Where paths sit in `text`, as the line and character of their start and end: the text is parsed
 * once (`locator`) and its lines found once, at the first path found, for all the paths asked.
 */
export function rangeLocator(text: string, within: readonly string[] = []): (path: string) => { start: Position; end: Position } | undefined {
  const find = locator(text, within);
  let at: ((offset: number) => Position) | undefined;
  return (path) => {
    const loc = find(path);
    if (!loc) return undefined;
    at ??= positions(text);
    return { start: at(loc.start), end: at(loc.end) };
  };
}
