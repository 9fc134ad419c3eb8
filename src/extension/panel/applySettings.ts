/**
 * "Apply to settings" from the panel's what-if editors: a topic's new partition count and consumers,
 * or a group's members, written to the workspace settings only after the user confirms. The request has
 * been validated by the protocol; here it is checked against the settings as they are now and
 * with the engine's own settings parser before anything is written.
 */
import * as vscode from 'vscode';
import { KAFKA_GROUPS, TOPICS } from '../../engine/settings';
import type { ApplyGroupMessage, ApplyOutcome, ApplyToSettingsMessage } from '../../shared/protocol';
import { applyToGroups } from './applyGroups';
import { applyToTopics } from './applyTopics';
import { writeSetting } from '../settingsWrite';

export interface ApplyResult {
  outcome: ApplyOutcome;
  message: string;
}

/**
 * A what-if written after the user confirms: a topic's (its partition count and consumers) or a
 * consumer group's (its members, and its topic's count). Either may also write the other array,
 * where a partition count change leaves the reports of groups on the topic stale.
 */
export async function applyWithConfirmation(msg: ApplyToSettingsMessage | ApplyGroupMessage, log: (line: string) => void): Promise<ApplyResult> {
  const cfg = vscode.workspace.getConfiguration();
  if (!vscode.workspace.workspaceFolders?.length && !vscode.workspace.workspaceFile) {
    return { outcome: 'rejected', message: vscode.l10n.t('Open a folder or workspace first: the what-if is written to the workspace settings.') };
  }
  // The workspace's own value: a user or default value is not what Apply writes over.
  const current = (key: string) => cfg.inspect<unknown>(key)?.workspaceValue ?? cfg.get<unknown>(key);
  const group = msg.type === 'applyGroupToSettings';
  const what = group ? `group ${msg.group}` : msg.topic;
  const r = group ? applyToGroups(current(KAFKA_GROUPS), current(TOPICS), msg) : applyToTopics(current(TOPICS), msg, current(KAFKA_GROUPS));
  if ('error' in r) {
    log(`panel: apply to settings refused for ${what}: ${r.error}`);
    return { outcome: 'rejected', message: vscode.l10n.t('Not applied: {0}.', r.error) };
  }
  const apply = vscode.l10n.t('Apply');
  const choice = await vscode.window.showWarningMessage(
    group ? vscode.l10n.t('Write the what-if for group {0} to the workspace settings?', msg.group) : vscode.l10n.t('Write the what-if for {0} to the workspace settings?', msg.topic),
    { modal: true, detail: r.changes.join('\n') },
    apply,
  );
  if (choice !== apply) return { outcome: 'cancelled', message: vscode.l10n.t('Not applied: cancelled.') };
  try {
    if (r.topics) await writeSetting(TOPICS, r.topics);
    if (r.groups) await writeSetting(KAFKA_GROUPS, r.groups);
  } catch (e) {
    return { outcome: 'rejected', message: vscode.l10n.t('Not applied: {0}', (e as Error).message) };
  }
  log(`panel: applied the what-if to ${what}: ${r.changes.join('; ')}`);
  return { outcome: 'applied', message: vscode.l10n.t('Applied to the workspace settings: {0}.', r.changes.join('; ')) };
}
