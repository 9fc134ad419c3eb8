/**
 * What every command shares: the settings, the output channel, the last routed keys, and how a
 * route result is shown (a notification summary and the full table in the output channel).
 */
import * as vscode from 'vscode';
import type { MessageKey } from '../engine/key';
import type { AnalysisService } from './analysis/service';
import type { RoutingConfig } from './config';
import { routeTable, shortNames, summarize, type KeyRoutes } from './routeFormat';
import { routeKeys } from './settingsModel';

export interface KeyInput {
  label: string;
  key: MessageKey;
}

export interface Services {
  config: RoutingConfig;
  output: vscode.OutputChannel;
  results: LastRoute;
  /** Analyze Keys: runs, their figures for the routing panel, export and what-if re-runs. */
  analysis?: AnalysisService;
}

/** The keys routed last and their routes, re-routed when the settings change. */
export class LastRoute implements vscode.Disposable {
  #keys: KeyInput[] = [];
  #routesValue: KeyRoutes[] = [];
  /** What the last Show Route / Route a Key showed: the notification's message and the output table. */
  shown: { message: string; table: string } | undefined;
  readonly #changed = new vscode.EventEmitter<KeyRoutes[]>();
  readonly onDidChange = this.#changed.event;
  readonly #sub: vscode.Disposable;

  constructor(private readonly config: RoutingConfig) {
    this.#sub = config.onDidChange(() => {
      if (this.#keys.length) this.set(this.#keys);
    });
  }

  /** The keys routed last (the routing panel shows them). */
  get routedKeys(): readonly KeyInput[] {
    return this.#keys;
  }

  set(keys: KeyInput[]): KeyRoutes[] {
    this.#keys = keys;
    this.#routesValue = routeKeys(this.config.model, keys);
    this.#changed.fire(this.#routesValue);
    return this.#routesValue;
  }

  dispose(): void {
    this.#sub.dispose();
    this.#changed.dispose();
  }
}

/** True where topics are configured; otherwise says how to add one. */
export function requireTopics(s: Services): boolean {
  if (s.config.model.settings.topics.length > 0) return true;
  const problems = s.config.model.findings.some((f) => f.severity === 'error');
  const message = problems
    ? vscode.l10n.t('Key Routing: no valid topic to route on; fix the settings problems first.')
    : vscode.l10n.t('Key Routing: no topics configured. Add one to keyRouting.topics in the workspace settings.');
  const openSettings = vscode.l10n.t('Open Settings');
  const addTopic = vscode.l10n.t('Add Topic');
  void vscode.window.showWarningMessage(message, problems ? openSettings : addTopic).then((choice) => {
    if (choice === addTopic) void vscode.commands.executeCommand('keyRouting.addTopic');
    else if (choice === openSettings) void s.config.openSettings(s.config.model.findings[0]);
  });
  return false;
}

/**
 * Routes the keys, writes the table to the output channel, and shows the summary; with `onlyTopic`,
 * the table and summary show that topic alone (the panel still gets every topic's route).
 */
export function routeAndPresent(s: Services, keys: KeyInput[], origin: string, onlyTopic?: string): KeyRoutes[] {
  const all = s.results.set(keys);
  const routes = onlyTopic === undefined ? all : all.map((k) => ({ ...k, routes: k.routes.filter((r) => r.topic === onlyTopic) }));
  const topics = s.config.model.topology.topics.filter((t) => onlyTopic === undefined || t.name === onlyTopic);
  const names = shortNames(topics.map((t) => t.name));
  s.output.appendLine('');
  s.output.appendLine(`${origin}: ${keys.length} key${keys.length === 1 ? '' : 's'} on ${topics.length} topic${topics.length === 1 ? '' : 's'}`);
  const table = routeTable(routes);
  s.output.appendLine(table);
  const message = routes.length === 1 ? summarize(routes[0], names) : topics.length === 1
        ? vscode.l10n.t('{0} keys routed on 1 topic; see the Key Routing output for the table.', routes.length.toLocaleString(vscode.env.language))
        : vscode.l10n.t('{0} keys routed on {1} topics; see the Key Routing output for the table.', routes.length.toLocaleString(vscode.env.language), topics.length);
  s.results.shown = { message, table };
  if (routes.length > 1) s.output.show(true);
  const openPanel = vscode.l10n.t('Open Panel');
  const showOutput = vscode.l10n.t('Show Output');
  void vscode.window.showInformationMessage(message, openPanel, showOutput).then((choice) => {
    if (choice === openPanel) void vscode.commands.executeCommand('keyRouting.openPanel', onlyTopic === undefined ? undefined : { topic: onlyTopic });
    else if (choice === showOutput) s.output.show(true);
  });
  return routes;
}
