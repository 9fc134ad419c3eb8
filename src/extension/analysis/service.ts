/**
 * Runs "Analyze Keys": one run at a time, with a progress notification that can cancel it, the
 * figures sent to the routing panel while it runs (partial) and when it ends, a line in the output
 * channel, re-runs of a finished run's input under the panel's what-if steps, and export.
 */
import * as vscode from 'vscode';
import type { InputSpec } from '../../analyze/analyzer';
import type { AnalysisResult } from '../../analyze/figures';
import type { WorkerAnalyzeOptions } from '../../analyze/protocol';
import type { KeyFormat } from '../../analyze/readers';
import type { AnalyzeProgress } from '../../analyze/run';
import { formatEvent, type TopologyEvent } from '../../engine/events';
import type { AnalysisRunInfo } from '../../shared/protocol';
import type { RoutingConfig } from '../config';
import { AnalysisFailure, type AnalysisBackend, type RunHandle } from './backend';
import { describeInput } from './inputFormat';
import { documentChunks, type AnalysisSource } from './source';

export interface AnalyzeRequest {
  source: AnalysisSource;
  input: InputSpec;
  keyFormat: KeyFormat;
  /** Re-analyse for one topic under these what-if steps. */
  whatIf?: { topic: string; events: TopologyEvent[]; baseId?: number; requestId?: number };
  /** Cancels the run too (besides the notification's Cancel). */
  token?: vscode.CancellationToken;
}

export interface AnalysisOutcome {
  runId: number;
  status: 'complete' | 'cancelled' | 'failed';
  result?: AnalysisResult;
  error?: string;
  /** Where it ran: "a worker thread", or on the extension host. */
  where: string;
  source: string;
  /** From the cancel request until nothing of the run was left working (the worker had exited). */
  stopMs?: number;
  /** After a cancel: the run answered it with its figures so far ('itself'), or was ended by force. */
  stoppedBy?: 'itself' | 'force';
}

/** Where runs show up: the routing panel (opened for a run that starts). */
export interface AnalysisView {
  /** Shows the run; returns whether the panel received it. */
  show(run: AnalysisRunInfo, reveal: boolean): boolean;
}

interface RunRecord {
  info: AnalysisRunInfo;
  request: AnalyzeRequest;
  handle?: RunHandle;
  cancelAt?: number;
  finished: Promise<AnalysisOutcome>;
}

/** What the API tells tests about the run in progress. */
export interface RunningAnalysis {
  readonly id: number;
  readonly where: string;
  readonly progress: AnalyzeProgress | undefined;
  /** Partial figures reached the panel (or would have, with the panel closed). */
  readonly partials: number;
  /** What the notification's Cancel does. */
  cancel(): void;
}

const INTERVALS = { progressMs: 200, partialMs: 600 };
/** Finished runs kept for export and what-if (with the running one). */
const KEEP = 8;

export class AnalysisService implements vscode.Disposable {
  #nextId = 1;
  readonly #runs = new Map<number, RunRecord>();
  #active: RunRecord | undefined;
  #partials = 0;
  /** The last state of each run the panel received, noted by the panel (for tests: nothing partial may read as complete). */
  readonly sentToPanel = new Map<number, AnalysisRunInfo['status']>();
  #backendValue: AnalysisBackend | undefined;

  constructor(
    private readonly config: RoutingConfig,
    private readonly output: vscode.OutputChannel,
    /** Made on the first run, so that activating the extension loads no worker code. */
    private readonly makeBackend: () => AnalysisBackend,
    private readonly view: () => AnalysisView | undefined,
  ) {}

