/**
 * Running an analysis over a stream: progress callbacks, partial results while it runs,
 * cancellation between slices of input, and the second (exact-count) pass where the input can be
 * read again. The caller supplies the bytes (a file stream in Node, a `File` or `Blob` stream in a
 * web worker, the editor's text), so this file has no Node import.
 */
import { KeyAnalyzer, type AnalyzeOptions } from './analyzer';
import type { AnalysisResult } from './figures';
import type { KeyReader } from './readers';

export interface ChunkSource {
  /** The input from its start. Called a second time for the exact-count pass where `rereadable`. */
  open(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** The input can be opened again and gives the same bytes (a file; not a pipe). */
  rereadable?: boolean;
  /** Total size in bytes, where known (for progress). */
  size?: number;
}

export interface AnalyzeProgress {
  /** 'count': the main pass; 'exact': the second pass that counts the heavy-key candidates exactly. */
  phase: 'count' | 'exact';
  bytes: number;
  totalBytes?: number;
  lines: number;
  keys: number;
  problems: number;
  elapsedMs: number;
}

export interface AnalyzeControl {
  /** Checked between slices of input; an AbortSignal will do. */
  signal?: { readonly aborted: boolean };
  onProgress?: (p: AnalyzeProgress) => void;
  /** Figures so far (status 'partial'), at most every `partialIntervalMs`. */
  onPartial?: (r: AnalysisResult) => void;
  progressIntervalMs?: number;
  partialIntervalMs?: number;
  /**
   * Longest stretch of work between two returns to the event loop, so that a cancel message can
   * arrive even when the source never waits (default 50 ms).
   */
  yieldEveryMs?: number;
}

/** Input is fed in slices of at most this size, so cancellation is checked often. */
const SLICE = 1 << 20;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Analyses the keys of `source`. Resolves with the figures: status 'complete', or 'cancelled' with
 * what was counted when the signal was seen. Rejects on input that cannot be analysed at all
 * (`AnalyzeInputError`, e.g. a CSV header without the named column) and on a failing source.
 */
export async function analyzeKeys(source: ChunkSource, options: AnalyzeOptions, control: AnalyzeControl = {}): Promise<AnalysisResult> {
  const analyzer = new KeyAnalyzer(options);
  const started = Date.now();
  const pass = async (reader: KeyReader, phase: AnalyzeProgress['phase']): Promise<boolean> => {
    let bytes = 0;
    let lastProgress = Date.now();
    let lastPartial = lastProgress;
    let lastYield = lastProgress;
    const progressEvery = control.progressIntervalMs ?? 250;
    const partialEvery = control.partialIntervalMs ?? 1000;
    const yieldEvery = control.yieldEveryMs ?? 50;
    const progress = (): void =>
      control.onProgress?.({
        phase,
        bytes,
        totalBytes: source.size,
        lines: reader.lines,
        keys: analyzer.keys,
        problems: analyzer.problemCount,
        elapsedMs: Date.now() - started,
      });
    for await (const chunk of source.open()) {
      for (let off = 0; off < chunk.length; off += SLICE) {
        if (control.signal?.aborted) return false;
        const slice = off === 0 && chunk.length <= SLICE ? chunk : chunk.subarray(off, Math.min(chunk.length, off + SLICE));
        reader.feed(slice);
        bytes += slice.length;
        const now = Date.now();
        if (now - lastProgress >= progressEvery) {
          lastProgress = now;
          progress();
        }
        if (phase === 'count' && control.onPartial && now - lastPartial >= partialEvery) {
          lastPartial = now;
          control.onPartial(analyzer.result('partial'));
        }
        if (now - lastYield >= yieldEvery) {
          await yieldToEventLoop();
          lastYield = Date.now();
        }
      }
    }
    if (control.signal?.aborted) return false;
    reader.end();
    progress();
    return true;
  };

  const counted = await pass(analyzer, 'count');
  if (!counted) return analyzer.result('cancelled');
  if (source.rereadable && analyzer.wantsExactPass) {
    const exact = analyzer.exactPass();
    const done = await pass(exact, 'exact');
    if (!done) return analyzer.result('cancelled');
  }
  return analyzer.result('complete');
}

/** A source over bytes or text held in memory (an editor selection, a test). */
export function memorySource(data: Uint8Array | string, chunkSize: number = 1 << 16): ChunkSource {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return {
    rereadable: true,
    size: bytes.length,
    *open() {
      for (let off = 0; off < bytes.length; off += chunkSize) yield bytes.subarray(off, Math.min(bytes.length, off + chunkSize));
    },
  };
}

/** Analyses bytes or text held in memory, synchronously (both passes). */
export function analyzeBytes(data: Uint8Array | string, options: AnalyzeOptions): AnalysisResult {
  const analyzer = new KeyAnalyzer(options);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  analyzer.feed(bytes);
  analyzer.end();
  if (analyzer.wantsExactPass) {
    const exact = analyzer.exactPass();
    exact.feed(bytes);
    exact.end();
  }
  return analyzer.result('complete');
}
