// `npm run package` after the production build (esbuild.js --production): assembles the package in
// dist/pack/ and has vsce build the .vsix from there, then recompresses it.
// - dist/pack/ holds what `vsce ls` lists here (this folder's .vscodeignore decides what ships), with
//   the JSON files, the CSS and the SVGs minified (VS Code reads them as data: their indentation only costs
//   download), the manifest without the fields only development uses (scripts, devDependencies, and
//   the command line's bin, which the .vsix does not hold), and the Marketplace README
//   (scripts/marketplace-readme.mjs). The manifest's nls keys are renamed short in it and in the
//   package.nls files (scripts/nls-keys.mjs: about 1.2 KB of the package).
// - The archive is then recompressed with zopfli's deflate (advzip, from Debian's advancecomp): the
//   same zip, read by any unzip and by VS Code, about 4% smaller than the zlib deflate vsce writes.
//   Without advzip the package stays as vsce wrote it and this says so (scripts/check-vsix.mjs then
//   judges its size).
//   node scripts/pack-vsix.mjs [--out FILE.vsix]    (default: NAME-VERSION.vsix here)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { marketplaceReadme } from './marketplace-readme.mjs';
import { NLS_FILE, entryText, shortenNlsKeys } from './nls-keys.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;

/**
 * Fields of package.json that VS Code does not read and the .vsix has no use for (the runtime
 * dependencies are bundled into the one script: nothing installs them from the .vsix).
 */
const DEVELOPMENT_ONLY = ['scripts', 'devDependencies', 'dependencies', 'bin'];

const END_OF_TERMS = 'END OF TERMS AND CONDITIONS';

/** The shipped form of a file: minified where that changes nothing but its size. */
function shipped(path, bytes) {
  if (path === 'package.json') {
    const pkg = JSON.parse(bytes.toString('utf8'));
    for (const f of DEVELOPMENT_ONLY) delete pkg[f];
    return JSON.stringify(pkg);
  }
  if (path === 'LICENSE') {
    // The licence's terms, which end at this line; its appendix (how to apply the licence to
    // one's own work, around a placeholder copyright line) is not part of them. Each paragraph
    // after the title's lines is one line, without the indentation: the same words in the same
    // order (which is how licence texts are matched, SPDX's guidelines say), wrapped by whatever
    // shows them; 222 bytes of the .vsix. check-vsix.mjs compares the words.
    const text = bytes.toString('utf8');
    const end = text.indexOf(END_OF_TERMS);
    if (end < 0) throw new Error(`LICENSE has no "${END_OF_TERMS}" line`);
    const paragraphs = text.slice(0, end + END_OF_TERMS.length).split(/\n\s*\n/);
    return `${paragraphs.map((p, i) => (i === 0 ? p : p.trim().split(/\s*\n\s*/).join(' '))).join('\n\n')}\n`;
  }
  if (/^l10n\/bundle\.l10n\..+\.json$/.test(path)) {
    // A translation that is its English key is left out: `vscode.l10n.t` gives the key itself for
    // a string the bundle lacks.
    const bundle = JSON.parse(bytes.toString('utf8'));
    return JSON.stringify(Object.fromEntries(Object.entries(bundle).filter(([k, v]) => entryText(v) !== k)));
  }
  if (path.endsWith('.json')) return JSON.stringify(JSON.parse(bytes.toString('utf8')));
  if (path.endsWith('.css')) return transformSync(bytes.toString('utf8'), { loader: 'css', minify: true }).code;
  // The indentation between an SVG's elements (a line break and spaces) draws nothing; spaces
  // within a line can (between a text's tspans) and stay.
  if (path.endsWith('.svg')) return bytes.toString('utf8').replace(/>\s*\n\s*</g, '><');
  return bytes;
}

/** The packed manifest's nls keys renamed short, in it and in every package.nls file (scripts/nls-keys.mjs). */
function shortenPackedNlsKeys(pack, files) {
  const nlsFiles = files.filter((f) => NLS_FILE.test(f));
  if (!nlsFiles.includes('package.nls.json')) return;
  const read = (f) => JSON.parse(readFileSync(join(pack, f), 'utf8'));
  const short = shortenNlsKeys(read('package.json'), Object.fromEntries(nlsFiles.map((f) => [f, read(f)])));
  writeFileSync(join(pack, 'package.json'), JSON.stringify(short.manifest));
  for (const [f, entries] of Object.entries(short.nls)) writeFileSync(join(pack, f), JSON.stringify(entries));
}

/** Builds the .vsix at `out` from this folder (`pkg`: its package.json); returns a line saying its size. */
export function packVsix(pkg, out) {
  const listed = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`vsce ls failed:\n${listed.stderr}`);
  const files = listed.stdout.split('\n').map((l) => l.trim()).filter(Boolean);

  const pack = join(root, 'dist/pack');
  rmSync(pack, { recursive: true, force: true });
  for (const f of files) {
    mkdirSync(dirname(join(pack, f)), { recursive: true });
    writeFileSync(join(pack, f), shipped(f, readFileSync(join(root, f))));
  }
  shortenPackedNlsKeys(pack, files);
  writeFileSync(join(pack, 'README.md'), marketplaceReadme(readFileSync(join(root, 'README.md'), 'utf8'), pkg.homepage));
  // Everything in dist/pack ships; an empty ignore file says so to vsce.
  writeFileSync(join(pack, '.vscodeignore'), '');

  const built = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: pack, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`vsce package failed (exit ${built.status})`);

  const before = statSync(out).size;
  // -z: recompress every entry; -4: zopfli; -i 250: its iterations. More save a few bytes more,
  // unevenly (on one build 25, 60, 150 and 250 gave 204,818, 204,804, 204,739 and 204,724 bytes;
  // 250 takes some 15 s more than 25).
  const r = spawnSync('advzip', ['-z', '-4', '-i', '250', out], { encoding: 'utf8' });
  if (r.error) return `advzip not found (Debian: apt-get install advancecomp): ${relative(root, out)} stays as vsce wrote it, ${kb(before)}`;
  if (r.status !== 0) throw new Error(`advzip failed on ${out} (exit ${r.status}):\n${r.stderr}`);
  return `${relative(root, out)}: ${kb(before)} as vsce wrote it, ${kb(statSync(out).size)} recompressed by advzip (zopfli)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : join(root, `${pkg.name}-${pkg.version}.vsix`);
  try {
    console.log(packVsix(pkg, out));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
