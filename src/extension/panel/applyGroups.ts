/**
 * "Apply to settings" from the panel's group what-if, computed without `vscode` (unit tested): the
 * group's entry in `keyRouting.kafkaGroups` with its members after the steps and, where a step grew
 * the topic, the topic's entry in `keyRouting.topics` with the new count; both checked by the
 * engine's settings parser (and the group built) before anything is written.
 */
import { KAFKA_GROUPS, parseSettings, TOPICS } from '../../engine/settings';
import { Topology } from '../../engine/topology';
import type { ApplyGroupMessage } from '../../shared/protocol';
import { isEntry, withoutReport, type Entry } from './applyTopics';

export interface GroupApply {
  groups: unknown[];
  /** Only where the partition count changes. */
  topics?: unknown[];
  changes: string[];
}

export function applyToGroups(currentGroups: unknown, currentTopics: unknown, msg: ApplyGroupMessage): GroupApply | { error: string } {
  if (!Array.isArray(currentGroups)) return { error: `${KAFKA_GROUPS} is not an array in the settings` };
  const index = currentGroups.findIndex((g) => isEntry(g) && g.name === msg.group);
  if (index < 0) return { error: `no group named ${JSON.stringify(msg.group)} in ${KAFKA_GROUPS}` };
  const entry = JSON.parse(JSON.stringify(currentGroups[index])) as Entry;
  const changes: string[] = [];
  const before = Array.isArray(entry.members) ? entry.members : [];
  const next = msg.members.map((m) => (m.topics ? { id: m.id, topics: [...m.topics] } : { id: m.id }));
  if (JSON.stringify(before) !== JSON.stringify(next)) {
    const ids = (list: unknown[]) => list.map((m) => (isEntry(m) ? String(m.id) : '?')).join(', ') || 'none';
    changes.push(`group ${msg.group} members: ${ids(before)} → ${ids(next)}`);
    entry.members = next;
  }
  const groups = currentGroups.map((g, i) => (i === index ? entry : g));
  let topics: unknown[] | undefined;
  if (msg.topic !== undefined && msg.partitions !== undefined) {
    if (!Array.isArray(currentTopics)) return { error: `${TOPICS} is not an array in the settings` };
    const ti = currentTopics.findIndex((t) => isEntry(t) && t.name === msg.topic);
    if (ti < 0) return { error: `no topic named ${JSON.stringify(msg.topic)} in ${TOPICS}` };
    const t = JSON.parse(JSON.stringify(currentTopics[ti])) as Entry;
    if (t.partitions !== msg.partitions) {
      changes.push(`${msg.topic} partitions: ${t.partitions ?? 0} → ${msg.partitions}`);
      t.partitions = msg.partitions;
      topics = currentTopics.map((x, i) => (i === ti ? t : x));
    }
  }
  if (changes.length === 0) return { error: 'nothing to change: the settings already say this' };
  groups[index] = withoutReport(entry, 'group', changes);
  const { settings, problems } = parseSettings({ [TOPICS]: topics ?? currentTopics, [KAFKA_GROUPS]: groups });
  const prefix = `${KAFKA_GROUPS}[${index}]`;
  const mine = problems.find((p) => p.path === prefix || p.path.startsWith(`${prefix}.`) || (msg.topic !== undefined && p.path.startsWith(TOPICS)));
  if (mine) return { error: `${mine.path}: ${mine.message}` };
  // A group whose first rebalance fails is reported when the topology is built.
  const refusals: Array<{ path: string; message: string }> = [];
  new Topology(settings, refusals);
  const refused = refusals.find((p) => p.path.startsWith(prefix));
  if (refused) return { error: `${refused.path}: ${refused.message}` };
  return { groups, ...(topics ? { topics } : {}), changes };
}
