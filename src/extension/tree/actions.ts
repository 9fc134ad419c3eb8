/**
 * What the side bar's rows offer (inline buttons and the context menu): route a key on this topic,
 * open the topic in the routing panel, what-if this consumer leaves, reveal the row's entry in
 * settings.json, copy its id. Each command takes the row's node as VS Code passes it.
 */
import * as vscode from 'vscode';
import { routeKey } from '../commands/routeKey';
import type { PanelOptions } from '../panel/routingPanel';
import { requireTopics, type Services } from '../present';
import type { KeyRoutes } from '../routeFormat';
import { TREE_COMMANDS } from './commandIds';
import { count, type TreeNode } from './nodes';
import { partitionRuns } from './groups';
import { groupRemovalEffect, removalEffect, type GroupRemoval, type Removal } from './removal';
import { percent } from './shares';

function isNode(x: unknown): x is TreeNode {
  return typeof x === 'object' && x !== null && typeof (x as TreeNode).id === 'string' && typeof (x as TreeNode).kind === 'string';
}

/** The topic a row belongs to, if it is still configured. */
function topicOf(s: Services, n: unknown): string | undefined {
  const topic = isNode(n) ? n.topic : undefined;
  if (topic === undefined) return undefined;
  if (s.config.model.topology.topic(topic)) return topic;
  void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: {0} is no longer configured.', topic));
  return undefined;
}

export function registerTreeActions(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(TREE_COMMANDS.routeKey, (n?: unknown, key?: unknown) => routeOnTopic(s, n, key)),
    vscode.commands.registerCommand(TREE_COMMANDS.openInPanel, async (n?: unknown) => {
      const topic = topicOf(s, n);
      if (topic) await vscode.commands.executeCommand('keyRouting.openPanel', { topic });
    }),
    vscode.commands.registerCommand(TREE_COMMANDS.whatIfRemove, (n?: unknown) => whatIfRemove(s, n)),
    vscode.commands.registerCommand(TREE_COMMANDS.revealSetting, async (n?: unknown) => {
      if (!isNode(n) || n.settingPath === undefined) return;
      await s.config.openSettings({ path: n.settingPath, message: '', severity: 'info', fix: '' });
    }),
    vscode.commands.registerCommand(TREE_COMMANDS.copy, async (n?: unknown) => {
      if (!isNode(n) || n.copyText === undefined) return;
      await vscode.env.clipboard.writeText(n.copyText);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Key Routing: copied {0}', n.copyText), 3000);
    }),
  ];
}

/** Routes a typed key (or `key`, for tests) on the row's topic; shown as Route a Key shows it. */
async function routeOnTopic(s: Services, n: unknown, given: unknown): Promise<KeyRoutes[] | undefined> {
  if (!requireTopics(s)) return undefined;
  const topic = topicOf(s, n);
  return topic === undefined ? undefined : routeKey(s, given, topic);
}

/** Consumers named in the what-if's notification, the largest gains first. */
const MAX_GAINS_SHOWN = 5;

/**
 * The largest gainers only: on a ring of 1,000 consumers a leaver's arcs go to a hundred others,
 * and a notification that long was not shown as a toast at all. The output lists them all.
 */
function largestGains(gains: readonly string[]): string {
  const more = gains.length - MAX_GAINS_SHOWN;
  return gains.slice(0, MAX_GAINS_SHOWN).join(', ') + (more > 0 ? ` ${vscode.l10n.t('(and {0} more; see the Key Routing output)', more)}` : '');
}

/** The what-if's summary, offering the panel (on that what-if: `focus`) and the output's details. */
function showSummary(s: Services, message: string, focus: PanelOptions): void {
  const openPanel = vscode.l10n.t('Open Panel');
  const showOutput = vscode.l10n.t('Show Output');
  void vscode.window.showInformationMessage(message, openPanel, showOutput).then((choice) => {
    if (choice === openPanel) void vscode.commands.executeCommand('keyRouting.openPanel', focus);
    else if (choice === showOutput) s.output.show(true);
  });
}

/** The what-if of the consumer (or group member) leaving, summed up in a notification (the details in the output). */
async function whatIfRemove(s: Services, n: unknown): Promise<Removal | GroupRemoval | undefined> {
  if (isNode(n) && n.group !== undefined) return memberLeaves(s, n.group, n.consumerId);
  const topic = topicOf(s, n);
  if (topic === undefined || !isNode(n) || n.consumerId === undefined) return undefined;
  const r = removalEffect(s.config.model, topic, n.consumerId);
  if (r.error) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: what-if -{0} on {1}: {2}', n.consumerId, topic, r.error));
    return r;
  }
  const gains = largestGains(r.gains.map((g) => `${g.id} +${percent(g.values, r.total)}`));
  const message =
    r.moved === 0
      ? vscode.l10n.t('Key Routing: if {0} leaves {1}, no key hash changes its consumer.', r.id, topic)
      : vscode.l10n.t('Key Routing: if {0} leaves {1}, {2} of the key hashes move: {3}.', r.id, topic, percent(r.moved, r.total), gains || vscode.l10n.t('to nobody'));
  s.output.appendLine('');
  s.output.appendLine(vscode.l10n.t('What if {0} leaves {1} (-{0}): {2} of {3} key hash values change owner.', r.id, topic, r.moved.toLocaleString('en-US'), r.total.toLocaleString('en-US')));
  for (const g of r.gains) s.output.appendLine(`  ${g.id} +${g.values.toLocaleString('en-US')} (${percent(g.values, r.total)}): ${g.ranges.map(([a, b]) => `${a}-${b}`).join(', ')}`);
  showSummary(s, message, { topic, leave: r.id });
  return r;
}

/** A member leaving its Kafka consumer group: the partitions the rebalance gives to others. */
async function memberLeaves(s: Services, group: string, id: string | undefined): Promise<GroupRemoval | undefined> {
  const g = s.config.model.topology.group(group);
  if (!g) void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: {0} is no longer configured.', group));
  if (!g || id === undefined) return undefined;
  const r = groupRemovalEffect(s.config.model, group, id);
  if (r.error) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: what-if -{0} on {1}: {2}', id, group, r.error));
    return r;
  }
  const who = (gain: GroupRemoval['gains'][number]) => gain.id ?? vscode.l10n.t('nobody');
  const gains = r.gains.map((gain) => `${who(gain)} +${gain.partitions.length}`);
  const summary = (named: string) => vscode.l10n.t('Key Routing: if {0} leaves group {1}, {2} of its {3} partitions change member: {4}.', id, group, count(r.moved), count(r.total), named);
  const message = r.moved === 0 ? vscode.l10n.t('Key Routing: if {0} leaves group {1}, no partition changes member.', id, group) : summary(largestGains(gains));
  // The output names every member that gains, and its partitions.
  s.output.appendLine('');
  s.output.appendLine(r.moved === 0 ? message : summary(gains.join(', ')));
  for (const gain of r.gains) {
    const byTopic = new Map<string, number[]>();
    for (const { topic, partition } of gain.partitions) {
      const list = byTopic.get(topic);
      if (list) list.push(partition);
      else byTopic.set(topic, [partition]);
    }
    s.output.appendLine(`  ${who(gain)} +${gain.partitions.length}: ${[...byTopic].map(([t, ps]) => `${t} ${partitionRuns(ps)}`).join('; ')}`);
  }
  if (r.rebalance) s.output.appendLine(`  ${r.rebalance}`);
  showSummary(s, message, { topic: g.config.topics[0], leave: id, group });
  return r;
}
