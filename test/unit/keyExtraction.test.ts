import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractKeys, keyAtPosition, scanLiterals, wholeLiteral, wordAt, type DocLike, type Span, type Dialect } from '../../src/extension/keyExtraction';
import { propertyRuns } from './helpers';

/** A document over a string, as VS Code's TextDocument behaves for these calls. */
function doc(text: string): DocLike {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let o = 0;
  for (const l of lines) {
    offsets.push(o);
    o += l.length + 1;
  }
  const offsetAt = (p: { line: number; character: number }) => offsets[p.line] + p.character;
  return {
    lineCount: lines.length,
    lineText: (l) => lines[l],
    offsetAt,
    getText: (s) => text.slice(offsetAt(s.start), offsetAt(s.end)),
  };
}

const at = (line: number, character: number): Span => ({ start: { line, character }, end: { line, character } });
const sel = (l1: number, c1: number, l2: number, c2: number): Span => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

/** The value of the literal at `character` on a one-line text. */
function valueAt(text: string, dialect: Dialect, character = text.indexOf('"') + 1 || text.indexOf("'") + 1): { text: string | null; bytes: number[] } | undefined {
  const k = keyAtPosition(text, 0, character, dialect, false);
  return k && { text: k.key.text, bytes: [...k.key.bytes] };
}

const utf8 = (s: string) => [...new TextEncoder().encode(s)];

describe('key extraction: selections', () => {
  test('a selection is the key as typed', () => {
    const r = extractKeys(doc('send user-1 now'), [sel(0, 5, 0, 11)], 'plaintext');
    assert.ok(r.ok);
    assert.deepEqual(r.keys.map((k) => k.label), ['user-1']);
    assert.equal(r.keys[0].source, 'selection');
  });

  test('a selection that is exactly one literal gives its value', () => {
    const r = extractKeys(doc('key = "a\\tb";'), [sel(0, 6, 0, 12)], 'typescript');
    assert.ok(r.ok);
    assert.equal(r.keys[0].key.text, 'a\tb');
  });

  test('a multi-line selection gives one key per line, blank lines skipped, CR dropped', () => {
    const r = extractKeys(doc('user-1\r\n\r\nuser-2\r\n user-3\r\n'), [sel(0, 0, 4, 0)], 'plaintext');
    assert.ok(r.ok);
    assert.deepEqual(r.keys.map((k) => k.label), ['user-1', 'user-2', ' user-3']);
    assert.deepEqual(r.keys[2].span, sel(3, 0, 3, 7));
  });

  test('several selections and cursors give the keys of each, duplicates once', () => {
    const d = doc('"user-1", "user-2"\nuser-3 user-1');
    const r = extractKeys(d, [at(0, 3), at(0, 13), sel(1, 0, 1, 6), sel(1, 7, 1, 13)], 'json');
    assert.ok(r.ok);
    assert.deepEqual(r.keys.map((k) => k.label), ['user-1', 'user-2', 'user-3']);
  });

  test('a cursor outside any literal gives the key-shaped word', () => {
    const r = extractKeys(doc('keys: user-1, order:42.'), [at(0, 9), at(0, 17)], 'plaintext');
    assert.ok(r.ok);
    assert.deepEqual(r.keys.map((k) => [k.label, k.source]), [['user-1', 'word'], ['order:42', 'word']]);
  });

  test('a cursor on white space gives nothing', () => {
    const r = extractKeys(doc('a    b'), [at(0, 3)], 'plaintext');
    assert.ok(r.ok);
    assert.equal(r.keys.length, 0);
  });

  test('past the size limit: a message, not the text', () => {
    let read = false;
    const d = { ...doc('x'.repeat(100)), getText: () => ((read = true), '') };
    const r = extractKeys(d, [sel(0, 0, 0, 100)], 'plaintext', { maxChars: 50, maxKeys: 10 });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /at most/);
    assert.equal(read, false);
  });

  test('past the key count limit: a message', () => {
    const text = Array.from({ length: 30 }, (_, i) => `k${i}`).join('\n');
    const r = extractKeys(doc(text), [sel(0, 0, 29, 3)], 'plaintext', { maxChars: 1e6, maxKeys: 20 });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /more than 20 keys/);
    const ok = extractKeys(doc(text), [sel(0, 0, 29, 3)], 'plaintext', { maxChars: 1e6, maxKeys: 30 });
    assert.ok(ok.ok && ok.keys.length === 30);
  });
});

