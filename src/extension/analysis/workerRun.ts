/**
 * One analysis in a worker (a Node worker thread or a web worker), speaking protocol.ts: posts the
 * start, feeds a host-held input one chunk per request, passes progress and partial results on,
 * cancels (ending the worker by force if it does not answer in time), and ends the worker once it
 * has posted its result. The two kinds of worker differ only in their link (nodeBackend.ts,
 * webBackend.ts). No `vscode` import: the unit tests run it against the real worker bundles.
 */
import type { AnalysisResult } from '../../analyze/figures';
import type { ChunkMessage, FromWorker, StartMessage, ToWorker } from '../../analyze/protocol';
import type { ChunkSource } from '../../analyze/run';
import { AnalysisFailure, type RunHandle, type RunListener } from './runHandle';

/** What the runner hears from a worker. */
export interface WorkerEvents {
  message(m: FromWorker): void;
  /** The worker failed outside the analysis (its script did not load, or it threw). */
  failed(message: string): void;
  /** The worker has ended; `code` where the platform tells it. */
  exited(code?: number): void;
}

/** How the runner talks to a worker. A link calls the events only from later tasks, never during `connect`. */
export interface WorkerLink {
  post(m: ToWorker, transfer?: ArrayBuffer[]): void;
  /** Ends the worker at once; `exited` follows. */
  terminate(): void;
}

/** After a cancel, how long the worker may take to post its 'cancelled' result before it is ended: only a worker stuck in a read needs ending, and ending a slow but healthy one (a loaded machine) loses the figures it was about to post. */
export const CANCEL_GRACE_MS = 5000;

/**
 * Runs `start` in the worker `connect` creates. `fed`: the input the worker asks the host for
 * (with `start.fed` set); a `path` input the worker opens itself.
 */
export function runInWorker(where: string, connect: (events: WorkerEvents) => WorkerLink, start: StartMessage, listener: RunListener, fed?: ChunkSource): RunHandle {
  let settled = false;
  let exited = false;
  let cancelled = false;
  let resolveDone!: (r: AnalysisResult) => void;
  let rejectDone!: (e: AnalysisFailure) => void;
  let resolveStopped!: () => void;
  const done = new Promise<AnalysisResult>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  const stopped = new Promise<void>((res) => (resolveStopped = res));
  const feeder = fed ? new Feeder(fed, (m, transfer) => link.post(m, transfer)) : undefined;
  /** The first end wins: a result, an error, a failure, or the worker's exit. */
  const finish = (f: () => void) => {
    if (settled) return;
    settled = true;
    feeder?.close();
    f();
  };
  /** The run is over: nothing of it may keep working. */
  const end = () => {
    if (!exited) link.terminate();
  };

  const link = connect({
    message: (m) => {
      switch (m.type) {
        case 'progress':
          if (!settled) listener.onProgress(m.progress);
          return;
        case 'partial':
          if (!settled) listener.onPartial(m.result);
          return;
        case 'read':
          if (!settled) {
            if (feeder) feeder.read(m.pass);
            else link.post({ type: 'chunk', pass: m.pass, error: 'the host feeds no input to this run' });
          }
          return;
        case 'done':
          finish(() => resolveDone(m.result));
          end();
          return;
        case 'error':
          finish(() => rejectDone(new AnalysisFailure(m.message, m.kind)));
          end();
          return;
      }
    },
    failed: (message) => {
      finish(() => rejectDone(new AnalysisFailure(`the analysis worker failed: ${message}`, 'internal')));
      end();
    },
    exited: (code) => {
      exited = true;
      finish(() => rejectDone(new AnalysisFailure(code ? `the analysis worker stopped (exit code ${code})` : 'the analysis worker ended without a result', 'internal')));
      resolveStopped();
    },
  });
  link.post(start);

  return {
    where,
    cancel: () => {
      if (cancelled || settled) return;
      cancelled = true;
      link.post({ type: 'cancel' });
      // The worker checks for a cancel between slices of input (run.ts); if it does not answer in
      // time (a stuck read, say), it is ended and the run reports what it had.
      const timer = setTimeout(end, CANCEL_GRACE_MS);
      void stopped.then(() => clearTimeout(timer));
    },
    done,
    stopped,
  };
}

/**
 * The host's side of a fed input: answers the worker's reads in order, one chunk each, opening the
 * source again for a new pass. Each chunk goes over as a copy the worker owns (transferred, so it
 * is copied once), and the source keeps its bytes for the next pass.
 */
class Feeder {
  #pass = 0;
  #chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array> | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly source: ChunkSource,
    private readonly post: (m: ChunkMessage, transfer?: ArrayBuffer[]) => void,
  ) {}

  read(pass: number): void {
    this.#queue = this.#queue.then(() => this.#answer(pass));
  }

  close(): void {
    void this.#chunks?.return?.();
    this.#chunks = undefined;
  }

  async #answer(pass: number): Promise<void> {
    try {
      if (pass !== this.#pass) {
        this.close();
        this.#pass = pass;
        const opened = this.source.open();
        this.#chunks = Symbol.asyncIterator in opened ? opened[Symbol.asyncIterator]() : opened[Symbol.iterator]();
      }
      if (!this.#chunks) return; // closed: the run is over
      const r = await this.#chunks.next();
      const size = this.source.size;
      if (r.done) {
        this.post({ type: 'chunk', pass, size });
        return;
      }
      const own = r.value.slice();
      this.post({ type: 'chunk', pass, bytes: own.buffer, size }, [own.buffer]);
    } catch (e) {
      this.post({ type: 'chunk', pass, error: e instanceof Error ? e.message : String(e) });
    }
  }
}
