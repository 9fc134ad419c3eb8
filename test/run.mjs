// The project's test command (`npm test`): builds, type-checks, then runs every suite (unit
// tests in Node; extension-host and UI tests in a real VS Code driven by a real browser) and
// closes with one "N passed, N failed" line over all of them.
//   --only unit|exthost|ui|panel   run one suite (the build and type check still run)
import { spawn } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], ...opts });
    child.stdout.on('data', (b) => {
      process.stdout.write(b);
      out += b.toString();
      if (out.length > 1 << 20) out = out.slice(-(1 << 16));
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

function counts(out) {
  const lines = out.trim().split('\n').reverse();
  for (const l of lines) {
    const m = /^(?:\w+: )?(\d+) passed, (\d+) failed/.exec(l.trim());
    if (m) return { passed: Number(m[1]), failed: Number(m[2]) };
  }
  return undefined;
}

const totals = { passed: 0, failed: 0 };
function add(suite, result) {
  const c = counts(result.out);
  if (!c) {
    console.log(`${suite}: no result line (exit ${result.code}); counted as one failure`);
    totals.failed += 1;
    return;
  }
  totals.passed += c.passed;
  totals.failed += c.failed;
  if (result.code !== 0 && c.failed === 0) {
    console.log(`${suite}: exited ${result.code}; counted as one failure`);
    totals.failed += 1;
  }
}

console.log('== build');
let r = await run(process.execPath, ['esbuild.js']);
if (r.code !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log('== type check');
r = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit']);
if (r.code === 0) totals.passed += 1;
else {
  console.log('type check failed');
  totals.failed += 1;
}

if (!only || only === 'unit') {
  console.log('== unit tests (Node)');
  const dir = join(root, 'dist/test/unit');
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.js')).map((f) => join(dir, f));
  add('unit', await run(process.execPath, ['--test', '--test-reporter', join(root, 'test/reporter.mjs'), ...files]));
}

for (const suite of ['exthost', 'ui', 'panel']) {
  if (only && only !== suite) continue;
  const script = join(root, `test/e2e/run-${suite}.mjs`);
  if (!existsSync(script)) continue;
  console.log(`== ${suite} tests (code-server + Chromium)`);
  add(suite, await run(process.execPath, [script]));
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
