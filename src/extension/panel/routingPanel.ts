/**
 * The routing panel on the host side: one webview panel (created or revealed), restored after a
 * reload by its serializer, fed with the settings the extension routes with and the keys of
 * each route result. Every message from the webview goes through the protocol's validator; an
 * invalid one is logged to the output channel (rate-limited) and never acted on.
 */
import * as vscode from 'vscode';
import type { MessageKey } from '../../engine/key';
import {
  isProtocolError,
  parseFromWebviewMessage,
  refusedApplyId,
  type AnalysisRunInfo,
  type AnalyzeWhatIfMessage,
  type ApplyToSettingsMessage,
  type ApplyGroupMessage,
  type ExportAnalysisMessage,
  type Focus,
  type KeyInput,
  type ToWebviewMessage,
} from '../../shared/protocol';
import { panelReports, type PanelObserved } from '../../shared/view/observedPanel';
import { packSettings } from '../../shared/packedSettings';
import { buildFrames, type TopicFrame } from '../../shared/view/frame';
import { keyId } from '../../shared/view/shownKeys';
import { exportAnalysis } from '../analysis/exportAnalysis';
import type { Services } from '../present';
import { applyWithConfirmation } from './applySettings';
import { panelHtml } from './html';

/** Invalid messages logged per minute; the rest are counted and summarised. */
const LOG_BUDGET = 20;

/** What to show first: a topic, and maybe a what-if of one of its consumers leaving (see `Focus`). */
export type PanelOptions = Focus;

export class RoutingPanel implements vscode.Disposable {
  static readonly viewType = 'keyRouting.panel';
  static #current: RoutingPanel | undefined;

  readonly #disposables: vscode.Disposable[] = [];
  #ready = false;
  #focus: Focus | undefined;
  #applying = false;
  #logWindowStart = 0;
  #logged = 0;
  #suppressed = 0;
  /** An analysis run asked to be shown before the webview was ready. */
  #revealAnalysis = false;
  /** What the webview shows (`panelView`): its keys, routed in every `state`, and its width. */
  #panelKeys: KeyInput[] = [];
  #panelWidth: number | undefined;
  /** The topic the panel shows, as it last said (its frame goes first). */
  #panelTopic: string | undefined;

  /** Opens the panel, or reveals it; shows the last routed keys. */
  static createOrShow(extensionUri: vscode.Uri, s: Services, options: PanelOptions = {}): RoutingPanel {
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const existing = RoutingPanel.#current;
    if (existing) {
      existing.panel.reveal(column);
      existing.#show(options);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(RoutingPanel.viewType, vscode.l10n.t('Key Routing'), column, RoutingPanel.#webviewOptions(extensionUri));
    const p = new RoutingPanel(panel, extensionUri, s);
    p.#show(options);
    return p;
  }

  /** Takes over a panel VS Code restored after a reload; its webview keeps its own state. */
  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, s: Services): RoutingPanel {
    panel.webview.options = RoutingPanel.#webviewOptions(extensionUri);
    return new RoutingPanel(panel, extensionUri, s);
  }

  /** The open panel, if any (for tests). */
  static get currentPanel(): RoutingPanel | undefined {
    return RoutingPanel.#current;
  }

