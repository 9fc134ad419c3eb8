/**
 * "Apply to settings" from the panel's group what-if, computed without `vscode` (unit tested): the
 * group's entry in `keyRouting.kafkaGroups` with its members after the steps and, where a step grew
 * the topic, the topic's entry in `keyRouting.topics` with the new count; refused where the written
 * settings would have a problem they did not have (`newProblem`).
 */
import { KAFKA_GROUPS, TOPICS } from '../../engine/settings';
import type { ApplyGroupMessage } from '../../shared/protocol';
import { isEntry, textOf, withoutReport, withoutTopicReports } from '../../import/staleReports';
import { entryOf, listChange, newProblem, type SettingsChange } from './applyTopics';

export function applyToGroups(currentGroups: unknown, currentTopics: unknown, msg: ApplyGroupMessage): (SettingsChange & { groups: unknown[] }) | { error: string } {
  const found = entryOf(currentGroups, KAFKA_GROUPS, 'group', msg.group);
  if ('error' in found) return found;
  const [index, entry, groups] = found;
  const changes: string[] = [];
  const before = Array.isArray(entry.members) ? entry.members : [];
  const next = msg.members.map((m) => (m.topics ? { id: m.id, topics: [...m.topics] } : { id: m.id }));
  if (JSON.stringify(before) !== JSON.stringify(next)) {
    changes.push(listChange(`group ${msg.group} members`, before.map((m) => (isEntry(m) ? textOf(m.id) : '?')), next.map((m) => m.id)));
    entry.members = next;
  }
  let topics: unknown[] | undefined;
  if (msg.topic !== undefined && msg.partitions !== undefined) {
    const topic = entryOf(currentTopics, TOPICS, 'topic', msg.topic);
    if ('error' in topic) return topic;
    const [, t, all] = topic;
    if (t.partitions !== msg.partitions) {
      changes.push(`${msg.topic} partitions: ${textOf(t.partitions ?? 0)} → ${msg.partitions}`);
      t.partitions = msg.partitions;
      topics = all;
    }
  }
  if (changes.length === 0) return { error: 'nothing to change: the settings already say this' };
  groups[index] = withoutReport(entry, 'this group', changes);
  const written = (topics && withoutTopicReports(groups, msg.topic!, changes)) || groups;
  const problem = newProblem({ [TOPICS]: currentTopics, [KAFKA_GROUPS]: currentGroups }, { [TOPICS]: topics ?? currentTopics, [KAFKA_GROUPS]: written });
  if (problem) return { error: problem };
  return { groups: written, topics, changes };
}
