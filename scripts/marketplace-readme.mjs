// The README the .vsix carries (VS Code's extension page, the Marketplace): README.md without the
// sections written for people working on the repository (the command line, which the .vsix does
// not install; building and testing; the benchmark; the source layout) and the reference of the
// consumer-group and client settings (the Settings editor describes each setting too), each marked
// in README.md by a `<!-- repository only: WHAT IT HOLDS -->` line above its heading, and with a
// closing pointer to the repository's README for them. `npm run package` ships it
// (scripts/pack-vsix.mjs).
//   node scripts/marketplace-readme.mjs    writes it to dist/marketplace/README.md, to read
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const OUTPUT = join(root, 'dist/marketplace/README.md');
const MARK = /^<!-- repository only: (.+?) -->\s*$/;

/** The sections README.md marks as repository only: their headings and what the marks say they hold. */
export function repositoryOnly(readme) {
  const lines = readme.split('\n');
  return lines.flatMap((l, i) => {
    const m = MARK.exec(l);
    return m ? [{ heading: lines[i + 1] ?? '', holds: m[1] }] : [];
  });
}

/** The level of a Markdown heading line (2 for `## `), or 0. */
const level = (line) => /^(#{1,6}) /.exec(line)?.[1].length ?? 0;

/**
 * README.md without its marked sections (a section runs to the next heading of its level or
 * above, or the end), and a closing line naming them with a link to the repository's README
 * (`homepage`).
 */
export function marketplaceReadme(readme, homepage) {
  const out = [];
  let skipping = 0; // the level of the section being left out, or 0
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (MARK.test(l)) {
      const at = level(lines[i + 1] ?? '');
      if (at < 2) throw new Error(`README.md line ${i + 1}: the "repository only" mark must stand right above a "## " or "### " heading`);
      skipping = skipping ? Math.min(skipping, at) : at;
      continue;
    }
    if (skipping && level(l) > 0 && level(l) <= skipping && !MARK.test(lines[i - 1] ?? '')) skipping = 0;
    if (!skipping) out.push(l);
  }
  const left = repositoryOnly(readme).map((s) => s.holds);
  const list = left.length > 1 ? `${left.slice(0, -1).join(', ')} and ${left[left.length - 1]}` : left.join('');
  const text = out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd();
  return left.length === 0 ? `${text}\n` : `${text}\n\nIn the [repository's README](${homepage}): ${list}.\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const text = marketplaceReadme(readme, pkg.homepage);
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, text);
  const left = repositoryOnly(readme).map((s) => s.heading);
  console.log(`${OUTPUT.slice(root.length + 1)}: ${Buffer.byteLength(text)} bytes, README.md without: ${left.join('; ')}`);
}
