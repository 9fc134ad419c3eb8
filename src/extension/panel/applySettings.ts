/**
 * "Apply to settings" from the panel's what-if editor: the new partition count and consumers of
 * one topic, written to the workspace settings only after the user confirms. The request has
 * been validated by the protocol; here it is checked against the settings as they are now and
 * with the engine's own settings parser before anything is written.
 */
import * as vscode from 'vscode';
import { KAFKA_GROUPS, TOPICS } from '../../engine/settings';
import type { ApplyGroupMessage, ApplyOutcome, ApplyToSettingsMessage } from '../../shared/protocol';
import { applyToGroups } from './applyGroups';
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

/** The group what-if's "Apply to settings": the group's members (and the topic's count), after the user confirms. */
export async function applyGroupWithConfirmation(msg: ApplyGroupMessage, log: (line: string) => void): Promise<ApplyResult> {
  const cfg = vscode.workspace.getConfiguration();
  if (!vscode.workspace.workspaceFolders?.length && !vscode.workspace.workspaceFile) {
    return { outcome: 'rejected', message: vscode.l10n.t('Open a folder or workspace first: the what-if is written to the workspace settings.') };
  }
  const groups = cfg.inspect<unknown>(KAFKA_GROUPS)?.workspaceValue ?? cfg.get<unknown>(KAFKA_GROUPS);
  const topics = cfg.inspect<unknown>(TOPICS)?.workspaceValue ?? cfg.get<unknown>(TOPICS);
  const r = applyToGroups(groups, topics, msg);
  if ('error' in r) {
    log(`panel: apply to settings refused for group ${JSON.stringify(msg.group)}: ${r.error}`);
    return { outcome: 'rejected', message: vscode.l10n.t('Not applied: {0}.', r.error) };
  }
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Write the what-if for group {0} to the workspace settings?', msg.group),
    { modal: true, detail: r.changes.join('\n') },
    vscode.l10n.t('Apply'),
  );
  if (choice !== vscode.l10n.t('Apply')) return { outcome: 'cancelled', message: vscode.l10n.t('Not applied: cancelled.') };
  try {
    if (r.topics) await cfg.update(TOPICS, r.topics, vscode.ConfigurationTarget.Workspace);
    await cfg.update(KAFKA_GROUPS, r.groups, vscode.ConfigurationTarget.Workspace);
  } catch (e) {
    return { outcome: 'rejected', message: vscode.l10n.t('Not applied: {0}', (e as Error).message) };
  }
  log(`panel: applied the what-if to group ${msg.group}: ${r.changes.join('; ')}`);
  return { outcome: 'applied', message: vscode.l10n.t('Applied to the workspace settings: {0}.', r.changes.join('; ')) };
}
