// UI tests: the extension as a user meets it, in code-server driven by Debian's Chromium.
// The extension is linked into the extensions dir (as `npm start` does), the workspace is a
// scratch copy of examples/, and every expected route is computed here by the engine
// (dist/engine.js) on that workspace's settings, never copied from the UI.
// One code-server start; a screenshot per scenario in test-artifacts/ui/.
//   node test/e2e/run-ui.mjs [--vsix FILE]   (--vsix: install that package instead of linking the tree)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, cacheDir, ensureCodeServer, installVsix, launchChromium, linkExtension, root, scratchCopy, sleep, startCodeServer, withTimeout, workbenchUrl } from './codeServer.mjs';

const SCENARIO_MS = 90_000;
const artifacts = join(root, 'test-artifacts/ui');
const log = (s) => console.log(`[ui] ${s}`);

const results = [];
let server;
let browser;
let page;
let workspace;

/** The engine's routes for a key on the scratch workspace's settings as they are on disk now. */
function engineRoutes(key) {
  const engine = createRequire(import.meta.url)(join(root, 'dist/engine.js'));
  const raw = JSON.parse(readFileSync(join(workspace, '.vscode/settings.json'), 'utf8'));
  const { settings, problems } = engine.parseSettings(raw);
  if (problems.length) throw new Error(`the scratch settings have problems: ${problems[0].path}: ${problems[0].message}`);
  return new engine.Topology(settings, []).topics.map((t) => t.route(engine.stringKey(key)));
}

/** The parts of a summary line the engine's answer fixes: `orders p2`, `→ C4 [32769-49152]`. */
function expectedFragments(key) {
  return engineRoutes(key).map((r) => {
    if (r.system === 'kafka') return `${r.topic} p${r.partition}`;
    if (r.consumer) return `→ ${r.consumer} [${r.range[0]}-${r.range[1]}]`;
    return `hash ${r.stickyKeyHash}`;
  });
}

function assertContains(text, fragments, what) {
  const missing = fragments.filter((f) => !text.includes(f));
  if (missing.length) throw new Error(`${what} lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}; it reads: ${JSON.stringify(text)}`);
}

async function shot(name) {
  await sleep(600); // toasts and hovers animate in
  await page.screenshot({ path: join(artifacts, `${String(results.length + 1).padStart(2, '0')}-${name}.png`) });
}

async function scenario(name, fn) {
  const t0 = Date.now();
  try {
    await withTimeout(fn(), SCENARIO_MS, name);
    results.push({ name, ok: true });
    console.log(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`  ✖ ${name}\n      ${String(e.message ?? e).split('\n').slice(0, 6).join('\n      ')}`);
    try {
      await page.screenshot({ path: join(artifacts, `${String(results.length).padStart(2, '0')}-FAILED-${name.replace(/\W+/g, '-')}.png`) });
    } catch {
      /* the page is gone */
    }
  }
  await clearNotifications().catch(() => {});
  await page.keyboard.press('Escape').catch(() => {});
}

const quickInput = () => page.locator('.quick-input-widget .quick-input-box input');

/** Runs a command from the command palette by its title, as a user would. */
async function palette(title) {
  await page.keyboard.press('F1');
  await quickInput().waitFor({ state: 'visible', timeout: 10_000 });
  await quickInput().fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

async function openFile(name) {
  // Quick Open lists files only once VS Code's file search answers, which on a loaded machine can
  // take longer than a first try waits: give it one more try before calling it a failure.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Control+P');
      await quickInput().waitFor({ state: 'visible', timeout: 10_000 });
      await quickInput().fill(name);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      await row.waitFor({ timeout: 20_000 });
      await row.click();
      break;
    } catch (e) {
      await page.keyboard.press('Escape').catch(() => {});
      if (attempt >= 2) throw e;
    }
  }
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 10_000 });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
}

async function notification(re, timeout = 15_000) {
  const loc = page.locator('.notifications-toasts .notification-list-item-message', { hasText: re }).first();
  await loc.waitFor({ timeout });
  return loc.innerText();
}

