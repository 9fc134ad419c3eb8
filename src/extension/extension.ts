/**
 * Key Routing Inspector in VS Code: where does the key under the cursor go? Commands (one file
 * each under commands/), a hover, a status bar item, and settings read in one place (config.ts).
 * Runs in the Node extension host and in VS Code for the Web: only `vscode` and the engine.
 */
import * as vscode from 'vscode';
import { stringKey } from '../engine/key';
import { HostBackend, type AnalysisBackend } from './analysis/backend';
import { WebWorkerBackend } from './analysis/webBackend';
import { exportAnalysis, type ExportOutcomeInfo } from './analysis/exportAnalysis';
import { AnalysisService, type RunningAnalysis } from './analysis/service';
import { addTopic } from './commands/addTopic';
import { ADMIN_CA_FILE, importTopology, type ImportDeps, type ImportOutcome } from './commands/importTopology';
import type { AdminTransport } from './import/adminApi';
import { ImportPreview } from './import/preview';
import { AdminCredentials } from './import/trust';
import { VsCodeImportUi, type ImportUi } from './import/ui';
import { WebTransport } from './import/webTransport';
import { analyzeKeys } from './commands/analyzeKeys';
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
import { LazyOutputChannel } from './lazyOutput';
import { openSampleSettings, openWalkthrough, useSampleSettings, type Confirm, type SampleOutcome } from './commands/sampleSettings';
import { registerTreeActions } from './tree/actions';
import type { TreeNode } from './tree/nodes';
import { TopologyView } from './tree/topologyView';

/** What `activate` returns to other extensions. */
export interface KeyRoutingApi {
  readonly model: SettingsModel;
  readonly onDidChangeModel: vscode.Event<SettingsModel>;
  /** Routes text keys on the configured topics, without showing anything. */
  route(keys: string[]): KeyRoutes[];
}

/**
 * Set by the build (esbuild.js): true in the development build, which the extension-host tests
 * load, and false in the .vsix, whose script then leaves the tests' hooks out.
 */
declare const KEY_ROUTING_TEST_HOOKS: boolean;

/** What `activate` returns in the development build: the API and the extension-host tests' hooks. */
export interface KeyRoutingTestApi extends KeyRoutingApi {
  /** The status bar item's current text, or undefined while it is hidden. */
  readonly statusBarText: string | undefined;
  /** The side bar's rows as built from the current settings, and its view (for the tests). */
  readonly tree: {
    readonly roots: TreeNode[];
    readonly view: vscode.TreeView<TreeNode>;
    /** The tree item VS Code is given for a row (without its tooltip). */
    item(n: TreeNode): vscode.TreeItem;
    /** The row's tooltip, as VS Code resolves it when the row is hovered. */
    tooltip(n: TreeNode): vscode.MarkdownString;
    reveal(id: string): Promise<TreeNode | undefined>;
    /** The value last given to the `keyRouting.configured` context key. */
    readonly configuredContext: boolean | undefined;
  };
  /** Use Sample Settings with the tests' answer to the confirmation instead of the modal. */
  useSampleSettings(confirm: Confirm): Promise<SampleOutcome>;
  /** Whether the hover and status bar item are registered (only while Key Routing is configured). */
  readonly editorFeatures: boolean;
  /** The last route notification's message and the table written to the output channel with it. */
  readonly lastShown: { message: string; table: string } | undefined;
  /** Analyze Keys, for the extension-host tests. */
  readonly analysis: {
    /** The run in progress; its `cancel()` is what the progress notification's Cancel does. */
    readonly running: RunningAnalysis | undefined;
    /** The last status of a run the routing panel received. */
    panelStatus(runId: number): string | undefined;
    /** Exports a run's figures to `uri` (the panel asks for the file in a save dialog). */
    exportTo(runId: number, format: 'csv' | 'json', uri: vscode.Uri): Promise<ExportOutcomeInfo>;
  };
  /** Only when the extension runs under tests: Import Topology driven by a scripted UI. */
  readonly testing?: {
    importTopology(ui: ImportUi, arg?: unknown): Promise<ImportOutcome>;
  };
}

/**
 * Whether this is the Node extension host. One bundle serves it and VS Code for the Web's
 * extension host (a web worker, where there is no Node `process`): the .vsix ships it once.
 */
function inNodeHost(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/**
 * Where Analyze Keys runs: in the Node extension host, files on disk go to a worker thread; in the
 * web extension host every analysis runs in a web worker. The Node backend (its `node:` imports)
 * is loaded only on the first analysis in a Node host, never in the web.
 */
function analysisBackend(extensionUri: vscode.Uri): AnalysisBackend {
  if (!inNodeHost()) {
    // A web extension host without workers (none known today) analyses on its own thread, in slices.
    return typeof Worker === 'function' ? new WebWorkerBackend(extensionUri) : new HostBackend();
  } else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NodeBackend } = require('./analysis/nodeBackend') as typeof import('./analysis/nodeBackend');
    // The worker thread runs this very script, dist/extension.js: src/main.ts starts the worker there.
    return new NodeBackend(vscode.Uri.joinPath(extensionUri, 'dist', 'extension.js').fsPath);
  }
}

/**
 * The admin REST transport: Node's http/https in the desktop host (loaded only there), fetch on
 * the web. A CA to trust comes from the user settings only (the setting is machine-scoped).
 */
