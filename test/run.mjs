// The project's test command (`npm test`): builds once, then runs the type check, the unit tests
// and the browser suites (extension host, UI, localisation, web, panel: test/e2e/suites.mjs)
// against one code-server and one Chromium (test/e2e/run.mjs) side by side, and closes with one
// "N passed, N failed" line over all of them after a line per step with its time.
//   --only unit|exthost|ui|l10n|web|panel   one suite (the build and type check still run)
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUITES } from './e2e/suites.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const browserSuites = Object.keys(SUITES);
if (only && only !== 'unit' && !browserSuites.includes(only)) {
  console.log(`--only takes unit, ${browserSuites.join(', ')}; not ${only}`);
  process.exit(2);
}

/**
 * Runs a command; its stdout is echoed as it comes, or kept for later with `buffer`. `background`
 * lowers its CPU priority (nice 10, inherited by the processes it starts) before it has started any.
 */
function run(cmd, args, { buffer = false, background = false } = {}) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', buffer ? 'pipe' : 'inherit'] });
    if (background && child.pid) {
      try {
        setPriority(child.pid, 10);
      } catch {
        /* not permitted here: it runs at normal priority */
      }
    }
    const take = (b) => {
      if (!buffer) process.stdout.write(b);
      out += b.toString();
      if (!buffer && out.length > 1 << 20) out = out.slice(-(1 << 16));
    };
    child.stdout.on('data', take);
    child.stderr?.on('data', take);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The last "N passed, N failed" line of an output. */
function counts(out) {
  for (const l of out.trim().split('\n').reverse()) {
    const m = /^(\d+) passed, (\d+) failed/.exec(l.trim());
    if (m) return { passed: Number(m[1]), failed: Number(m[2]) };
  }
  return undefined;
}

const totals = { passed: 0, failed: 0 };
const times = [];
const started = Date.now();
async function step(name, f) {
  const t0 = Date.now();
  const r = await f();
  times.push(`${name} ${Math.round((Date.now() - t0) / 1000)} s`);
  return r;
}
/** The failed tests' lines (`  ✖ name`) of every suite, repeated under the totals. */
const failedTests = [];
function add(suite, result) {
  for (const l of result.out.split('\n')) if (/^\s*✖ /.test(l)) failedTests.push(`${suite}: ${l.trim().slice(2)}`);
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
const built = await step('build', () => run(process.execPath, ['esbuild.js']));
if (built.code !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The type check and the unit tests (two files at a time) run while the browser suites start and
// run: those wait on code-server, Chromium and the extension host much of the time, so the two
// cores are shared instead of the unit tests having them to themselves first (about 150 s saved on
// a 2-core machine). The unit tests' and tsc's output is kept and printed as each finishes, so it
// does not interleave line by line with the suites' progress.
// They run at a lower CPU priority: on a fresh machine the browser suites first wait for
// code-server's install (npm and node-gyp, about 100 s on 2 cores when it shared them evenly with
// these two), and every second of that install is a second of the whole run, while the type check
// and the unit tests have until the last suite ends; afterwards the suites, which wait on states
// with timeouts, keep the cores they need and these fill the rest.
// On Linux with autogroups (Debian's default) a nice value only counts within a session, and
// code-server and Chromium start sessions of their own, so these still get a session's share of
// the cores. Giving them a session at the lowest autogroup weight was measured (fresh clones on a
// 2-core machine, two each way, alternated: 373 and 336 s against 395 and 327 s): no faster, as
// the suites slowed nearly as much and the unit tests then ran past the last suite. Left as it is.
const browser = only ? browserSuites.filter((s) => s === only) : browserSuites;
const unitWanted = !only || only === 'unit';
console.log(`== type check${unitWanted ? ', unit tests (Node)' : ''}${browser.length ? `, and browser suites: ${browser.join(', ')} (one code-server + Chromium)` : ''}`);
const typeCheck = step('type check', () => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit'], { buffer: true, background: true }));
const unit = unitWanted
  ? step('unit', () => {
      const dir = join(root, 'dist/test/unit');
      const files = readdirSync(dir).filter((f) => f.endsWith('.test.js')).map((f) => join(dir, f));
      // The source maps put a failure's stack at the test's own file and line, not the shard's.
      return run(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-reporter', join(root, 'test/reporter.mjs'), ...files], { buffer: true, background: true });
    }).then((r) => {
      console.log(`== unit tests\n${r.out.trimEnd()}`);
      return r;
    })
  : undefined;
const browserRun = browser.length ? step(browser.join('+'), () => run(process.execPath, [join(root, 'test/e2e/run.mjs'), '--no-build', ...browser])) : undefined;

if (unit) add('unit', await unit);
const tsc = await typeCheck;
if (tsc.code === 0) totals.passed += 1;
else {
  console.log(`type check failed:\n${tsc.out}`);
  totals.failed += 1;
  failedTests.push('type check');
}
if (browserRun) add('browser', await browserRun);

// Named again next to the totals, so that the last lines of a long log say what failed.
if (failedTests.length) console.log(`\nFailed (details above):\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
console.log(`\n${times.join(', ')}; ${Math.round((Date.now() - started) / 1000)} s in all`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
