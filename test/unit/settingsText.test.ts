// A setting written into a settings file's text (src/extension/settingsText.ts) against what VS
// Code's own writer (jsonc-parser's `modify`, as `WorkspaceConfiguration.update` uses it) leaves in
// the file: the same settings when the file is read back, the rest of the text (comments, other
// settings) as it was.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import { settingsJson, withSetting } from '../../src/extension/settingsText';
import { propertyRuns } from './helpers';

const read = (text: string): unknown => {
  const errors: ParseError[] = [];
  const v = parse(text, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], text.slice(0, 400));
  return v;
};

/** What VS Code's writer leaves in `text` for the same request. */
const vscodeWrites = (text: string, path: string[], value: unknown) => applyEdits(text, modify(text, path, value, { formattingOptions: { tabSize: 4, insertSpaces: true, eol: '\n' } }));

const SETTINGS = `{
    // the team's topics
    "editor.tabSize": 4,
    "keyRouting.topics": [
        { "name": "orders", "system": "kafka", "partitions": 6 } // six for now
    ],
    /* bundles */ "keyRouting.pulsarNamespaces": [],
}
`;

describe('a setting written into a settings file\'s text', () => {
  test('its value replaced, the text around it kept, as VS Code reads it after its own write', () => {
    const topics = [{ name: 'st', system: 'pulsar', subscription: { consumers: [{ name: 'E1', ranges: [[0, 100], [200, 300]] }, { name: 'a, "b"' }] } }];
    const out = withSetting(SETTINGS, ['keyRouting.topics'], topics)!;
    assert.deepEqual(read(out), read(vscodeWrites(SETTINGS, ['keyRouting.topics'], topics)));
    const start = SETTINGS.indexOf('[');
    const end = SETTINGS.indexOf(']') + 1;
    assert.equal(out.slice(0, start), SETTINGS.slice(0, start));
    assert.ok(out.endsWith(SETTINGS.slice(end)));
    // A range on one line; the file's indentation (4 spaces).
    assert.equal(
      out.slice(start, out.length - (SETTINGS.length - end)),
      `[
        {
            "name": "st",
            "system": "pulsar",
            "subscription": {
                "consumers": [
                    {
                        "name": "E1",
                        "ranges": [
                            [0, 100],
                            [200, 300]
                        ]
                    },
                    {
                        "name": "a, \\"b\\""
                    }
                ]
            }
        }
    ]`,
    );
  });

  test('a setting the file lacks is added at the end of its object; a workspace file\'s under "settings"', () => {
    for (const [text, path] of [
      [SETTINGS, ['keyRouting.kafkaGroups']],
      ['{}', ['keyRouting.topics']],
      ['{\n\t"a": 1\n}', ['keyRouting.topics']],
      ['{ "folders": [{ "path": "." }], "settings": { "a": true, } }', ['settings', 'keyRouting.topics']],
      ['{\n  "folders": [],\n  "settings": {}\n}', ['settings', 'keyRouting.topics']],
    ] as const) {
      const value = [{ name: 'g', members: [{ id: 'm1' }], observed: { owners: { orders: ['m1', null] } } }];
      const out = withSetting(text, path, value);
      assert.ok(out !== undefined, text);
      assert.deepEqual(read(out), read(vscodeWrites(text, [...path], value)), `${text} -> ${out}`);
    }
    // Tabs stay tabs.
    assert.equal(withSetting('{\n\t"a": 1\n}', ['b'], [[1, 2]]), '{\n\t"a": 1,\n\t"b": [\n\t\t[1, 2]\n\t]\n}');
  });

  test('of duplicate keys the last is written (VS Code reads the last); a text VS Code cannot read, or no "settings" object, is left to VS Code', () => {
    const out = withSetting('{ "k": 1, "k": 2 }', ['k'], 3);
    assert.equal(out, '{ "k": 1, "k": 3 }');
    assert.equal(withSetting('{ "k": 1,, }', ['k'], 3), undefined);
    assert.equal(withSetting('[]', ['k'], 3), undefined);
    assert.equal(withSetting('{ "folders": [] }', ['settings', 'k'], 3), undefined);
    assert.equal(withSetting('{ "settings": [] }', ['settings', 'k'], 3), undefined);
    assert.throws(() => withSetting('['.repeat(100_000), ['k'], 3), RangeError);
  });

  test('any JSON value reads back as itself, in any settings file, as after VS Code\'s own write', () => {
    // Without "__proto__" keys, which jsonc-parser's reader (the reference here) turns into a prototype.
    const json = fc
      .jsonValue({ maxDepth: 4 })
      .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
      .filter((v) => !JSON.stringify(v).includes('"__proto__"'));
    const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
    const file = fc.record({ before: fc.dictionary(key, json, { maxKeys: 3 }), indent: fc.constantFrom('  ', '    ', '\t', '') });
    fc.assert(
      fc.property(json, file, fc.boolean(), (value, { before, indent }, present) => {
        const settings: Record<string, unknown> = { ...before };
        if (present) settings['keyRouting.topics'] = [1];
        const text = JSON.stringify(settings, null, indent);
        const out = withSetting(text, ['keyRouting.topics'], value)!;
        assert.deepEqual(read(out), { ...settings, 'keyRouting.topics': value });
        assert.deepEqual(read(out), read(vscodeWrites(text, ['keyRouting.topics'], value)));
        assert.deepEqual(JSON.parse(settingsJson(value, indent, indent || '  ')), value);
      }),
      propertyRuns(300),
    );
  });
});
