// The routing panel's UI suite on its own: code-server with the extension linked, a scratch copy
// of examples/ as the workspace, Debian's Chromium, and the scenarios of panel-scenarios.mjs.
// Screenshots in test-artifacts/panel/. Prints "N passed, N failed".
//   node test/e2e/run-panel.mjs
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, cacheDir, ensureCodeServer, launchChromium, linkExtension, root, scratchCopy, startCodeServer, withTimeout, workbenchUrl } from './codeServer.mjs';
import { analyzeScenarios } from './analyze-scenarios.mjs';
import { panelScenarios } from './panel-scenarios.mjs';

const SCENARIO_MS = 120_000;
const artifacts = join(root, 'test-artifacts/panel');
const log = (s) => console.log(`[panel] ${s}`);
const results = [];
let server;
let browser;
let page;

async function scenario(name, fn) {
  const t0 = Date.now();
  try {
    await withTimeout(fn(), SCENARIO_MS, name);
    results.push({ name, ok: true });
    console.log(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`  ✖ ${name}\n      ${String(e.message ?? e).split('\n').slice(0, 8).join('\n      ')}`);
    await page?.screenshot({ path: join(artifacts, `FAILED-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  }
  await page?.keyboard.press('Escape').catch(() => {});
}

const started = Date.now();
try {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const entry = await ensureCodeServer(log);
  build(log);
  const base = join(cacheDir, 'panel');
  const workspace = scratchCopy(join(root, 'examples'), join(base, 'workspace'));
  const extensionsDir = join(base, 'extensions');
  rmSync(extensionsDir, { recursive: true, force: true });
  rmSync(join(base, 'state'), { recursive: true, force: true });
  mkdirSync(join(base, 'state'), { recursive: true });
  linkExtension(extensionsDir);
  server = await startCodeServer({ entry, folder: workspace, stateDir: join(base, 'state'), extensionsDir, log });
  log(`code-server on ${server.url} (pid ${server.pid})`);
  browser = await launchChromium(join(base, 'chromium'), { viewport: { width: 1400, height: 1000 } });
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(20_000);
  // CSP refusals anywhere (the panel's frames included) are printed: the panel should cause none.
  const refusals = [];
  browser.context.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text().slice(0, 300));
  });
  process.on('exit', () => {
    if (refusals.length) console.log(`[panel] ${refusals.length} CSP refusals in the browser console:\n  ${[...new Set(refusals)].slice(0, 10).join('\n  ')}`);
  });
  await page.goto(workbenchUrl(server.url, workspace), { timeout: 60_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'keys.txt' }).waitFor({ timeout: 60_000 });
  await panelScenarios({ page, workspace, artifacts, scenario });
  await analyzeScenarios({ page, workspace, artifacts, scenario });
} catch (e) {
  results.push({ name: 'setup', ok: false });
  console.log(`  ✖ panel UI setup: ${e.message ?? e}`);
  if (server) console.log(server.output().split('\n').slice(-15).join('\n'));
  if (page) await page.screenshot({ path: join(artifacts, 'setup-failed.png') }).catch(() => {});
} finally {
  await browser?.close();
  await server?.stop();
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
log(`${results.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s; screenshots in test-artifacts/panel/`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