describe('key extraction: literals by language', () => {
  test('JSON: escapes, \\u and surrogate pairs', () => {
    assert.equal(valueAt('"caf\\u00e9 \\"q\\" \\/ \\n"', 'json')?.text, 'café "q" / \n');
    assert.equal(valueAt('"\\ud83d\\ude00"', 'json')?.text, '😀');
  });

  test('TS/JS: single, double, template; \\x, \\u{...}, \\0', () => {
    assert.equal(valueAt("send('it\\'s')", 'js', 7)?.text, "it's");
    assert.equal(valueAt('"\\x41\\u{1F600}\\0"', 'js')?.text, 'A😀\0');
    assert.equal(valueAt('`plain ${"x"}`', 'js', 2), undefined, 'a template with a substitution is not a constant');
    assert.equal(valueAt('`a\\`b`', 'js', 2)?.text, 'a`b');
  });

  test('a cursor on a non-constant literal falls back to the word', () => {
    const k = keyAtPosition('`user-${id}`', 0, 2, 'js', true);
    assert.equal(k?.source, 'word');
  });

  test('Java: \\s, octal, repeated u; a char literal does not open a string', () => {
    assert.equal(valueAt('"a\\sb\\101\\uuu0042"', 'java')?.text, 'a bAB');
    const lits = scanLiterals(`c == '"' ? "k1" : "k2"`, 'java');
    assert.deepEqual(lits.map((l) => l.value?.text), ['k1', 'k2']);
  });

  test('Go: \\x and octal escapes are bytes, \\u code points, backticks raw', () => {
    assert.deepEqual(valueAt('"\\xc3\\xa9"', 'go'), { text: 'é', bytes: utf8('é') });
    assert.deepEqual(valueAt('"\\xff\\000"', 'go'), { text: null, bytes: [0xff, 0] });
    assert.equal(valueAt('"\\u00e9"', 'go')?.text, 'é');
    assert.equal(valueAt('x := `a\\nb`', 'go', 7)?.text, 'a\\nb');
    assert.equal(valueAt('"\\q"', 'go'), undefined, 'Go rejects unknown escapes');
  });

  test('Python: prefixes r, b, f, rb; \\x is a code point in str and a byte in bytes', () => {
    assert.deepEqual(valueAt("'\\xff'", 'python'), { text: 'ÿ', bytes: utf8('ÿ') });
    assert.deepEqual(valueAt("b'\\xff'", 'python', 2), { text: null, bytes: [0xff] });
    assert.equal(valueAt("r'a\\nb'", 'python', 2)?.text, 'a\\nb');
    assert.deepEqual(valueAt("rb'\\x'", 'python', 3)?.bytes, utf8('\\x'));
    assert.equal(valueAt("f'{x}'", 'python', 2), undefined);
    assert.equal(valueAt("f'{{x}}'", 'python', 2)?.text, '{x}');
    assert.equal(valueAt("'''k'''", 'python', 3)?.text, 'k');
    assert.equal(valueAt("'\\d'", 'python')?.text, '\\d', 'unknown escapes keep the backslash');
    assert.equal(valueAt("'\\U0001F600'", 'python')?.text, '😀');
  });

  test('YAML: doubled single quotes, double-quoted escapes; comments skipped', () => {
    assert.equal(valueAt("k: 'it''s'", 'yaml', 5)?.text, "it's");
    assert.equal(valueAt('k: "\\x41\\U0001F600"', 'yaml', 5)?.text, 'A😀');
    assert.deepEqual(scanLiterals('k: v # "not a key"', 'yaml'), []);
  });

  test('comments end the scan in code', () => {
    assert.deepEqual(scanLiterals('x = 1 // "no"', 'js'), []);
    assert.deepEqual(scanLiterals('x = 1 /* "no" */ + "yes"', 'js').map((l) => l.value?.text), ['yes']);
    assert.deepEqual(scanLiterals('x = 1 # "no"', 'python'), []);
  });

  test('a literal open at the end of the line has no value', () => {
    const [l] = scanLiterals('s = """start', 'python');
    assert.equal(l.value, undefined);
    assert.equal(wholeLiteral('"""', 'java'), undefined);
  });

  test('the cursor right after the closing quote still picks the literal', () => {
    assert.equal(keyAtPosition('x("user-1")', 0, 10, 'js', false)?.label, 'user-1');
    assert.equal(keyAtPosition('x("user-1")', 0, 1, 'js', false), undefined);
  });

  test('wordAt keeps key punctuation and drops sentence punctuation', () => {
    const w = (t: string, c: number) => {
      const r = wordAt(t, c);
      return r && t.slice(r.start, r.end);
    };
    assert.equal(w('id=user-1;', 5), 'user-1');
    assert.equal(w('see order:42.', 6), 'order:42');
    assert.equal(w('tenant/ns/topic', 3), 'tenant/ns/topic');
  });

  test('bytes that are not UTF-8 are labelled in hex', () => {
    const r = extractKeys(doc('k := "\\xff\\x01"'), [at(0, 7)], 'go');
    assert.ok(r.ok);
    assert.equal(r.keys[0].label, '0xff01');
  });
});

