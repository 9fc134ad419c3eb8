/**
 * "Apply to settings" from the panel's what-if editor: the new partition count and consumers of
 * one topic, written to the workspace settings only after the user confirms. The request has
 * been validated by the protocol; here it is checked against the settings as they are now and
 * with the engine's own settings parser before anything is written.
 */
import * as vscode from 'vscode';
import { TOPICS } from '../../engine/settings';
import type { ApplyOutcome, ApplyToSettingsMessage } from '../../shared/protocol';
import { applyToTopics } from './applyTopics';

export interface ApplyResult {
  outcome: ApplyOutcome;
  message: string;
}

export async function applyWithConfirmation(msg: ApplyToSettingsMessage, log: (line: string) => void): Promise<ApplyResult> {
  const cfg = vscode.workspace.getConfiguration();
  const inspect = cfg.inspect<unknown>(TOPICS);
  if (!vscode.workspace.workspaceFolders?.length && !vscode.workspace.workspaceFile) {
    return { outcome: 'rejected', message: vscode.l10n.t('Open a folder or workspace first: the what-if is written to the workspace settings.') };
  }
  const base = inspect?.workspaceValue ?? cfg.get<unknown>(TOPICS);
  const r = applyToTopics(base, msg);
  if ('error' in r) {
    log(`panel: apply to settings refused for ${JSON.stringify(msg.topic)}: ${r.error}`);
    return { outcome: 'rejected', message: `Not applied: ${r.error}.` };
  }
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Write the what-if for {0} to the workspace settings?', msg.topic),
    { modal: true, detail: r.changes.join('\n') },
    'Apply',
  );
  if (choice !== 'Apply') return { outcome: 'cancelled', message: vscode.l10n.t('Not applied: cancelled.') };
  try {
    await cfg.update(TOPICS, r.topics, vscode.ConfigurationTarget.Workspace);
  } catch (e) {
    return { outcome: 'rejected', message: `Not applied: ${(e as Error).message}` };
  }
  log(`panel: applied the what-if to ${msg.topic}: ${r.changes.join('; ')}`);
  return { outcome: 'applied', message: vscode.l10n.t('Applied to the workspace settings: {0}.', r.changes.join('; ')) };
}
