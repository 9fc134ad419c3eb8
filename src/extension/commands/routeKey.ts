/** "Key Routing: Route a Key...": a key typed in an input box (or given as the argument). */
import * as vscode from 'vscode';
import { stringKey } from '../../engine/key';
import { requireTopics, routeAndPresent, type Services } from '../present';
import type { KeyRoutes } from '../routeFormat';

let lastTyped = '';

export async function routeKey(s: Services, given?: unknown): Promise<KeyRoutes[] | undefined> {
  if (!requireTopics(s)) return undefined;
  let key = typeof given === 'string' ? given : undefined;
  if (key === undefined) {
    key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Key Routing: Route a Key'),
      prompt: vscode.l10n.t('The message key as the producer sets it (text, sent as UTF-8). Leading and trailing spaces count.'),
      placeHolder: 'user-1',
      value: lastTyped,
      ignoreFocusOut: true,
    });
    if (key === undefined) return undefined;
    lastTyped = key;
  }
  return routeAndPresent(s, [{ label: key, key: stringKey(key) }], 'Route a Key');
}
