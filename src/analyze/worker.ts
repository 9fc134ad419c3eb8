/**
 * The analysis worker (part of `dist/extension.js`: src/main.ts), for both hosts: a Node worker thread
 * of the desktop extension host, and a web worker of VS Code for the Web. Either way it runs the
 * same loop (protocol.ts) and posts progress, partial results and the result.
 *
 * - In a web worker (a classic script: `importScripts` exists) it analyses bytes the extension host
 *   feeds it chunk by chunk: a web worker has no file system.
 * - In a Node worker thread it may also stream a file from disk itself (nodeSource.ts). Its Node
 *   modules are required inside the branch that runs there, so the web worker never loads them.
 *
 *   const w = new Worker(path.join(extensionPath, 'dist/extension.js'), {
 *     workerData: { type: 'start', path: file, options: { settings, input: { kind: 'lines' } } },
 *   });
 *   w.on('message', (m: FromWorker) => ...);   // progress, partial, then done or error
 *   w.postMessage({ type: 'cancel' });          // ends with done, status 'cancelled'
 *
 * The worker ends itself after `done` or `error`. One script instead of one per host keeps the
 * .vsix small: the analyser and the engine are most of its size.
 */
import { serveAnalysis, type FromWorker } from './protocol';

/** The parts of a dedicated web worker's global scope used here. */
interface WebWorkerScope {
  onmessage: ((e: { data: unknown }) => void) | null;
  postMessage(m: FromWorker): void;
  close(): void;
  importScripts?: unknown;
}

function inWebWorker(scope: WebWorkerScope): void {
  const handle = serveAnalysis({ post: (m) => scope.postMessage(m), close: () => scope.close() });
  scope.onmessage = (e) => handle(e.data);
}

function inWorkerThread(): void {
  // Required here, not imported: a web worker must not evaluate them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { fileSource } = require('./nodeSource') as typeof import('./nodeSource');
  const port = parentPort;
  if (!port) throw new Error('the analysis worker runs as a worker thread or a web worker');
  const handle = serveAnalysis({ post: (m) => port.postMessage(m), close: () => port.close() }, fileSource);
  port.on('message', handle);
  if (workerData !== undefined && workerData !== null) handle(workerData);
}

/** Serves the analysis in this worker (src/main.ts calls it in a worker thread or web worker). */
export function startWorker(): void {
  const scope = globalThis as unknown as WebWorkerScope;
  if (typeof scope.importScripts === 'function') inWebWorker(scope);
  else inWorkerThread();
}
