// One script builds every bundle: the CLI, the engine library, the extension host (one bundle for
// Node and web), the webview, and the tests. `node esbuild.js [--watch] [--production]`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
  // ESM entry first: jsonc-parser's UMD `main` loads its parts with a require() esbuild cannot follow.
  mainFields: ['module', 'main'],
};

function exists(p) {
  return fs.existsSync(path.join(__dirname, p));
}

function testEntries(dir) {
  const full = path.join(__dirname, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * The unit tests are built into a few scripts (dist/test/unit/unit-N.test.js), not one per test
 * file: `node --test` runs each script in a process of its own, and each process loads its own copy
 * of the engine and compiles it again. One script per file (73) took 75 s of CPU on 2 cores (42.7 s
 * by the clock); two shards and the one file that must run alone, 51 s (30.2 s). `npm test` on a
 * fresh machine, whose first minutes keep both cores busy, went from 321 s to 282-300 s. Files go to
 * the shards in name order, alternating; test/run.mjs runs them with source maps, so a failure
 * names the test's own file and line.
 */
const UNIT_SHARDS = 2;
/** Test files that change the process for whatever runs after them, each run in a process of its own. */
const UNIT_ALONE = [
  'test/unit/workerRun.test.ts', // sets globalThis.self, which tells the code it runs in a web worker
];

function unitShards() {
  const files = testEntries('test/unit');
  const shared = files.filter((f) => !UNIT_ALONE.includes(f));
  const shards = Array.from({ length: UNIT_SHARDS }, (_, i) => shared.filter((_, j) => j % UNIT_SHARDS === i));
  return [...shards, ...UNIT_ALONE.filter((f) => files.includes(f)).map((f) => [f])].filter((s) => s.length > 0);
}

/** The unit tests' build: one script per shard, from entry points `unit-shard:N`. */
function unitTestBuild() {
  const shards = unitShards();
  return {
    ...common,
    entryPoints: shards.map((_, i) => ({ in: `unit-shard:${i}`, out: `unit-${i}.test` })),
    plugins: [unitShardEntries(shards)],
    outdir: 'dist/test/unit',
    platform: 'node',
    format: 'cjs',
    external: ['kafkajs', 'murmur2-partitioner'],
  };
}

/** Entry points `unit-shard:N` whose module imports shard N's test files, in order. */
function unitShardEntries(shards) {
  return {
    name: 'unit-shards',
    setup(build) {
      build.onResolve({ filter: /^unit-shard:\d+$/ }, (args) => ({ path: args.path, namespace: 'unit-shard' }));
      build.onLoad({ filter: /.*/, namespace: 'unit-shard' }, (args) => ({
        contents: shards[Number(args.path.split(':')[1])].map((f) => `import ${JSON.stringify(`./${f}`)};`).join('\n'),
        resolveDir: __dirname,
        loader: 'ts',
      }));
    },
  };
}

/**
 * `vscode` for the one script: the extension host's module where there is one, else an empty
 * object. The script loads the extension's modules everywhere it runs (the webview and the analysis
 * worker too, where they only define things), and none of them touches `vscode` at load.
 */
function lazyVscode() {
  return {
    name: 'lazy-vscode',
    setup(build) {
      // The extension's imports come here; this module's own require is of the real one.
      build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'lazy-vscode' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'lazy-vscode' }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-vscode' }, () => ({ contents: "try { module.exports = require('vscode'); } catch { module.exports = {}; }", loader: 'js' }));
    },
  };
}

/** dist/extension.js beyond the common options (test/bench/activation.mjs builds it the same way). */
const extensionBundle = {
  entryPoints: ['src/main.ts'],
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'iife',
  globalName: 'keyRoutingInspector',
  banner: { js: "'use strict';\nvar KEY_ROUTING_MODULE = typeof module === 'object' && module ? module : undefined;" },
  footer: { js: 'if (KEY_ROUTING_MODULE) KEY_ROUTING_MODULE.exports = keyRoutingInspector;' },
  plugins: [lazyVscode()],
  // The extension-host tests' hooks (src/extension/extension.ts): left out of the .vsix.
  define: { KEY_ROUTING_TEST_HOOKS: String(!production) },
};

const builds = [
  // The command line: `node dist/cli.js` and the package's `bin`.
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  // The engine as a library for other tools and the benchmark.
  { ...common, entryPoints: ['src/engine/index.ts'], outfile: 'dist/engine.js', platform: 'neutral', format: 'cjs', mainFields: ['main', 'module'] },
  // The one script of the .vsix: the extension for the Node and the web extension host alike
  // (package.json's `main` and `browser`), the analysis worker (a Node worker thread, a web worker)
  // and the routing panel's webview. src/main.ts starts the part for where it runs; the engine is
  // in it once. A classic script (a webview and a web worker have no `module`): the banner keeps
  // the extension host's CommonJS `module` (src/main.ts tells the web extension host from the
  // analysis web worker by it; 'use strict' comes before it, or the script would run sloppy) and the
  // footer hands it `activate` and `deactivate`. Node modules are required only where they run.
  { ...common, ...extensionBundle },
  // Tests: unit tests (plain Node) and the tests that run inside VS Code's extension host.
  ...(production
    ? []
    : [
        unitTestBuild(),
        ...(exists('test/exthost/index.ts')
          ? [{ ...common, entryPoints: ['test/exthost/index.ts'], outfile: 'dist/test/exthost/index.js', platform: 'node', format: 'cjs', external: ['vscode', 'mocha'] }]
          : []),
      ]),
].filter((b) => !b.entryPoints || b.entryPoints.length > 0);

/**
 * The .vsix's script is minified a second time, by terser: its compressor inlines and drops more
 * than esbuild's single pass (on this script: 502 KB -> 497 KB, and 166.7 KB -> 160.8 KB deflated,
 * which is what the .vsix holds). Safe transforms only (terser's defaults, but for `reduce_funcs`:
 * a function called once stays a declaration instead of being inlined as an expression, which
 * deflates 120 bytes smaller here; terser's docs add that some code runs faster in V8 so); `npm run package`
 * checks the result on known answers (scripts/check-vsix.mjs). Top-level names are mangled too: the
 * script's own globals (the banner's KEY_ROUTING_MODULE, the IIFE's keyRoutingInspector) are read by
 * the script alone (65 bytes of the .vsix).
 */
async function terse(file) {
  const { minify } = require('terser');
  const out = await minify(fs.readFileSync(file, 'utf8'), { compress: { passes: 3, reduce_funcs: false }, mangle: true, module: false, toplevel: true });
  fs.writeFileSync(file, out.code);
}

async function main() {
  // Scripts of an earlier layout of the unit tests (one per file) would be run with the new ones.
  if (!production) fs.rmSync(path.join(__dirname, 'dist/test/unit'), { recursive: true, force: true });
  if (watch) {
    for (const b of builds) await (await esbuild.context(b)).watch();
    console.log('watching...');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync(path.join(__dirname, 'dist/cli.js'), 0o755);
  if (production) await terse(path.join(__dirname, extensionBundle.outfile));
}

module.exports = { extensionBundle, terse };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
