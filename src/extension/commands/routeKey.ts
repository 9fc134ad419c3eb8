/**
 * "Key Routing: Route a Key...": a key typed in an input box (or given as the argument), on every
 * topic, or on `topic` alone (the side bar's row action). One input box for both, so it offers the
 * key typed last in either.
 */
import * as vscode from 'vscode';
import { stringKey } from '../../engine/key';
import { requireTopics, routeAndPresent, type Services } from '../present';
import type { KeyRoutes } from '../routeFormat';

let lastTyped = '';

export async function routeKey(s: Services, given?: unknown, topic?: string): Promise<KeyRoutes[] | undefined> {
  if (!requireTopics(s)) return undefined;
  let key = typeof given === 'string' ? given : undefined;
  if (key === undefined) {
    key = await vscode.window.showInputBox({
      title: topic === undefined ? vscode.l10n.t('Key Routing: Route a Key') : vscode.l10n.t('Key Routing: Route a Key on {0}', topic),
      prompt: vscode.l10n.t('The message key as the producer sets it (text, sent as UTF-8). Leading and trailing spaces count.'),
      placeHolder: 'user-1',
      value: lastTyped,
      ignoreFocusOut: true,
    });
    if (key === undefined) return undefined;
    lastTyped = key;
  }
  const keys = [{ label: key, key: stringKey(key) }];
  return topic === undefined ? routeAndPresent(s, keys, 'Route a Key') : routeAndPresent(s, keys, vscode.l10n.t('Route a Key on {0}', topic), topic);
}
