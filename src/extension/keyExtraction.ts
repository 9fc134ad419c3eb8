/**
 * Which keys the user means, from the editor's text and selections (pure: no `vscode`).
 *
 * - A non-empty selection is the key as typed; a selection that is exactly one string literal
 *   (quotes included) is that literal's value. A selection over several lines gives one key per
 *   line (blank lines skipped, a trailing line break ends the last key).
 * - An empty selection (a cursor) gives the string literal under it, quotes stripped and
 *   escapes decoded the way the file's language decodes them, or else the word under it.
 * - Several selections give the keys of each, duplicates dropped, in order.
 * - Past a size or count limit the answer is a message, not a frozen editor.
 */
import { utf8 } from '../engine/bytes';
import { bytesKey, stringKey, type MessageKey } from '../engine/key';

export interface Pos {
  line: number;
  character: number;
}

export interface Span {
  start: Pos;
  end: Pos;
}

/** The little of a text document extraction needs (VS Code's `TextDocument` has all of it). */
export interface DocLike {
  readonly lineCount: number;
  lineText(line: number): string;
  offsetAt(pos: Pos): number;
  getText(span: Span): string;
}

export interface ExtractedKey {
  key: MessageKey;
  /** The key as shown: its text, or `0x...` hex for bytes that are not UTF-8. */
  label: string;
  source: 'selection' | 'literal' | 'word';
  span: Span;
}

export interface Limits {
  /** Characters of selected text read at once. */
  maxChars: number;
  maxKeys: number;
}

export const DEFAULT_LIMITS: Limits = { maxChars: 10 * 1024 * 1024, maxKeys: 10_000 };

export type Extraction = { ok: true; keys: ExtractedKey[] } | { ok: false; message: string };

/** How a language writes string literals. */
export type Dialect = 'json' | 'js' | 'java' | 'go' | 'python' | 'yaml' | 'plain';

export function dialectOf(languageId: string): Dialect {
  switch (languageId) {
    case 'json':
    case 'jsonc':
    case 'jsonl':
    case 'json5':
    case 'snippets':
      return 'json';
    case 'javascript':
    case 'javascriptreact':
    case 'typescript':
    case 'typescriptreact':
      return 'js';
    case 'java':
      return 'java';
    case 'go':
      return 'go';
    case 'python':
      return 'python';
    case 'yaml':
    case 'dockercompose':
      return 'yaml';
    default:
      return 'plain';
  }
}

export function extractKeys(doc: DocLike, selections: readonly Span[], languageId: string, limits: Limits = DEFAULT_LIMITS): Extraction {
  // Size checks first, from positions only: reading a huge selection is what would freeze.
  let chars = 0;
  let lines = 0;
  for (const s of selections) {
    if (isEmpty(s)) {
      lines += 1;
      continue;
    }
    chars += doc.offsetAt(s.end) - doc.offsetAt(s.start);
    lines += s.end.line - s.start.line + 1;
  }
  if (chars > limits.maxChars) {
    return { ok: false, message: `The selection holds ${mb(chars)} of text; Key Routing reads at most ${mb(limits.maxChars)} at once. Select less, or route the file with the key-routing command line.` };
  }
  if (lines > limits.maxKeys && countKeys(doc, selections) > limits.maxKeys) {
    return { ok: false, message: `The selection holds more than ${limits.maxKeys.toLocaleString('en-US')} keys; Key Routing routes at most ${limits.maxKeys.toLocaleString('en-US')} at once. Select fewer lines, or route the file with the key-routing command line.` };
  }
  const dialect = dialectOf(languageId);
  const out: ExtractedKey[] = [];
  const seen = new Set<string>();
  const push = (k: ExtractedKey) => {
    const id = k.key.text ?? `\0bytes:${toHex(k.key.bytes)}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(k);
  };
  for (const s of selections) {
    if (isEmpty(s)) {
      const k = keyAtPosition(doc.lineText(s.start.line), s.start.line, s.start.character, dialect, true);
      if (k) push(k);
      continue;
    }
    const text = doc.getText(s);
    if (s.start.line === s.end.line) {
      const whole = wholeLiteral(text, dialect);
      if (whole) push({ ...labelled(whole), source: 'literal', span: s });
      else push({ ...labelled(stringKey(text)), source: 'selection', span: s });
      continue;
    }
    let line = s.start.line;
    for (const part of text.split('\n')) {
      const t = part.endsWith('\r') ? part.slice(0, -1) : part;
      const startChar = line === s.start.line ? s.start.character : 0;
      if (t.trim() !== '') push({ ...labelled(stringKey(t)), source: 'selection', span: { start: { line, character: startChar }, end: { line, character: startChar + t.length } } });
      line++;
    }
  }
  if (out.length > limits.maxKeys) {
    return { ok: false, message: `The selection holds ${out.length.toLocaleString('en-US')} keys; Key Routing routes at most ${limits.maxKeys.toLocaleString('en-US')} at once. Select fewer lines, or route the file with the key-routing command line.` };
  }
  return { ok: true, keys: out };
}

/**
 * The key at a position: the string literal there (decoded), or else the word. With
 * `orWord` false only a literal counts (hovers in languages full of words).
 */
export function keyAtPosition(lineText: string, line: number, character: number, dialect: Dialect, orWord: boolean): ExtractedKey | undefined {
  const lits = scanLiterals(lineText, dialect);
  const lit = lits.find((l) => l.start <= character && character < l.end) ?? lits.find((l) => l.end === character);
  if (lit) {
    if (lit.value) return { ...labelled(lit.value), source: 'literal', span: { start: { line, character: lit.start }, end: { line, character: lit.end } } };
    // A literal that is not a constant (a template with a substitution, an unknown escape): the word.
  }
  if (!orWord) return undefined;
  const w = wordAt(lineText, character);
  if (!w) return undefined;
  return { ...labelled(stringKey(lineText.slice(w.start, w.end))), source: 'word', span: { start: { line, character: w.start }, end: { line, character: w.end } } };
}

/** A key-shaped word: no spaces, quotes, brackets or separators; `user-1` and `order:42` stay whole. */
export function wordAt(text: string, character: number): { start: number; end: number } | undefined {
  const isWord = (c: string) => !/[\s"'`,;()[\]{}<>=]/.test(c);
  let start = character;
  let end = character;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  // Sentence punctuation after a word (`user-1.`, `key: value`) is not part of the key.
  while (end > start && /[.:!?]/.test(text[end - 1])) end--;
  return end > start ? { start, end } : undefined;
}