  get backend(): AnalysisBackend {
    return (this.#backendValue ??= this.makeBackend());
  }

  get running(): RunningAnalysis | undefined {
    const r = this.#active;
    if (!r) return undefined;
    const self = this;
    return {
      id: r.info.id,
      where: r.info.where,
      get progress() {
        return r.info.progress;
      },
      get partials() {
        return self.#partials;
      },
      cancel: () => this.cancel(r.info.id),
    };
  }

  /** The latest base run and its what-if runs, oldest first (for a panel that (re)loads). */
  snapshot(): AnalysisRunInfo[] {
    const all = [...this.#runs.values()].map((r) => r.info);
    const base = all.filter((i) => !i.whatIf).pop();
    if (!base) return [];
    return all.filter((i) => i === base || i.whatIf?.baseId === base.id);
  }

  info(runId: number): AnalysisRunInfo | undefined {
    return this.#runs.get(runId)?.info;
  }

  cancel(runId: number): boolean {
    const r = this.#runs.get(runId);
    if (!r || r.info.status !== 'running') return false;
    if (r.cancelAt === undefined) r.cancelAt = Date.now();
    r.handle?.cancel();
    return true;
  }

  /** Starts a run (cancelling one in progress) and resolves when it has ended. */
  analyze(request: AnalyzeRequest): Promise<AnalysisOutcome> {
    if (this.#active) this.cancel(this.#active.info.id);
    const id = this.#nextId++;
    const info: AnalysisRunInfo = {
      id,
      source: request.source.label,
      inputLabel: describeInput(request.input, request.keyFormat),
      where: '',
      status: 'running',
    };
    if (request.whatIf) {
      info.whatIf = { baseId: request.whatIf.baseId ?? 0, topic: request.whatIf.topic, events: request.whatIf.events };
      if (request.whatIf.requestId !== undefined) info.whatIf.requestId = request.whatIf.requestId;
    }
    const record: RunRecord = { info, request, finished: undefined as unknown as Promise<AnalysisOutcome> };
    this.#runs.set(id, record);
    this.#prune();
    this.#active = record;
    this.#partials = 0;
    record.finished = this.#execute(record);
    return record.finished;
  }

  /** Analyses a finished run's input again, for one topic, under what-if steps. */
  whatIf(baseId: number, topic: string, events: TopologyEvent[], requestId?: number): Promise<AnalysisOutcome> | string {
    const base = this.#runs.get(baseId);
    if (!base || base.info.whatIf) return vscode.l10n.t('That analysis is no longer available: run Analyze Keys again.');
    if (base.info.status === 'running') return vscode.l10n.t('Wait until the analysis has finished (or cancel it).');
    return this.analyze({
      source: base.request.source,
      input: base.request.input,
      keyFormat: base.request.keyFormat,
      whatIf: { topic, events, baseId, requestId },
    });
  }

  /** Drops the oldest finished runs beyond KEEP; never the latest base run (what-if runs need its input). */
  #prune(): void {
    const ids = [...this.#runs.keys()];
    const latestBase = [...this.#runs.values()].filter((r) => !r.info.whatIf).pop()?.info.id;
    for (const old of ids.slice(0, Math.max(0, ids.length - KEEP))) {
      const r = this.#runs.get(old)!;
      if (r.info.status !== 'running' && old !== latestBase) this.#runs.delete(old);
    }
  }

  #options(request: AnalyzeRequest): WorkerAnalyzeOptions {
    // The settings the extension routes with (last good entries included), as plain data for the worker.
    const settings = JSON.parse(JSON.stringify(this.config.model.settings));
    const o: WorkerAnalyzeOptions = { settings, input: request.input, keyFormat: request.keyFormat };
    if (request.whatIf) {
      o.topic = request.whatIf.topic;
      o.events = request.whatIf.events;
    }
    return o;
  }

  #show(record: RunRecord, reveal = false): void {
    // The panel notes what it received in sentToPanel (also what it sends when it (re)loads).
    this.view()?.show(record.info, reveal);
  }

  async #execute(record: RunRecord): Promise<AnalysisOutcome> {
    const { info, request } = record;
    const title = request.whatIf
      ? vscode.l10n.t('Key Routing: analysing {0} under the what-if on {1}', info.source, request.whatIf.topic)
      : vscode.l10n.t('Key Routing: analysing {0}', info.source);
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const subs = [token.onCancellationRequested(() => this.cancel(info.id))];
      if (request.token) subs.push(request.token.onCancellationRequested(() => this.cancel(info.id)));
      let reported = 0;
      let lastPartial: AnalysisResult | undefined;
      try {
        const listener = {
          onProgress: (p: AnalyzeProgress) => {
            info.progress = p;
            // The first pass fills the bar to 95 %; the second (exact counts of the heaviest keys) the rest.
            const f = p.totalBytes ? Math.min(1, p.bytes / p.totalBytes) : 0;
            const pct = p.phase === 'count' ? 95 * f : 95 + 5 * f;
            const inc = Math.max(0, pct - reported);
            reported += inc;
            progress.report({
              increment: inc,
              message: p.phase === 'count' ? `${p.keys.toLocaleString('en-US')} keys${p.totalBytes ? `, ${Math.floor(100 * f)} %` : ''}` : 'counting the heaviest keys exactly…',
            });
          },
          onPartial: (r: AnalysisResult) => {
            if (info.status !== 'running') return;
            lastPartial = r;
            info.result = r;
            this.#partials++;
            this.#show(record);
          },
        };
        const options = this.#options(request);
        const handle =
          request.source.kind === 'file'
            ? this.backend.runFile(request.source.uri, options, listener, INTERVALS)
            : this.backend.runSource(documentChunks(request.source.document, request.source.range, request.source.version), options, listener, INTERVALS);
        record.handle = handle;
        info.where = handle.where;
        this.#show(record, !request.whatIf);
        if (record.cancelAt !== undefined) handle.cancel();
        let outcome: AnalysisOutcome;
        try {
          const result = await handle.done;
          info.result = result;
          info.status = result.status === 'complete' ? 'complete' : 'cancelled';
          outcome = { runId: info.id, status: info.status, result, where: handle.where, source: info.source };
          if (record.cancelAt !== undefined) outcome.stoppedBy = 'itself';
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          if (record.cancelAt !== undefined) {
            // Stopped by force after a cancel: what was counted so far (if anything), marked as such.
            info.result = lastPartial ? { ...lastPartial, status: 'cancelled' } : undefined;
            info.status = 'cancelled';
            outcome = { runId: info.id, status: 'cancelled', result: info.result, where: handle.where, source: info.source, stoppedBy: 'force' };
          } else {
            info.status = 'failed';
            info.error = message;
            if (info.result) info.result = { ...info.result, status: 'cancelled' };
            outcome = { runId: info.id, status: 'failed', error: message, where: handle.where, source: info.source };
            if (!(e instanceof AnalysisFailure) || e.kind === 'internal') this.output.appendLine(`Analyze Keys: ${info.source}: ${message}`);
          }
        }
        await handle.stopped;
        if (record.cancelAt !== undefined) outcome.stopMs = Date.now() - record.cancelAt;
        this.#show(record);
        this.#log(info, outcome);
        return outcome;
      } finally {
        if (this.#active === record) this.#active = undefined;
        for (const s of subs) s.dispose();
      }
    });
  }

