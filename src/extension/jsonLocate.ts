/**
 * Finds a setting path such as `keyRouting.topics[1].subscription.consumers[2].ranges` in the
 * text of a settings.json (JSON with comments and trailing commas), so a problem can be shown
 * at its line (pure: no `vscode`). A small tolerant parser keeps the bundle free of a JSON
 * library; text it cannot parse yields no location, never an exception.
 */

interface Node {
  kind: 'object' | 'array' | 'value';
  start: number;
  end: number;
  props?: { key: string; keyStart: number; keyEnd: number; value: Node }[];
  items?: Node[];
}

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
  let root: Node | undefined;
  try {
    root = new Parser(text).parseDocument();
  } catch {
    return undefined;
  }
  if (!root || root.kind !== 'object') return undefined;
  const segs: Segment[] = [...within, ...parsePath(path)];
  let node: Node = root;
  let mark: { start: number; end: number } | undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (typeof s === 'number' && node.kind === 'array' && node.items && s < node.items.length) {
      node = node.items[s];
      mark = firstLine(text, node);
      continue;
    }
    if (typeof s === 'string' && node.kind === 'object') {
      // Duplicate keys: JSON parsers (and VS Code) keep the last one.
      const prop = [...(node.props ?? [])].reverse().find((p) => p.key === s);
      if (prop) {
        node = prop.value;
        mark = { start: prop.keyStart, end: prop.keyEnd };
        continue;
      }
    }
    return mark ? { ...mark, exact: false } : undefined;
  }
  return mark ? { ...mark, exact: true } : undefined;
}

function firstLine(text: string, n: Node): { start: number; end: number } {
  const nl = text.indexOf('\n', n.start);
  return { start: n.start, end: nl < 0 || nl > n.end ? n.end : nl };
}

/** Line and character of an offset (0-based). */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: Math.min(offset, text.length) - lineStart };
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  parseDocument(): Node | undefined {
    this.skip();
    if (this.i >= this.s.length) return undefined;
    return this.value();
  }

  private fail(): never {
    throw new Error(`JSON syntax error at ${this.i}`);
  }

  /** Skips white space and comments. */
  private skip(): void {
    const s = this.s;
    for (;;) {
      while (this.i < s.length && /\s/.test(s[this.i])) this.i++;
      if (s.startsWith('//', this.i)) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl + 1;
      } else if (s.startsWith('/*', this.i)) {
        const close = s.indexOf('*/', this.i + 2);
        if (close < 0) this.fail();
        this.i = close + 2;
      } else return;
    }
  }

  private value(): Node {
    if (++this.depth > 200) this.fail();
    try {
      const c = this.s[this.i];
      if (c === '{') return this.object();
      if (c === '[') return this.array();
      if (c === '"') {
        const start = this.i;
        this.string();
        return { kind: 'value', start, end: this.i };
      }
      const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i, this.i + 64));
      if (!m) this.fail();
      const start = this.i;
      this.i += m[0].length;
      return { kind: 'value', start, end: this.i };
    } finally {
      this.depth--;
    }
  }

  private string(): string {
    const s = this.s;
    const start = this.i++;
    while (this.i < s.length && s[this.i] !== '"') {
      if (s[this.i] === '\n') this.fail();
      this.i += s[this.i] === '\\' ? 2 : 1;
    }
    if (this.i >= s.length) this.fail();
    this.i++;
    try {
      return JSON.parse(s.slice(start, this.i)) as string;
    } catch {
      return s.slice(start + 1, this.i - 1);
    }
  }

  private object(): Node {
    const node: Node = { kind: 'object', start: this.i, end: this.i, props: [] };
    this.i++;
    this.skip();
    while (this.s[this.i] !== '}') {
      if (this.s[this.i] !== '"') this.fail();
      const keyStart = this.i;
      const key = this.string();
      const keyEnd = this.i;
      this.skip();
      if (this.s[this.i] !== ':') this.fail();
      this.i++;
      this.skip();
      const value = this.value();
      node.props!.push({ key, keyStart, keyEnd, value });
      this.skip();
      if (this.s[this.i] === ',') {
        this.i++;
        this.skip();
      } else if (this.s[this.i] !== '}') this.fail();
    }
    this.i++;
    node.end = this.i;
    return node;
  }

  private array(): Node {
    const node: Node = { kind: 'array', start: this.i, end: this.i, items: [] };
    this.i++;
    this.skip();
    while (this.s[this.i] !== ']') {
      if (this.i >= this.s.length) this.fail();
      node.items!.push(this.value());
      this.skip();
      if (this.s[this.i] === ',') {
        this.i++;
        this.skip();
      } else if (this.s[this.i] !== ']') this.fail();
    }
    this.i++;
    node.end = this.i;
    return node;
  }
}
