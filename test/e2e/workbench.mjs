// The one harness of the browser suites: one code-server and one Chromium per test run, one VS Code
// window (a browser page on a scratch copy of examples/) per suite, and the few things scenarios do
// in the workbench. Every wait is on a state (an element, a class, a log line, a file), never on
// a fixed time.
//
// API (wb: a Workbench, one window)
//   const session = await Session.start({ log });     one code-server + Chromium for the whole run
//   const wb = await session.openWindow('ui');         a window on .vscode-test/run/workspaces/ui
//   wb.page, wb.workspace, wb.artifacts                Playwright page, workspace path, test-artifacts/ui
//   await wb.openFile('keys.txt')                      Quick Open; resolves when the editor shows it
//   await wb.palette('Key Routing: Route a Key...')    runs a command from the command palette
//   await wb.input('user-3')                           types into the open quick input and accepts
//   await wb.pick('One key per line')                  clicks a quick pick row; wb.pickRow(text) locates one
//   await wb.editorContextMenu('user-1', 'Show Route') right-click a line of the editor, choose an item
//   await wb.explorerContextMenu('keys.txt', 'Analyze Keys')   (options: position, whenOpen)
//   await wb.contextMenu(locator, 'Item')              right-click anything, choose an item
//   const text = await wb.notification(/^user-3 →/)    waits for a toast, returns its message
//   await wb.notificationButton(/^user-4 →/, 'Open Panel');  await wb.clearNotifications()
//   wb.webview()                                       frame locator of the routing panel's content
//   await wb.webviewFrame()                            the same as a Playwright Frame (for evaluate)
//   await wb.screenshot('panel', { of: wb.webviewElement() })   test-artifacts/<suite>/NN-panel.png
//   await wb.setTheme('Light Modern')                  resolves once the workbench and webview have it
//   await wb.cursorTo(7, 44); await wb.showHover()     Go to Line/Column, then the editor's hover at the cursor
//   await wb.reload()                                  Developer: Reload Window, waits as for a new window
//   await wb.until(() => cond, 'what')                 polls a condition the page cannot signal
//   wb.extensionHostLog(), wb.extensionActive()        the window's extension host log, and what it says
//   wb.keyRoutingOutput(); await wb.writeSettings(text) the Key Routing output channel; write settings.json and
//                                                      wait until the extension has read them
//   wb.keyRoutingIcon(), wb.sideBarRow('C2')           the activity bar icon; a side bar row by its exact label
//
// Waits default to WAIT_MS (30 s) and end as soon as the state is there; a window opening or
// reloading gets WINDOW_MS (180 s). Both are sized for a loaded 2-core machine.
//
// A suite (suites.mjs) is a list of scenario modules; each module's default export receives
// { wb, scenario } and runs its scenarios in order (later ones may build on earlier ones' state).
// Expected figures come from the engine on the workspace's settings (engine.mjs), never from the UI.
// Run: node test/e2e/run.mjs [suite...] [--grep RE]; npm test runs every suite.
//
//   export default async function ({ wb, scenario }) {
//     await scenario('the status bar shows the selected key\'s route', async () => {
//       await wb.openFile('keys.txt');
//       await wb.selectLine('user-1');
//       const text = await wb.statusItem().innerText();
//       if (!text.includes('orders p2')) throw new Error(`the status bar reads ${text}`);
//     });
//   }
//
// scenario(name, fn, { timeout }) runs fn under its own timeout (default 150 s); on a failure it
// saves a screenshot, the window's extension host logs, the "Key Routing" output channel, the
// code-server output and the browser console errors into test-artifacts/<suite>/FAILED-NN-name/
// and prints where. A suite ends with "N passed, N failed".
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { cacheDir, ensureCodeServer, installStubLanguagePack, installVsix, launchChromium, linkExtension, remoteUri, root, scratchCopy, startCodeServer, withTimeout, workbenchUrl } from './codeServer.mjs';

