// A real VS Code for `npm start` and the E2E suites: code-server from npm (VS Code 1.100.3 with
// its real Node extension host), installed on first use into the git-ignored `.vscode-test/`,
// and Debian's Chromium driven by playwright-core. See VSCODE-E2E.md for why it is done this way
// (no downloads of VS Code or browsers on an offline machine; npm 11 skips install scripts).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const CODE_SERVER_VERSION = '4.100.3';
export const cacheDir = join(root, '.vscode-test');
const installDir = join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
const marker = join(installDir, '.installed');
/** The native modules of VS Code's server that the tests need built (see ensureCodeServer). */
const NATIVE_MODULES = ['@vscode/spdlog', 'node-pty', '@parcel/watcher', 'native-watchdog'];
export const CHROMIUM = process.env.KEY_ROUTING_CHROMIUM ?? '/usr/bin/chromium';

/** Waits `ms` milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Rejects with `what` after `ms` unless the promise settles first. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${Math.round(ms / 1000)} s: ${what}`)), ms);
    }),
  ]);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function sh(cmd, args, cwd, log, env = {}) {
  log(`  $ ${[cmd, ...args].join(' ')}   (in ${cwd.startsWith(root) ? cwd.slice(root.length + 1) || '.' : cwd})`);
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 15 * 60_000,
    env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env },
  });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${tail}`);
  }
}

function link(target, path) {
  try {
    if (lstatSync(path).isSymbolicLink() && readlinkSync(path) === target) return;
    rmSync(path, { recursive: true, force: true });
  } catch {
    /* absent */
  }
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

/** The Debian packages the recipe needs, with the command that installs them. */
function checkSystem() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!which('rg')) missing.push('ripgrep');
  if (missing.length) {
    throw new Error(`missing Debian packages: ${missing.join(', ')}. Install them with: sudo apt-get install -y ${missing.join(' ')} (.ci/run does this on CI)`);
  }
}

/** Takes a lock directory so that two runs do not install at once; waits for the other one. */
async function lock(log) {
  const dir = join(cacheDir, 'install.lock');
  mkdirSync(cacheDir, { recursive: true });
  for (let waited = 0; ; waited += 2) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch {
      let pid = 0;
      try {
        pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      let alive = false;
      try {
        if (pid) process.kill(pid, 0), (alive = true);
      } catch {
        alive = false;
      }
      if (pid && !alive) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (waited === 0) log(`waiting for another install of code-server (pid ${pid}) to finish...`);
      if (waited > 20 * 60) throw new Error(`${dir} is held by pid ${pid} for over 20 minutes; remove it if that process is gone`);
      await sleep(2000);
    }
  }
}

/**
 * Installs code-server once (about 2 minutes cold, 300 MB) and returns its entry script.
 * Idempotent: a marker file is written only when every step succeeded; a half-finished install
 * is removed and redone.
 */
