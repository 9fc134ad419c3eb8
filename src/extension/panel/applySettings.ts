/**
 * "Apply to settings" from the panel's what-if editor: the new partition count and consumers of
 * one topic, written to the workspace settings only after the user confirms. The request has
 * been validated by the protocol; here it is checked against the settings as they are now and
 * with the engine's own settings parser before anything is written.
 */
import * as vscode from 'vscode';
import { parseTopics, TOPICS, type Problem } from '../../engine/settings';
import type { ApplyOutcome, ApplyToSettingsMessage } from '../../shared/protocol';

export interface ApplyResult {
  outcome: ApplyOutcome;
  message: string;
}

type Entry = Record<string, unknown>;

function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The new `keyRouting.topics` array, or why the request cannot apply. Pure, for tests. */
export function applyToTopics(current: unknown, msg: ApplyToSettingsMessage): { topics: unknown[]; changes: string[] } | { error: string } {
  if (!Array.isArray(current)) return { error: `${TOPICS} is not an array in the settings` };
  const index = current.findIndex((e) => isEntry(e) && e.name === msg.topic);
  if (index < 0) return { error: `no topic named ${JSON.stringify(msg.topic)} in ${TOPICS}` };
  // A deep copy: the settings object VS Code hands out must not be changed in place.
  const entry = JSON.parse(JSON.stringify(current[index])) as Entry;
  const changes: string[] = [];
  if (msg.partitions !== undefined && msg.partitions !== (entry.partitions ?? 0)) {
    changes.push(`partitions: ${entry.partitions ?? 0} → ${msg.partitions}`);
    entry.partitions = msg.partitions;
  }
  if (msg.consumers !== undefined) {
    if (entry.system !== 'pulsar' || !isEntry(entry.subscription)) return { error: `${msg.topic} has no Key_Shared subscription to set consumers on` };
    const before = Array.isArray(entry.subscription.consumers) ? entry.subscription.consumers : [];
    const next = msg.consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([s, e]) => [s, e]) } : { name: c.name }));
    if (JSON.stringify(before) !== JSON.stringify(next)) {
      const names = (list: unknown[]) => list.map((c) => (isEntry(c) ? String(c.name) : typeof c === 'string' ? c : '?')).join(', ') || 'none';
      changes.push(`consumers: ${names(before)} → ${names(next)}`);
      entry.subscription = { ...entry.subscription, consumers: next };
    }
  }
  if (changes.length === 0) return { error: 'nothing to change: the settings already say this' };
  const topics = current.map((e, i) => (i === index ? entry : e));
  const problems: Problem[] = [];
  parseTopics(topics, problems);
  const prefix = `${TOPICS}[${index}]`;
  const mine = problems.find((p) => p.path === prefix || p.path.startsWith(`${prefix}.`));
  if (mine) return { error: `${mine.path}: ${mine.message}` };
  return { topics, changes };
}

export async function applyWithConfirmation(msg: ApplyToSettingsMessage, log: (line: string) => void): Promise<ApplyResult> {
  const cfg = vscode.workspace.getConfiguration();
  const inspect = cfg.inspect<unknown>(TOPICS);
  if (!vscode.workspace.workspaceFolders?.length && !vscode.workspace.workspaceFile) {
    return { outcome: 'rejected', message: 'Open a folder or workspace first: the what-if is written to the workspace settings.' };
  }
  const base = inspect?.workspaceValue ?? cfg.get<unknown>(TOPICS);
  const r = applyToTopics(base, msg);
  if ('error' in r) {
    log(`panel: apply to settings refused for ${JSON.stringify(msg.topic)}: ${r.error}`);
    return { outcome: 'rejected', message: `Not applied: ${r.error}.` };
  }
  const choice = await vscode.window.showWarningMessage(
    `Write the what-if for ${msg.topic} to the workspace settings?`,
    { modal: true, detail: r.changes.join('\n') },
    'Apply',
  );
  if (choice !== 'Apply') return { outcome: 'cancelled', message: 'Not applied: cancelled.' };
  try {
    await cfg.update(TOPICS, r.topics, vscode.ConfigurationTarget.Workspace);
  } catch (e) {
    return { outcome: 'rejected', message: `Not applied: ${(e as Error).message}` };
  }
  log(`panel: applied the what-if to ${msg.topic}: ${r.changes.join('; ')}`);
  return { outcome: 'applied', message: `Applied to the workspace settings: ${r.changes.join('; ')}.` };
}
