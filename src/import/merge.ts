/**
 * The settings after an import: the base settings with the imported topics and groups added,
 * each replacing the entry of the same name where there is one (in its place), the rest of the
 * base untouched but for the group reports the import makes stale (each noted in `imported.notes`).
 */
import { KAFKA_GROUPS, TOPICS } from '../engine/settings';
import { existingEntry, type Imported } from './options';
import { withoutTopicReports } from './staleReports';

export { KAFKA_GROUPS };

export function mergeImported(base: Record<string, unknown> | undefined, imported: Imported): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(base ?? {}) };
  // A group whose report lists owners of a topic the import gives another partition count loses the
  // report (a note in `imported.notes` says so), as on the panel's Apply: kept, the settings refuse
  // the group. A group the import brings has a report of the new count.
  for (const t of imported.topics) {
    const groups = existingEntry(base, TOPICS, t.name as string)?.partitions !== t.partitions && withoutTopicReports(out[KAFKA_GROUPS], t.name as string, imported.notes, imported.groups);
    if (groups) out[KAFKA_GROUPS] = groups;
  }
  if (imported.topics.length > 0) out[TOPICS] = replaceByName(out[TOPICS], imported.topics);
  if (imported.groups.length > 0) out[KAFKA_GROUPS] = replaceByName(out[KAFKA_GROUPS], imported.groups);
  return out;
}

/** `list` with each entry of `entries` put in place of the one of the same name, or appended. */
export function replaceByName(list: unknown, entries: ReadonlyArray<Record<string, unknown>>): unknown[] {
  const out = Array.isArray(list) ? list.slice() : [];
  for (const e of entries) {
    const i = out.findIndex((x) => typeof x === 'object' && x !== null && (x as Record<string, unknown>).name === e.name);
    if (i >= 0) out[i] = e;
    else out.push(e);
  }
  return out;
}
