/**
 * Key Routing Inspector in VS Code: where does the key under the cursor go? Commands (one file
 * each under commands/), a hover, a status bar item, and settings read in one place (config.ts).
 * Runs in the Node extension host and in VS Code for the Web: only `vscode` and the engine.
 */
import * as vscode from 'vscode';
import { stringKey } from '../engine/key';
import { addTopic } from './commands/addTopic';
import { openPanel } from './commands/openPanel';
import { RoutingPanel, RoutingPanelSerializer } from './panel/routingPanel';
import { routeKey } from './commands/routeKey';
import { showRoute } from './commands/showRoute';
import { RoutingConfig } from './config';
import { RouteHover } from './hover';
import { LastRoute, type Services } from './present';
import type { KeyRoutes } from './routeFormat';
import { routeKeys, type SettingsModel } from './settingsModel';
import { RouteStatusBar } from './statusBar';

/** What `activate` returns: for other extensions and for the extension-host tests. */
export interface KeyRoutingApi {
  readonly model: SettingsModel;
  readonly onDidChangeModel: vscode.Event<SettingsModel>;
  /** Routes text keys on the configured topics, without showing anything. */
  route(keys: string[]): KeyRoutes[];
  /** The status bar item's current text, or undefined while it is hidden. */
  readonly statusBarText: string | undefined;
}

export function activate(context: vscode.ExtensionContext): KeyRoutingApi {
  const output = vscode.window.createOutputChannel('Key Routing');
  const config = new RoutingConfig(output);
  const results = new LastRoute(config);
  const s: Services = { config, output, results };
  const status = new RouteStatusBar(config);
  context.subscriptions.push(
    output,
    config,
    results,
    new RouteHover(config),
    status,
    vscode.commands.registerCommand('keyRouting.showRoute', () => showRoute(s)),
    vscode.commands.registerCommand('keyRouting.routeKey', (key?: unknown) => routeKey(s, key)),
    vscode.commands.registerCommand('keyRouting.openPanel', (arg?: unknown) => openPanel(context.extensionUri, s, arg)),
    vscode.window.registerWebviewPanelSerializer(RoutingPanel.viewType, new RoutingPanelSerializer(context.extensionUri, s)),
    vscode.commands.registerCommand('keyRouting.addTopic', (arg?: unknown) => addTopic(s, arg)),
  );
  return {
    get model() {
      return config.model;
    },
    onDidChangeModel: config.onDidChange,
    route: (keys) => routeKeys(config.model, keys.map((k) => ({ label: k, key: stringKey(k) }))),
    get statusBarText() {
      return status.visibleText;
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
