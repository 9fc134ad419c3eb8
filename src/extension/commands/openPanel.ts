/** "Key Routing: Open Routing Panel": the routing panel with the last routed keys. */
import type * as vscode from 'vscode';
import { RoutingPanel, type PanelOptions } from '../panel/routingPanel';
import type { Services } from '../present';

/**
 * `arg` may name the topic to show first: `{ topic: "orders" }` (from other commands or tests),
 * and a what-if to show on it: `{ topic, leave: "C2" }`, `{ topic, leave: "m1", group: "billing" }`.
 * Returns nothing: VS Code sends a command's result to the workbench as JSON when the palette, a
 * menu or a key runs it, and the panel's JSON was the whole topology (at production scale the
 * extension host and the workbench spent seconds on it before the panel could open).
 */
export function openPanel(extensionUri: vscode.Uri, s: Services, arg?: unknown): void {
  const a = ((typeof arg === 'object' && arg) || {}) as Record<string, unknown>;
  // Strings only (the command is open to other extensions and to keybindings' args).
  const text = (k: keyof PanelOptions) => (typeof a[k] === 'string' ? { [k]: a[k] } : {});
  RoutingPanel.createOrShow(extensionUri, s, { ...text('topic'), ...text('leave'), ...text('group') });
}
