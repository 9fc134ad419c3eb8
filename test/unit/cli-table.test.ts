import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { displayWidth, PLAIN, renderTable, tableLines, visible, wantColour } from '../../src/cli/table';
import { writeJson } from '../../src/cli/output';
import { cli, cliText, configFile } from './cliRun';
import { editDistance, suggest } from '../../src/cli/suggest';
import { propertyRuns } from './helpers';

describe('table layout', () => {
  test('display width: wide characters take two columns, combining marks none', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本'), 4);
    assert.equal(displayWidth('ключ'), 4);
    assert.equal(displayWidth('e\u0301'), 1);
    assert.equal(displayWidth('한국어'), 6);
    assert.equal(displayWidth('🙂'), 2);
  });

  test('columns line up in display columns, numbers on the right, empty columns left out', () => {
    const out = renderTable(
      [{ header: 'KEY' }, { header: 'EMPTY' }, { header: 'N', right: true }, { header: 'LAST' }],
      [
        ['日本', '', '7', 'x'],
        ['ab', '', '123', ''],
      ],
      PLAIN,
    );
    assert.equal(out, 'KEY     N  LAST\n日本    7  x\nab    123\n');
  });

  test('130,000 rows: the column widths are found without spreading the rows into arguments (that overflowed the stack)', () => {
    const rows = Array.from({ length: 130_000 }, (_, i) => [String(i), i === 129_999 ? 'widest of all' : 'x']);
    const lines = tableLines([{ header: 'N', right: true }, { header: 'TEXT' }], rows, PLAIN);
    assert.equal(lines.length, 130_001);
    assert.equal(lines[0], '     N  TEXT\n');
    assert.equal(lines[1], '     0  x\n');
    assert.equal(lines[130_000], '129999  widest of all\n');
    assert.equal(renderTable([{ header: 'A' }], [['1'], ['22']], PLAIN), 'A\n1\n22\n');
  });

  test('a table without rows is its header; analyze of keys a sparse what-if leaves on no partition says so in a table', async () => {
    assert.equal(renderTable([{ header: 'PARTITION' }, { header: 'KEYS', right: true }], [], PLAIN), 'PARTITION  KEYS\n');
    // fast-check's command lines found it: no line has a second column, so no key, and 2^31 - 1
    // partitions list only the partitions that hold keys: none. It ended in an internal error.
    const cfg = configFile({ 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }] });
    const r = await cliText(['analyze', '--config', cfg, '--then', 'partitions=2147483647', '--topic', 'orders', '--format', 'table', '--column', '2'], 'k1\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /after partitions=2147483647: 0 keys moved \(0\.00%\)\nPARTITION {2}KEYS {2}KEY SHARE {2}HASH SHARE\n/);
  });

  test('control characters are shown as escapes', () => {
    assert.equal(visible('a\x1b[2Jb\tc\n\x7f\x85'), 'a\\u001b[2Jb\\tc\\n\\u007f\\u0085');
    assert.equal(visible('ключ 日本'), 'ключ 日本');
    assert.equal(visible('a\u200bb\u00a0\u202e'), 'a\\u200bb\\u00a0\\u202e');
  });

  test('colour: NO_COLOR (any value) wins, FORCE_COLOR forces, otherwise a terminal that is not dumb', () => {
    assert.equal(wantColour({}, true), true);
    assert.equal(wantColour({}, false), false);
    assert.equal(wantColour({ NO_COLOR: '1' }, true), false);
    assert.equal(wantColour({ NO_COLOR: '' }, true), true);
    assert.equal(wantColour({ FORCE_COLOR: '1' }, false), true);
    assert.equal(wantColour({ FORCE_COLOR: '0' }, true), false);
    assert.equal(wantColour({ FORCE_COLOR: '1', NO_COLOR: 'x' }, false), false);
    assert.equal(wantColour({ TERM: 'dumb' }, true), false);
  });
});

