import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cut, escapeHidden, keyText } from '../../src/shared/keyText';

// Keys as the panel, hovers, notifications and the status bar show them (src/shared/keyText.ts).

test('keys with control characters or edge spaces are quoted; long keys cut', () => {
  assert.equal(keyText('a\tb'), '"a\\tb"');
  assert.equal(keyText(' a'), '" a"');
  assert.equal(keyText(''), '""');
  assert.equal(keyText('x'.repeat(100), 10), 'xxxxxxxxx…');
});

test('keys with invisible characters inside are quoted and show them as escapes', () => {
  // Each looks like `ab` or `x y` when drawn, but hashes elsewhere.
  assert.equal(keyText('a\u200bb'), '"a\\u200bb"');
  assert.equal(keyText('a\u00a0b'), '"a\\u00a0b"');
  assert.equal(keyText('x\u2028y'), '"x\\u2028y"');
  assert.equal(keyText('a\u00adb'), '"a\\u00adb"');
  assert.equal(keyText('\ufeffab'), '"\\ufeffab"');
  assert.equal(keyText('a\x7fb\x85'), '"a\\u007fb\\u0085"');
  // Every space but U+0020 (Unicode's Zs): each looks like it, or like nothing.
  for (const c of ['\u00a0', '\u1680', '\u2000', '\u200a', '\u202f', '\u205f', '\u3000']) assert.equal(keyText(`a${c}b`), `"a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b"`);
  // A right-to-left override would turn the text after it around.
  assert.equal(keyText('\u202eabc'), '"\\u202eabc"');
  // Half a surrogate pair would show as U+FFFD, and Java's encoder sends it as '?'.
  assert.equal(keyText('a\ud800b'), '"a\\ud800b"');
  // Plain text of any script, and quotes, stay as they are.
  for (const k of ['ключ 日本', 'שלום-1', 'a"b\\c', 'e\u0301clair', '🚀']) assert.equal(keyText(k), k);
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (k) => {
      const shown = keyText(k, 1000);
      assert.equal(escapeHidden(shown), shown, JSON.stringify(k));
      assert.ok(shown.isWellFormed(), `${JSON.stringify(k)} is shown with half a surrogate pair`);
      if (shown !== k) assert.equal(JSON.parse(shown), k);
    }),
  );
});

test('a key is never cut between the halves of a surrogate pair', () => {
  // 38 units, then two emoji: the 39th unit is the first emoji's high half, which alone would
  // show as U+FFFD.
  assert.equal(keyText(`${'a'.repeat(38)}🚀🚀`), `${'a'.repeat(38)}…`);
  assert.equal(keyText(`${'a'.repeat(37)}🚀🚀`), `${'a'.repeat(37)}🚀…`);
  assert.equal(cut('𠀀𠀀𠀀', 2), '…');
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (s, max) => {
      const out = cut(s, max);
      assert.ok(out.isWellFormed(), `${JSON.stringify(s)} cut to ${max}: ${JSON.stringify(out)}`);
      assert.ok(out.length <= max);
      if (out !== s) assert.ok(out.endsWith('…') && s.startsWith(out.slice(0, -1)) && out.length >= max - 1);
    }),
  );
});
