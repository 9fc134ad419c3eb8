/** "Key Routing: Open Routing Panel": the routing panel with the last routed keys. */
import type * as vscode from 'vscode';
import { RoutingPanel } from '../panel/routingPanel';
import type { Services } from '../present';

/** `arg` may name the topic to show first: `{ topic: "orders" }` (from other commands or tests). */
export function openPanel(extensionUri: vscode.Uri, s: Services, arg?: unknown): RoutingPanel {
  const topic = typeof arg === 'object' && arg !== null && typeof (arg as { topic?: unknown }).topic === 'string' ? (arg as { topic: string }).topic : undefined;
  return RoutingPanel.createOrShow(extensionUri, s, topic ? { topic } : {});
}
