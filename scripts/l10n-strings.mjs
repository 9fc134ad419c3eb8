// The strings to translate, as the localisation tooling collects them: every `l10n.t('...')` (and the
// webview's `l10n.parts('...')`, `t` with marked-up arguments) in
// src/ (the extension host calls vscode.l10n.t; pure modules and the webview take an `l10n` with
// the same `t`), and every `%key%` of package.json. Used by `npm run l10n` (writes
// l10n/bundle.l10n.json) and by test/unit/l10n.test.ts (nothing missing from a bundle).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `l10n.t(` then one string literal ('..', ".." or `..` without `${`), possibly on the next line. */
const CALL = /\bl10n\.(?:t|parts)\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{))*)`)\s*[,)]/g;
/** A call whose message is not a literal (a name, or a template with ${...}): the tooling cannot collect it. */
const ANY_CALL = /\bl10n\.(?:t|parts)\(\s*(?:[^'"`\s]|`(?:[^`\\$]|\\.|\$(?!\{))*\$\{)/g;
/**
 * `l10n.t` taken under another name (`const t = vscode.l10n?.t`, `const { t } = l10n`): the
 * alias's calls are invisible to the tooling, so their strings would never be translated.
 */
const ALIAS = /=\s*(?:[\w$]+\??\.)?l10n\??\.t\b(?!\s*\()|\{\s*t\s*\}\s*=\s*(?:[\w$]+\??\.)?l10n\b/g;

function unescape(s) {
  return s.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e) => {
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0' }[e] ?? e;
  });
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.ts$/.test(d.name) && !/\.d\.ts$/.test(d.name) ? [p] : [];
  });
}

/**
 * Every literal message of `l10n.t(...)` under root/src, with the files that use it, and the
 * calls whose message is not a literal or aliases of `l10n.t` (file:line), which no extractor can see.
 */
export function extractSourceStrings(root) {
  const strings = new Map();
  const dynamic = [];
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const rel = file.slice(root.length + 1);
    for (const m of text.matchAll(CALL)) {
      const message = unescape(m[1] ?? m[2] ?? m[3]);
      if (!strings.has(message)) strings.set(message, new Set());
      strings.get(message).add(rel);
    }
    for (const m of [...text.matchAll(ANY_CALL), ...text.matchAll(ALIAS)]) {
      dynamic.push(`${rel}:${text.slice(0, m.index).split('\n').length}`);
    }
  }
  return { strings, dynamic };
}

/** Every `%key%` package.json uses. */
export function manifestKeys(root) {
  const text = readFileSync(join(root, 'package.json'), 'utf8');
  return new Set([...text.matchAll(/"%([^%"\s]+)%"/g)].map((m) => m[1]));
}

/** The English bundle as `@vscode/l10n-dev export` writes it: message -> message, sorted. */
export function englishBundle(root) {
  const { strings } = extractSourceStrings(root);
  return Object.fromEntries([...strings.keys()].sort().map((s) => [s, s]));
}

/** The `{0}`, `{1}` placeholders of a message, sorted. */
export const placeholders = (s) => [...new Set(s.match(/\{\d+\}/g) ?? [])].sort();
