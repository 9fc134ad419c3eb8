/**
 * The syntax tree of a settings.json (JSON with comments and trailing commas, as VS Code reads it)
 * with each value's offsets, or undefined where the text has any syntax error (pure: no `vscode`).
 *
 * It accepts exactly the texts Microsoft's `jsonc-parser` (VS Code's reader) parses without an error
 * with comments and trailing commas allowed, and gives the same tree, `parent` aside (a unit test
 * runs both on random texts). That library also repairs broken text, which locating a setting must
 * not use anyway (jsonLocate.ts); its parser was 8.4 KB of the .vsix's minified script (2.9 KB of
 * the 200 KB package), where this is 1.3 KB (0.5 KB). The command line still reads `--config` files
 * with the library, for its error messages.
 */
export interface JsoncNode {
  type: 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';
  /** The value's first character and its length in the text (an object's or array's brackets included). */
  offset: number;
  length: number;
  /** A literal's value (a string's without its quotes and escapes). */
  value?: string | number | boolean | null;
  /** An object's properties, an array's items; a property's name and value. */
  children?: JsoncNode[];
}

/** An object's property named `key`: the last of duplicates, the one JSON parsers (and VS Code) keep. */
export function propertyNamed(object: JsoncNode, key: string): JsoncNode | undefined {
  let prop: JsoncNode | undefined;
  for (const p of object.children ?? []) if (p.children?.[0]?.value === key) prop = p;
  return prop;
}

// Only space, tab, CR and LF separate tokens: jsonc-parser takes any other character (a BOM, a
// no-break space) for part of a word, and an unknown word is an error.
const ESCAPE = /["\\/bfnrt]|u[\da-fA-F]{4}/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Thrown inside `parseTree` at the first syntax error. */
class SyntaxFault {}

export function parseTree(text: string): JsoncNode | undefined {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxFault();
  };
  /** Steps over whitespace and comments; returns the next character's code (NaN at the end). */
  const next = (): number => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else if (c === 47 && text[i + 1] === '/') while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
      else if (c === 47 && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? fail() : end + 2;
      } else return c;
    }
  };
  /** The token `re` matches at `i`, stepped over, or a fault. */
  const token = (re: RegExp): string => {
    re.lastIndex = i;
    const m = re.exec(text) ?? fail();
    i = re.lastIndex;
    return m[0];
  };
  // A loop, not one regular expression for the whole string: V8's backtracking stack overflows
  // on a string of 10,000,000 characters (or of millions of escapes) in a settings value.
  const string = (): JsoncNode => {
    const offset = i++;
    for (let c; (c = text.charCodeAt(i++)) !== 34; ) {
      if (c === 92) token(ESCAPE);
      // A control character (a line break too) ends the string with an error, as does the end (NaN).
      else if (!(c >= 32)) fail();
    }
    return { type: 'string', offset, length: i - offset, value: JSON.parse(text.slice(offset, i)) as string };
  };
  /** A list after its opening bracket: items (`item`) separated by commas, a trailing one allowed, until `close`. */
  const list = (type: 'object' | 'array', close: number, item: () => JsoncNode): JsoncNode => {
    const offset = i++;
    const children: JsoncNode[] = [];
    while (next() !== close) {
      children.push(item());
      if (next() === 44) i++;
      else if (next() !== close) fail();
    }
    return { type, offset, length: ++i - offset, children };
  };
  const value = (): JsoncNode => {
    const c = next();
    if (c === 123) {
      return list('object', 125, () => {
        if (next() !== 34) fail();
        const key = string();
        if (next() !== 58) fail();
        i++;
        const v = value();
        return { type: 'property', offset: key.offset, length: v.offset + v.length - key.offset, children: [key, v] };
      });
    }
    if (c === 91) return list('array', 93, value);
    if (c === 34) return string();
    const offset = i;
    if (c === 45 || (c >= 48 && c <= 57)) return { type: 'number', offset, length: token(NUMBER).length, value: Number(text.slice(offset, i)) };
    // What may follow a value (a comma, a closing bracket, the end) also ends a word there, so
    // `truex` fails after `true` as it fails in jsonc-parser as one unknown word.
    const word = token(LITERAL);
    return { type: word === 'null' ? 'null' : 'boolean', offset, length: word.length, value: JSON.parse(word) as boolean | null };
  };
  try {
    const root = value();
    next();
    return i < text.length ? undefined : root;
  } catch (e) {
    if (e instanceof SyntaxFault) return undefined;
    throw e;
  }
}
