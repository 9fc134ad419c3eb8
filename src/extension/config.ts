/**
 * The one place the extension reads its settings. It rebuilds the routing model whenever a
 * `keyRouting.*` setting changes (no reload), keeps each topic's last good entry while its
 * current entry is invalid, and reports every finding with its setting path and a fix:
 * diagnostics on the settings file at the right line, a notification for errors and warnings
 * (once per distinct set) with "Open Settings", and the "Key Routing" output channel.
 */
import * as vscode from 'vscode';
import { KAFKA_GROUPS, NAMESPACES, TOPICS } from '../engine/settings';
import { rangeLocator } from './jsonLocate';
import { buildModel, type Finding, type SettingsModel } from './settingsModel';

import { DEFAULT_HOVER_LANGUAGES, SECTION } from './constants';

export { HOVER_LANGUAGES, STATUS_BAR_ENABLED } from './constants';
import { HOVER_LANGUAGES, STATUS_BAR_ENABLED } from './constants';

/** Where the topics setting is written, so findings can be shown in that file. */
interface SettingsFile {
  uri: vscode.Uri;
  /** Path of the settings object inside the file: `[]` for settings.json, `["settings"]` in a .code-workspace. */
  within: string[];
}

export class RoutingConfig implements vscode.Disposable {
  #modelValue: SettingsModel;
  readonly #changed = new vscode.EventEmitter<SettingsModel>();
  /** Fires after the model was rebuilt from changed settings. */
  readonly onDidChange = this.#changed.event;
  readonly #diagnostics = vscode.languages.createDiagnosticCollection('keyRouting');
  readonly #disposables: vscode.Disposable[] = [];
  #lastNotified = '';
  #reportRun = 0;

