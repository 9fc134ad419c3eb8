/**
 * "Key Routing: Use Sample Settings" writes the sample topology to the workspace settings after a
 * modal confirmation that lists what is written and says what it replaces; "Open Sample Settings"
 * shows it in an untitled editor; "Get Started" opens the walkthrough.
 */
import * as vscode from 'vscode';
import { KAFKA_GROUPS, NAMESPACES, TOPICS } from '../../engine/settings';
import { TOPOLOGY_VIEW, WALKTHROUGH } from '../constants';
import { describeSampleWrite, SAMPLE_KEYS, SAMPLE_SETTINGS, sampleSettingsText, type WriteConfirmation } from '../sampleSettings';
import { writeSetting } from '../settingsWrite';

/** Asks the user; true to go ahead. The extension-host tests pass their own answer. */
export type Confirm = (c: WriteConfirmation) => Promise<boolean>;

export const modalConfirm: Confirm = async (c) => (await vscode.window.showWarningMessage(c.message, { modal: true, detail: c.detail }, c.action)) === c.action;

export type SampleOutcome = 'written' | 'declined' | 'noFolder';

export async function useSampleSettings(confirm: Confirm = modalConfirm): Promise<SampleOutcome> {
  if (!vscode.workspace.workspaceFolders?.length) {
    const open = vscode.l10n.t('Open Folder');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Key Routing: the sample settings are written to a workspace\'s .vscode/settings.json. Open a folder first, then run this again.'), open)
      .then((c) => c === open && vscode.commands.executeCommand('workbench.action.files.openFolder'));
    return 'noFolder';
  }
  const cfg = vscode.workspace.getConfiguration();
  const current = Object.fromEntries(SAMPLE_KEYS.map((k) => [k, cfg.inspect(k)?.workspaceValue]));
  if (!(await confirm(describeSampleWrite(vscode.l10n, current)))) return 'declined';
  // The topics first: the groups name them, and settings.json is rewritten once per key.
  for (const k of SAMPLE_KEYS) await writeSetting(k, SAMPLE_SETTINGS[k]);
  const show = vscode.l10n.t('Show Side Bar');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('Key Routing: the sample topology is in the workspace settings ({0} topics, {1} namespaces, {2} consumer groups).', SAMPLE_SETTINGS[TOPICS].length, SAMPLE_SETTINGS[NAMESPACES].length, SAMPLE_SETTINGS[KAFKA_GROUPS].length), show)
    .then((c) => c === show && vscode.commands.executeCommand(`${TOPOLOGY_VIEW}.focus`));
  return 'written';
}

export async function openSampleSettings(): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument({ language: 'jsonc', content: sampleSettingsText(vscode.l10n) });
  return vscode.window.showTextDocument(doc);
}

export async function openWalkthrough(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}
