/**
 * The routing panel's webview script (in dist/extension.js: src/main.ts calls startWebview in a webview).
 * It posts `ready` once it listens, and renders whatever state the host answers with. No network access: the CSP allows
 * no connections, and nothing here makes any.
 */
import { isToWebviewMessage } from '../shared/protocol';
import { App, type VsCodeApi } from './app';
import { preloadTheme } from './canvas/theme';

declare function acquireVsCodeApi(): VsCodeApi;

/** Starts the panel in this webview (src/main.ts calls it there, and nowhere else). */
export function startWebview(): void {
  const api = acquireVsCodeApi();

  function report(message: string): void {
    api.postMessage({ type: 'webviewError', message: message.slice(0, 2000) });
  }

  window.addEventListener('error', (e) => {
    // Chromium's benign notice when a resize handler re-renders within the same frame.
    if (/^ResizeObserver loop/.test(e.message)) return;
    report(`${e.message} (${e.filename}:${e.lineno})`);
  });
  window.addEventListener('unhandledrejection', (e) => report(String(e.reason)));

  const root = document.getElementById('root') ?? document.body;
  const app = new App(root, api);
  window.addEventListener('message', (e: MessageEvent) => {
    // Only the host's three message types; anything else (another frame, a stale message) is dropped.
    if (isToWebviewMessage(e.data)) app.onMessage(e.data);
  });
  // The keys first, so that the host's answer to `ready` routes them.
  app.sendView();
  api.postMessage({ type: 'ready' });
  // While the host answers (it builds the frames first): work the first picture would do.
  preloadTheme();
  app.prepareCanvases();
}
