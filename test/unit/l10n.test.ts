// Localisation: every string the extension shows is in the English bundle and translated in the
// Simplified Chinese one, and nothing translated is left over. The strings are collected from the
// sources (scripts/l10n-strings.mjs: every l10n.t('...') in src/, every %key% of package.json), so
// a string added on any branch without a translation fails here, listed by name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { englishBundle, extractSourceStrings, manifestKeys, placeholders } from '../../scripts/l10n-strings.mjs';
import { scratchDir } from './scratch';

const root = join(__dirname, '../../..');
const read = (f: string): Record<string, string> => JSON.parse(readFileSync(join(root, f), 'utf8'));
const list = (what: string, items: string[]) => `${what} (${items.length}):\n${items.map((s) => `  ${JSON.stringify(s)}`).join('\n')}`;

function assertCovers(file: string, wanted: Set<string>, fix: string) {
  const have = read(file);
  const missing = [...wanted].filter((k) => !(k in have));
  const stale = Object.keys(have).filter((k) => !wanted.has(k));
  const empty = Object.keys(have).filter((k) => typeof have[k] !== 'string' || have[k].trim() === '');
  const problems = [
    missing.length ? list(`${file} lacks these strings; ${fix}`, missing) : '',
    stale.length ? list(`${file} has strings nothing uses any more; remove them`, stale) : '',
    empty.length ? list(`${file} has empty translations`, empty) : '',
  ].filter(Boolean);
  assert.equal(problems.length, 0, problems.join('\n'));
}

describe('localisation', () => {
  const { strings, dynamic } = extractSourceStrings(root);
  const english = englishBundle(root);

  test('the sources have localised strings to collect, each a literal', () => {
    // A floor that only a broken extractor falls below (the side bar alone has more).
    assert.ok(strings.size > 100, `only ${strings.size} l10n.t strings found in src/`);
    assert.deepEqual(dynamic, [], 'l10n.t needs a string literal as its message (the tooling collects literals only)');
  });

  test('l10n/bundle.l10n.json is the strings of src/ (npm run l10n writes it)', () => {
    assertCovers('l10n/bundle.l10n.json', new Set(Object.keys(english)), 'run `npm run l10n`');
  });

  test('l10n/bundle.l10n.zh-cn.json translates every string of src/, with the same placeholders', () => {
    assertCovers('l10n/bundle.l10n.zh-cn.json', new Set(strings.keys()), 'add their Simplified Chinese translations');
    const zh = read('l10n/bundle.l10n.zh-cn.json');
    const wrong = Object.keys(zh).filter((k) => JSON.stringify(placeholders(k)) !== JSON.stringify(placeholders(zh[k])));
    assert.deepEqual(wrong, [], 'these translations do not use the same {N} placeholders as the English');
  });

  test('package.nls.zh-cn.json translates every %key% of package.json (package.test.ts checks the English)', () => {
    assertCovers('package.nls.zh-cn.json', manifestKeys(root), 'add their Simplified Chinese translations');
  });

  test('the extractor reads the forms the sources use, and flags a message or an alias it cannot read', () => {
    const dir = scratchDir('l10n-');
    try {
      mkdirSync(join(dir, 'src/x'), { recursive: true });
      writeFileSync(
        join(dir, 'src/x/a.ts'),
        [
          "l10n.t('one {0}', n);",
          'vscode.l10n.t(',
          "  'it\\'s two',",
          ');',
          'l10n.t("three \\"q\\"");',
          'l10n.t(`four`);',
          'l10n.t(`no ${x}`);',
          'l10n.t(message);',
          'const t = vscode.l10n?.t;',
          'const { t } = vscode.l10n;',
          '// `l10n.t` in a comment, l10n.t.length',
        ].join('\n'),
      );
      const { strings, dynamic } = extractSourceStrings(dir);
      assert.deepEqual([...strings.keys()], ['one {0}', "it's two", 'three "q"', 'four']);
      assert.deepEqual(dynamic, ['src/x/a.ts:7', 'src/x/a.ts:8', 'src/x/a.ts:9', 'src/x/a.ts:10']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('package.json declares the bundle folder', () => {
    assert.equal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).l10n, './l10n');
  });
});
