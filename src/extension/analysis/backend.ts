/**
 * Where an analysis runs. The Node extension host runs a file on disk in a worker thread
 * (nodeBackend.ts, loaded only there); VS Code for the Web runs everything in a web worker
 * (webBackend.ts). The rest (in the Node extension host a selection, an unsaved document or a file
 * on a virtual file system) runs here, on the extension host, as the analyser's slices with a
 * return to the event loop every few milliseconds. No Node import in this file: the web bundle
 * uses it as it is.
 */
import * as vscode from 'vscode';
import type { WorkerAnalyzeOptions } from '../../analyze/protocol';
import { AnalyzeInputError } from '../../analyze/readers';
import { analyzeKeys, memorySource, type ChunkSource } from '../../analyze/run';
import { AnalysisFailure, type Intervals, type RunHandle, type RunListener } from './runHandle';

export { AnalysisFailure, type Intervals, type RunHandle, type RunListener } from './runHandle';

export interface AnalysisBackend {
  /** The first bytes of a file (for the format guess), without reading all of it where possible. */
  head(uri: vscode.Uri, bytes: number): Promise<Uint8Array>;
  /** Analyses a file. */
  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle;
  /** Analyses bytes from a source held by the extension host (a document's text). */
  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle;
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
 * The fallback for files the Node backend cannot open by path (and for a web extension host
 * without workers): files are read through `workspace.fs`, which has no streaming read, so the
 * file is read whole and then analysed in slices on the extension host.
 */
export class HostBackend implements AnalysisBackend {
  async head(uri: vscode.Uri, bytes: number): Promise<Uint8Array> {
    const all = await vscode.workspace.fs.readFile(uri);
    return all.subarray(0, Math.min(bytes, all.length));
  }

  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return runInHost(wholeFileSource(uri, 1 << 18), options, listener, intervals, 'the extension host, in slices (the file is read whole: this file system has no streaming read)');
  }

  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return runInHost(source, options, listener, intervals);
  }
}

/**
 * A file read whole through `workspace.fs` (which has no streaming read) on its first opening, and
 * given out in pieces of `chunkSize` bytes; later openings (the exact pass) reuse the bytes.
 */
export function wholeFileSource(uri: vscode.Uri, chunkSize: number): ChunkSource {
  let data: Promise<Uint8Array> | undefined;
  const source: ChunkSource = {
    rereadable: true,
    open: () => pieces((data ??= Promise.resolve(vscode.workspace.fs.readFile(uri)).then((d) => ((source.size = d.length), d))), chunkSize),
  };
  return source;
}

async function* pieces(data: Promise<Uint8Array>, chunkSize: number): AsyncGenerator<Uint8Array> {
  yield* memorySource(await data, chunkSize).open() as Iterable<Uint8Array>;
}
