// One activation, timed, in a fresh Node process (test/bench/activation.mjs starts one per sample):
// `require` of the extension bundle and its `activate` call, with a minimal stand-in for the
// `vscode` module that only this bench uses (it answers every call the extension makes while
// activating and does nothing else, so the figures are the extension's own work, not VS Code's).
//   node activationChild.cjs BUNDLE SETTINGS.json|-    prints {"requireMs", "requireCpuMs", "activateMs", "activateCpuMs"}
const Module = require('node:module');
const { readFileSync } = require('node:fs');

const [bundle, settingsFile] = process.argv.slice(2);
const settings = settingsFile && settingsFile !== '-' ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};

const disposable = () => ({ dispose() {} });
const event = () => disposable;
class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (f) => (this.listeners.push(f), disposable());
  }
  fire(v) {
    for (const f of this.listeners) f(v);
  }
  dispose() {}
}
class Uri {
  constructor(path) {
    this.scheme = 'file';
    this.path = path;
    this.fsPath = path;
  }
  static file(p) {
    return new Uri(p);
  }
  static joinPath(u, ...parts) {
    return new Uri([u.path, ...parts].join('/'));
  }
  toString() {
    return `file://${this.path}`;
  }
}
const configuration = {
  get: (key, dflt) => (key in settings ? settings[key] : dflt),
  inspect: (key) => ({ key, workspaceValue: settings[key] }),
  update: async () => {},
};
/** Anything not modelled: a function returning a disposable (registrations, item factories). */
const permissive = (name) =>
  new Proxy(function () {}, {
    get: (_, k) => (k === 'then' ? undefined : typeof k === 'string' && k.startsWith('on') ? event : permissive(`${name}.${String(k)}`)),
    apply: () => new Proxy({ dispose() {}, show() {}, hide() {} }, { get: (o, k) => (k in o ? o[k] : k === 'then' ? undefined : permissive(String(k))) }),
    construct: () => ({}),
  });
const vscode = {
  EventEmitter,
  Uri,
  Disposable: class {
    constructor(f) {
      this.dispose = f;
    }
  },
  ThemeIcon: class {
    constructor(id, color) {
      Object.assign(this, { id, color });
    }
  },
  ThemeColor: class {
    constructor(id) {
      this.id = id;
    }
  },
  MarkdownString: class {
    constructor(value = '') {
      this.value = value;
    }
  },
  TreeItem: class {
    constructor(label, collapsibleState) {
      Object.assign(this, { label, collapsibleState });
    }
  },
  Range: class {},
  Position: class {},
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  ViewColumn: { Active: -1, Beside: -2 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  l10n: { t: (m, ...a) => m.replace(/\{(\d+)\}/g, (x, i) => (i < a.length ? String(a[i]) : x)) },
  workspace: {
    getConfiguration: () => configuration,
    workspaceFolders: [{ uri: Uri.file('/workspace'), name: 'workspace', index: 0 }],
    workspaceFile: undefined,
    textDocuments: [],
    fs: { readFile: async () => new TextEncoder().encode(JSON.stringify(settings)) },
    onDidChangeConfiguration: event,
    onDidChangeWorkspaceFolders: event,
    // Import Topology's preview of the settings before and after.
    registerTextDocumentContentProvider: disposable,
  },
  window: {
    activeTextEditor: undefined,
    createTreeView: () => ({ badge: undefined, selection: [], dispose() {}, reveal: async () => {} }),
    createStatusBarItem: () => ({ show() {}, hide() {}, dispose() {} }),
    createOutputChannel: () => ({ append() {}, appendLine() {}, show() {}, dispose() {} }),
    showWarningMessage: async () => undefined,
    showErrorMessage: async () => undefined,
    showInformationMessage: async () => undefined,
    onDidChangeTextEditorSelection: event,
    onDidChangeActiveTextEditor: event,
    registerWebviewPanelSerializer: disposable,
  },
  languages: { createDiagnosticCollection: () => ({ set() {}, clear() {}, dispose() {} }), registerHoverProvider: disposable },
  commands: { registerCommand: disposable, executeCommand: async () => undefined },
  env: {},
};
const shim = new Proxy(vscode, { get: (o, k) => (k in o ? o[k] : permissive(String(k))) });

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? shim : load.call(this, request, ...rest);
};

const context = { subscriptions: [], extensionUri: Uri.file('/extension'), extensionPath: '/extension' };
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const ext = require(bundle);
const t1 = process.hrtime.bigint();
const cpu1 = process.cpuUsage();
ext.activate(context);
const t2 = process.hrtime.bigint();
const cpu2 = process.cpuUsage();
const ms = (a, b) => Number(b - a) / 1e6;
const cpuMs = (a, b) => (b.user - a.user + b.system - a.system) / 1000;
process.stdout.write(JSON.stringify({ requireMs: ms(t0, t1), requireCpuMs: cpuMs(cpu0, cpu1), activateMs: ms(t1, t2), activateCpuMs: cpuMs(cpu1, cpu2), subscriptions: context.subscriptions.length }) + '\n');
// Timers and pending promises of the activation are not part of the figure.
process.exit(0);