/** The "Key Routing" output channel's log files in an extension host's log folder. */
function keyRoutingLogs(hostDir) {
  return readdirSync(hostDir)
    .filter((d) => d.startsWith('output_logging_'))
    .flatMap((out) => readdirSync(join(hostDir, out)).filter((f) => f.endsWith('Key Routing.log')).map((f) => join(hostDir, out, f)));
}

const QUICK_INPUT = '.quick-input-widget .quick-input-box input';
// Visible rows only: the workbench keeps the rows of a quick pick it has hidden in the DOM (another
// list instance, earlier in document order), so the first row matching a text may be a stale,
// hidden one from an earlier pick while the open pick shows the same text. Waiting for that stale
// row to become visible was the "large file ... Cancel" flake: the open pick was on screen.
const QUICK_ROW = '.quick-input-list .monaco-list-row:visible';
const MENU_ITEM = '.context-view .monaco-menu .action-item';
const TOAST = '.notifications-toasts .notification-list-item';
const WEBVIEW = 'iframe.webview.ready';
const EDITOR_LINE = '.editor-instance .monaco-editor .view-line';
/**
 * How long a wait for an element or state may take by default (Playwright's default for the
 * page too). A command that round-trips through the extension host (a notification, a settings
 * write) takes well under a second on an idle machine and over 15 s at a load of 30 on 2 cores;
 * the waits end as soon as the state is there, so the margin costs nothing when all is well.
 */
export const WAIT_MS = 30_000;
const DEFAULT_SCENARIO_MS = 150_000;
/**
 * A window opening or reloading: the workbench's 12 MB of script parsed, the remote connection,
 * an extension host started. About 15 s on an idle 2-core machine, over 90 s at a load of 25.
 */
