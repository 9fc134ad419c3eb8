/**
 * Where an analysis runs. The Node extension host runs a file on disk in a worker thread
 * (nodeBackend.ts, loaded only there); everything else (a selection, an unsaved document, a file
 * in VS Code for the Web or on a virtual file system) runs here, in the extension host, as the
 * analyser's slices with a return to the event loop every few milliseconds. No Node import in
 * this file: the web extension host uses it as it is.
 */
import * as vscode from 'vscode';
import type { AnalysisResult } from '../../analyze/figures';
import type { WorkerAnalyzeOptions } from '../../analyze/protocol';
import { AnalyzeInputError } from '../../analyze/readers';
import { analyzeKeys, memorySource, type AnalyzeProgress, type ChunkSource } from '../../analyze/run';

export interface RunListener {
  onProgress(p: AnalyzeProgress): void;
  onPartial(r: AnalysisResult): void;
}

/** The analyser refused the input or the options (say so), or something broke. */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'input' | 'internal',
  ) {
    super(message);
  }
}

export interface RunHandle {
  /** Where it runs, for people: "a worker thread". */
  readonly where: string;
  /** Asks the run to stop; it ends with a 'cancelled' result (or is stopped by force). */
  cancel(): void;
  /** The final result ('complete' or 'cancelled'); rejects with AnalysisFailure. */
  readonly done: Promise<AnalysisResult>;
  /** Settles when nothing of the run is left working (the worker thread has exited). */
  readonly stopped: Promise<void>;
}

export interface AnalysisBackend {
  /** The first bytes of a file (for the format guess), without reading all of it where possible. */
  head(uri: vscode.Uri, bytes: number): Promise<Uint8Array>;
  /** Analyses a file. */
  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle;
  /** Analyses bytes from a source held by the extension host (a document's text). */
  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle;
}

export interface Intervals {
  progressMs: number;
  partialMs: number;
}

/** Longest stretch of analysis on the extension host before it lets other work run. */
const HOST_SLICE_MS = 15;

/** Runs the analyser on the extension host's own thread, in slices (see run.ts: yieldEveryMs). */
export function runInHost(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals, where = 'the extension host, in slices'): RunHandle {
  const signal = { aborted: false };
  const done = analyzeKeys(source, options, {
    signal,
    onProgress: (p) => listener.onProgress(p),
    onPartial: (r) => listener.onPartial(r),
    progressIntervalMs: intervals.progressMs,
    partialIntervalMs: intervals.partialMs,
    yieldEveryMs: HOST_SLICE_MS,
  }).catch((e: unknown) => {
    throw new AnalysisFailure(e instanceof Error ? e.message : String(e), e instanceof AnalyzeInputError ? 'input' : 'internal');
  });
  return {
    where,
    cancel: () => {
      signal.aborted = true;
    },
    done,
    stopped: done.then(
      () => undefined,
      () => undefined,
    ),
  };
}

/**
 * The backend of VS Code for the Web (and the fallback for files the Node backend cannot open by
 * path): files are read through `workspace.fs`, which has no streaming read, so the file is read
 * whole and then analysed in slices on the extension host.
 */
export class HostBackend implements AnalysisBackend {
  async head(uri: vscode.Uri, bytes: number): Promise<Uint8Array> {
    const all = await vscode.workspace.fs.readFile(uri);
    return all.subarray(0, Math.min(bytes, all.length));
  }

  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    let data: Promise<Uint8Array> | undefined;
    const source: ChunkSource = {
      rereadable: true,
      open: () => chunksOf((data ??= Promise.resolve(vscode.workspace.fs.readFile(uri)).then((d) => ((source.size = d.length), d)))),
    };
    return runInHost(source, options, listener, intervals, 'the extension host, in slices (the file is read whole: this file system has no streaming read)');
  }

  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return runInHost(source, options, listener, intervals);
  }
}

async function* chunksOf(data: Promise<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* memorySource(await data, 1 << 18).open() as Iterable<Uint8Array>;
}
