// A page that hosts the panel's webview bundle outside VS Code, for the benchmark: a stub
// `acquireVsCodeApi` that records what the panel posts, VS Code's Dark+ colours as the --vscode-*
// variables (only the ones panel.css uses), and the real media/panel.css and the
// script the .vsix ships, dist/extension.js (src/main.ts starts the panel where `acquireVsCodeApi` exists).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DARK = {
  'font-family': 'system-ui, sans-serif',
  'font-size': '13px',
  'editor-font-family': 'monospace',
  foreground: '#cccccc',
  'editor-background': '#1e1e1e',
  'editor-foreground': '#d4d4d4',
  descriptionForeground: '#ccccccb3',
  disabledForeground: '#cccccc80',
  errorForeground: '#f48771',
  'editorWarning-foreground': '#cca700',
  focusBorder: '#007fd4',
  'panel-border': '#80808059',
  'badge-background': '#4d4d4d',
  'badge-foreground': '#ffffff',
  'button-background': '#0e639c',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#1177bb',
  'button-secondaryBackground': '#3a3d41',
  'button-secondaryForeground': '#ffffff',
  'button-secondaryHoverBackground': '#45494e',
  'input-background': '#3c3c3c',
  'input-foreground': '#cccccc',
  'input-placeholderForeground': '#a6a6a6',
  'panelTitle-activeBorder': '#e7e7e7',
  'panelTitle-activeForeground': '#e7e7e7',
  'panelTitle-inactiveForeground': '#e7e7e799',
  'toolbar-hoverBackground': '#5a5d5e50',
  'editorWidget-background': '#252526',
  'editorHoverWidget-background': '#252526',
  'editorHoverWidget-foreground': '#cccccc',
  'editorHoverWidget-border': '#454545',
  'editor-selectionBackground': '#264f78',
  'charts-blue': '#3794ff',
  'charts-orange': '#d18616',
  'charts-green': '#89d185',
  'charts-purple': '#b180d7',
  'charts-red': '#f14c4c',
  'charts-yellow': '#cca700',
  'terminal-ansiCyan': '#11a8cd',
  'terminal-ansiMagenta': '#bc3fbc',
  'terminal-ansiBrightBlue': '#3b8eea',
  'terminal-ansiBrightGreen': '#23d18b',
  'terminal-ansiBrightRed': '#f14c4c',
  'terminal-ansiBrightCyan': '#29b8db',
};

/** The page, styled by `cssPath` (media/panel.css of the tree at `root` unless given). */
export function panelHtml(root, cssPath = join(root, 'media/panel.css')) {
  const vars = Object.entries(DARK).map(([k, v]) => `--vscode-${k}: ${v};`).join('\n');
  const css = readFileSync(cssPath, 'utf8');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><style>:root{${vars}}\n${css}</style></head>
<body class="vscode-dark"><div id="root"></div>
<script>
  window.__posted = [];
  let state;
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(m),
    getState: () => state ?? window.__initialState,
    setState: (s) => { state = s; },
  });
</script></body></html>`;
}

export function bundlePath(root) {
  return join(root, 'dist/extension.js');
}
