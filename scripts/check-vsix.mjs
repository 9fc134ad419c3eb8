// Checks a packaged .vsix (or, from the unit tests, the list `vsce ls` prints): at most 200 KB, only
// the files the extension runs or shows (no source maps, sources, tests or screenshots), every file
// the manifest points at, and that the packaged script (minified twice: esbuild.js) still routes
// keys to the known answers of the real clients, and that its manifest reads in every language as
// the sources do. `npm run package` runs it on the package it built.
//   node scripts/check-vsix.mjs [FILE.vsix]    (default: the package of this version)
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NLS_FILE, resolveManifest, unresolvedPlaceholders } from './nls-keys.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The Marketplace package budget, in KB as vsce counts them. */
export const MAX_VSIX_BYTES = 200 * 1024;

/** What may ship, as paths inside the extension folder (vsce renames LICENSE to LICENSE.txt). */
const ALLOWED = [
  /^package\.json$/,
  NLS_FILE,
  /^l10n\/bundle\.l10n\.[a-z-]+\.json$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^LICENSE(\.txt)?$/,
  /^dist\/extension\.js$/,
  /^media\/panel\.css$/,
  /^media\/icon\.png$/,
  /^media\/activitybar\.svg$/,
  /^media\/walkthrough\/[a-z-]+\.svg$/,
];