describe('did you mean', () => {
  test('edit distance counts a swap of neighbours as one step', () => {
    assert.equal(editDistance('route', 'route'), 0);
    assert.equal(editDistance('rotue', 'route'), 1);
    assert.equal(editDistance('rang', 'ranges'), 2);
    assert.equal(editDistance('', 'abc'), 3);
  });

  test('suggestions: the closest names within a third of the length, else names it starts', () => {
    const names = ['route', 'ranges', 'what-if', 'bundle', 'analyze', 'assign-chunks'];
    assert.deepEqual(suggest('rotue', names), ['route']);
    assert.deepEqual(suggest('whatif', names), ['what-if']);
    assert.deepEqual(suggest('assign', names), ['assign-chunks']);
    assert.deepEqual(suggest('zzz', names), []);
  });
});

describe('output larger than a string', () => {
  test('writeJson hands out JSON.stringify\'s text, for any JSON value and for arrays past a block', () => {
    const pieces = (v: unknown) => {
      const out: string[] = [];
      writeJson(v, (s) => out.push(s));
      return out;
    };
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1000, maxLength: 2500 }).map((a) => ({ assignments: a, n: a.length }))), (v) => {
        assert.equal(pieces(v).join(''), JSON.stringify(v));
      }),
      propertyRuns(200),
    );
    // What JSON.stringify leaves out of an object, writeJson does too.
    assert.equal(pieces({ a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, 1], e: null }).join(''), '{"d":[null,1],"e":null}');
    // No piece is longer than a block of 1,000 elements: 2,500 segments go out in three blocks.
    const segments = Array.from({ length: 2500 }, (_, i) => ({ start: i, end: i, consumers: ['c'] }));
    const longest = Math.max(...pieces({ assignments: segments }).map((s) => s.length));
    assert.ok(longest <= JSON.stringify(segments.slice(1500)).length, `longest piece ${longest}`);
  });

  // A 3.x ring has one segment per point: 1,000 consumers x 200 points gave 199,000 table rows,
  // and 150,000 keys on stdin as many route rows. Both ended in "internal error: RangeError".
  const ring = configFile({
    'keyRouting.topics': [
      {
        name: 'persistent://public/default/ring',
        system: 'pulsar',
        brokerVersion: '3.0',
        subscription: { replicaPoints: 200, consumers: Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}` })) },
      },
    ],
  });

  test('ranges --format table of a 3.x ring with 1,000 consumers x 200 points: every segment, as the JSON has them', async () => {
    const table = await cliText(['ranges', '--config', ring, '--topic', 'persistent://public/default/ring', '--format', 'table']);
    assert.equal(table.code, 0, table.stderr);
    const json = await cli(['ranges', '--config', ring, '--topic', 'persistent://public/default/ring', '--format', 'json']);
    const segments = json.lines[0].assignments as Array<{ start: number; end: number; consumers: string[] }>;
    assert.ok(segments.length > 130_000, `${segments.length} segments`);
    const lines = table.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `persistent://public/default/ring: key hash range 0-2147483647, ${segments.length} segments`);
    assert.equal(lines.length, segments.length + 2);
    const last = segments[segments.length - 1];
    assert.deepEqual(lines[lines.length - 1].trim().split(/ {2,}/), [String(last.start), String(last.end), String(last.end - last.start + 1), '0.00%', last.consumers.join(', ')]);
  });

  test('route --format table of 150,000 keys from stdin: a row a key', async () => {
    const keys = Array.from({ length: 150_000 }, (_, i) => `key-${i}`);
    const r = await cliText(['route', '--config', ring, '--format', 'table'], keys.join('\n') + '\n');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 150_001);
    const json = (await cli(['route', '--config', ring, '--format', 'json', 'key-149999'])).lines[0];
    assert.deepEqual(lines[150_000].split(/ {2,}/), ['key-149999', json.topic, '-', String(json.stickyKeyHash), json.consumer, json.range.join('-')]);
  });
});
