import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { displayWidth, PLAIN, renderTable, visible, wantColour } from '../../src/cli/table';
import { editDistance, suggest } from '../../src/cli/suggest';

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

  test('control characters are shown as escapes', () => {
    assert.equal(visible('a\x1b[2Jb\tc\n\x7f\x85'), 'a\\u001b[2Jb\\tc\\n\\u007f\\u0085');
    assert.equal(visible('ключ 日本'), 'ключ 日本');
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