export async function ensureCodeServer(log = console.log) {
  const entry = join(installDir, 'node_modules/code-server/out/node/entry.js');
  if (existsSync(marker)) return entry;
  checkSystem();
  const unlock = await lock(log);
  try {
    if (existsSync(marker)) return entry;
    const started = Date.now();
    log(`installing code-server ${CODE_SERVER_VERSION} into ${installDir.slice(root.length + 1)} (first run only, about 2 minutes)`);
    rmSync(installDir, { recursive: true, force: true });
    mkdirSync(installDir, { recursive: true });
    writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'vscode-test-code-server', private: true }, null, 2));
    // Its postinstall fails offline (ripgrep from GitHub) and npm would then remove everything,
    // so scripts are skipped and the needed steps done by hand below.
    sh('npm', ['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], installDir, log);
    sh('npm', ['rebuild', 'argon2'], installDir, log);
    const vscode = join(installDir, 'node_modules/code-server/lib/vscode');
    sh('npm', ['install', '--omit=dev', '--ignore-scripts'], vscode, log);
    // @vscode/ripgrep's postinstall skips its download when the binary is there.
    link(which('rg'), join(vscode, 'node_modules/@vscode/ripgrep/bin/rg'));
    // Only the native modules a Linux server with telemetry off loads are built (node-pty's build
    // runs `npx node-gyp`; JOBS lets node-gyp compile a module's files in parallel). Left out, as
    // never loaded here: kerberos (proxy Kerberos authentication, loaded only behind such a proxy;
    // building it needs libkrb5-dev), @vscode/deviceid (telemetry's device id) and the Windows-only
    // modules. A full `npm rebuild` spent about half of its minute on them.
    sh('npm', ['rebuild', ...NATIVE_MODULES], vscode, log, { npm_config_yes: 'true', JOBS: 'max' });
    link('node_modules', join(vscode, 'node_modules.asar'));
    link('code-linux.sh', join(vscode, 'bin/remote-cli/code-server'));
    link('browser-linux.sh', join(vscode, 'bin/helpers/browser.sh'));
    sh('npm', ['install', '--omit=dev'], join(vscode, 'extensions'), log);
    if (!existsSync(entry)) throw new Error(`code-server installed but ${entry} is missing`);
    writeFileSync(marker, `${new Date().toISOString()}\n`);
    log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
    return entry;
  } finally {
    unlock();
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The extension's folder name as VS Code expects it in an extensions dir. */
export function extensionId() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return { id: `${pkg.publisher}.${pkg.name}`, folder: `${pkg.publisher}.${pkg.name}-${pkg.version}`, version: pkg.version };
}

/** Links this repository into an extensions dir, so code-server loads the built `dist/`. */
export function linkExtension(extensionsDir) {
  mkdirSync(extensionsDir, { recursive: true });
  link(root, join(extensionsDir, extensionId().folder));
}

/**
 * Declares `locale` a display language with the stub language pack of test/e2e/fixtures/ (no
 * translations of VS Code's strings): linked into the extensions dir, and entered in the
 * languagepacks.json the server resolves --locale with before it has scanned its extensions.
 */
export function installStubLanguagePack({ extensionsDir, stateDir, locale }) {
  const dir = join(root, `test/e2e/fixtures/stub-language-pack-${locale}`);
  if (!existsSync(dir)) throw new Error(`no stub language pack for ${locale} in test/e2e/fixtures/`);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  mkdirSync(extensionsDir, { recursive: true });
  link(dir, join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  const userData = join(stateDir, 'user-data');
  mkdirSync(userData, { recursive: true });
  const id = `${pkg.publisher}.${pkg.name}`;
  const packs = {
    [locale]: {
      hash: createHash('md5').update(id).update(pkg.version).digest('hex'),
      extensions: [{ extensionIdentifier: { id }, version: pkg.version }],
      translations: { vscode: join(dir, 'translations/main.i18n.json') },
      label: pkg.contributes.localizations[0].localizedLanguageName,
    },
  };
  writeFileSync(join(userData, 'languagepacks.json'), JSON.stringify(packs));
}

/** Installs a .vsix into an extensions dir with code-server's own CLI (as a user would). */
export function installVsix({ entry, extensionsDir, stateDir, vsix, log = console.log }) {
  mkdirSync(extensionsDir, { recursive: true });
  const env = { ...process.env };
  for (const [k, d] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data'], ['XDG_CACHE_HOME', 'cache']]) env[k] = join(stateDir, 'xdg', d);
  log(`installing ${vsix}`);
  const r = spawnSync(process.execPath, [entry, '--user-data-dir', join(stateDir, 'user-data'), '--extensions-dir', extensionsDir, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0 || !/successfully installed/.test(r.stdout)) {
    throw new Error(`installing ${vsix} failed (${r.error?.message ?? `exit ${r.status}`}):\n${(r.stdout + r.stderr).trim().split('\n').slice(-10).join('\n')}`);
  }
}

/** Builds the bundles (`node esbuild.js`). */
export function build(log = console.log) {
  log('building (node esbuild.js)');
  sh(process.execPath, ['esbuild.js'], root, () => {});
}

/**
 * A scratch copy of a workspace folder, so tests may change its settings freely.
 */
export function scratchCopy(from, to) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return to;
}

/**
 * Starts code-server on 127.0.0.1 and waits for `/healthz`. Returns `{ url, port, stop }`;
 * `stop()` ends the whole process group started here (code-server and its extension hosts).
 */
export async function startCodeServer({ entry, folder, stateDir, extensionsDir, port, log = console.log, quiet = true, args: extra = [], settings = {} }) {
  port ??= await freePort();
  const userData = join(stateDir, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // User settings that keep a fresh profile quiet: no welcome page, trust prompt or tips.
  const userSettings = join(userData, 'User/settings.json');
  if (!existsSync(userSettings)) {
    writeFileSync(
      userSettings,
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'workbench.enableExperiments': false,
          'workbench.welcomePage.walkthroughs.openOnInstall': false,
          'security.workspace.trust.enabled': false,
          'telemetry.telemetryLevel': 'off',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'extensions.ignoreRecommendations': true,
          'update.mode': 'none',
          'git.enabled': false,
          'chat.commandCenter.enabled': false,
          'window.commandCenter': false,
          // A quick input that closes its picker gives the focus back to where it was, and into a
          // webview that takes a message to the webview's frames: under load it arrived after the
          // harness had opened the next palette, which lost the focus and closed (the zh-cn "What
          // If It Leaves" scenario, after Import Topology's pick closed over the panel). Users are
          // not that fast; the harness keeps its quick inputs open, and closes them itself.
          'workbench.quickOpen.closeOnFocusLost': false,
          ...settings,
        },
        null,
        2,
      ),
    );
  }
  const env = { ...process.env };
  for (const [k, d] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data'], ['XDG_CACHE_HOME', 'cache']]) {
    env[k] = join(stateDir, 'xdg', d);
    mkdirSync(env[k], { recursive: true });
  }
  delete env.VSCODE_IPC_HOOK_CLI;
  const args = [
    entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', userData,
    '--extensions-dir', extensionsDir,
    ...extra,
    folder,
  ];
  const child = spawn(process.execPath, args, { cwd: stateDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (b) => {
    output = (output + b.toString()).slice(-20000);
    if (!quiet) process.stdout.write(b);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => (exited = signal ?? code));

  const stop = async () => {
    if (exited !== null || child.pid === undefined) return;
    const done = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const gone = await Promise.race([done.then(() => true), sleep(5000).then(() => false)]);
    if (!gone) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await Promise.race([done, sleep(2000)]);
    }
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) {
      throw new Error(`code-server exited (${exited}) before it answered:\n${output.split('\n').slice(-20).join('\n')}`);
    }
    try {
      const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz within 60 s:\n${output.split('\n').slice(-20).join('\n')}`);
    }
    await sleep(300);
  }
  return { url, port, pid: child.pid, stop, output: () => output };
}

/** Launches Debian's Chromium through playwright-core with the flags this machine needs. */
export async function launchChromium(profileDir, { viewport = { width: 1400, height: 900 } } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)`);
  const { chromium } = await import('playwright-core');
  rmSync(profileDir, { recursive: true, force: true });
  mkdirSync(profileDir, { recursive: true });
  const context = await withTimeout(
    chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    }),
    60_000,
    'starting Chromium',
  );
  const close = async () => {
    try {
      await withTimeout(context.close(), 15_000, 'closing Chromium');
    } catch {
      // Playwright also kills the browser it launched when this process exits.
    }
  };
  return { context, close };
}

/** A workbench URL opening `folder`, optionally with development-mode payload entries. */
export function workbenchUrl(base, folder, payload) {
  let u = `${base}/?folder=${encodeURIComponent(folder)}`;
  if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return u;
}

/** `vscode-remote://` form of a path on the code-server machine, for the payload. */
export function remoteUri(port, path) {
  return `vscode-remote://127.0.0.1:${port}${path}`;
}