const WHY = [
  [/\.map$/, 'a source map'],
  [/(^|\/)(test|tests|__tests__)\//, 'a test'],
  [/(^|\/)src\//, 'a source file'],
  [/\.ts$/, 'TypeScript source'],
  [/screenshot|test-artifacts/i, 'a screenshot'],
  [/(^|\/)node_modules\//, 'a dependency (the bundles hold what runs)'],
];

/** Files the manifest refers to, which must ship. */
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
      for (const m of [s.media?.markdown, s.media?.image, s.media?.svg].filter(Boolean)) need.add(m);
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
  return centralDirectory(readFileSync(file), file).map((e) => e.name);
}

/** One file of a zip, uncompressed (stored or deflated, as vsce writes them). */
export function zipFile(file, name) {
  const b = readFileSync(file);
  const e = centralDirectory(b, file).find((x) => x.name === name);
  if (!e) throw new Error(`${file} has no ${name}`);
  // Local header: the name and extra field lengths at 26 and 28, the data after them.
  const data = e.offset + 30 + b.readUInt16LE(e.offset + 26) + b.readUInt16LE(e.offset + 28);
  const raw = b.subarray(data, data + e.compressedSize);
  if (e.method === 0) return raw;
  if (e.method === 8) return inflateRawSync(raw);
  throw new Error(`${file}: ${name} uses compression method ${e.method}`);
}

/** The entries of a zip's central directory (`b`: the zip's bytes, read from `file`). */
function centralDirectory(b, file) {
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
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const nameLength = b.readUInt16LE(at + 28);
    const extra = b.readUInt16LE(at + 30);
    const comment = b.readUInt16LE(at + 32);
    entries.push({
      name: b.toString('utf8', at + 46, at + 46 + nameLength),
      method: b.readUInt16LE(at + 10),
      compressedSize: b.readUInt32LE(at + 20),
      offset: b.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/**
 * Known answers (shared/reference ALGORITHMS.md, from the real clients' code): the Java client's
 * murmur2 puts user-1..user-6 on partitions 2 2 5 1 4 5 of 6; Pulsar's Murmur3_32Hash of
 * Order-3459134 is 964695987 (partition 964695987 % 7 = 3; slot 6067, which the AUTO_SPLIT ranges
 * of C1..C4 joining in that order give to C3: C3 holds [0, 16384]).
 */
const KNOWN = {
  settings: {
    'keyRouting.topics': [
      { name: 'orders', system: 'kafka', partitions: 6 },
      { name: 'payments', system: 'pulsar', partitions: 7, hashingScheme: 'Murmur3_32Hash', subscription: { keySharedMode: 'AUTO_SPLIT', consumers: ['C1', 'C2', 'C3', 'C4'] } },
    ],
  },
  routes: {
    'user-1': { orders: 2 },
    'user-2': { orders: 2 },
    'user-3': { orders: 5 },
    'user-4': { orders: 1 },
    'user-5': { orders: 4 },
    'user-6': { orders: 5 },
    'Order-3459134': { payments: 3, consumer: 'C3' },
  },
};

/**
 * Runs a packaged dist/extension.js as the analysis worker (a Node worker thread, as the extension
 * host starts it) on the known keys, and returns the differences from the known answers.
 */
export async function checkPackagedScript(script) {
  const dir = mkdtempSync(join(tmpdir(), 'key-routing-check-vsix-'));
  try {
    const file = join(dir, 'extension.js');
    writeFileSync(file, script);
    const keys = join(dir, 'keys.txt');
    writeFileSync(keys, Object.keys(KNOWN.routes).join('\n') + '\n');
    const { parseSettings } = createRequire(import.meta.url)(join(root, 'dist/engine.js'));
    const settings = parseSettings(KNOWN.settings).settings;
    const result = await new Promise((resolve, reject) => {
      const w = new Worker(file, { workerData: { type: 'start', path: keys, options: { settings } } });
      w.on('message', (m) => {
        if (m.type === 'done') resolve(m.result);
        else if (m.type === 'error') reject(new Error(`the packaged script's analysis failed: ${m.message}`));
      });
      w.on('error', reject);
      w.on('exit', (code) => reject(new Error(`the packaged script's analysis worker ended (exit ${code}) without a result`)));
    });
    const problems = [];
    for (const [key, want] of Object.entries(KNOWN.routes)) {
      const routes = result.heavyKeys.keys.find((k) => k.key === key)?.routes ?? [];
      for (const [topic, partition] of Object.entries(want)) {
        if (topic === 'consumer') continue;
        const r = routes.find((x) => x.topic === topic);
        if (r?.partition !== partition) problems.push(`the packaged script routes ${key} to partition ${r?.partition} of ${topic}, not ${partition}`);
        if (want.consumer && r?.consumer !== want.consumer) problems.push(`the packaged script gives ${key} to consumer ${r?.consumer} of ${topic}, not ${want.consumer}`);
      }
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Problems with the shipped licence: it must be the repository's LICENSE through the end of its
 * terms, word for word (`npm run package` leaves out only the appendix after them, and puts each
 * paragraph on one line).
 */
export function checkLicense(shipped) {
  const text = readFileSync(join(root, 'LICENSE'), 'utf8');
  const end = text.indexOf('END OF TERMS AND CONDITIONS');
  const terms = end < 0 ? text : text.slice(0, end + 'END OF TERMS AND CONDITIONS'.length);
  const words = (t) => t.trim().split(/\s+/).join(' ');
  return words(shipped) === words(terms) ? [] : ['the shipped LICENSE.txt is not the repository\'s LICENSE through "END OF TERMS AND CONDITIONS", word for word'];
}

/** The manifest's parts VS Code shows in the user's language. */
const SHOWN = ['displayName', 'description', 'contributes'];

/**
 * Problems with the shipped manifest's strings (`npm run package` renames the nls keys short:
 * scripts/nls-keys.mjs): every placeholder must have a default entry, and in every language the
 * shipped files must resolve to what the sources do. `nls` and `sourceNls` map file names
 * (`package.nls.json`, `package.nls.zh-cn.json`) to their entries.
 */
export function checkNls(manifest, nls, sourceManifest, sourceNls) {
  const problems = [];
  const defaults = nls['package.nls.json'] ?? {};
  for (const key of unresolvedPlaceholders(manifest, defaults)) problems.push(`the shipped manifest refers to %${key}%, which package.nls.json does not define`);
  const shown = (m, d, l) => JSON.stringify(SHOWN.map((k) => resolveManifest(m[k], d, l)));
  for (const file of Object.keys(sourceNls)) {
    if (!nls[file]) {
      problems.push(`${file} is missing from the package`);
      continue;
    }
    // The default file as the language's entries resolves as the default alone does.
    if (shown(manifest, defaults, nls[file]) !== shown(sourceManifest, sourceNls['package.nls.json'], sourceNls[file])) {
      problems.push(`with ${file} the shipped manifest does not read as the sources' do`);
    }
  }
  return problems;
}

/** checkNls on a .vsix against this folder's manifest and nls files. */
function checkVsixNls(file) {
  const json = (name) => JSON.parse(zipFile(file, name).toString('utf8'));
  const local = (name) => JSON.parse(readFileSync(join(root, name), 'utf8'));
  const sourceFiles = readdirSync(root).filter((f) => NLS_FILE.test(f));
  const shipped = zipEntries(file);
  const nls = Object.fromEntries(sourceFiles.filter((f) => shipped.includes(`extension/${f}`)).map((f) => [f, json(`extension/${f}`)]));
  return checkNls(json('extension/package.json'), nls, local('package.json'), Object.fromEntries(sourceFiles.map((f) => [f, local(f)])));
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
  const problems = [
    ...checkVsix(file),
    ...checkLicense(zipFile(file, 'extension/LICENSE.txt').toString('utf8')),
    ...checkVsixNls(file),
    ...(await checkPackagedScript(zipFile(file, 'extension/dist/extension.js'))),
  ];
  const size = statSync(file).size;
  if (problems.length) {
    console.error(`${basename(file)}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${basename(file)}: ${(size / 1024).toFixed(2)} KB of ${MAX_VSIX_BYTES / 1024} KB, ${zipEntries(file).length} entries, nothing that should not ship; its script gives the known routes`);
}