async function clearNotifications() {
  await palette('Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-list-item').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
}

/** Selects line `n` (0-based) of the active editor with the keyboard. */
async function selectLine(text) {
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: text }).first().click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
}

const statusItem = () => page.locator('[id="key-routing.key-routing-inspector.keyRouting.route"]');

const started = Date.now();
try {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const entry = await ensureCodeServer(log);
  build(log);
  const base = join(cacheDir, 'ui');
  workspace = scratchCopy(join(root, 'examples'), join(base, 'workspace'));
  const extensionsDir = join(base, 'extensions');
  rmSync(extensionsDir, { recursive: true, force: true });
  rmSync(join(base, 'state'), { recursive: true, force: true });
  mkdirSync(join(base, 'state'), { recursive: true });
  const vsix = process.argv.includes('--vsix') ? process.argv[process.argv.indexOf('--vsix') + 1] : undefined;
  if (vsix) installVsix({ entry, extensionsDir, stateDir: join(base, 'state'), vsix, log });
  else linkExtension(extensionsDir);
  server = await startCodeServer({ entry, folder: workspace, stateDir: join(base, 'state'), extensionsDir, log });
  log(`code-server on ${server.url} (pid ${server.pid})`);
  browser = await launchChromium(join(base, 'chromium'));
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(20_000);
  await page.goto(workbenchUrl(server.url, workspace), { timeout: 60_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'keys.txt' }).waitFor({ timeout: 60_000 });

  await scenario('status bar shows the selected key\'s route', async () => {
    await openFile('keys.txt');
    await selectLine('user-1');
    await statusItem().waitFor({ timeout: 15_000 });
    const text = await statusItem().innerText();
    const orders = engineRoutes('user-1')[0];
    assertContains(text, ['user-1', `orders p${orders.partition}`], 'the status bar item');
    await shot('status-bar');
  });

  await scenario('right-click "Show Route" on user-1 shows the route', async () => {
    await selectLine('user-1');
    const line = page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'user-1' }).first();
    await line.click({ button: 'right', position: { x: 15, y: 8 } });
    const item = page.locator('.context-view .monaco-menu .action-item', { hasText: /^Show Route$/ }).first();
    await item.waitFor({ timeout: 10_000 });
    await shot('context-menu');
    await item.click();
    const text = await notification(/^user-1 →/);
    assertContains(text, expectedFragments('user-1'), 'the notification');
    if (!text.includes('orders p2')) throw new Error('ALGORITHMS.md: Kafka user-1 on 6 partitions is partition 2');
    await shot('show-route');
  });

  await scenario('command palette "Route a Key..." routes a typed key', async () => {
    await palette('Key Routing: Route a Key...');
    await quickInput().waitFor({ state: 'visible' });
    await quickInput().fill('user-3');
    await page.keyboard.press('Enter');
    const text = await notification(/^user-3 →/);
    assertContains(text, expectedFragments('user-3'), 'the notification');
    await shot('route-a-key');
  });

  await scenario('"Open Panel" on a route notification shows the key in the routing panel', async () => {
    await palette('Key Routing: Route a Key...');
    await quickInput().waitFor({ state: 'visible' });
    await quickInput().fill('user-4');
    await page.keyboard.press('Enter');
    await notification(/^user-4 →/);
    await page.locator('.notifications-toasts .notification-list-item', { hasText: 'user-4 →' }).locator('.monaco-button', { hasText: 'Open Panel' }).first().click();
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    // The panel opens on the first topic (orders, Kafka): the key's row has its partition and murmur2 hash.
    const r = engineRoutes('user-4')[0];
    const row = frame.locator('tr', { hasText: 'user-4' }).first();
    await row.waitFor({ timeout: 20_000 });
    const cells = await row.locator('td').allInnerTexts();
    if (!cells.includes(String(r.partition)) || !cells.includes(String(r.hash))) throw new Error(`the panel's row for user-4 reads ${JSON.stringify(cells)}; the engine says partition ${r.partition}, hash ${r.hash}`);
    await shot('panel');
    await palette('View: Close All Editors');
  });

  await scenario('hovering a string literal in producer.ts shows its route', async () => {
    await openFile('producer.ts');
    const token = page.locator('.editor-instance .monaco-editor .view-line span span', { hasText: 'user-2' }).last();
    await token.waitFor();
    await token.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'Key Routing' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const r = engineRoutes('user-2');
    const row = await hover.locator('tr', { hasText: 'orders' }).first().locator('td').allInnerTexts();
    if (row[0] !== 'orders' || row[1] !== String(r[0].partition)) throw new Error(`the hover's orders row reads ${JSON.stringify(row)}`);
    const pulsar = r.find((x) => x.consumer);
    const text = await hover.innerText();
    assertContains(text, [pulsar.consumer, `${pulsar.range[0]}-${pulsar.range[1]}`], 'the hover');
    await shot('hover');
    await page.mouse.move(5, 5);
  });

  await scenario('"Add Topic" writes a valid entry to the workspace settings', async () => {
    const before = JSON.parse(readFileSync(join(workspace, '.vscode/settings.json'), 'utf8'))['keyRouting.topics'];
    await palette('Key Routing: Add Topic');
    const kafka = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Kafka topic' }).first();
    await kafka.waitFor();
    await shot('add-topic-kinds');
    await kafka.click();
    await quickInput().fill('ui-added');
    await page.keyboard.press('Enter');
    await notification(/added kafka topic "ui-added"/);
    const after = JSON.parse(readFileSync(join(workspace, '.vscode/settings.json'), 'utf8'))['keyRouting.topics'];
    if (after.length !== before.length + 1 || JSON.stringify(after.slice(0, before.length)) !== JSON.stringify(before)) {
      throw new Error('the existing entries changed');
    }
    const last = engineRoutes('user-1').at(-1);
    if (last.topic !== 'ui-added' || typeof last.partition !== 'number') throw new Error(`the engine does not route on the new topic: ${JSON.stringify(last)}`);
  });

  await scenario('a broken setting shows its error with the setting path', async () => {
    const file = join(workspace, '.vscode/settings.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw['keyRouting.topics'][0].partitions = 0;
    writeFileSync(file, JSON.stringify(raw, null, 2) + '\n');
    const text = await notification(/keyRouting\.topics\[0\]\.partitions/, 30_000);
    if (!/must be an integer/.test(text) || !/Fix:/.test(text)) throw new Error(`the error reads ${JSON.stringify(text)}`);
    await shot('settings-error');
    const open = page.locator('.notifications-toasts .notification-list-item', { hasText: 'keyRouting.topics[0].partitions' }).locator('.monaco-button', { hasText: 'Open Settings' }).first();
    await open.click();
    await page.locator('.tab.active', { hasText: 'settings.json' }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ timeout: 15_000 });
    await shot('settings-error-squiggle');
  });

  await scenario('settings.json gets the schema\'s checks and ours in the Problems view', async () => {
    await palette('View: Focus Problems (Errors, Warnings, Infos)');
    const rows = page.locator('.markers-panel .monaco-list-row');
    // VS Code's JSON language server applies the contributed schema (Kafka: at least 1 partition) ...
    await rows.filter({ hasText: 'Value is below the minimum of 1.' }).first().waitFor({ timeout: 30_000 });
    // ... and the extension adds its finding with the setting path and a fix.
    await rows.filter({ hasText: 'keyRouting.topics[0].partitions: must be an integer' }).first().waitFor({ timeout: 10_000 });
    await shot('problems');
  });
} catch (e) {
  results.push({ name: 'setup', ok: false });
  console.log(`  ✖ UI test setup: ${e.message ?? e}`);
  if (server) console.log(server.output().split('\n').slice(-15).join('\n'));
  if (page) await page.screenshot({ path: join(artifacts, 'setup-failed.png') }).catch(() => {});
} finally {
  await browser?.close();
  await server?.stop();
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
log(`${results.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s; screenshots in test-artifacts/ui/`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
