/**
 * The Node extension host's backend: a file on disk is analysed in a worker thread
 * (`dist/analyzeWorker.js`), streamed from disk, so the extension host's event loop stays free.
 * Only the Node entry loads this file (extension.ts guards it with KEY_ROUTING_WEB); the web
 * bundle never sees `node:` imports.
 */
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { AnalysisResult } from '../../analyze/figures';
import type { FromWorker, StartMessage, WorkerAnalyzeOptions } from '../../analyze/protocol';
import type { ChunkSource } from '../../analyze/run';
import { AnalysisFailure, HostBackend, runInHost, type AnalysisBackend, type Intervals, type RunHandle, type RunListener } from './backend';

/** After a cancel, how long the worker may take to post its 'cancelled' result before it is terminated. */
const CANCEL_GRACE_MS = 5000;

export class NodeBackend implements AnalysisBackend {
  private readonly fallback = new HostBackend();

  constructor(private readonly workerPath: string) {}

  async head(uri: vscode.Uri, bytes: number): Promise<Uint8Array> {
    if (uri.scheme !== 'file') return this.fallback.head(uri, bytes);
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
    if (uri.scheme !== 'file') return this.fallback.runFile(uri, options, listener, intervals);
    return runInWorker(this.workerPath, uri.fsPath, options, listener, intervals);
  }

  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return runInHost(source, options, listener, intervals);
  }
}

/** One worker thread per run: it exits by itself after its result; a cancel that hangs is ended by force. */
export function runInWorker(workerPath: string, file: string, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
  const start: StartMessage = { type: 'start', path: file, options, progressIntervalMs: intervals.progressMs, partialIntervalMs: intervals.partialMs };
  const worker = new Worker(workerPath, { workerData: start });
  let settled = false;
  let exited = false;
  let resolveDone!: (r: AnalysisResult) => void;
  let rejectDone!: (e: AnalysisFailure) => void;
  const done = new Promise<AnalysisResult>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  const finish = (f: () => void) => {
    if (settled) return;
    settled = true;
    f();
  };
  const stopped = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      exited = true;
      finish(() => rejectDone(new AnalysisFailure(code === 0 ? 'the analysis worker ended without a result' : `the analysis worker stopped (exit code ${code})`, 'internal')));
      resolve();
    });
  });
  worker.on('message', (m: FromWorker) => {
    switch (m.type) {
      case 'progress':
        if (!settled) listener.onProgress(m.progress);
        return;
      case 'partial':
        if (!settled) listener.onPartial(m.result);
        return;
      case 'done':
        finish(() => resolveDone(m.result));
        return;
      case 'error':
        finish(() => rejectDone(new AnalysisFailure(m.message, m.kind)));
        return;
    }
  });
  worker.on('error', (e) => finish(() => rejectDone(new AnalysisFailure(`the analysis worker failed: ${e.message}`, 'internal'))));
  let cancelled = false;
  return {
    where: 'a worker thread',
    cancel: () => {
      if (cancelled || exited) return;
      cancelled = true;
      worker.postMessage({ type: 'cancel' });
      // The worker checks for a cancel between slices of input (run.ts); if it does not answer in
      // time (a stuck read, say), it is ended and the run reports what it had.
      const timer = setTimeout(() => {
        if (!exited) void worker.terminate();
      }, CANCEL_GRACE_MS);
      void stopped.then(() => clearTimeout(timer));
    },
    done,
    stopped,
  };
}
