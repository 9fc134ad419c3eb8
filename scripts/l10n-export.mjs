// `npm run l10n`: writes l10n/bundle.l10n.json from the l10n.t(...) calls in src/ (what
// `npx @vscode/l10n-dev export src` writes) and lists what l10n/bundle.l10n.zh-cn.json and
// package.nls.zh-cn.json lack or no longer need, for the translator.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishBundle, extractSourceStrings, manifestKeys } from './l10n-strings.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bundle = englishBundle(root);
writeFileSync(join(root, 'l10n/bundle.l10n.json'), JSON.stringify(bundle, null, 2) + '\n');
console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} strings`);
const { dynamic } = extractSourceStrings(root);
for (const d of dynamic) console.log(`not a literal, cannot be collected: l10n.t at ${d}`);
const read = (f) => JSON.parse(readFileSync(join(root, f), 'utf8'));
const report = (file, wanted) => {
  const have = read(file);
  const missing = [...wanted].filter((k) => !(k in have));
  const stale = Object.keys(have).filter((k) => !wanted.has(k));
  for (const k of missing) console.log(`${file}: missing ${JSON.stringify(k)}`);
  for (const k of stale) console.log(`${file}: stale ${JSON.stringify(k)}`);
};
report('l10n/bundle.l10n.zh-cn.json', new Set(Object.keys(bundle)));
report('package.nls.zh-cn.json', manifestKeys(root));
