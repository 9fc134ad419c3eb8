/**
 * The backend of VS Code for the Web: every analysis runs in a web worker
 * (`dist/extension.js` again, loaded as a classic script: src/main.ts), so the extension host's
 * thread only hands over bytes. A web worker has no file system and `workspace.fs` has no ranged
 * or streaming read, so a file is read whole into the extension host first; the worker then asks
 * for it one MiB at a time (each piece is copied once, transferred). A selection or unsaved text
 * goes over in chunks of lines, read from the document as the worker asks for them.
 *
 * The worker's script is read through `workspace.fs` and started from a Blob URL: the extension may
 * live on another origin (a CDN, `vscode-remote://`) that `new Worker(url)` could not load.
 */
import * as vscode from 'vscode';
import type { StartMessage, ToWorker, WorkerAnalyzeOptions } from '../../analyze/protocol';
import type { ChunkSource } from '../../analyze/run';
import { wholeFileSource, type AnalysisBackend, type Intervals, type RunHandle, type RunListener } from './backend';
import { runInWorker, type WorkerEvents, type WorkerLink } from './workerRun';

/** Pieces of a file read whole, as the worker asks for them. */
const FILE_CHUNK = 1 << 20;

/** How long a file read whole for its head is kept for the run that follows the format question. */
const READ_AHEAD_MS = 120_000;

export class WebWorkerBackend implements AnalysisBackend {
  #script: Promise<string> | undefined;
  /**
   * The file last read whole for its head. workspace.fs has no ranged read, so the head costs the
   * whole file; the run that follows (same file, after the format question) takes these bytes
   * instead of reading a large file a second time. Taken once, dropped after READ_AHEAD_MS.
   */
  #readAhead: { uri: string; data: Promise<Uint8Array>; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  async head(uri: vscode.Uri, bytes: number): Promise<Uint8Array> {
    this.#takeReadAhead(undefined);
    const data = Promise.resolve(vscode.workspace.fs.readFile(uri));
    this.#readAhead = { uri: uri.toString(), data, timer: setTimeout(() => this.#takeReadAhead(undefined), READ_AHEAD_MS) };
    const all = await data;
    return all.subarray(0, Math.min(bytes, all.length));
  }

  runFile(uri: vscode.Uri, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    const kept = this.#takeReadAhead(uri);
    return this.#run(wholeFileSource(uri, FILE_CHUNK, kept), options, listener, intervals, 'a web worker (the file was read whole first: workspace.fs has no streaming read)');
  }

  /** The kept bytes if they are `uri`'s; the kept bytes are dropped either way. */
  #takeReadAhead(uri: vscode.Uri | undefined): Promise<Uint8Array> | undefined {
    const kept = this.#readAhead;
    this.#readAhead = undefined;
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    return uri && kept.uri === uri.toString() ? kept.data.catch(() => vscode.workspace.fs.readFile(uri)) : undefined;
  }

  runSource(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals): RunHandle {
    return this.#run(source, options, listener, intervals, 'a web worker');
  }

  #run(source: ChunkSource, options: WorkerAnalyzeOptions, listener: RunListener, intervals: Intervals, where: string): RunHandle {
    const start: StartMessage = { type: 'start', fed: { size: source.size }, options, progressIntervalMs: intervals.progressMs, partialIntervalMs: intervals.partialMs };
    return runInWorker(where, webWorker(this.#scriptUrl()), start, listener, source);
  }

  /** The worker's script as a Blob URL, read once per session (again after a failed read). */
  #scriptUrl(): Promise<string> {
    const uri = vscode.Uri.joinPath(this.extensionUri, 'dist', 'extension.js');
    this.#script ??= Promise.resolve(vscode.workspace.fs.readFile(uri)).then(
      (code) => URL.createObjectURL(new Blob([code as Uint8Array<ArrayBuffer>], { type: 'text/javascript' })),
      (e: unknown) => {
        this.#script = undefined;
        throw new Error(`cannot read ${uri.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
    return this.#script;
  }
}

/**
 * A link to a new web worker started from `url` once it is known; messages posted before are
 * queued. A web worker has no exit event: it has ended when it is terminated.
 */
export function webWorker(url: Promise<string>): (events: WorkerEvents) => WorkerLink {
  return (events) => {
    let worker: Worker | undefined;
    let ended = false;
    const queued: Array<[ToWorker, ArrayBuffer[]]> = [];
    url.then(
      (u) => {
        if (ended) return;
        worker = new Worker(u, { name: 'Key Routing analysis' });
        worker.onmessage = (e: MessageEvent) => events.message(e.data);
        worker.onerror = (e: ErrorEvent) => {
          e.preventDefault();
          events.failed(e.message || 'its script did not run');
        };
        for (const [m, transfer] of queued.splice(0)) worker.postMessage(m, transfer);
      },
      (e: unknown) => {
        if (!ended) events.failed(e instanceof Error ? e.message : String(e));
      },
    );
    return {
      post: (m, transfer = []) => {
        if (ended) return;
        if (worker) worker.postMessage(m, transfer);
        else queued.push([m, transfer]);
      },
      terminate: () => {
        if (ended) return;
        ended = true;
        worker?.terminate();
        events.exited();
      },
    };
  };
}
