/**
 * "Key Routing: Add Topic": picks a kind of topic and a name, and appends a valid starter entry
 * to `keyRouting.topics` in the workspace settings, keeping every existing entry.
 * Given `{ kind, name }` as the argument it asks nothing (for keybindings and tests).
 */
import * as vscode from 'vscode';
import { TOPICS } from '../../engine/settings';
import type { Services } from '../present';
import { writeSetting } from '../settingsWrite';
import { appendTopic, entryNames, isTopicKind, starterTopic, TOPIC_KINDS, uniqueName, type TopicKind } from '../topicTemplates';

export async function addTopic(s: Services, arg?: unknown): Promise<Record<string, unknown> | undefined> {
  if (!vscode.workspace.workspaceFolders?.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: open a folder first; Add Topic writes to the workspace settings (.vscode/settings.json).'));
    return undefined;
  }
  const cfg = vscode.workspace.getConfiguration();
  const inspected = cfg.inspect<unknown>(TOPICS);
  let current = inspected?.workspaceValue;
  // Topics from the user settings would be hidden by a workspace list: carry them over.
  const carried = current === undefined && Array.isArray(inspected?.globalValue) && inspected.globalValue.length > 0;
  if (carried) current = inspected!.globalValue;
  const taken = entryNames(current);

  const given = typeof arg === 'object' && arg !== null ? (arg as { kind?: unknown; name?: unknown }) : {};
  let kind: TopicKind | undefined = isTopicKind(given.kind) ? given.kind : undefined;
  if (!kind) {
    const pick = await vscode.window.showQuickPick(
      TOPIC_KINDS.map((k) => ({ ...kindText(k.kind), topicKind: k.kind })),
      { title: vscode.l10n.t('Key Routing: Add Topic (1/2)'), placeHolder: vscode.l10n.t('What kind of topic?'), ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    kind = pick.topicKind;
  }
  const choice = TOPIC_KINDS.find((k) => k.kind === kind)!;
  let name = typeof given.name === 'string' ? given.name : undefined;
  if (name === undefined) {
    name = await vscode.window.showInputBox({
      title: vscode.l10n.t('Key Routing: Add Topic (2/2)'),
      prompt: kind === 'kafka' ? vscode.l10n.t('The Kafka topic name') : vscode.l10n.t('The full Pulsar topic name'),
      value: uniqueName(choice.defaultName, taken),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('The name must not be empty.') : taken.includes(v) ? vscode.l10n.t('{0} is already configured.', v) : undefined),
    });
    if (name === undefined) return undefined;
  }
  if (name.trim() === '' || taken.includes(name)) {
    void vscode.window.showWarningMessage(name.trim() === '' ? vscode.l10n.t('Key Routing: the topic name must not be empty; nothing was added.') : vscode.l10n.t('Key Routing: {0} is already configured; nothing was added.', name));
    return undefined;
  }
  const entry = starterTopic(kind, name);
  const next = appendTopic(current, entry);
  if (!next.ok) {
    void vscode.window.showErrorMessage(`${vscode.l10n.t('Key Routing')}: ${next.message}`);
    return undefined;
  }
  await writeSetting(TOPICS, next.topics);
  const label = kindText(choice.kind).label.toLowerCase();
  const added = carried
    ? vscode.l10n.t('Key Routing: added {0} "{1}" to the workspace settings (the topics of your user settings were copied along, as a workspace list replaces them).', label, name)
    : vscode.l10n.t('Key Routing: added {0} "{1}" to the workspace settings.', label, name);
  const openSettings = vscode.l10n.t('Open Settings');
  void vscode.window.showInformationMessage(added, openSettings).then((c) => {
    if (c === openSettings) void s.config.openSettings({ path: `${TOPICS}[${next.topics.length - 1}]`, message: '', severity: 'info', fix: '' });
  });
  return entry;
}

/** The quick pick's words for a kind of topic, in the display language. */
function kindText(kind: TopicKind): { label: string; detail: string } {
  switch (kind) {
    case 'kafka':
      return { label: vscode.l10n.t('Kafka topic'), detail: vscode.l10n.t('Partition = murmur2(key) % partitions, as the Java client and compatible clients route') };
    case 'pulsar-auto-split':
      return { label: vscode.l10n.t('Pulsar Key_Shared, auto-split hash ranges'), detail: vscode.l10n.t('AUTO_SPLIT without consistent hashing: each new consumer takes half of the largest range') };
    case 'pulsar-consistent-hashing':
      return { label: vscode.l10n.t('Pulsar Key_Shared, consistent hashing'), detail: vscode.l10n.t('AUTO_SPLIT with consistent hashing (the broker default since 2.10): 100 points per consumer on a ring') };
    case 'pulsar-sticky':
      return { label: vscode.l10n.t('Pulsar Key_Shared, STICKY ranges'), detail: vscode.l10n.t('Each consumer names its own hash ranges; overlaps are refused by the broker') };
  }
}
