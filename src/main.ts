/**
 * `dist/extension.js`, the one script of the .vsix, runs in four places and starts what belongs
 * there:
 * - a webview (the routing panel: `acquireVsCodeApi` exists): the panel (src/webview);
 * - a Node worker thread, or a web worker started as a classic script (no CommonJS `module`): the
 *   analysis worker (src/analyze/worker.ts);
 * - otherwise the extension host, Node or web, which loads the script as a CommonJS module: the
 *   extension (src/extension). VS Code finds `activate` and `deactivate` on `module.exports`.
 * The bundle is a classic script (a webview and a web worker have no `module`); esbuild.js's banner
 * keeps the host's `module` as KEY_ROUTING_MODULE (undefined elsewhere) and its footer sets
 * `module.exports`.
 * One script instead of three: the engine (every assignor, client hash and Key_Shared selector)
 * is most of each, and the .vsix then holds it once. The panel, the worker and the extension are
 * imported, and each is started by a call: their modules define things and touch nothing at load,
 * `vscode` included, which in this script is the extension host's module there and an empty object
 * elsewhere (esbuild.js). Imports rather than a `require` of the extension: esbuild wraps every
 * module a require reaches in a lazy initialiser, which cost the .vsix about 900 bytes. (The
 * Node-only modules are still required where they run.) `npm run package` loads the script in a
 * worker thread, which fails if a module touches `vscode` at load.
 */
import * as Extension from './extension/extension';
import { startWebview } from './webview/main';
import { startWorker } from './analyze/worker';

/** The CommonJS module the extension host loads this script as; undefined in a webview or web worker. */
declare const KEY_ROUTING_MODULE: { exports: unknown } | undefined;

type Role = 'webview' | 'worker' | 'host';

function role(): Role {
  if (typeof (globalThis as { acquireVsCodeApi?: unknown }).acquireVsCodeApi === 'function') return 'webview';
  if (typeof process !== 'undefined' && typeof process.versions?.node === 'string') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { isMainThread } = require('node:worker_threads') as typeof import('node:worker_threads');
    return isMainThread ? 'host' : 'worker';
  }
  // The web: the extension host (itself a web worker) loads extensions as CommonJS modules; the
  // analysis worker runs the script as it is.
  return KEY_ROUTING_MODULE ? 'host' : 'worker';
}

let extension: typeof Extension | undefined;
const here = role();
if (here === 'webview') startWebview();
else if (here === 'worker') startWorker();
else extension = Extension;

export function activate(...args: Parameters<typeof Extension.activate>): ReturnType<typeof Extension.activate> {
  if (!extension) throw new Error(`dist/extension.js is running as the ${here}, not in an extension host`);
  return extension.activate(...args);
}

export function deactivate(): void {
  extension?.deactivate();
}
