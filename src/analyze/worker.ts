/**
 * The analysis worker thread (`dist/analyzeWorker.js`): analyses a key file off the extension
 * host's event loop, streaming it from disk, and posts progress, partial results and the result
 * (protocol.ts). Start it with the start message as `workerData`, or post it after creation:
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
import { isToWorker, runForWorker, type FromWorker, type StartMessage } from './protocol';

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('analyzeWorker.js runs as a worker thread');
  const post = (m: FromWorker): void => port.postMessage(m);
  let running: { cancel(): void } | null = null;
  let cancelled = false;

  const start = (msg: StartMessage): void => {
    if (running) {
      post({ type: 'error', kind: 'internal', message: 'this worker already runs an analysis; start a new worker for another' });
      return;
    }
    if (typeof msg.path !== 'string') {
      post({ type: 'error', kind: 'input', message: 'the start message names no file (path)' });
      port.close();
      return;
    }
    let source;
    try {
      source = fileSource(msg.path);
    } catch (e) {
      post({ type: 'error', kind: 'input', message: `${msg.path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
      port.close();
      return;
    }
    const run = runForWorker(msg, source, post);
    running = run;
    if (cancelled) run.cancel();
    // Closing the port lets the thread end once the last message is out.
    void run.done.then(() => port.close());
  };

  port.on('message', (m: unknown) => {
    if (!isToWorker(m)) return;
    if (m.type === 'cancel') {
      cancelled = true;
      running?.cancel();
    } else start(m);
  });
  if (isToWorker(workerData) && workerData.type === 'start') start(workerData);
}

main();
