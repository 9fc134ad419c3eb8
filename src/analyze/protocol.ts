/**
 * The messages between a host (the extension, a test) and an analysis worker, and the worker-side
 * loop that answers them. No Node import: the Node worker thread (worker.ts) and the web worker of
 * VS Code for the Web (webWorker.ts) run the same loop; they differ only in where the bytes come
 * from.
 *
 * Host -> worker: `start` once, then `cancel` at any time, and `chunk` in answer to `read`.
 * Worker -> host: `progress` and `partial` while it runs, then exactly one `done` or `error`.
 * A cancelled run ends with `done` and `result.status === 'cancelled'` (the figures so far).
 *
 * The input is either a file the worker opens itself (`path`: the Node worker thread streams it
 * from disk) or bytes the host holds (`fed`: a document's text, or in VS Code for the Web a file
 * read through `workspace.fs`): the worker asks for them one chunk at a time (`read`, answered by
 * `chunk`), so the host never sends more than the worker is about to analyse. Each opening of the
 * input is a `pass` (1 for the count, 2 for the exact count of the heaviest keys).
 */
import { AnalyzeInputError, type AnalyzeOptions } from './analyzer';
import type { AnalysisResult } from './figures';
import { analyzeKeys, type AnalyzeProgress, type ChunkSource } from './run';

/** Options that cross a thread boundary (structured-cloneable: no functions). */
export type WorkerAnalyzeOptions = Omit<AnalyzeOptions, 'bundleOf'>;

export interface StartMessage {
  type: 'start';
  /** The file to read (a Node worker thread). */
  path?: string;
  /** The host supplies the bytes on request; `size` in bytes where known (for progress). */
  fed?: { size?: number };
  options: WorkerAnalyzeOptions;
  progressIntervalMs?: number;
  partialIntervalMs?: number;
}

export interface CancelMessage {
  type: 'cancel';
}

/** The host's answer to `read`: the next bytes of the pass (transferred), or its end (no `bytes`), or why it failed. */
export interface ChunkMessage {
  type: 'chunk';
  pass: number;
  bytes?: ArrayBuffer;
  error?: string;
  /** The input's size, once the host knows it (a file read whole: after the read). */
  size?: number;
}

export type ToWorker = StartMessage | CancelMessage | ChunkMessage;

export type FromWorker =
  | { type: 'progress'; progress: AnalyzeProgress }
  | { type: 'partial'; result: AnalysisResult }
  | { type: 'done'; result: AnalysisResult }
  /** `input`: the input or options cannot be analysed (say so to the user); `internal`: a bug or I/O failure. */
  | { type: 'error'; kind: 'input' | 'internal'; message: string }
  /** The worker wants the next chunk of pass `pass` of a fed input. */
  | { type: 'read'; pass: number };

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;

export function isToWorker(m: unknown): m is ToWorker {
  if (!isObject(m)) return false;
  switch (m.type) {
    case 'cancel':
      return true;
    case 'start':
      return isObject(m.options) && (m.fed === undefined || isObject(m.fed));
    case 'chunk':
      return Number.isInteger(m.pass) && (m.bytes === undefined || m.bytes instanceof ArrayBuffer) && (m.error === undefined || typeof m.error === 'string');
    default:
      return false;
  }
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

/**
 * A fed input as the worker reads it: each `open()` is a new pass that asks the host for chunks,
 * one ahead of the one being analysed (so the host's answer travels while the worker counts).
 */
export class FedSource implements ChunkSource {
  readonly rereadable = true;
  size: number | undefined;
  #pass = 0;
  /** Answers awaited, oldest first, with the pass they belong to. */
  #waiting: Array<{ pass: number; resolve: (m: ChunkMessage) => void }> = [];
  #cancelled = false;

  constructor(
    size: number | undefined,
    private readonly post: (m: FromWorker) => void,
  ) {
    this.size = size;
  }

  open(): AsyncIterable<Uint8Array> {
    const pass = ++this.#pass;
    // Answers still on their way for an earlier pass are dropped when they arrive.
    this.#waiting = [];
    return this.#chunks(pass);
  }

  /** A `chunk` message from the host. */
  receive(m: ChunkMessage): void {
    if (m.size !== undefined) this.size = m.size;
    const i = this.#waiting.findIndex((w) => w.pass === m.pass);
    if (i >= 0) this.#waiting.splice(i, 1)[0].resolve(m);
  }

  /** After a cancel nothing more is asked for, and the reads awaited end at once. */
  cancel(): void {
    this.#cancelled = true;
    for (const w of this.#waiting.splice(0)) w.resolve({ type: 'chunk', pass: w.pass });
  }

  #request(pass: number): Promise<ChunkMessage> {
    if (this.#cancelled) return Promise.resolve({ type: 'chunk', pass });
    return new Promise((resolve) => {
      this.#waiting.push({ pass, resolve });
      this.post({ type: 'read', pass });
    });
  }

  async *#chunks(pass: number): AsyncGenerator<Uint8Array> {
    let next = this.#request(pass);
    for (;;) {
      const m = await next;
      if (m.error !== undefined) throw new Error(m.error);
      if (!m.bytes) return;
      next = this.#request(pass);
      yield new Uint8Array(m.bytes);
    }
  }
}

export interface WorkerPort {
  post(m: FromWorker): void;
  /** Lets the worker end once its last message is out. */
  close(): void;
}

/**
 * The loop of an analysis worker: one run per worker. `openPath` opens a `path` input (only the
 * Node worker thread has files); a fed input is read from the host. Returns the message handler.
 */
export function serveAnalysis(port: WorkerPort, openPath?: (path: string) => ChunkSource): (m: unknown) => void {
  let running: { cancel(): void } | undefined;
  let fed: FedSource | undefined;
  let cancelled = false;

  const start = (msg: StartMessage): void => {
    if (running) {
      port.post({ type: 'error', kind: 'internal', message: 'this worker already runs an analysis; start a new worker for another' });
      return;
    }
    let source: ChunkSource;
    if (msg.fed) {
      source = fed = new FedSource(msg.fed.size, port.post);
    } else if (typeof msg.path === 'string' && openPath) {
      try {
        source = openPath(msg.path);
      } catch (e) {
        port.post({ type: 'error', kind: 'input', message: `${msg.path}: cannot read it (${(e as { code?: string }).code ?? (e as Error).message})` });
        port.close();
        return;
      }
    } else {
      port.post({ type: 'error', kind: 'internal', message: openPath ? 'the start message names no input (path or fed)' : 'this worker reads only input fed by the host' });
      port.close();
      return;
    }
    const run = runForWorker(msg, source, port.post);
    running = run;
    if (cancelled) {
      run.cancel();
      fed?.cancel();
    }
    void run.done.then(() => port.close());
  };

  return (m: unknown) => {
    if (!isToWorker(m)) return;
    if (m.type === 'cancel') {
      cancelled = true;
      running?.cancel();
      fed?.cancel();
    } else if (m.type === 'chunk') fed?.receive(m);
    else start(m);
  };
}
