// The extension's settings.json reader (src/extension/jsoncTree.ts) against Microsoft's jsonc-parser,
// which VS Code reads settings with: the same tree (parents aside) for every text that library parses
// without an error (comments and trailing commas allowed, as in settings.json), and nothing for
// every text it finds an error in.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseTree as jsoncParseTree, type Node, type ParseError } from 'jsonc-parser';
import { parseTree, type JsoncNode } from '../../src/extension/jsoncTree';

/** jsonc-parser's tree without its parent links and colon offsets, or undefined where it reports an error. */
function reference(text: string): JsoncNode | undefined {
  const errors: ParseError[] = [];
  const root = jsoncParseTree(text, errors, { disallowComments: false, allowTrailingComma: true });
  const strip = (n: Node): JsoncNode => ({
    type: n.type,
    offset: n.offset,
    length: n.length,
    ...(n.value !== undefined || n.type === 'null' ? { value: n.value as JsoncNode['value'] } : {}),
    ...(n.children ? { children: n.children.map(strip) } : {}),
  });
  return errors.length > 0 || !root ? undefined : strip(root);
}

function same(text: string): JsoncNode | undefined {
  const got = parseTree(text);
  assert.deepEqual(got, reference(text), JSON.stringify(text));
  return got;
}

/** Texts at the edges of the grammar, and where jsonc-parser differs from JSON.parse. */
const EDGES = [
  '', ' ', '{}', '[]', '{ }', '[ ]', '{,}', '[,]', '[1,]', '[1,,]', '[1 2]', '{"a":1,}', '{"a":1,,}', '{"a" 1}', '{"a":}', '{a:1}', "{'a':1}",
  '{"a":1}{"b":2}', '{"a":1} // after', '{"a":1} /* after */', '{"a":1} /* open', '/* before */ {}', '// only a comment', '/**/[]', '/*/[]', '[/ 1]',
  '[1//x\n]', '[1//x\r]', '[1/*\n*/,2]', 'true', 'truex', 'true/', '[true,false,null]', '[nul]', '[True]', 'null null',
  '0', '-0', '01', '-', '- 1', '+1', '.5', '1.', '1.5', '1.5.3', '1e5', '1E+5', '1e-5', '1e', '1e+', '0x10', '1x', '12345678901234567890', '-1.5e-300',
  '""', '"a\\"b"', '"\\/"', '"\\b\\f\\n\\r\\t"', '"\\u00e9"', '"\\u00E9"', '"\\u00g9"', '"\\u12"', '"\\x41"', '"\\', '"open', '"a\nb"', '"a\tb"', '"a\u0001b"', '"a\u007fb"',
  '"\\ud800"', '"é😀"', '\ufeff{}', '{}\u00a0', '{\f}', '{\v}', '{\u2028}', '\r\n{\r\n"a":\t[1,\r\n2,],\r\n}\r\n',
  '{"a":1,"a":2}', '{"":{"":[]}}', '{"keyRouting.topics":[{"name":"t","partitions":6}]}',
];

describe('settings.json syntax tree (jsoncTree) against jsonc-parser', () => {
  test('texts at the edges of the grammar', () => {
    for (const text of EDGES) same(text);
    // A few the comparison alone would let through if both were wrong the same way.
    assert.equal(parseTree('[1,]')?.children?.length, 1);
    assert.equal(parseTree('{"a":1} /* open'), undefined);
    assert.equal(parseTree('\ufeff{}'), undefined);
    assert.deepEqual(parseTree('{"\\u0041":true}')?.children?.[0], {
      type: 'property',
      offset: 1,
      length: 13,
      children: [
        { type: 'string', offset: 1, length: 8, value: 'A' },
        { type: 'boolean', offset: 10, length: 4, value: true },
      ],
    });
  });

  // Settings-like documents: values with random trivia and trailing commas between the tokens, then
  // (in most runs) a few characters inserted, removed or replaced, from those the grammar turns on.
  const trivia = fc.constantFrom('', ' ', '\t', '\n', '\r\n', '\r', '// c\n', '/* c */', '/**/', '  ');
  const key = fc.oneof(fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)), fc.constantFrom('"\\u0041b"', '"a\\/b"', '"keyRouting.topics"'));
  const scalar = fc.oneof(
    key,
    fc.constantFrom('true', 'false', 'null', '0', '-0', '12', '-3.25', '1e3', '2E-2', '6.02e+23'),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  );
  const { doc } = fc.letrec<{ doc: string; item: string }>((tie) => ({
    item: fc.oneof({ depthSize: 'small' }, scalar, tie('doc')),
    doc: fc.oneof(
      fc.tuple(fc.array(fc.tuple(trivia, key, trivia, trivia, tie('item'), trivia), { maxLength: 4 }), fc.boolean(), trivia).map(
        ([props, trailing, end]) => `{${props.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}${trailing && props.length > 0 ? ',' : ''}${end}}`,
      ),
      fc.tuple(fc.array(fc.tuple(trivia, tie('item'), trivia), { maxLength: 4 }), fc.boolean(), trivia).map(
        ([items, trailing, end]) => `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(',')}${trailing && items.length > 0 ? ',' : ''}${end}]`,
      ),
    ),
  }));
  const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'remove', 'replace'), fc.constantFrom(...'{}[]:,"\\/*-+.0123456789eEtrufalsn \t\r\nx\u0001\u00a0\ufeff'));
  const text = fc.tuple(trivia, doc, trivia, fc.array(edit, { maxLength: 3 })).map(([a, d, b, edits]) => {
    let t = `${a}${d}${b}`;
    for (const [at, how, c] of edits) {
      const i = t.length === 0 ? 0 : at % (t.length + (how === 'insert' ? 1 : 0));
      t = how === 'insert' ? t.slice(0, i) + c + t.slice(i) : t.slice(0, i) + (how === 'replace' ? c : '') + t.slice(i + 1);
    }
    return t;
  });

  test('random settings-like texts, whole and broken: the same tree or the same refusal', () => {
    let parsed = 0;
    let refused = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (same(t)) parsed++;
        else refused++;
      }),
      { numRuns: 20000, seed: 0x15c0 },
    );
    // Both sides of the grammar were reached.
    assert.ok(parsed > 2000 && refused > 2000, `${parsed} parsed, ${refused} refused`);
  });

  test('a string of 10,000,000 characters, and one of 1,000,000 escapes', () => {
    const long = `{"a":"${'x'.repeat(10_000_000)}"}`;
    assert.equal(parseTree(long)?.children?.[0].children?.[1].length, 10_000_002);
    same(`{"a":"${'\\n\\u00e9'.repeat(500_000)}"}`);
  });

  test('nesting deep enough to overflow the stack throws RangeError, which the locator turns into no location', () => {
    assert.throws(() => parseTree('['.repeat(200000)), RangeError);
  });
});
