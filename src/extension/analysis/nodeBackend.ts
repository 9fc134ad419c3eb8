/**
 * The Node extension host's backend: a file on disk is analysed in a worker thread
 * (`dist/extension.js`, which starts the worker in a worker thread: src/main.ts), streamed from disk, so the extension host's event loop stays free.
 * Loaded only in the Node extension host (extension.ts checks for Node before it requires this
 * file), so the web extension host, which runs the same bundle, never reaches a `node:` import.
 */
import { open } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { StartMessage, WorkerAnalyzeOptions } from '../../analyze/protocol';
import type { ChunkSource } from '../../analyze/run';
import { HostBackend, runInHost, type AnalysisBackend, type Intervals, type RunHandle, type RunListener } from './backend';
import { runInWorker } from './workerRun';
import { workerThread } from './workerThread';

export class NodeBackend implements AnalysisBackend {
  readonly #fallback = new HostBackend();

  constructor(private readonly workerPath: string) {}

  async head(uri: vscode.Uri, bytes: number): Promise<Uint8Array> {
    if (uri.scheme !== 'file') return this.#fallback.head(uri, bytes);
    const fh = await open(uri.fsPath, 'r');
    try {
      const buf = new Uint8Array(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    if (uri.scheme !== 'file') return this.#fallback.runFile(uri, options, listener, intervals);
    return runInWorkerThread(this.workerPath, uri.fsPath, options, listener, intervals);
  }

  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return runInHost(source, options, listener, intervals);
  }
}

/** One worker thread per run: it is ended after its result; a cancel that hangs is ended by force (workerRun.ts). */
export function runInWorkerThread(workerPath: string, file: string, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
  const start: StartMessage = { type: 'start', path: file, options, progressIntervalMs: intervals.progressMs, partialIntervalMs: intervals.partialMs };
  return runInWorker('a worker thread', workerThread(workerPath), start, listener);
}
