/**
 * A placeholder for the routing panel: the last routed keys as a table, re-rendered when they
 * change. The real panel (partitions, ranges, the ring, the what-if editor) replaces this file;
 * nothing else depends on it beyond `openPlaceholderPanel`.
 *
 * No scripts at all: the HTML is rendered here, and the CSP allows only the nonce'd style.
 */
import * as vscode from 'vscode';
import type { LastRoute } from './present';
import type { KeyRoutes } from './routeFormat';

const VIEW_TYPE = 'keyRouting.panel';
let current: vscode.WebviewPanel | undefined;

export function openPlaceholderPanel(results: LastRoute): vscode.WebviewPanel {
  if (current) {
    current.reveal();
    return current;
  }
  const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Key Routing', vscode.ViewColumn.Beside, {
    enableScripts: false,
    localResourceRoots: [],
  });
  current = panel;
  const render = () => (panel.webview.html = html(results.routes));
  render();
  const sub = results.onDidChange(render);
  panel.onDidDispose(() => {
    sub.dispose();
    current = undefined;
  });
  return panel;
}

function html(routes: readonly KeyRoutes[]): string {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const rows = routes.flatMap((k) =>
    k.routes.map(
      (r) =>
        `<tr><td>${esc(k.label)}</td><td>${esc(r.topic)}${r.stale ? ' *' : ''}</td><td>${r.partition ?? '-'}</td>` +
        `<td>${r.system === 'kafka' ? r.hash : r.stickyKeyHash}</td><td>${r.hasSubscription ? esc(r.consumer ?? '(nobody)') : '-'}</td>` +
        `<td>${r.range ? `${r.range[0]}-${r.range[1]}` : '-'}</td></tr>`,
    ),
  );
  const body = rows.length
    ? `<table><thead><tr><th>key</th><th>topic</th><th>partition</th><th>hash</th><th>consumer</th><th>range</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '<p>No key routed yet. Select a key in an editor and run <b>Key Routing: Show Route</b>, or <b>Key Routing: Route a Key...</b>.</p>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Key Routing</title>
<style nonce="${nonce}">
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 2px 10px; border-bottom: 1px solid var(--vscode-panel-border); }
th { color: var(--vscode-descriptionForeground); font-weight: normal; }
td { font-family: var(--vscode-editor-font-family); white-space: nowrap; }
</style></head>
<body><h2>Last route</h2>${body}
<p>hash: Kafka murmur2 (signed 32-bit); Pulsar the sticky key hash. range: the owner's hash range holding the key.</p></body></html>`;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
