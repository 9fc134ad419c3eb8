// Analyze Keys' input choice (src/extension/analysis/inputFormat.ts): the guess from a file's name
// and first line, the column/field check, and the analyser spec it makes (run on real input).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkWhere, describeInput, firstLine, guessFormat, headerFields, inputSpec, jsonFields } from '../../src/extension/analysis/inputFormat';
import { analyzeBytes } from '../../src/analyze/run';
import { parseSettings } from '../../src/engine/settings';

describe('format guess', () => {
  test('by extension', () => {
    assert.deepEqual(guessFormat('/w/keys.csv', 'id,message_key,amount\n1,a,2\n'), { layout: 'csv', keyFormat: 'utf8', column: 'message_key', reason: 'from the .csv extension' });
    assert.equal(guessFormat('k.CSV', '5,user-1\n').column, '1', 'no header: the first column');
    assert.equal(guessFormat('k.tsv', 'user\tkey\n').column, 'key');
    assert.equal(guessFormat('k.tab', 'a\tb\n').layout, 'tsv');
    assert.deepEqual(guessFormat('events.jsonl', '{"ts": 1, "orderKey": "o-1", "n": "x"}\n'), { layout: 'jsonl', keyFormat: 'utf8', field: 'orderKey', reason: 'the first line is a JSON object' });
    assert.equal(guessFormat('events.ndjson', 'not json').field, 'key');
    assert.deepEqual(guessFormat('raw.hex', 'ff00\n'), { layout: 'lines', keyFormat: 'hex', reason: 'from the .hex extension' });
  });

  test('by the first line where the name says little', () => {
    assert.equal(guessFormat('dump.txt', '{"key":"a","v":"b"}\n').layout, 'jsonl');
    assert.equal(guessFormat(undefined, '{"user_id":"u1"}').field, 'user_id');
    assert.equal(guessFormat('keys.txt', 'user-1\nuser-2\n').layout, 'lines');
    assert.equal(guessFormat('keys', 'user_id\tregion\n').layout, 'tsv');
    // A key with a tab inside is still one key per line when the line is no header.
    assert.equal(guessFormat('keys.txt', 'a b\t42\n').layout, 'lines');
    assert.equal(guessFormat('keys.txt', '{not json\n').layout, 'lines');
  });

  test('helpers: first line, JSON string fields, header fields', () => {
    assert.equal(firstLine('\uFEFFa,b\r\nc'), 'a,b');
    assert.equal(firstLine('only'), 'only');
    assert.deepEqual(jsonFields('{"a":1,"b":"x","c":null,"d":"y"}'), ['b', 'd']);
    assert.equal(jsonFields('[1,2]'), null);
    assert.deepEqual(headerFields('"id","key ""x"""', ','), ['id', 'key "x"']);
  });
});

describe('column and field', () => {
  test('bad answers are named', () => {
    assert.match(checkWhere('csv', '')!, /column number/);
    assert.match(checkWhere('csv', '0')!, /from 1/);
    assert.match(checkWhere('tsv', '99999999')!, /too large/);
    assert.match(checkWhere('jsonl', '')!, /JSON field/);
    assert.equal(checkWhere('csv', '2'), undefined);
    assert.equal(checkWhere('csv', 'key'), undefined);
    assert.equal(checkWhere('lines', ''), undefined);
    assert.throws(() => inputSpec('csv', '0'), /from 1/);
  });

  test('specs and their labels', () => {
    assert.deepEqual(inputSpec('csv', ' 2 '), { kind: 'csv', column: { index: 2 }, delimiter: ',' });
    assert.deepEqual(inputSpec('tsv', 'key'), { kind: 'csv', column: { name: 'key' }, delimiter: '\t' });
    assert.deepEqual(inputSpec('jsonl', 'k'), { kind: 'jsonl', field: 'k' });
    assert.equal(describeInput(inputSpec('lines'), 'hex'), 'one key per line (hex bytes)');
    assert.equal(describeInput(inputSpec('csv', '2'), 'utf8'), 'column 2 of CSV (text)');
    assert.equal(describeInput(inputSpec('tsv', 'key'), 'utf8'), 'column "key" of TSV (text)');
    assert.equal(describeInput(inputSpec('jsonl', 'k'), 'utf8'), 'field "k" of JSON Lines (text)');
  });

  test('the spec reads the column it names: a TSV by header, a malformed CSV line reported at its number', () => {
    const { settings } = parseSettings({ 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }] });
    const tsv = analyzeBytes('id\tkey\n1\tuser-1\n2\tuser-2\n', { settings, input: inputSpec('tsv', 'key') });
    assert.equal(tsv.input.keys, 2);
    assert.deepEqual(tsv.heavyKeys.keys.map((k) => k.key).sort(), ['user-1', 'user-2']);
    const csv = analyzeBytes('id,key\n1,user-1\n2\n3,"user-3\n4,user-4\n', { settings, input: inputSpec('csv', '2') });
    // By number there is no header: "key" on line 1 is a key. Line 3 lacks column 2; line 4 opens a quote it never closes.
    assert.deepEqual(csv.problems.first.map((p) => p.line), [3, 4]);
    assert.equal(csv.input.keys, 3);
  });
});
