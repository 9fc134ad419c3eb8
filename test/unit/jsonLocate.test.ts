import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { locate, parsePath, positionAt, positions, rangeLocator } from '../../src/extension/jsonLocate';
import { randInt, rng } from './helpers';

const settings = `{
  // comments and trailing commas, as settings.json allows
  "editor.tabSize": 2,
  "keyRouting.topics": [
    { "name": "orders", "system": "kafka", "partitions": 0 },
    {
      "name": "p",
      "subscription": {
        /* block */ "consumers": [{ "name": "E1", "ranges": [[0, 10]] }, { "name": "E2", "ranges": [[5, 20]] },],
      },
    },
  ],
}`;

function lineOf(path: string, text = settings, within: string[] = []) {
  const loc = locate(text, path, within);
  return loc && { line: positionAt(text, loc.start).line, exact: loc.exact, text: text.slice(loc.start, loc.end) };
}

describe('locating a setting path in settings.json', () => {
  test('paths split into the setting id, indices and names', () => {
    assert.deepEqual(parsePath('keyRouting.topics[1].subscription.consumers[2].ranges'), ['keyRouting.topics', 1, 'subscription', 'consumers', 2, 'ranges']);
    assert.deepEqual(parsePath('keyRouting.topics'), ['keyRouting.topics']);
  });

  test('a property is marked on its key, at its line', () => {
    assert.deepEqual(lineOf('keyRouting.topics[0].partitions'), { line: 4, exact: true, text: '"partitions"' });
    assert.deepEqual(lineOf('keyRouting.topics[1].subscription.consumers[1].ranges'), { line: 8, exact: true, text: '"ranges"' });
  });

  test('an array item is marked on its first line', () => {
    assert.deepEqual(lineOf('keyRouting.topics[1]'), { line: 5, exact: true, text: '{' });
  });

  test('an absent part marks the nearest enclosing node', () => {
    assert.deepEqual(lineOf('keyRouting.topics[1].partitions'), { line: 5, exact: false, text: '{' });
    assert.equal(lineOf('keyRouting.pulsarNamespaces[0]'), undefined);
  });

  test('a .code-workspace keeps settings under "settings"', () => {
    const ws = '{ "folders": [],\n "settings": {\n  "keyRouting.topics": [{"name": 1}] } }';
    assert.deepEqual(lineOf('keyRouting.topics[0].name', ws, ['settings']), { line: 2, exact: true, text: '"name"' });
  });

  test('keys are compared decoded; commented-out text and strings that look like keys are not matched', () => {
    const text = '{\n  // "keyRouting.topics": [ { "name": 1 } ],\n  "note": "\\"keyRouting.topics\\": [",\n  "keyRouting\\u002etopics": [\n    { "name": 2 }\n  ]\n}';
    assert.deepEqual(lineOf('keyRouting.topics[0].name', text), { line: 4, exact: true, text: '"name"' });
  });

  test('a duplicate key: the last one counts, as in VS Code', () => {
    const text = '{\n "keyRouting.topics": [{"name": 1}],\n "keyRouting.topics": [{"name": 2}]\n}';
    assert.equal(lineOf('keyRouting.topics[0].name', text)?.line, 2);
  });

  test('text that does not parse gives no location, and no exception', () => {
    assert.equal(locate('{ "keyRouting.topics": [] /* unterminated', 'keyRouting.topics'), undefined);
    assert.equal(locate('{ "keyRouting.topics": [ 1 2 ] }', 'keyRouting.topics'), undefined);
    assert.equal(locate('{ "keyRouting.topics": [ {', 'keyRouting.topics[0]'), undefined);
    assert.equal(locate('', 'keyRouting.topics'), undefined);
    assert.equal(locate('['.repeat(10000), 'keyRouting.topics'), undefined);
  });

  test('positions from the line index equal a scan from the start, for any offset (before, inside and past the text)', () => {
    // The reference: the lines ended before the offset, counted one unit at a time.
    const scan = (text: string, offset: number) => {
      let line = 0;
      let lineStart = 0;
      for (let i = 0; i < offset && i < text.length; i++) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      return { line, character: Math.min(offset, text.length) - lineStart };
    };
    const r = rng(11);
    const texts = ['', '\n', 'a', '\n\n', 'ab\ncd\n', '\r\n\r\n', settings, ...Array.from({ length: 50 }, () => Array.from({ length: randInt(r, 0, 60) }, () => 'ab\n\r{'[randInt(r, 0, 4)]).join(''))];
    for (const text of texts) {
      const at = positions(text);
      for (let offset = -2; offset <= text.length + 2; offset++) {
        assert.deepEqual(at(offset), scan(text, offset), `${JSON.stringify(text)} at ${offset}`);
        assert.deepEqual(positionAt(text, offset), scan(text, offset));
      }
    }
  });

  test('a range locator places many paths in one text as locate and positionAt place each', () => {
    const find = rangeLocator(settings);
    for (const path of ['keyRouting.topics[0].partitions', 'keyRouting.topics[1]', 'keyRouting.topics[1].partitions', 'keyRouting.topics[1].subscription.consumers[1].ranges', 'keyRouting.namespaces']) {
      const loc = locate(settings, path);
      assert.deepEqual(find(path), loc && { start: positionAt(settings, loc.start), end: positionAt(settings, loc.end) }, path);
    }
    assert.equal(rangeLocator('{ "keyRouting.topics": [ {')('keyRouting.topics[0]'), undefined);
  });
});
