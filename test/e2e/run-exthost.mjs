// Runs test/exthost (mocha) inside the real extension host of code-server: starts code-server
// on a scratch copy of examples/, opens the workbench in Chromium in extension development mode
// with the tests' path, and waits for the workbench to report the exit code. One code-server
// start; everything started here is stopped by its own PID in `finally`.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { build, cacheDir, ensureCodeServer, launchChromium, remoteUri, root, scratchCopy, startCodeServer, withTimeout, workbenchUrl } from './codeServer.mjs';

const TIMEOUT_MS = 5 * 60_000;
const log = (s) => console.log(`[exthost] ${s}`);

let server;
let browser;
let passed = 0;
let failed = 0;
let exitCode = 1;
let sawResult = false;
const started = Date.now();
try {
  const entry = await ensureCodeServer(log);
  build(log);
  const testsPath = join(root, 'dist/test/exthost/index.js');
  if (!existsSync(testsPath)) throw new Error(`${testsPath} was not built`);
  const base = join(cacheDir, 'exthost');
  const workspace = scratchCopy(join(root, 'examples'), join(base, 'workspace'));
  // A fresh profile each run: no editors or state restored from the last one.
  rmSync(join(base, 'state'), { recursive: true, force: true });
  mkdirSync(join(base, 'state'), { recursive: true });
  server = await startCodeServer({ entry, folder: workspace, stateDir: join(base, 'state'), extensionsDir: join(base, 'extensions'), log });
  log(`code-server on ${server.url} (pid ${server.pid})`);

  browser = await launchChromium(join(base, 'chromium'));
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  let finish;
  const exited = new Promise((r) => (finish = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? format(...args) : String(args);
    for (const line of text.split('\n')) {
      const m = /^(\d+) passed, (\d+) failed/.exec(line.trim());
      if (m) {
        passed = Number(m[1]);
        failed = Number(m[2]);
        sawResult = true;
        continue;
      }
      // The extension host's own output is what the tests print; the rest is workbench noise.
      if (/^\s+[✔✖]|^\s{6}/.test(line) || type === 'error') console.log(line);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(code));
  const url = workbenchUrl(server.url, workspace, [
    ['extensionDevelopmentPath', remoteUri(server.port, root)],
    ['extensionTestsPath', remoteUri(server.port, testsPath)],
  ]);
  await page.goto(url, { timeout: 60_000 });
  exitCode = await withTimeout(exited, TIMEOUT_MS, 'the extension-host tests to finish');
  log(`tests finished with exit code ${exitCode} in ${Math.round((Date.now() - started) / 1000)} s`);
} catch (e) {
  console.log(`✖ extension-host run: ${e.message ?? e}`);
  if (server) console.log(server.output().split('\n').slice(-15).join('\n'));
} finally {
  await browser?.close();
  await server?.stop();
}
// A run that crashed or exited non-zero without a failing test counts as one failure.
if (!sawResult || (exitCode !== 0 && failed === 0)) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
