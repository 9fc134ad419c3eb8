// The package as a user installs it: builds the .vsix as `npm run package` does (production
// bundles, scripts/pack-vsix.mjs), checks it (scripts/check-vsix.mjs: size budget, nothing that should not ship),
// restores the development bundles, then installs the .vsix into a clean code-server with its own
// CLI and runs the UI suite against it (the side bar, the walkthrough and the commands).
// Prints "N passed, N failed" (the check counts as one test).
//   node test/e2e/run-vsix.mjs [--keep FILE]   (--keep: also copy the package to FILE)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './codeServer.mjs';

const log = (s) => console.log(`[vsix] ${s}`);
const keep = process.argv.includes('--keep') ? process.argv[process.argv.indexOf('--keep') + 1] : undefined;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });

const tmp = mkdtempSync(join(tmpdir(), 'key-routing-vsix-'));
let passed = 0;
let failed = 0;
try {
  const vsix = join(tmp, 'key-routing-inspector.vsix');
  log('packaging (node esbuild.js --production, scripts/pack-vsix.mjs)');
  let r = run(process.execPath, ['esbuild.js', '--production']);
  if (r.status === 0) r = run(process.execPath, [join(root, 'scripts/pack-vsix.mjs'), '--out', vsix]);
  const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /WARNING/i.test(l));
  // The development bundles (source maps, tests) come back whatever happened.
  const dev = run(process.execPath, ['esbuild.js']);
  if (r.status !== 0 || dev.status !== 0) throw new Error(`packaging failed:\n${`${r.stdout}\n${r.stderr}\n${dev.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  const check = run(process.execPath, [join(root, 'scripts/check-vsix.mjs'), vsix]);
  if (check.status === 0 && warnings.length === 0) {
    passed++;
    console.log(`  ✔ ${check.stdout.trim()}; vsce printed no warning`);
  } else {
    failed++;
    console.log(`  ✖ the package: ${[check.stderr.trim(), ...warnings].filter(Boolean).join('\n      ')}`);
  }
  if (keep) copyFileSync(vsix, keep);
  // The UI suite over the installed package (the side bar and walkthrough scenarios included).
  const ui = spawnSync(process.execPath, [join(root, 'test/e2e/run.mjs'), 'ui', '--vsix', vsix, '--no-build'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(ui.stdout);
  const m = /(\d+) passed, (\d+) failed\s*$/.exec(ui.stdout.trim());
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  } else failed++;
  if (ui.status !== 0 && (!m || Number(m[2]) === 0)) failed++;
} catch (e) {
  console.log(`  ✖ ${e.message ?? e}`);
  failed++;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
