/**
 * The settings change "Apply to settings" asks for, computed without `vscode` (so it is unit
 * tested): the topic's entry with the new partition count and consumers, every other entry left as
 * it is, and refused where the written settings would have a problem they did not have
 * (`newProblem`: the settings parser's and the broker rules the topology applies).
 */
import { KAFKA_GROUPS, parseSettings, TOPICS, type Problem } from '../../engine/settings';
import { Topology } from '../../engine/topology';
import type { ApplyToSettingsMessage } from '../../shared/protocol';
import { isEntry, textOf, withoutReport, withoutTopicReports, type Entry } from '../../import/staleReports';

/**
 * A deep copy of the entry named `name` in the settings array `list` (the setting `key`), with its
 * index and the array with the copy in its place; or why there is none. A copy: the settings object
 * VS Code hands out must not be changed in place.
 */
export function entryOf(list: unknown, key: string, noun: string, name: string): [number, Entry, unknown[]] | { error: string } {
  if (!Array.isArray(list)) return { error: `${key} is not an array in the settings` };
  const index = list.findIndex((e) => isEntry(e) && e.name === name);
  if (index < 0) return { error: `no ${noun} named ${JSON.stringify(name)} in ${key}` };
  const entry = JSON.parse(JSON.stringify(list[index])) as Entry;
  return [index, entry, list.map((e, i) => (i === index ? entry : e))];
}

/**
 * The first problem the settings `next` have that `current` did not, as "path: message"; undefined
 * where the Apply breaks nothing. A problem the settings already had is the user's to mend and does
 * not block an Apply; a new one anywhere does: a grown topic can take a group on it past what its
 * assignor is followed to. Of `next`, the entries the Apply wrote (new objects: the others are
 * `current`'s own) are also built, with the groups on their topics, for the broker's
 * refusals (an overlapping STICKY range, a rebalance that fails). An entry left alone builds as it
 * did, and building a reported ring of 10,000 x 100 points takes a second; parsing its report,
 * half a second, so `current` is parsed only where `next` has a problem.
 */
export function newProblem(current: Entry, next: Entry): string | undefined {
  const { settings, problems } = parseSettings(next);
  // Read as data: either array may be anything the user typed (a broken one parses with problems).
  const wrote = (key: string) => new Set([next[key]].flat().filter((e) => ![current[key]].flat().includes(e)).map((e) => (e as Entry | null)?.name));
  const topics = wrote(TOPICS);
  const groups = wrote(KAFKA_GROUPS);
  const kafkaGroups = (settings.kafkaGroups ?? []).filter((g) => groups.has(g.name) || g.topics.some((t) => topics.has(t)));
  new Topology({ ...settings, topics: settings.topics.filter((t) => t.system === 'kafka' || topics.has(t.name)), kafkaGroups }, problems);
  // Only settings that have problems are compared with the current ones (parsing is most of the time).
  const text = (p: Problem) => `${p.path}: ${p.message}`;
  const had = new Set(problems.length ? parseSettings(current).problems.map(text) : []);
  return problems.map(text).find((p) => !had.has(p));
}

/**
 * A list's change as the confirmation says it: its lengths and the names one list has more of than
 * the other, so that on a subscription of 2,000 consumers the dialog shows what the what-if
 * changed instead of 4,000 names.
 */
export function listChange(label: string, before: string[], after: string[]): string {
  // The names of `a` that `b` has fewer of (a name may be in a list more than once).
  const more = (verb: string, a: string[], b: string[]) => {
    const left = new Map<string, number>();
    for (const n of b) left.set(n, (left.get(n) ?? 0) + 1);
    const names = a.filter((n) => left.set(n, (left.get(n) ?? 0) - 1).get(n)! < 0);
    return names.length ? [`${verb} ${names.join(', ')}`] : [];
  };
  return `${label}: ${before.length} → ${after.length}, ${[...more('added', after, before), ...more('removed', before, after)].join('; ') || 'the same names, otherwise changed'}`;
}

/** What an Apply writes: each settings array it changes, and the changes for the user to confirm. */
export interface SettingsChange {
  topics?: unknown[];
  groups?: unknown[];
  changes: string[];
}

/**
 * The new `keyRouting.topics` array (and `keyRouting.kafkaGroups`, given as `groups`, where a
 * partition count change leaves group reports stale), or why the request cannot apply. Pure, for tests.
 */
export function applyToTopics(current: unknown, msg: ApplyToSettingsMessage, groups?: unknown): (SettingsChange & { topics: unknown[] }) | { error: string } {
  const found = entryOf(current, TOPICS, 'topic', msg.topic);
  if ('error' in found) return found;
  const [, entry, topics] = found;
  const changes: string[] = [];
  let newGroups: unknown[] | undefined;
  if (msg.partitions !== undefined && msg.partitions !== (entry.partitions ?? 0)) {
    changes.push(`partitions: ${textOf(entry.partitions ?? 0)} → ${msg.partitions}`);
    entry.partitions = msg.partitions;
    newGroups = withoutTopicReports(groups, msg.topic, changes);
  }
  if (msg.consumers !== undefined) {
    if (entry.system !== 'pulsar' || !isEntry(entry.subscription)) return { error: `${msg.topic} has no Key_Shared subscription to set consumers on` };
    const before = Array.isArray(entry.subscription.consumers) ? entry.subscription.consumers : [];
    const next = msg.consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([s, e]) => [s, e]) } : { name: c.name }));
    if (JSON.stringify(before) !== JSON.stringify(next)) {
      changes.push(listChange('consumers', before.map((c) => (isEntry(c) ? textOf(c.name) : typeof c === 'string' ? c : '?')), next.map((c) => c.name)));
      entry.subscription = { ...entry.subscription, consumers: next };
    }
  }
  if (changes.length === 0) return { error: 'nothing to change: the settings already say this' };
  if (isEntry(entry.subscription)) entry.subscription = withoutReport(entry.subscription, 'this topic', changes);
  const problem = newProblem({ [TOPICS]: current, [KAFKA_GROUPS]: groups }, { [TOPICS]: topics, [KAFKA_GROUPS]: newGroups ?? groups });
  if (problem) return { error: problem };
  return { topics, groups: newGroups, changes };
}

