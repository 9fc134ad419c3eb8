/**
 * "Key Routing: Add Topic": picks a kind of topic and a name, and appends a valid starter entry
 * to `keyRouting.topics` in the workspace settings, keeping every existing entry.
 * Given `{ kind, name }` as the argument it asks nothing (for keybindings and tests).
 */
import * as vscode from 'vscode';
import { TOPICS } from '../../engine/settings';
import type { Services } from '../present';
import { appendTopic, entryNames, isTopicKind, starterTopic, TOPIC_KINDS, uniqueName, type TopicKind } from '../topicTemplates';

export async function addTopic(s: Services, arg?: unknown): Promise<Record<string, unknown> | undefined> {
  if (!vscode.workspace.workspaceFolders?.length) {
    void vscode.window.showWarningMessage('Key Routing: open a folder first; Add Topic writes to the workspace settings (.vscode/settings.json).');
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
      TOPIC_KINDS.map((k) => ({ label: k.label, detail: k.detail, topicKind: k.kind })),
      { title: 'Key Routing: Add Topic (1/2)', placeHolder: 'What kind of topic?', ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    kind = pick.topicKind;
  }
  const choice = TOPIC_KINDS.find((k) => k.kind === kind)!;
  let name = typeof given.name === 'string' ? given.name : undefined;
  if (name === undefined) {
    name = await vscode.window.showInputBox({
      title: 'Key Routing: Add Topic (2/2)',
      prompt: kind === 'kafka' ? 'The Kafka topic name' : 'The full Pulsar topic name',
      value: uniqueName(choice.defaultName, taken),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'The name must not be empty.' : taken.includes(v) ? `${v} is already configured.` : undefined),
    });
    if (name === undefined) return undefined;
  }
  if (name.trim() === '' || taken.includes(name)) {
    void vscode.window.showWarningMessage(`Key Routing: ${name.trim() === '' ? 'the topic name must not be empty' : `${name} is already configured`}; nothing was added.`);
    return undefined;
  }
  const entry = starterTopic(kind, name);
  const next = appendTopic(current, entry);
  if (!next.ok) {
    void vscode.window.showErrorMessage(`Key Routing: ${next.message}`);
    return undefined;
  }
  await cfg.update(TOPICS, next.topics, vscode.ConfigurationTarget.Workspace);
  const note = carried ? ' (the topics of your user settings were copied along, as a workspace list replaces them)' : '';
  void vscode.window.showInformationMessage(`Key Routing: added ${choice.label.toLowerCase()} "${name}" to the workspace settings${note}.`, 'Open Settings').then((c) => {
    if (c === 'Open Settings') void s.config.openSettings({ path: `${TOPICS}[${next.topics.length - 1}]`, message: '', severity: 'info', fix: '' });
  });
  return entry;
}