  constructor(private readonly output: vscode.OutputChannel) {
    this.#modelValue = this.#read();
    this.#disposables.push(
      this.#changed,
      this.#diagnostics,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(TOPICS) || e.affectsConfiguration(NAMESPACES) || e.affectsConfiguration(KAFKA_GROUPS)) this.reload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reload()),
    );
    void this.#report();
  }

  get model(): SettingsModel {
    return this.#modelValue;
  }

  get hoverLanguages(): string[] {
    const v = vscode.workspace.getConfiguration().get<unknown>(HOVER_LANGUAGES);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : DEFAULT_HOVER_LANGUAGES;
  }

  get statusBarEnabled(): boolean {
    return vscode.workspace.getConfiguration().get<boolean>(STATUS_BAR_ENABLED) !== false;
  }

  /** Re-reads the settings now (the configuration event calls this). */
  reload(): void {
    this.#modelValue = this.#read(this.#modelValue);
    this.#changed.fire(this.#modelValue);
    void this.#report();
  }

  #read(previous?: SettingsModel): SettingsModel {
    const cfg = vscode.workspace.getConfiguration();
    return buildModel(cfg.get(TOPICS), cfg.get(NAMESPACES), previous ?? undefined, cfg.get(KAFKA_GROUPS));
  }

  /** The settings file holding the topics (a folder's or the workspace file), if any. */
  settingsFile(): SettingsFile | undefined {
    const cfg = vscode.workspace.getConfiguration();
    const defined = [TOPICS, NAMESPACES, KAFKA_GROUPS].some((k) => {
      const i = cfg.inspect(k);
      return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
    });
    if (!defined) return undefined;
    const wsFile = vscode.workspace.workspaceFile;
    if (wsFile && wsFile.scheme !== 'untitled') return { uri: wsFile, within: ['settings'] };
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? { uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'), within: [] } : undefined;
  }

  async #readText(uri: vscode.Uri): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return undefined;
    }
  }

  /** Where a finding sits in the settings file, or undefined. */
  async rangeOf(finding: Finding): Promise<{ uri: vscode.Uri; range: vscode.Range } | undefined> {
    const file = this.settingsFile();
    if (!file) return undefined;
    const text = await this.#readText(file.uri);
    return text === undefined ? undefined : this.#rangeIn(file, text, finding.path);
  }

  /** `find`: the text's range locator, when several paths are placed in it. */
  #rangeIn(file: SettingsFile, text: string, path: string, find = rangeLocator(text, file.within)): { uri: vscode.Uri; range: vscode.Range } | undefined {
    const r = find(path);
    return r && { uri: file.uri, range: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character) };
  }

  /** Diagnostics, the output channel and (for new errors or warnings) a notification. */
  async #report(): Promise<void> {
    const run = ++this.#reportRun;
    const model = this.#modelValue;
    const findings = model.findings;
    this.#logFindings(model);

    const file = this.settingsFile();
    const text = file ? await this.#readText(file.uri) : undefined;
    if (run !== this.#reportRun) return; // a newer change is being reported
    this.#diagnostics.clear();
    if (file && text !== undefined) {
      const find = rangeLocator(text, file.within);
      const diags = findings.map((f) => {
        const at = this.#rangeIn(file, text, f.path, find)?.range ?? new vscode.Range(0, 0, 0, 0);
        const d = new vscode.Diagnostic(at, `${f.path}: ${f.message}. Fix: ${f.fix}`, severityOf(f));
        d.source = vscode.l10n.t('Key Routing');
        return d;
      });
      this.#diagnostics.set(file.uri, diags);
    }

    const serious = findings.filter((f) => f.severity !== 'info');
    const key = serious.map((f) => `${f.path}: ${f.message}`).join('\n');
    if (key === this.#lastNotified) return;
    this.#lastNotified = key;
    if (serious.length === 0) return;
    const first = serious[0];
    const more = serious.length > 1 ? ` ${vscode.l10n.t('(and {0} more; see the Key Routing output)', serious.length - 1)}` : '';
    const kept = model.stale.size ? ` ${vscode.l10n.t('Until it is fixed, {0} keeps routing with the last good settings.', [...model.stale].join(', '))}` : '';
    const message = vscode.l10n.t('Key Routing settings: {0}: {1}. Fix: {2}.', first.path, first.message, first.fix) + more + kept;
    const show = first.severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    const openSettings = vscode.l10n.t('Open Settings');
    const showOutput = vscode.l10n.t('Show Output');
    void show(message, openSettings, showOutput).then(async (choice) => {
      if (choice === openSettings) await this.openSettings(first);
      else if (choice === showOutput) this.output.show(true);
    });
  }

  #logFindings(model: SettingsModel): void {
    // Nothing configured, nothing wrong: say nothing (and create no output channel).
    if (!model.configured && model.findings.length === 0) return;
    const topics = model.settings.topics.length;
    // Formatted by hand: the first toLocaleTimeString of a process loads locale data (tens of ms at activation).
    const now = new Date();
    const stamp = [now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    if (model.findings.length === 0) {
      this.output.appendLine(`[${stamp}] Settings read: ${topics} topic${topics === 1 ? '' : 's'}, no problems.`);
      return;
    }
    this.output.appendLine(`[${stamp}] Settings read: ${topics} topic${topics === 1 ? '' : 's'}, ${model.findings.length} finding${model.findings.length === 1 ? '' : 's'}:`);
    for (const f of model.findings) this.output.appendLine(`  ${f.severity.padEnd(7)} ${f.path}: ${f.message}\n          Fix: ${f.fix}`);
    for (const name of model.stale) this.output.appendLine(`  ${name}: its entry is invalid; routing with its last good settings.`);
  }

  /** Opens the settings file at the finding, or the Settings editor filtered to Key Routing. */
  async openSettings(finding?: Finding): Promise<void> {
    const at = finding ? await this.rangeOf(finding) : undefined;
    const file = this.settingsFile();
    if (at || file) {
      try {
        const doc = await vscode.workspace.openTextDocument(at?.uri ?? file!.uri);
        await vscode.window.showTextDocument(doc, at ? { selection: at.range } : {});
        return;
      } catch {
        /* fall through to the Settings editor */
      }
    }
    await vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}

function severityOf(f: Finding): vscode.DiagnosticSeverity {
  return f.severity === 'error' ? vscode.DiagnosticSeverity.Error : f.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
}