function labelled(key: MessageKey): { key: MessageKey; label: string } {
  return { key, label: key.text ?? `0x${toHex(key.bytes)}` };
}

/** Lower-case hex of bytes, for labels and de-duplication. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

function isEmpty(s: Span): boolean {
  return s.start.line === s.end.line && s.start.character === s.end.character;
}

function mb(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(chars < 1024 * 1024 ? 2 : 1)} MB`;
}

function countKeys(doc: DocLike, selections: readonly Span[]): number {
  let n = 0;
  for (const s of selections) {
    if (isEmpty(s)) n++;
    else for (let l = s.start.line; l <= s.end.line; l++) if (doc.lineText(l).trim() !== '') n++;
  }
  return n;
}

/** A literal found on a line: `[start, end)` including prefix and quotes; no value if not a constant. */
export interface Literal {
  start: number;
  end: number;
  value?: MessageKey;
}

/** If `text` is exactly one complete string literal, its value. */
export function wholeLiteral(text: string, dialect: Dialect): MessageKey | undefined {
  const lits = scanLiterals(text, dialect);
  return lits.length === 1 && lits[0].start === 0 && lits[0].end === text.length ? lits[0].value : undefined;
}

/**
 * The string literals on one line, left to right, skipping comments and (in Java and Go)
 * character literals, so that `'"'` does not open a string. A literal left open at the end of
 * the line (a multi-line string) is returned without a value.
 */
export function scanLiterals(text: string, dialect: Dialect): Literal[] {
  const out: Literal[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    // Comments end the scan (line comments) or are skipped (block comments on one line).
    if (dialect !== 'plain' && dialect !== 'yaml' && dialect !== 'python' && c === '/' && text[i + 1] === '/') break;
    if (dialect !== 'plain' && dialect !== 'yaml' && dialect !== 'python' && c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) break;
      i = close + 2;
      continue;
    }
    if (c === '#' && (dialect === 'python' || (dialect === 'yaml' && (i === 0 || /\s/.test(text[i - 1]))))) break;
    if ((dialect === 'java' || dialect === 'go') && c === "'") {
      // A character (rune) literal: skip it whole.
      const close = text[i + 1] === '\\' ? text.indexOf("'", i + 3) : i + 2;
      i = close > i && text[close] === "'" ? close + 1 : i + 1;
      continue;
    }
    const open = opener(text, i, dialect);
    if (!open) {
      i++;
      continue;
    }
    const lit = readLiteral(text, i, open, dialect);
    out.push(lit);
    i = Math.max(lit.end, i + 1);
  }
  return out;
}

interface Opener {
  /** Where the prefix (Python `rb`, ...) starts; the quote is at `quoteAt`. */
  start: number;
  quoteAt: number;
  quote: string;
  prefix: string;
}

