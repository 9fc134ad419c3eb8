// Checks a packaged .vsix (or, from the unit tests, the list `vsce ls` prints): at most 200 KB, only
// the files the extension runs or shows (no source maps, sources, tests or screenshots), and every
// file the manifest points at. `npm run package` runs it on the package it built.
//   node scripts/check-vsix.mjs [FILE.vsix]    (default: the package of this version)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The Marketplace package budget, in KB as vsce counts them. */
export const MAX_VSIX_BYTES = 200 * 1024;

/** What may ship, as paths inside the extension folder (vsce renames LICENSE to LICENSE.txt). */
const ALLOWED = [
  /^package\.json$/,
  /^package\.nls(\.[a-z-]+)?\.json$/,
  /^l10n\/bundle\.l10n\.[a-z-]+\.json$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^LICENSE(\.txt)?$/,
  /^dist\/extension\.js$/,
  /^media\/panel\.css$/,
  /^media\/icon\.png$/,
  /^media\/activitybar\.svg$/,
  /^media\/walkthrough\/[a-z-]+\.(md|svg)$/,
];

const WHY = [
  [/\.map$/, 'a source map'],
  [/(^|\/)(test|tests|__tests__)\//, 'a test'],
  [/(^|\/)src\//, 'a source file'],
  [/\.ts$/, 'TypeScript source'],
  [/screenshot|test-artifacts/i, 'a screenshot'],
  [/(^|\/)node_modules\//, 'a dependency (the bundles hold what runs)'],
];

/** Files the manifest and the walkthrough pages refer to, which must ship. */
export function requiredFiles(pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))) {
  const c = pkg.contributes ?? {};
  const need = new Set([pkg.main, pkg.browser, pkg.icon].filter(Boolean).map((p) => p.replace(/^\.\//, '')));
  // The translations VS Code loads for the display language (the English strings are in the code).
  if (pkg.l10n) {
    const dir = pkg.l10n.replace(/^\.\//, '');
    for (const f of readdirSync(join(root, dir))) if (/^bundle\.l10n\.[a-z-]+\.json$/.test(f)) need.add(`${dir}/${f}`);
  }
  for (const container of Object.values(c.viewsContainers ?? {})) for (const v of container) if (v.icon) need.add(v.icon);
  for (const views of Object.values(c.views ?? {})) for (const v of views) if (v.icon) need.add(v.icon);
  for (const w of c.walkthroughs ?? []) {
    for (const s of w.steps) {
      for (const m of [s.media?.markdown, s.media?.image, s.media?.svg].filter(Boolean)) {
        need.add(m);
        if (m.endsWith('.md')) {
          const text = readFileSync(join(root, m), 'utf8');
          for (const [, img] of text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) need.add(join(dirname(m), img));
        }
      }
    }
  }
  return [...need];
}

/**
 * Problems with a list of shipped paths (relative to the extension folder) and the package size,
 * as sentences; empty when all is well.
 */
export function checkEntries(paths, bytes, required = requiredFiles()) {
  const problems = [];
  if (bytes !== undefined && bytes > MAX_VSIX_BYTES) {
    problems.push(`the package is ${(bytes / 1024).toFixed(2)} KB, over the ${MAX_VSIX_BYTES / 1024} KB budget`);
  }
  for (const p of paths) {
    const why = WHY.find(([re]) => re.test(p));
    if (why) problems.push(`${p} is ${why[1]} and must not ship`);
    else if (!ALLOWED.some((re) => re.test(p))) problems.push(`${p} is not among the files the extension ships (scripts/check-vsix.mjs lists them)`);
  }
  const shipped = new Set(paths.map((p) => p.toLowerCase()));
  for (const r of required) if (!shipped.has(r.toLowerCase())) problems.push(`${r} is referred to by the manifest but missing from the package`);
  return problems;
}

/** The file names in a zip, from its central directory. */
export function zipEntries(file) {
  const b = readFileSync(file);
  // End of central directory: signature 0x06054b50, at most 64 KB of comment after it.
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const nameLength = b.readUInt16LE(at + 28);
    const extra = b.readUInt16LE(at + 30);
    const comment = b.readUInt16LE(at + 32);
    names.push(b.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

/** Checks a .vsix file: its size and the files under `extension/`. */
export function checkVsix(file) {
  const names = zipEntries(file);
  const inside = names.filter((n) => n.startsWith('extension/') && !n.endsWith('/')).map((n) => n.slice('extension/'.length));
  const outside = names.filter((n) => !n.startsWith('extension/') && !['[Content_Types].xml', 'extension.vsixmanifest'].includes(n));
  return [...outside.map((n) => `${n} is outside the extension folder`), ...checkEntries(inside, statSync(file).size)];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const file = process.argv[2] ?? join(root, `${pkg.name}-${pkg.version}.vsix`);
  const problems = checkVsix(file);
  const size = statSync(file).size;
  if (problems.length) {
    console.error(`${basename(file)}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${basename(file)}: ${(size / 1024).toFixed(2)} KB of ${MAX_VSIX_BYTES / 1024} KB, ${zipEntries(file).length} entries, nothing that should not ship`);
}
