/**
 * What a backend's run looks like to the analysis service (backend.ts). No `vscode` import, so the
 * worker runner (workerRun.ts) can be tested in plain Node.
 */
import type { AnalysisResult } from '../../analyze/figures';
import type { AnalyzeProgress } from '../../analyze/run';

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
  /** Settles when nothing of the run is left working (the worker has ended). */
  readonly stopped: Promise<void>;
}

export interface Intervals {
  progressMs: number;
  partialMs: number;
}
