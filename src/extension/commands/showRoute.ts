/** "Key Routing: Show Route": the keys under the selections or cursors of the active editor. */
import * as vscode from 'vscode';
import { keysFromEditor } from '../editorKeys';
import { requireTopics, routeAndPresent, type Services } from '../present';
import type { KeyRoutes } from '../routeFormat';
import { routeKey } from './routeKey';

export async function showRoute(s: Services): Promise<KeyRoutes[] | undefined> {
  const editor = vscode.window.activeTextEditor;
  // Without an editor there is nothing to read a key from: ask for one instead.
  if (!editor) return routeKey(s);
  if (!requireTopics(s)) return undefined;
  const extraction = keysFromEditor(editor);
  if (!extraction.ok) {
    void vscode.window.showWarningMessage(`Key Routing: ${extraction.message}`);
    return undefined;
  }
  if (extraction.keys.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Key Routing: select a key, or place the cursor on a string literal or a word.'));
    return undefined;
  }
  return routeAndPresent(s, extraction.keys, 'Show Route');
}