function adminTransport(): AdminTransport {
  if (process.env.KEY_ROUTING_WEB === '1') {
    return new WebTransport();
  } else {
    const caFile = vscode.workspace.getConfiguration().inspect<string>(ADMIN_CA_FILE)?.globalValue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NodeTransport } = require('./import/nodeTransport') as typeof import('./import/nodeTransport');
    return new NodeTransport(typeof caFile === 'string' && caFile !== '' ? caFile : undefined);
  }
}

export function activate(context: vscode.ExtensionContext): KeyRoutingApi | KeyRoutingTestApi {
  const output = new LazyOutputChannel('Key Routing');
  const config = new RoutingConfig(output);
  const results = new LastRoute(config);
  const s: Services = { config, output, results };
  const analysis = new AnalysisService(config, output, () => analysisBackend(context.extensionUri), () => ({
    show: (run, reveal) => (reveal ? RoutingPanel.createOrShow(context.extensionUri, s, {}) : RoutingPanel.currentPanel)?.showAnalysis(run, reveal) ?? false,
  }));
  s.analysis = analysis;
  // The hover and the status bar item watch every editor: only while something is configured.
  let editorFeatures: { hover: RouteHover; status: RouteStatusBar } | undefined;
  const syncEditorFeatures = (m: SettingsModel) => {
    if (m.configured && !editorFeatures) editorFeatures = { hover: new RouteHover(config), status: new RouteStatusBar(config) };
    else if (!m.configured && editorFeatures) {
      editorFeatures.hover.dispose();
      editorFeatures.status.dispose();
      editorFeatures = undefined;
    }
  };
  syncEditorFeatures(config.model);
  const tree = new TopologyView(config);
  const preview = new ImportPreview();
  const importDeps: ImportDeps = {
    credentials: new AdminCredentials(context.secrets, context.globalState),
    state: context.globalState,
    transport: adminTransport,
  };
  context.subscriptions.push(
    output,
    config,
    results,
    config.onDidChange(syncEditorFeatures),
    { dispose: () => syncEditorFeatures({ ...config.model, configured: false }) },
    tree,
    ...registerTreeActions(s),
    vscode.commands.registerCommand('keyRouting.useSampleSettings', () => useSampleSettings()),
    vscode.commands.registerCommand('keyRouting.openSampleSettings', () => openSampleSettings()),
    vscode.commands.registerCommand('keyRouting.openWalkthrough', () => openWalkthrough()),
    vscode.commands.registerCommand('keyRouting.showRoute', () => showRoute(s)),
    vscode.commands.registerCommand('keyRouting.routeKey', (key?: unknown) => routeKey(s, key)),
    vscode.commands.registerCommand('keyRouting.openPanel', (arg?: unknown) => openPanel(context.extensionUri, s, arg)),
    vscode.window.registerWebviewPanelSerializer(RoutingPanel.viewType, new RoutingPanelSerializer(context.extensionUri, s)),
    vscode.commands.registerCommand('keyRouting.addTopic', (arg?: unknown) => addTopic(s, arg)),
    analysis,
    vscode.commands.registerCommand('keyRouting.analyzeKeys', (arg?: unknown, second?: unknown) => analyzeKeys(s, analysis, arg, second)),
    preview,
    vscode.commands.registerCommand('keyRouting.importTopology', (arg?: unknown) => importTopology(s, importDeps, new VsCodeImportUi(preview), arg)),
  );
  const api: KeyRoutingApi = {
    get model() {
      return config.model;
    },
    onDidChangeModel: config.onDidChange,
    route: (keys) => routeKeys(config.model, keys.map((k) => ({ label: k, key: stringKey(k) }))),
  };
  if (!KEY_ROUTING_TEST_HOOKS) return api;
  // Copied as descriptors: the hooks' getters read the state at each call.
  const hooks: Omit<KeyRoutingTestApi, keyof KeyRoutingApi> = {
    get statusBarText() {
      return editorFeatures?.status.visibleText;
    },
    tree: {
      get roots() {
        return tree.roots;
      },
      view: tree.treeView,
      item: (n) => tree.getTreeItem(n),
      tooltip: (n) => tree.resolveTreeItem(tree.getTreeItem(n), n).tooltip as vscode.MarkdownString,
      reveal: (id) => tree.reveal(id),
      get configuredContext() {
        return tree.configuredContext;
      },
    },
    useSampleSettings: (confirm) => useSampleSettings(confirm),
    get editorFeatures() {
      return editorFeatures !== undefined;
    },
    get lastShown() {
      return results.shown;
    },
    analysis: {
      get running() {
        return analysis.running;
      },
      panelStatus: (runId) => analysis.sentToPanel.get(runId),
      exportTo: async (runId, format, uri) => {
        const run = analysis.info(runId);
        return run ? exportAnalysis(run, format, uri) : { outcome: 'failed', message: `no run ${runId}` };
      },
    },
    // A scripted UI could confirm where the token goes: offered to tests only, never to other extensions.
    testing: context.extensionMode === vscode.ExtensionMode.Test ? { importTopology: (ui, arg) => importTopology(s, importDeps, ui, arg) } : undefined,
  };
  return Object.defineProperties(api, Object.getOwnPropertyDescriptors(hooks)) as KeyRoutingTestApi;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
