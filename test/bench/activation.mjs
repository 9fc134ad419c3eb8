// The extension's activation cost, as `npm run bench` reports it: the bundle as it ships (built
// here with the production options: minified, no source map) is loaded with `require` and its
// `activate` called, in a fresh Node process per sample, with a minimal `vscode` stand-in that
// only this bench uses (test/bench/activationChild.cjs). VS Code's own work (the extension host,
// the IPC of each registration) is not in the figure; the extension's is: parsing and running the
// bundle's top level, reading the settings, building the model and the registrations.
// Two workspaces: one that configures nothing (what every window pays after startup, since the
// extension activates on `onStartupFinished`) and the example topology.
//   node test/bench/activation.mjs [--samples N]
import { build } from 'esbuild';
import esbuildConfig from '../../esbuild.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const argv = process.argv.slice(2);
const SAMPLES = argv.includes('--samples') ? Number(argv[argv.indexOf('--samples') + 1]) : 15;

const tmp = mkdtempSync(join(tmpdir(), 'key-routing-activation-'));
try {
  const bundle = join(tmp, 'extension.js');
  // The options of esbuild.js --production for dist/extension.js (without the tests' hooks, as the
  // .vsix), then its second minifier.
  await build({ ...esbuildConfig.extensionBundle, define: { KEY_ROUTING_TEST_HOOKS: 'false' }, absWorkingDir: root, outfile: bundle, bundle: true, minify: true, sourcemap: false, target: 'es2022', mainFields: ['module', 'main'], logLevel: 'warning' });
  await esbuildConfig.terse(bundle);
  const example = join(root, 'examples/settings.json');
  const scenarios = [
    ['nothing configured', '-'],
    ['the example topology (4 topics, 2 namespaces)', example],
  ];
  console.log(`dist/extension.js as shipped: ${(statSync(bundle).size / 1024).toFixed(1)} KB; ${SAMPLES} samples each, a fresh Node process per sample`);
  const rows = [];
  for (const [name, settings] of scenarios) {
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) {
      const r = spawnSync(process.execPath, [join(root, 'test/bench/activationChild.cjs'), bundle, settings], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`activation failed (${name}):\n${r.stderr}`);
      samples.push(JSON.parse(r.stdout));
    }
    const stat = (k) => {
      const v = samples.map((s) => s[k]).sort((a, b) => a - b);
      return { min: +v[0].toFixed(2), median: +v[Math.floor(v.length / 2)].toFixed(2) };
    };
    rows.push({ workspace: name, require: stat('requireMs'), requireCpu: stat('requireCpuMs'), activate: stat('activateMs'), activateCpu: stat('activateCpuMs') });
  }
  const cell = (s) => `${s.median.toFixed(1)} (${s.min.toFixed(1)})`.padStart(13);
  console.log(`\n${'workspace'.padEnd(48)}${'require ms'.padStart(13)}${'cpu ms'.padStart(13)}${'activate ms'.padStart(13)}${'cpu ms'.padStart(13)}`);
  for (const r of rows) console.log(`${r.workspace.padEnd(48)}${cell(r.require)}${cell(r.requireCpu)}${cell(r.activate)}${cell(r.activateCpu)}`);
  console.log('median (best) over the samples; wall clock and the process\'s CPU time');
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  writeFileSync(join(root, 'test-artifacts/bench-activation.json'), JSON.stringify({ date: new Date().toISOString(), samples: SAMPLES, bundleBytes: statSync(bundle).size, rows }, null, 2) + '\n');
  console.log('written: test-artifacts/bench-activation.json');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
