/**
 * A status bar item with the route of the current selection, debounced so that it never runs
 * while the user is still moving; hidden without a selection, a key or topics.
 */
import * as vscode from 'vscode';
import { STATUS_BAR_ENABLED, type RoutingConfig } from './config';
import { keysFromEditor } from './editorKeys';
import { shortNames, statusText, summarize } from './routeFormat';
import { routeKeys } from './settingsModel';
import { isSettingsFile } from './hover';

const DEBOUNCE_MS = 150;
/** The status bar only looks at selections this small; Show Route takes the large ones. */
const LIMITS = { maxChars: 1024 * 1024, maxKeys: 10_000 };

export class RouteStatusBar implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem('keyRouting.route', vscode.StatusBarAlignment.Right, 100);
  readonly #subs: vscode.Disposable[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #shown = false;

  /** The item's text while it is shown (for tests and the API). */
  get visibleText(): string | undefined {
    return this.#shown ? this.#item.text : undefined;
  }

  constructor(private readonly config: RoutingConfig) {
    this.#item.name = vscode.l10n.t('Key Routing');
    this.#item.command = 'keyRouting.showRoute';
    this.#subs.push(
      this.#item,
      vscode.window.onDidChangeTextEditorSelection(() => this.#schedule()),
      vscode.window.onDidChangeActiveTextEditor(() => this.#schedule()),
      config.onDidChange(() => this.#schedule()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(STATUS_BAR_ENABLED)) this.#schedule();
      }),
    );
    this.update();
  }

  #schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.update();
    }, DEBOUNCE_MS);
  }

  update(): void {
    const editor = vscode.window.activeTextEditor;
    const model = this.config.model;
    if (!this.config.statusBarEnabled || !editor || model.settings.topics.length === 0 || editor.selections.every((s) => s.isEmpty) || isSettingsFile(editor.document.uri)) {
      this.#hide();
      return;
    }
    const extraction = keysFromEditor(editor, LIMITS);
    if (!extraction.ok || extraction.keys.length === 0) {
      this.#hide();
      return;
    }
    const names = shortNames(model.topology.topics.map((t) => t.name));
    if (extraction.keys.length > 1) {
      this.#item.text = `$(key) ${vscode.l10n.t('{0} keys', extraction.keys.length.toLocaleString(vscode.env.language))}`;
      this.#item.tooltip = vscode.l10n.t('Key Routing: route the selected keys (Show Route)');
      this.#item.accessibilityInformation = { label: vscode.l10n.t('Key Routing: {0} keys selected; activate to route them', extraction.keys.length) };
    } else {
      const [k] = routeKeys(model, extraction.keys);
      this.#item.text = `$(key) ${statusText(k, names)}`;
      this.#item.tooltip = `${summarize(k, names)}\n${vscode.l10n.t('(click for the full table)')}`;
      this.#item.accessibilityInformation = { label: `${vscode.l10n.t('Key Routing')}: ${summarize(k, names)}` };
    }
    this.#item.show();
    this.#shown = true;
  }

  #hide(): void {
    this.#item.hide();
    this.#shown = false;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    for (const s of this.#subs) s.dispose();
  }
}
