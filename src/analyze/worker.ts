/**
 * The analysis worker thread (`dist/analyzeWorker.js`): analyses a key file off the extension
 * host's event loop, streaming it from disk, or bytes the host feeds it, and posts progress,
 * partial results and the result (protocol.ts). Start it with the start message as `workerData`,
 * or post it after creation:
 *
 *   const w = new Worker(path.join(extensionPath, 'dist/analyzeWorker.js'), {
 *     workerData: { type: 'start', path: file, options: { settings, input: { kind: 'lines' } } },
 *   });
 *   w.on('message', (m: FromWorker) => ...);   // progress, partial, then done or error
 *   w.postMessage({ type: 'cancel' });          // ends with done, status 'cancelled'
 *
 * The worker exits by itself after `done` or `error`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fileSource } from './nodeSource';
import { serveAnalysis } from './protocol';

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('analyzeWorker.js runs as a worker thread');
  const handle = serveAnalysis({ post: (m) => port.postMessage(m), close: () => port.close() }, fileSource);
  port.on('message', handle);
  if (workerData !== undefined && workerData !== null) handle(workerData);
}

main();
