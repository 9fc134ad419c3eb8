/**
 * The panel's HTML: one stylesheet and one script from `media/`, nothing inline but the nonce'd
 * script tag, and a CSP that allows nothing else (no network, no inline styles or handlers).
 */
import * as vscode from 'vscode';

export function nonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function contentSecurityPolicy(cspSource: string, scriptNonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `script-src 'nonce-${scriptNonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Text for an HTML attribute value in double quotes. */
function attribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The page in the display language: `lang`, and the loaded translations (none in English) in a
 * meta tag the webview's l10n.ts reads (data, so the CSP needs no inline script).
 */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, language = vscode.env.language, strings = vscode.l10n.bundle ?? {}): string {
  const n = nonce();
  // The panel's script is the extension's own bundle: src/main.ts starts the panel in a webview.
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'extension.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css'));
  return `<!DOCTYPE html>
<html lang="${attribute(language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, n)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="key-routing-l10n" content="${attribute(JSON.stringify(strings))}">
<link rel="stylesheet" href="${style}">
<title>${attribute(vscode.l10n.t('Key Routing'))}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${n}" src="${script}"></script>
</body>
</html>`;
}
