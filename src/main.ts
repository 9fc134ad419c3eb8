/**
 * `dist/extension.js`, the one script of the .vsix, runs in four places and starts what belongs
 * there:
 * - a webview (the routing panel: `acquireVsCodeApi` exists): the panel (src/webview);
 * - a web worker named ANALYSIS_WORKER_NAME, or a Node worker thread: the analysis worker
 *   (src/analyze/worker.ts);
 * - otherwise the extension host, Node or web: the extension (src/extension), whose `activate` and
 *   `deactivate` VS Code finds on `module.exports` (set by the footer esbuild.js adds: the bundle is
 *   a classic script, since a webview and a web worker have no `module`).
 * One script instead of three: the engine (every assignor, client hash and Key_Shared selector)
 * is most of each, and the .vsix then holds it once. Each part is required only in its branch, so
 * nothing of the others runs (esbuild evaluates a required module when it is first required).
 */
import type * as Extension from './extension/extension';
import { ANALYSIS_WORKER_NAME } from './analyze/workerName';

interface Scope {
  acquireVsCodeApi?: unknown;
  importScripts?: unknown;
  name?: unknown;
}

type Role = 'webview' | 'worker' | 'host';

function role(): Role {
  const scope = globalThis as Scope;
  if (typeof scope.acquireVsCodeApi === 'function') return 'webview';
  if (typeof scope.importScripts === 'function') return scope.name === ANALYSIS_WORKER_NAME ? 'worker' : 'host';
  if (typeof process !== 'undefined' && typeof process.versions?.node === 'string') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { isMainThread } = require('node:worker_threads') as typeof import('node:worker_threads');
    return isMainThread ? 'host' : 'worker';
  }
  return 'host';
}

let extension: typeof Extension | undefined;
const here = role();
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (here === 'webview') require('./webview/main');
// eslint-disable-next-line @typescript-eslint/no-require-imports
else if (here === 'worker') require('./analyze/worker');
// eslint-disable-next-line @typescript-eslint/no-require-imports
else extension = require('./extension/extension') as typeof Extension;

export function activate(...args: Parameters<typeof Extension.activate>): ReturnType<typeof Extension.activate> {
  if (!extension) throw new Error(`dist/extension.js is running as the ${here}, not in an extension host`);
  return extension.activate(...args);
}

export function deactivate(): void {
  extension?.deactivate();
}
