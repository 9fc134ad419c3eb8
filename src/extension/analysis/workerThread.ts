/** A worker link (workerRun.ts) to a Node worker thread; the Node extension host and the unit tests use it. */
import { Worker } from 'node:worker_threads';
import type { FromWorker } from '../../analyze/protocol';
import type { WorkerEvents, WorkerLink } from './workerRun';

/** A link to a new worker thread running the script `workerPath`. */
export function workerThread(workerPath: string): (events: WorkerEvents) => WorkerLink {
  return (events) => {
    const worker = new Worker(workerPath);
    worker.on('message', (m: FromWorker) => events.message(m));
    worker.on('error', (e) => events.failed(e.message));
    worker.once('exit', (code) => events.exited(code));
    return {
      post: (m, transfer) => worker.postMessage(m, transfer),
      terminate: () => void worker.terminate(),
    };
  };
}
