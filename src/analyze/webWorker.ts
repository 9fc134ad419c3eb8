/**
 * The analysis web worker of VS Code for the Web (`dist/web/analyzeWorker.js`, a classic script):
 * the same loop as the Node worker thread (protocol.ts), over bytes the extension host feeds it
 * chunk by chunk (a web worker has no file system). No Node import and no `vscode`.
 */
import { serveAnalysis, type FromWorker } from './protocol';

/** The parts of a dedicated worker's global scope used here. */
interface WorkerScope {
  onmessage: ((e: { data: unknown }) => void) | null;
  postMessage(m: FromWorker): void;
  close(): void;
}

const scope = self as unknown as WorkerScope;
const handle = serveAnalysis({ post: (m) => scope.postMessage(m), close: () => scope.close() });
scope.onmessage = (e) => handle(e.data);
