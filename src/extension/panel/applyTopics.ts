/**
 * The settings change "Apply to settings" asks for, computed without `vscode` (so it is unit
 * tested): the topic's entry with the new partition count and consumers, checked by the engine's
 * settings parser and by the broker rules the topology applies (a STICKY range that overlaps is
 * refused), every other entry left as it is.
 */
import { parseTopics, TOPICS, type Problem } from '../../engine/settings';
import { Topology } from '../../engine/topology';
import type { ApplyToSettingsMessage } from '../../shared/protocol';

export type Entry = Record<string, unknown>;

export function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `o` (a subscription or a consumer group) without the broker's report it holds, if any (CONTRACT.md
 * section 4): the report describes the consumers, members and partitions the broker saw, and once
 * Apply changes them it no longer does. Kept, it named members that had left, and a group's Apply
 * was refused for it, or wrote a new member beside owners that never gave it a partition.
 */
export function withoutReport(o: Entry, what: 'topic' | 'group', changes: string[]): Entry {
  if (o.observed === undefined && o.observedPartitions === undefined) return o;
  const { observed: _o, observedPartitions: _p, ...rest } = o;
  changes.push(`observed: the broker\u2019s report no longer describes this ${what} (removed)`);
  return rest;
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
  if (isEntry(entry.subscription)) entry.subscription = withoutReport(entry.subscription, 'topic', changes);
  const topics = current.map((e, i) => (i === index ? entry : e));
  const problems: Problem[] = [];
  const parsed = parseTopics(topics, problems);
  const prefix = `${TOPICS}[${index}]`;
  const ours = (p: Problem) => p.path === prefix || p.path.startsWith(`${prefix}.`) || p.path.startsWith(`${prefix}[`);
  const mine = problems.find(ours);
  if (mine) return { error: `${mine.path}: ${mine.message}` };
  // The broker's own refusals (overlapping STICKY ranges, say) come from building the topology.
  const refusals: Problem[] = [];
  new Topology({ topics: parsed.filter((t) => t.name === msg.topic), namespaces: [] }, refusals);
  if (refusals.length) return { error: `${refusals[0].path}: ${refusals[0].message}` };
  return { topics, changes };
}