describe('key extraction: properties', () => {
  const DIALECTS: Dialect[] = ['json', 'js', 'java', 'go', 'python', 'yaml', 'plain'];
  const wellFormed = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => s.isWellFormed());

  test('a string written as the language writes it (JSON.stringify: valid in JSON, JS, Java, Go, Python and YAML) reads back as its UTF-8 key', () => {
    fc.assert(
      fc.property(wellFormed, fc.constantFrom<Dialect>('json', 'js', 'java', 'go', 'python', 'yaml'), fc.constantFrom('', 'k = ', 'send(', '  - '), fc.nat(), (s, dialect, before, pick) => {
        const literal = JSON.stringify(s);
        assert.deepEqual(wholeLiteral(literal, dialect), { bytes: new TextEncoder().encode(s), text: s }, `${dialect}: ${literal}`);
        // The cursor anywhere on the literal, in a line of code, gives the same key.
        const line = `${before}${literal}${before === 'send(' ? ');' : ''}`;
        const k = keyAtPosition(line, 0, before.length + (pick % literal.length), dialect, true);
        assert.equal(k?.source, 'literal', `${dialect}: ${line}`);
        assert.equal(k?.key.text, s);
      }),
      propertyRuns(400),
    );
  });

  test('any line, any cursor, any selection, in every language: extraction never throws', () => {
    const lineArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.array(fc.constantFrom('"', "'", '`', '\\', 'u', 'x', '{', '}', 'b', 'r', 'f', '#', '//', '/*', '*/', '"""', ' ', 'a', '0', '\ud83d', '\ude00', '\n'), { maxLength: 30 }).map((p) => p.join('')));
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 4 }), fc.constantFrom(...DIALECTS), fc.nat(), fc.nat(), fc.nat(), (lines, dialect, a, b, c) => {
        const text = lines.join('\n');
        const d = doc(text);
        const line = a % d.lineCount;
        const character = b % (d.lineText(line).length + 1);
        keyAtPosition(d.lineText(line), line, character, dialect, true);
        scanLiterals(d.lineText(line), dialect);
        const end = c % d.lineCount;
        const r = extractKeys(d, [at(line, character), sel(Math.min(line, end), 0, Math.max(line, end), d.lineText(Math.max(line, end)).length)], dialect === 'js' ? 'typescript' : dialect);
        if (r.ok) for (const k of r.keys) assert.ok(k.key.bytes instanceof Uint8Array && typeof k.label === 'string');
        else assert.match(r.message, /\S/);
      }),
      propertyRuns(500),
    );
  });
});