  static #webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    // Scripts for the panel's bundle; files only from media/ (its CSS) and dist/ (the bundle, dist/extension.js).
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')] };
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly s: Services,
  ) {
    RoutingPanel.#current = this;
    panel.webview.html = panelHtml(panel.webview, extensionUri);
    this.#disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.#onMessage(raw)),
      s.config.onDidChange(() => this.#postState([])),
      s.results.onDidChange(() => this.#post({ type: 'showKeys', keys: this.#routedKeys() })),
    );
  }

  #show(options: PanelOptions): void {
    if (options.topic) this.#focus = options;
    // Before `ready` the webview cannot receive; the answer to `ready` carries this.
    this.#post({ type: 'showKeys', keys: this.#routedKeys(), focus: this.#takeFocus() });
  }

  /**
   * The focus, once the webview can take it, and only once: the state each settings change sends
   * must not take the panel back to it from the topic the user went on to, nor undo the what-if
   * steps taken since.
   */
  #takeFocus(): Focus | undefined {
    const focus = this.#focus;
    if (this.#ready) this.#focus = undefined;
    return focus;
  }

  #onMessage(raw: unknown): void {
    const msg = parseFromWebviewMessage(raw);
    if (isProtocolError(msg)) {
      const why = msg.toString();
      this.#log(`panel: ignored an invalid message from the webview: ${why.slice(0, 300)}`);
      const requestId = refusedApplyId(raw);
      if (requestId !== undefined) this.#post({ type: 'applyResult', requestId, outcome: 'rejected', message: vscode.l10n.t('Not applied: {0}.', why) });
      return;
    }
    switch (msg.type) {
      case 'ready': {
        this.#ready = true;
        this.#postState(this.#routedKeys());
        const runs = this.s.analysis?.snapshot() ?? [];
        runs.forEach((run, i) => this.#post({ type: 'analysis', run, ...(this.#revealAnalysis && i === 0 ? { reveal: true } : {}) }));
        this.#revealAnalysis = false;
        return;
      }
      case 'webviewError':
        this.#log(`panel: error in the webview: ${msg.message}`);
        return;
      case 'applyToSettings':
      case 'applyGroupToSettings':
        void this.#apply(msg);
        return;
      case 'exportAnalysis':
        void this.#exportAnalysis(msg);
        return;
      case 'analyzeWhatIf':
        this.#analyzeWhatIf(msg);
        return;
      case 'cancelAnalysis':
        this.s.analysis?.cancel(msg.runId);
        return;
      case 'panelView':
        this.#panelKeys = msg.keys;
        this.#panelWidth = msg.width;
        this.#panelTopic = msg.topic;
        return;
    }
  }

  /** Shows an analysis run (its start, partial figures, its end); false if the webview cannot take it yet. */
  showAnalysis(run: AnalysisRunInfo, reveal: boolean): boolean {
    if (!this.#ready) {
      if (reveal) this.#revealAnalysis = true;
      return false;
    }
    this.#post({ type: 'analysis', run, ...(reveal ? { reveal: true } : {}) });
    return true;
  }

  async #exportAnalysis(msg: ExportAnalysisMessage): Promise<void> {
    const run = this.s.analysis?.info(msg.runId);
    const r = run ? await exportAnalysis(run, msg.format) : { outcome: 'failed' as const, message: vscode.l10n.t('That analysis is no longer available: run Analyze Keys again.') };
    if (r.outcome === 'saved' || r.outcome === 'failed') this.s.output.appendLine(`Analyze Keys: export: ${r.message}`);
    this.#post({ type: 'exportResult', requestId: msg.requestId, outcome: r.outcome, message: r.message });
  }

  #analyzeWhatIf(msg: AnalyzeWhatIfMessage): void {
    const r = this.s.analysis?.whatIf(msg.runId, msg.topic, msg.events, msg.requestId) ?? vscode.l10n.t('Analyze Keys is not available.');
    if (typeof r === 'string') void vscode.window.showWarningMessage(`Key Routing: ${r}`);
  }

  async #apply(msg: ApplyToSettingsMessage | ApplyGroupMessage): Promise<void> {
    if (this.#applying) {
      this.#post({ type: 'applyResult', requestId: msg.requestId, outcome: 'rejected', message: vscode.l10n.t('Not applied: another change is waiting for confirmation.') });
      return;
    }
    this.#applying = true;
    try {
      const log = (line: string) => this.s.output.appendLine(line);
      const r = await applyWithConfirmation(msg, log);
      this.#post({ type: 'applyResult', requestId: msg.requestId, outcome: r.outcome, message: r.message });
    } finally {
      this.#applying = false;
    }
  }

  #postState(keys: KeyInput[]): void {
    const model = this.s.config.model;
    const problems = model.findings.filter((f) => f.severity !== 'info').map((f) => ({ path: f.path, message: f.message }));
    const focus = this.#takeFocus();
    this.#post({
      type: 'state',
      settings: packSettings(model.settings),
      stale: [...model.stale],
      problems,
      keys,
      focus,
      ...this.#frames(keys, focus?.topic ?? this.#panelTopic),
      ...this.#observed(),
    });
  }

  /** The broker's reports of the topics that have one (the engine's `observedView`, as the panel shows it). */
  #observed(): { observed?: PanelObserved[] } {
    try {
      const views = panelReports(this.s.config.model.topology);
      return views.length ? { observed: views } : {};
    } catch (e) {
      this.#log(`panel: the observed state could not be shown: ${(e as Error).message}`);
      return {};
    }
  }

  /**
   * The topics as the host's topology holds them, with the routes of the panel's keys and the new
   * ones: the webview draws from these at once instead of working the assignments out again (the
   * shown topic's first, then as many others as a message holds: `buildFrames`).
   */
  #frames(keys: readonly KeyInput[], shown: string | undefined): { frames?: TopicFrame[] } {
    const seen = new Set<string>();
    const all = [...keys, ...this.#panelKeys].filter((k) => !seen.has(keyId(k)) && !!seen.add(keyId(k)));
    try {
      return { frames: buildFrames(this.s.config.model.topology, all, this.#panelWidth, { shown }) };
    } catch (e) {
      // The webview works the views out itself without frames; a failure here must not stop the state.
      this.#log(`panel: the topic frames could not be built: ${(e as Error).message}`);
      return {};
    }
  }

  #post(msg: ToWebviewMessage): void {
    if (!this.#ready) return;
    void this.panel.webview.postMessage(msg);
    if (msg.type === 'analysis') this.s.analysis?.sentToPanel.set(msg.run.id, msg.run.status);
  }

  #routedKeys(): KeyInput[] {
    return this.s.results.routedKeys.map((k) => toKeyInput(k.key));
  }

  /** Logs, at most LOG_BUDGET lines a minute, so a flood of bad messages cannot flood the channel. */
  #log(line: string): void {
    const now = Date.now();
    if (now - this.#logWindowStart > 60_000) {
      if (this.#suppressed > 0) this.s.output.appendLine(`panel: ${this.#suppressed} more invalid messages were ignored without logging`);
      this.#logWindowStart = now;
      this.#logged = 0;
      this.#suppressed = 0;
    }
    if (this.#logged++ < LOG_BUDGET) this.s.output.appendLine(line);
    else this.#suppressed++;
  }

  #disposed = false;

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (RoutingPanel.#current === this) RoutingPanel.#current = undefined;
    this.panel.dispose();
    while (this.#disposables.length) this.#disposables.pop()?.dispose();
  }
}

/** Restores the panel after a window reload (`onWebviewPanel:keyRouting.panel`). */
export class RoutingPanelSerializer implements vscode.WebviewPanelSerializer {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly s: Services,
  ) {}

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    // The webview's own state (getState) comes back with it; nothing to pass here.
    RoutingPanel.revive(panel, this.extensionUri, this.s);
  }
}

export function toKeyInput(key: MessageKey): KeyInput {
  if (key.text !== null) return { format: 'utf8', value: key.text };
  return { format: 'hex', value: Array.from(key.bytes, (b) => b.toString(16).padStart(2, '0')).join('') };
}
