/** "Key Routing: Open Routing Panel": the routing panel with the last routed keys. */
import type * as vscode from 'vscode';
import { RoutingPanel } from '../panel/routingPanel';
import type { Services } from '../present';

/**
 * `arg` may name the topic to show first: `{ topic: "orders" }` (from other commands or tests).
 * Returns nothing: VS Code sends a command's result to the workbench as JSON when the palette, a
 * menu or a key runs it, and the panel's JSON was the whole topology (at production scale the
 * extension host and the workbench spent seconds on it before the panel could open).
 */
export function openPanel(extensionUri: vscode.Uri, s: Services, arg?: unknown): void {
  const topic = typeof arg === 'object' && arg !== null && typeof (arg as { topic?: unknown }).topic === 'string' ? (arg as { topic: string }).topic : undefined;
  RoutingPanel.createOrShow(extensionUri, s, topic ? { topic } : {});
}