function opener(text: string, i: number, dialect: Dialect): Opener | undefined {
  const c = text[i];
  const quotes: Record<Dialect, string> = { json: '"', js: '"\'`', java: '"', go: '"`', python: '"\'', yaml: '"\'', plain: '"' };
  if (dialect === 'python' && /[rRbBuUfF]/.test(c)) {
    // A prefix is one or two letters right before the quote, not part of a longer name.
    const m = /^([rRbBuUfF]{1,2})(['"])/.exec(text.slice(i, i + 3));
    if (!m || (i > 0 && /[\w]/.test(text[i - 1]))) return undefined;
    const p = m[1].toLowerCase();
    if (!['r', 'b', 'u', 'f', 'rb', 'br', 'fr', 'rf'].includes(p)) return undefined;
    return { start: i, quoteAt: i + m[1].length, quote: tripleOr(text, i + m[1].length), prefix: p };
  }
  if (!quotes[dialect].includes(c)) return undefined;
  // A YAML single quote inside a plain word (`it's`) is an apostrophe.
  if (dialect === 'yaml' && c === "'" && i > 0 && /\w/.test(text[i - 1])) return undefined;
  const quote = dialect === 'python' || (dialect === 'java' && c === '"') ? tripleOr(text, i) : c;
  return { start: i, quoteAt: i, quote, prefix: '' };
}

function tripleOr(text: string, at: number): string {
  const c = text[at];
  return text.startsWith(c + c + c, at) ? c + c + c : c;
}

function readLiteral(text: string, from: number, o: Opener, dialect: Dialect): Literal {
  const bodyStart = o.quoteAt + o.quote.length;
  const goRaw = dialect === 'go' && o.quote === '`';
  // Java text blocks open with `"""` and a line break: never a one-line key.
  if (dialect === 'java' && o.quote === '"""') return { start: from, end: text.length };
  let i = bodyStart;
  while (i < text.length) {
    if (text.startsWith(o.quote, i)) {
      // YAML single quotes escape themselves by doubling.
      if (dialect === 'yaml' && o.quote === "'" && text[i + 1] === "'") {
        i += 2;
        continue;
      }
      const body = text.slice(bodyStart, i);
      return { start: from, end: i + o.quote.length, value: decode(body, o, dialect) };
    }
    // In Go raw strings and JS templates a backslash is literal text (JS templates do escape the backtick).
    if (text[i] === '\\' && !goRaw && !(dialect === 'yaml' && o.quote === "'")) i += 2;
    else i++;
  }
  return { start: from, end: text.length };
}

/** The value of a literal's body in its dialect, or undefined where it is not a constant. */
export function decode(body: string, o: { quote: string; prefix: string }, dialect: Dialect): MessageKey | undefined {
  switch (dialect) {
    case 'go':
      return o.quote === '`' ? bytesKey(utf8(body.replace(/\r/g, ''))) : decodeGo(body);
    case 'python':
      return decodePython(body, o.prefix);
    case 'yaml':
      return o.quote === "'" ? stringKey(body.replace(/''/g, "'")) : text(decodeEscapes(body, YAML_ESCAPES, 'yaml'));
    case 'js':
      if (o.quote === '`' && /(^|[^\\])\$\{/.test(body)) return undefined;
      return text(decodeEscapes(body, JS_ESCAPES, 'js'));
    case 'java':
      return text(decodeEscapes(body, JAVA_ESCAPES, 'java'));
    case 'json':
    case 'plain':
      return text(decodeEscapes(body, JSON_ESCAPES, 'json'));
  }
}

function text(s: string | undefined): MessageKey | undefined {
  return s === undefined ? undefined : stringKey(s);
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const JS_ESCAPES: Record<string, string> = { ...JSON_ESCAPES, v: '\v', "'": "'", '`': '`' };
const JAVA_ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', s: ' ' };
const YAML_ESCAPES: Record<string, string> = {
  ...JSON_ESCAPES,
  '0': '\0', a: '\x07', v: '\v', e: '\x1b', ' ': ' ', '\t': '\t', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};

/**
 * Decodes the escapes of JSON, JS, Java and YAML double-quoted strings into a string (UTF-16,
 * so `\uD83D\uDE00` pairs up by itself). Unknown escapes: JS and JSON keep the character
 * (as JS does), Java and YAML reject the literal (their compilers do).
 */
function decodeEscapes(body: string, simple: Record<string, string>, kind: 'json' | 'js' | 'java' | 'yaml'): string | undefined {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    if (e in simple) {
      out += simple[e];
      continue;
    }
    if (e === 'u') {
      if (kind === 'js' && body[i + 1] === '{') {
        const m = /^\{([0-9a-fA-F]{1,6})\}/.exec(body.slice(i + 1));
        if (!m || parseInt(m[1], 16) > 0x10ffff) return undefined;
        out += String.fromCodePoint(parseInt(m[1], 16));
        i += m[0].length;
        continue;
      }
      // Java allows `\uuuu0041`.
      const m = (kind === 'java' ? /^u+([0-9a-fA-F]{4})/ : /^u([0-9a-fA-F]{4})/).exec(body.slice(i));
      if (!m) return undefined;
      out += String.fromCharCode(parseInt(m[1], 16));
      i += m[0].length - 1;
      continue;
    }
    if (e === 'x' && (kind === 'js' || kind === 'yaml')) {
      const m = /^x([0-9a-fA-F]{2})/.exec(body.slice(i));
      if (!m) return undefined;
      out += String.fromCharCode(parseInt(m[1], 16));
      i += 2;
      continue;
    }
    if (e === 'U' && kind === 'yaml') {
      const m = /^U([0-9a-fA-F]{8})/.exec(body.slice(i));
      if (!m || parseInt(m[1], 16) > 0x10ffff) return undefined;
      out += String.fromCodePoint(parseInt(m[1], 16));
      i += 8;
      continue;
    }
    if ((kind === 'java' || kind === 'js') && /[0-7]/.test(e)) {
      // Octal: up to three digits, at most \377.
      const m = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(body.slice(i));
      out += String.fromCharCode(parseInt(m![0], 8));
      i += m![0].length - 1;
      continue;
    }
    if (kind === 'js' && (e === '\n' || e === '\r')) continue; // line continuation
    if (kind === 'js' || kind === 'json') {
      out += e;
      continue;
    }
    return undefined;
  }
  return out;
}

/** Go interpreted strings: `\x` and octal escapes are bytes, `\u`/`\U` code points in UTF-8. */
function decodeGo(body: string): MessageKey | undefined {
  const bytes: number[] = [];
  const GO: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };
  let run = '';
  const flush = () => {
    if (run) for (const b of utf8(run)) bytes.push(b);
    run = '';
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      run += c;
      continue;
    }
    const e = body[++i];
    if (e !== undefined && e in GO) {
      flush();
      bytes.push(GO[e]);
      continue;
    }
    let m: RegExpExecArray | null;
    if (e === 'x' && (m = /^x([0-9a-fA-F]{2})/.exec(body.slice(i)))) {
      flush();
      bytes.push(parseInt(m[1], 16));
      i += 2;
    } else if ((m = /^[0-3][0-7]{2}/.exec(body.slice(i)))) {
      flush();
      bytes.push(parseInt(m[0], 8));
      i += 2;
    } else if ((e === 'u' && (m = /^u([0-9a-fA-F]{4})/.exec(body.slice(i)))) || (e === 'U' && (m = /^U([0-9a-fA-F]{8})/.exec(body.slice(i))))) {
      const cp = parseInt(m[1], 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      run += String.fromCodePoint(cp);
      i += m[0].length - 1;
    } else {
      return undefined; // the Go compiler rejects any other escape
    }
  }
  flush();
  return bytesKey(Uint8Array.from(bytes));
}

/** Python: str escapes are code points, bytes escapes are bytes, raw strings keep backslashes. */
function decodePython(body: string, prefix: string): MessageKey | undefined {
  const isBytes = prefix.includes('b');
  const isRaw = prefix.includes('r');
  if (prefix.includes('f')) {
    // An f-string with a replacement field is not a constant; `{{` and `}}` are braces.
    if (/\{(?!\{)|(?<!\})\}(?!\})/.test(body.replace(/\{\{|\}\}/g, ''))) return undefined;
    body = body.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
  }
  if (isRaw) return isBytes ? latin1Bytes(body) : stringKey(body);
  const PY: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '' };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    let m: RegExpExecArray | null;
    if (e in PY) out += PY[e];
    else if ((m = /^[0-7]{1,3}/.exec(body.slice(i)))) {
      out += String.fromCharCode(parseInt(m[0], 8) & (isBytes ? 0xff : 0x1ff));
      i += m[0].length - 1;
    } else if (e === 'x' && (m = /^x([0-9a-fA-F]{2})/.exec(body.slice(i)))) {
      out += String.fromCharCode(parseInt(m[1], 16));
      i += 2;
    } else if (!isBytes && ((e === 'u' && (m = /^u([0-9a-fA-F]{4})/.exec(body.slice(i)))) || (e === 'U' && (m = /^U([0-9a-fA-F]{8})/.exec(body.slice(i)))))) {
      const cp = parseInt(m[1], 16);
      if (cp > 0x10ffff) return undefined;
      out += String.fromCodePoint(cp);
      i += m[0].length - 1;
    } else if (!isBytes && e === 'N') {
      return undefined; // \N{NAME}: needs Unicode's name table
    } else if (e === 'x') {
      return undefined; // Python rejects a short \x escape
    } else out += '\\' + e; // unknown escapes stay as written
  }
  return isBytes ? latin1Bytes(out) : stringKey(out);
}

/** A Python bytes literal's value: each character is one byte (only ASCII may be written). */
function latin1Bytes(s: string): MessageKey | undefined {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return undefined;
    b[i] = c;
  }
  return bytesKey(b);
}
