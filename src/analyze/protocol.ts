/**
 * The messages between a host (the extension, a test) and an analysis worker, and the worker-side
 * loop that answers them. No Node import: a Node worker thread (worker.ts) and a web worker (VS Code
 * for the Web, reading a `Blob`) run the same loop over their own byte source.
 *
 * Host -> worker: `start` once (or the same object as `workerData`), then `cancel` at any time.
 * Worker -> host: `progress` and `partial` while it runs, then exactly one `done` or `error`.
 * A cancelled run ends with `done` and `result.status === 'cancelled'` (the figures so far).
 *
 * A web worker for VS Code for the Web is this loop over a `Blob` (the file the user picked, or
 * the editor's text as `new Blob([text])`):
 *
 *   let run: { cancel(): void } | undefined;
 *   self.onmessage = (e) => {
 *     const m = e.data;
 *     if (!isToWorker(m)) return;
 *     if (m.type === 'cancel') run?.cancel();
 *     else run = runForWorker(m, blobSource(m.blob!), (out) => self.postMessage(out));
 *   };
 */
import { AnalyzeInputError, type AnalyzeOptions } from './analyzer';
import type { AnalysisResult } from './figures';
import { analyzeKeys, type AnalyzeProgress, type ChunkSource } from './run';

/** Options that cross a thread boundary (structured-cloneable: no functions). */
export type WorkerAnalyzeOptions = Omit<AnalyzeOptions, 'bundleOf'>;

export interface StartMessage {
  type: 'start';
  /** The file to read (Node worker); a web worker takes a `Blob` in `blob` instead. */
  path?: string;
  blob?: Blob;
  options: WorkerAnalyzeOptions;
  progressIntervalMs?: number;
  partialIntervalMs?: number;
}

export interface CancelMessage {
  type: 'cancel';
}

export type ToWorker = StartMessage | CancelMessage;

export type FromWorker =
  | { type: 'progress'; progress: AnalyzeProgress }
  | { type: 'partial'; result: AnalysisResult }
  | { type: 'done'; result: AnalysisResult }
  /** `input`: the input or options cannot be analysed (say so to the user); `internal`: a bug or I/O failure. */
  | { type: 'error'; kind: 'input' | 'internal'; message: string };

export function isToWorker(m: unknown): m is ToWorker {
  if (typeof m !== 'object' || m === null) return false;
  const t = (m as { type?: unknown }).type;
  if (t === 'cancel') return true;
  return t === 'start' && typeof (m as { options?: unknown }).options === 'object' && (m as { options?: unknown }).options !== null;
}

/**
 * Runs one analysis for a worker: posts progress, partial results and the end. Returns a handle
 * whose `cancel()` the worker calls when the host sends `cancel`.
 */
export function runForWorker(start: StartMessage, source: ChunkSource, post: (m: FromWorker) => void): { cancel(): void; done: Promise<void> } {
  const signal = { aborted: false };
  const done = analyzeKeys(source, start.options, {
    signal,
    progressIntervalMs: start.progressIntervalMs,
    partialIntervalMs: start.partialIntervalMs,
    onProgress: (progress) => post({ type: 'progress', progress }),
    onPartial: (result) => post({ type: 'partial', result }),
  }).then(
    (result) => post({ type: 'done', result }),
    (e: unknown) =>
      post({
        type: 'error',
        kind: e instanceof AnalyzeInputError ? 'input' : 'internal',
        message: e instanceof Error ? e.message : String(e),
      }),
  );
  return {
    cancel: () => {
      signal.aborted = true;
    },
    done,
  };
}

/** A source over a `Blob` (a web worker's file): re-readable, so heavy keys get their exact pass. */
export function blobSource(blob: Blob): ChunkSource {
  return {
    rereadable: true,
    size: blob.size,
    open: () => blobChunks(blob),
  };
}

async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value as Uint8Array;
    }
  } finally {
    reader.releaseLock();
  }
}