  #log(info: AnalysisRunInfo, outcome: AnalysisOutcome): void {
    const r = outcome.result;
    const what = info.whatIf ? ` under ${info.whatIf.events.map(formatEvent).join(' ')} on ${info.whatIf.topic}` : '';
    const stop = outcome.stopMs !== undefined ? `; stopped ${outcome.stopMs} ms after the cancel` : '';
    if (outcome.status === 'failed') {
      this.output.appendLine(`Analyze Keys: ${info.source}${what}: failed: ${outcome.error}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Key Routing: Analyze Keys: {0}', outcome.error ?? ''));
      return;
    }
    const n = r ? r.input.keys.toLocaleString('en-US') : '0';
    const skipped = r && r.problems.count > 0 ? `, ${r.problems.count} line${r.problems.count === 1 ? '' : 's'} gave no key (first on line ${r.problems.first[0]?.line})` : '';
    const skippedShown = r && r.problems.count > 0 ? vscode.l10n.t(', {0} lines gave no key (first on line {1})', r.problems.count, r.problems.first[0]?.line ?? '?') : '';
    this.output.appendLine(
      `Analyze Keys: ${info.source}${what} (${info.inputLabel}): ${outcome.status}, ${n} keys${skipped}, ${r ? (r.elapsedMs / 1000).toFixed(2) : '?'} s in ${info.where}${stop}`,
    );
    if (outcome.status === 'complete' && !info.whatIf) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Key Routing: analysed {0} keys of {1}{2}. The figures are in the routing panel\'s Analysis view.', n, info.source, skippedShown));
    }
  }

  dispose(): void {
    for (const r of this.#runs.values()) r.handle?.cancel();
    this.#runs.clear();
  }
}