export const WINDOW_MS = 180_000;

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const slug = (s) => s.replace(/\W+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
const exact = (text) => (typeof text === 'string' ? new RegExp(`^${escapeRe(text)}$`) : text);

export class Session {
  /**
   * Installs code-server if needed, links the tree (or installs `vsix`) into the extensions dir,
   * and starts code-server and Chromium side by side, in .vscode-test/<name>/.
   *   fresh: false    keep the state of the last session of that name (`npm start`)
   *   browser: false  code-server only (`npm start`: the user brings the browser)
   *   folder, port    the folder code-server opens by default, and its port (default: any free one)
   *   locale          code-server's --locale (the workbench's display language); for a language
   *                   other than English, the stub language pack of test/e2e/fixtures/ declares it
   *                   (the real packs cannot be installed offline): VS Code's own strings stay
   *                   English, the display language (vscode.env.language, the extensions' bundles) is it
   */
  static async start({ log = console.log, vsix, name = 'run', fresh = true, browser = true, folder, port, locale, settings } = {}) {
    const entry = await ensureCodeServer(log);
    const base = join(cacheDir, name);
    if (fresh) rmSync(base, { recursive: true, force: true });
    const stateDir = join(base, 'state');
    const extensionsDir = join(base, 'extensions');
    mkdirSync(stateDir, { recursive: true });
    if (vsix) installVsix({ entry, extensionsDir, stateDir, vsix, log });
    else linkExtension(extensionsDir);
    if (locale && !locale.startsWith('en')) installStubLanguagePack({ extensionsDir, stateDir, locale });
    if (!folder) mkdirSync((folder = join(base, 'workspaces')), { recursive: true });
    const [server, chromium] = await Promise.allSettled([
      startCodeServer({ entry, folder, stateDir, extensionsDir, port, log, args: locale ? ['--locale', locale] : [], settings }),
      browser ? launchChromium(join(base, 'chromium')) : undefined,
    ]);
    if (server.status === 'rejected' || chromium.status === 'rejected') {
      if (server.status === 'fulfilled') await server.value.stop();
      if (chromium.status === 'fulfilled') await chromium.value?.close();
      throw server.reason ?? chromium.reason;
    }
    log(`code-server on ${server.value.url} (pid ${server.value.pid})`);
    // Where the user settings put the extension in the browser's extension host (VS Code for the
    // Web), its output channel is not among the server's logs.
    const inBrowser = Object.values(settings?.['remote.extensionKind'] ?? {}).some((kinds) => kinds.includes('web'));
    return new Session({ base, stateDir, server: server.value, browser: chromium.value, log, inBrowser });
  }

  constructor({ base, stateDir, server, browser, log, inBrowser = false }) {
    Object.assign(this, { base, stateDir, server, browser, log, inBrowser });
    this.logsDir = join(stateDir, 'user-data/logs');
  }

  /** The extension host log folders (`exthostN`) of this code-server so far. */
  extensionHostDirs() {
    if (!existsSync(this.logsDir)) return [];
    return readdirSync(this.logsDir).flatMap((d) => {
      const dir = join(this.logsDir, d);
      return statSync(dir).isDirectory() ? readdirSync(dir).filter((e) => /^exthost\d+$/.test(e)).map((e) => join(dir, e)) : [];
    });
  }

  /**
   * Opens a window (a new browser page) on a fresh scratch copy of examples/ named after the
   * suite, and waits until the workbench is up and its extension host has started its extensions.
   * `payload`: development-mode entries (see VSCODE-E2E.md); a function of the server's port.
   */
  async openWindow(suite, { viewport = { width: 1400, height: 900 }, payload, exposed = {}, waitReady = true } = {}) {
    const workspace = scratchCopy(join(root, 'examples'), join(this.base, 'workspaces', suite));
    const artifacts = join(root, 'test-artifacts', suite);
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts, { recursive: true });
    const t0 = Date.now();
    const page = await this.browser.context.newPage();
    await page.setViewportSize(viewport);
    page.setDefaultTimeout(WAIT_MS);
    const wb = new Workbench({ session: this, page, suite, workspace, artifacts, knownHosts: new Set(this.extensionHostDirs()) });
    try {
      for (const [name, fn] of Object.entries(exposed)) await page.exposeFunction(name, fn);
      await page.goto(workbenchUrl(this.server.url, workspace, payload?.(this.server.port)), { timeout: WINDOW_MS, waitUntil: 'commit' });
      if (waitReady) await wb.ready();
      this.log(`${suite} window ${waitReady ? 'ready' : 'loaded'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (e) {
      console.log(`  ✖ opening the ${suite} window: ${e.message ?? e}`);
      await wb.saveFailure('window setup');
      await wb.close();
      throw e;
    }
    return wb;
  }

  async close() {
    await this.browser?.close();
    await this.server.stop();
  }
}

export class Workbench {
  constructor({ session, page, suite, workspace, artifacts, knownHosts }) {
    Object.assign(this, { session, page, suite, workspace, artifacts, knownHosts });
    this.shots = 0;
    this.scenarioTimeout = DEFAULT_SCENARIO_MS;
    this.failures = 0;
    this.results = [];
    /** Browser console errors and uncaught page errors, for the failure artifacts. */
    this.consoleErrors = [];
    const keep = (line) => {
      this.consoleErrors.push(`${new Date().toISOString()} ${line}`);
      if (this.consoleErrors.length > 500) this.consoleErrors.shift();
    };
    page.on('console', (m) => {
      if (m.type() === 'error') keep(`[console] ${m.text()}`);
    });
    page.on('pageerror', (e) => keep(`[pageerror] ${e.stack ?? e.message}`));
  }

  // ---- the window -------------------------------------------------------------------------

  /** The extension host log folders of this window (a reload starts another one). */
  extensionHostDirs() {
    return this.session.extensionHostDirs().filter((d) => !this.knownHosts.has(d));
  }

  /** The text of the newest extension host log of this window, or ''. */
  extensionHostLog() {
    const dir = this.extensionHostDirs().at(-1);
    const file = dir && join(dir, 'remoteexthost.log');
    return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /**
   * The workbench is up (status bar, the workspace's files in the explorer) and its extension host
   * has started (the log says so): from then on the command palette lists the extension's
   * commands, which the workbench registers before it starts the extension host.
   */
  async ready({ timeout = WINDOW_MS } = {}) {
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout });
    await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'keys.txt' }).waitFor({ timeout });
    await this.until(() => /Eager extensions activated/.test(this.extensionHostLog()), 'the extension host to start its extensions', timeout);
    // The extension starts after the eager ones (onStartupFinished) and logs the settings it read
    // then; a settings write before that line is on disk would take it for the read of the write.
    if (!this.session.inBrowser && this.keyRoutingSettings() !== '[]') await this.until(() => this.settingsReads() > 0, 'the extension to read the workspace settings at activation', timeout);
  }

  /** The workspace settings file's keyRouting.* entries as JSON (`[]`: none), or its text where it is not JSON. */
  keyRoutingSettings(text = this.settingsText()) {
    try {
      return JSON.stringify(Object.entries(JSON.parse(text)).filter(([k]) => k.startsWith('keyRouting.')));
    } catch {
      return text;
    }
  }

  /** The workspace's settings file, where writeSettings writes. */
  get settingsFile() {
    return join(this.workspace, '.vscode/settings.json');
  }

  settingsText() {
    return existsSync(this.settingsFile) ? readFileSync(this.settingsFile, 'utf8') : '{}';
  }

  /** The text of the "Key Routing" output channel in the newest extension host of this window, or ''. */
  keyRoutingOutput() {
    const dir = this.extensionHostDirs().at(-1);
    const file = dir && keyRoutingLogs(dir)[0];
    return file ? readFileSync(file, 'utf8') : '';
  }

  /**
   * Writes the workspace's settings file and, where its keyRouting.* settings change, waits until
   * the extension has read them (the output channel's next "Settings read" line): a view opened
   * after that renders the new settings from the start, instead of racing their refresh.
   */
  async writeSettings(text) {
    const changes = this.keyRoutingSettings() !== this.keyRoutingSettings(text);
    const before = this.settingsReads();
    writeFileSync(this.settingsFile, text);
    if (changes) await this.settingsRead(before);
  }

  /** How many times the extension has read its settings in this window (its output channel says so). */
  settingsReads() {
    return this.keyRoutingOutput().match(/\] Settings read: /g)?.length ?? 0;
  }

  /** Waits until the extension has read its settings again after `before` reads. */
  async settingsRead(before) {
    await this.until(() => this.settingsReads() > before, 'the extension to read the new settings (its output channel)');
  }

  /** Whether the window's extension host has activated this extension (its log says so). */
  extensionActive() {
    return /_doActivateExtension key-routing\.key-routing-inspector\b/.test(this.extensionHostLog());
  }

  /** Reloads the window ("Developer: Reload Window") and waits as for a new one. */
  async reload() {
    const before = this.extensionHostDirs().length;
    await this.palette('Developer: Reload Window');
    await this.until(() => this.extensionHostDirs().length > before, 'a new extension host after the reload', WINDOW_MS);
    await this.ready();
  }

  /**
   * Polls `condition` (sync or async) every 100 ms until it returns something truthy, and returns
   * that; for states that have no element to wait on (a file, a log, a count of lines).
   */
  async until(condition, what, timeout = WAIT_MS) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const v = await condition();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeout / 1000)} s waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // ---- quick input: palette, Quick Open, quick picks --------------------------------------

  quickInput() {
    return this.page.locator(QUICK_INPUT);
  }

  /** A row of the open quick pick (or Quick Open, or the palette) containing `text`. */
  pickRow(text) {
    return this.page.locator(QUICK_ROW, { hasText: text }).first();
  }

  /** Opens the quick input with a key (F1: palette, Control+P: Quick Open) and types `text`. */
  async openQuickInput(key, text) {
    await this.page.keyboard.press(key);
    await this.quickInput().waitFor({ state: 'visible' });
    await this.quickInput().fill(text);
  }

  /** Runs a command by its title from the command palette, as a user would. */
  async palette(title) {
    await this.openQuickInput('F1', `>${title}`);
    await this.pick(title);
  }

  /** Clicks the quick pick row containing `text`, once it is listed. */
  async pick(text, { timeout } = {}) {
    const row = this.pickRow(text);
    await row.waitFor({ timeout });
    await row.click();
  }

  /** Types into the open quick input (an input box or a quick pick's filter) and presses Enter. */
  async input(text) {
    await this.quickInput().waitFor({ state: 'visible' });
    await this.quickInput().fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file with Quick Open and waits until its editor shows it. */
  async openFile(name) {
    await this.openQuickInput('Control+P', name);
    // Chosen as the keyboard does: Enter once the file's row is the focused one. A click right
    // after the row appeared was sometimes lost while Quick Open's file search redrew the list (a
    // loaded run: the pick still open on the file's row, nothing opened), as with context menus.
    await this.page.locator('.quick-input-list .monaco-list-row.focused:visible', { hasText: name }).waitFor();
    await this.page.keyboard.press('Enter');
    await this.quickInput().waitFor({ state: 'hidden' });
    // The active group's tab: the same file may also be open in another editor group.
    await this.page.locator('.editor-group-container.active .tab.active', { hasText: name }).waitFor();
    await this.page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
  }

  // ---- editor -----------------------------------------------------------------------------

  /** The first rendered line of the active editor containing `text`. */
  editorLine(text) {
    return this.page.locator(EDITOR_LINE, { hasText: text }).first();
  }

  /** Selects the line containing `text` with the keyboard. */
  async selectLine(text) {
    await this.editorLine(text).click();
    await this.page.keyboard.press('Home');
    await this.page.keyboard.press('Shift+End');
  }

  /**
   * Puts the cursor of the active editor at `line`:`column` (1-based) with Go to Line/Column, and
   * returns once the status bar shows it there.
   */
  async cursorTo(line, column) {
    await this.openQuickInput('Control+G', `:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput().waitFor({ state: 'hidden' });
    await this.page.locator('[id="status.editor.selection"]', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
  }

  /**
   * Shows the editor's hover at the cursor: Show or Focus Hover (Ctrl+K Ctrl+I), which asks every
   * hover provider for the cursor's position, as a mouse resting there does. The keyboard, not the
   * mouse: VS Code's editor drops mouse moves while it counts a context menu as open (a menu an
   * earlier scenario used), and hides a hover on any scroll or layout shift after the move, and
   * none of that shows in the page, so a test could not wait for it to be over.
   */
  async showHover() {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+I');
  }

  /** The extension's status bar item. */
  statusItem() {
    return this.page.locator('[id="key-routing.key-routing-inspector.keyRouting.route"]');
  }

  // ---- context menus ----------------------------------------------------------------------

  /**
   * Right-clicks `target` (a locator) and chooses the menu item whose label is `item`; `whenOpen`
   * runs once the item is shown, before it is chosen (a screenshot of the open menu).
   */
  async contextMenu(target, item, { position, whenOpen } = {}) {
    await target.click({ button: 'right', position });
    const entry = this.page.locator(MENU_ITEM, { hasText: exact(item) }).first();
    await entry.waitFor();
    await whenOpen?.();
    // The item is chosen the way the keyboard does: hovered until the menu has focused it, then
    // Enter. A click right after the menu appeared was sometimes lost (the item highlighted, the
    // menu still open 30 s later, nothing run), where the focused item always takes Enter.
    await entry.hover();
    await this.page.locator(`${MENU_ITEM}.focused`, { hasText: exact(item) }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden' });
  }

  /** The editor's context menu on the line containing `lineText`. */
  async editorContextMenu(lineText, item, options) {
    await this.contextMenu(this.editorLine(lineText), item, options);
  }

  /** The explorer row of a file. */
  explorerRow(name) {
    return this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  }

  /** The explorer's context menu on a file. */
  async explorerContextMenu(name, item) {
    await this.contextMenu(this.explorerRow(name), item);
  }

  /**
   * The row of the list under `container` (a selector) that holds `text`, focused. A list draws
   * only the rows in its view, so a row below them is not in the page until it is scrolled to: the
   * list is walked down with the keyboard from its first row, each step waiting for the focus to
   * move, until the focused row holds `text` or is the last.
   */
  async listRow(container, text) {
    const rows = this.page.locator(`${container} .monaco-list-row`);
    await rows.first().click();
    const focused = this.page.locator(`${container} .monaco-list-row.focused`);
    for (;;) {
      const at = await focused.getAttribute('data-index');
      if (await focused.filter({ hasText: text }).count()) return focused;
      if ((await focused.getAttribute('data-last-element')) === 'true') throw new Error(`no row of the list ${container} holds ${JSON.stringify(text)}`);
      await this.page.keyboard.press('ArrowDown');
      await this.page.locator(`${container} .monaco-list-row.focused:not([data-index="${at}"])`).waitFor();
    }
  }

  // ---- notifications ----------------------------------------------------------------------

  /** The toast whose message matches `re`. */
  toast(re) {
    return this.page.locator(TOAST, { has: this.page.locator('.notification-list-item-message', { hasText: re }) }).first();
  }

  /** Waits for a toast whose message matches `re` and returns the message. */
  async notification(re, timeout = WAIT_MS) {
    const message = this.toast(re).locator('.notification-list-item-message');
    await message.waitFor({ timeout });
    return message.innerText();
  }

  /** Clicks a button of the toast whose message matches `re`. */
  async notificationButton(re, label) {
    await this.toast(re).locator('.monaco-button', { hasText: label }).first().click();
  }

  /**
   * Clears every notification (the notification center's too: an identical notification merges
   * into one there instead of showing a toast) and waits until no toast is left.
   */
  async clearNotifications() {
    await this.palette('Notifications: Clear All Notifications');
    await this.page.locator(TOAST).first().waitFor({ state: 'detached' });
  }

  // ---- the Key Routing side bar ----------------------------------------------------------

  /** The Key Routing icon of the activity bar (a click opens the side bar, a second closes it). */
  keyRoutingIcon() {
    return this.page.locator('.part.activitybar .action-item', { has: this.page.locator('[aria-label^="Key Routing"]') }).first();
  }

  /** The side bar's row whose label is exactly `label`. */
  sideBarRow(label) {
    const exactly = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&')}$`);
    return this.page.locator('.part.sidebar .monaco-list-row', { has: this.page.locator('.label-name', { hasText: exactly }) }).first();
  }

  // ---- webviews ---------------------------------------------------------------------------

  /** The webview's outer iframe element (for screenshots of the panel alone). */
  webviewElement() {
    return this.page.locator(WEBVIEW);
  }

  /** The webview's content (its inner frame), as a frame locator. */
  webview() {
    return this.page.frameLocator(WEBVIEW).frameLocator('iframe#active-frame');
  }

  /** The webview's content frame as a Playwright Frame (for evaluate), once it has rendered `#root`. */
  async webviewFrame() {
    await this.webview().locator('#root').waitFor();
    const outer = await (await this.webviewElement().elementHandle()).contentFrame();
    return (await outer.locator('iframe#active-frame').elementHandle()).contentFrame();
  }

  // ---- screenshots and themes -------------------------------------------------------------

  /**
   * Saves test-artifacts/<suite>/NN-name.png of the page, or of `of` (a locator). Finite CSS
   * animations (toasts and hovers sliding in) are finished first, so the picture shows the end state.
   */
  async screenshot(name, { of } = {}) {
    const path = join(this.artifacts, `${String(++this.shots).padStart(2, '0')}-${name}.png`);
    await (of ?? this.page).screenshot({ path, animations: 'disabled' });
    return path;
  }

  /**
   * Switches the color theme with "Preferences: Color Theme" and waits until it is applied: in
   * the open webview, its theme name and the workbench's editor background color; without one,
   * until the workbench's theme classes changed.
   */
  async setTheme(label) {
    const workbench = this.page.locator('.monaco-workbench');
    const classesBefore = await workbench.getAttribute('class');
    await this.palette('Preferences: Color Theme');
    await this.quickInput().fill(label);
    await this.pickRow(label).waitFor();
    await this.page.keyboard.press('Enter');
    await this.quickInput().waitFor({ state: 'hidden' });
    if (await this.webviewElement().count()) {
      const frame = await this.webviewFrame();
      const color = () => workbench.evaluate((el) => getComputedStyle(el).getPropertyValue('--vscode-editor-background').trim());
      await this.until(async () => {
        const want = await color();
        return frame.evaluate(
          ([name, bg]) => document.body.dataset.vscodeThemeName === name && document.documentElement.style.getPropertyValue('--vscode-editor-background').trim() === bg,
          [label, want],
        );
      }, `the webview to show the theme ${label}`);
    } else {
      await this.until(async () => (await workbench.getAttribute('class')) !== classesBefore, `the workbench to show the theme ${label}`);
    }
  }

  // ---- output -----------------------------------------------------------------------------

  /** Shows an output channel in the panel; returns the locator of its text. */
  async showOutput(channel) {
    await this.palette('Output: Show Output Channels...');
    await this.pick(channel);
    return this.page.locator('.output-view .monaco-editor .view-lines');
  }

  // ---- scenarios --------------------------------------------------------------------------

  /** Runs one scenario under its own timeout; a failure is recorded and its artifacts saved. */
  async scenario(name, fn, { timeout = this.scenarioTimeout ?? DEFAULT_SCENARIO_MS } = {}) {
    const filter = this.session.grep;
    if (filter && !filter.test(name)) return;
    const t0 = Date.now();
    try {
      await withTimeout(fn(), timeout, name);
      this.results.push({ name, ok: true });
      console.log(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      this.results.push({ name, ok: false });
      console.log(`  ✖ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n      ${String(e.message ?? e).split('\n').slice(0, 8).join('\n      ')}`);
      await this.saveFailure(name);
    }
    // The next scenario starts from a quiet workbench: no menu, quick input or hover left open.
    await this.page.keyboard.press('Escape').catch(() => {});
  }

  /**
   * test-artifacts/<suite>/FAILED-NN-name/: screenshot.png, the window's extension host logs and
   * "Key Routing" output channel, code-server's log and output, the browser console errors.
   */
  async saveFailure(name) {
    const dir = join(this.artifacts, `FAILED-${String(++this.failures).padStart(2, '0')}-${slug(name)}`);
    mkdirSync(dir, { recursive: true });
    const saved = [];
    const attempt = async (what, f) => {
      try {
        await f();
        saved.push(what);
      } catch (e) {
        writeFileSync(join(dir, `${what}.unavailable.txt`), String(e.message ?? e));
      }
    };
    await attempt('screenshot.png', () => withTimeout(this.page.screenshot({ path: join(dir, 'screenshot.png') }), 30_000, 'a screenshot'));
    for (const host of this.extensionHostDirs()) {
      const n = host.match(/exthost(\d+)$/)[1];
      await attempt(`exthost${n}.log`, () => copyFileSync(join(host, 'remoteexthost.log'), join(dir, `exthost${n}.log`)));
      for (const f of keyRoutingLogs(host)) {
        await attempt(`key-routing-output-exthost${n}.log`, () => copyFileSync(f, join(dir, `key-routing-output-exthost${n}.log`)));
      }
    }
    for (const d of existsSync(this.session.logsDir) ? readdirSync(this.session.logsDir) : []) {
      const agent = join(this.session.logsDir, d, 'remoteagent.log');
      if (existsSync(agent)) await attempt('code-server-remoteagent.log', () => copyFileSync(agent, join(dir, 'code-server-remoteagent.log')));
    }
    await attempt('code-server-output.log', () => writeFileSync(join(dir, 'code-server-output.log'), this.session.server.output()));
    await attempt('console-errors.log', () => writeFileSync(join(dir, 'console-errors.log'), this.consoleErrors.join('\n') + '\n'));
    console.log(`      artifacts: ${dir.slice(root.length + 1)}/ (${saved.join(', ')})`);
  }

  /** Runs a suite's scenario modules in order; returns { passed, failed }. */
  async runModules(modules) {
    for (const m of modules) {
      const run = (await import(new URL(m, import.meta.url))).default;
      try {
        await run({ wb: this, scenario: (name, fn, options) => this.scenario(name, fn, options) });
      } catch (e) {
        // Code between scenarios failed (a module's setup): one failure, with its artifacts.
        this.results.push({ name: `${m} (outside a scenario)`, ok: false });
        console.log(`  ✖ ${m} outside a scenario: ${e.message ?? e}`);
        await this.saveFailure(`${m}-setup`);
      }
    }
    return this.counts();
  }

  counts() {
    const passed = this.results.filter((r) => r.ok).length;
    return { passed, failed: this.results.length - passed };
  }

  async close() {
    await this.page.close({ runBeforeUnload: false }).catch(() => {});
  }
}

/**
 * Runs the mocha tests of `testsPath` (a built file) in a window in extension development mode
 * (VSCODE-E2E.md): the workbench forwards the extension host's output through
 * `codeAutomationLog` and its exit code through `codeAutomationExit`. Returns { passed, failed }.
 */
export async function runExtensionTests(session, suite, testsPath, { timeout = 10 * 60_000 } = {}) {
  if (!existsSync(testsPath)) throw new Error(`${testsPath} was not built`);
  let passed = 0;
  let failed = 0;
  let sawResult = false;
  const transcript = [];
  const opened = Date.now();
  let firstTest;
  let finish;
  const exited = new Promise((r) => (finish = r));
  const exposed = {
    codeAutomationLog: (type, args) => {
      const text = Array.isArray(args) ? format(...args) : String(args);
      transcript.push(`[${type}] ${text}`);
      for (const line of text.split('\n')) {
        const m = /^(\d+) passed, (\d+) failed/.exec(line.trim());
        if (m) {
          passed = Number(m[1]);
          failed = Number(m[2]);
          sawResult = true;
          continue;
        }
        // The tests' own lines; the rest is workbench noise (gallery lookups offline, ...).
        if (/^\s+[✔✖]/.test(line)) firstTest ??= Date.now();
        if (/^\s+[✔✖]|^\s{6}/.test(line) || (type === 'error' && !/ENOTFOUND|^\s+at /.test(line))) console.log(line);
      }
    },
    codeAutomationExit: (code) => finish(code),
  };
  const wb = await session.openWindow(suite, {
    exposed,
    waitReady: false,
    payload: (port) => [
      ['extensionDevelopmentPath', remoteUri(port, root)],
      ['extensionTestsPath', remoteUri(port, testsPath)],
    ],
  });
  let exitCode = 1;
  try {
    exitCode = await withTimeout(exited, timeout, 'the extension-host tests to finish');
  } catch (e) {
    console.log(`  ✖ ${suite}: ${e.message ?? e}`);
  }
  if (firstTest) session.log(`${suite}: the first test ended ${Math.round((firstTest - opened) / 1000)} s after the window opened, the last ${Math.round((Date.now() - opened) / 1000)} s after`);
  // A run that crashed or exited non-zero without a failing test counts as one failure.
  if (!sawResult || (exitCode !== 0 && failed === 0)) failed += 1;
  writeFileSync(join(wb.artifacts, 'transcript.log'), transcript.join('\n') + '\n');
  if (failed) await wb.saveFailure(`${suite}-tests`);
  await wb.close();
  return { passed, failed };
}
