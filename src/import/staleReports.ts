/**
 * Broker reports (`observed`, CONTRACT.md section 4) that a settings change leaves stale, for the
 * panel's Apply and for an import alike. The settings are read as data: any entry may hold
 * anything the user typed.
 */
import { isObject } from '../engine/jsonObject';
import { show } from '../engine/settings';

export type Entry = Record<string, unknown>;

/** An entry of the settings (`isObject`), its properties unknown until checked. */
export const isEntry: (v: unknown) => v is Entry = isObject;

/**
 * A settings value as a change list names it: a primitive as `String` writes it, an object or array
 * as JSON (`String` of a value such as `{"toString": 0}` throws, and Apply and import must answer
 * with an error or a change, never throw).
 */
export function textOf(v: unknown): string {
  return typeof v === 'object' && v !== null ? show(v) : String(v);
}

/**
 * `o` (a subscription or a consumer group) without the broker's report it holds, if any: the report
 * describes the consumers, members and partitions the broker saw, and once Apply changes them it no
 * longer does. Kept, it named members that had left, and a group's Apply was refused for it, or
 * wrote a new member beside owners that never gave it a partition.
 */
export function withoutReport(o: Entry, what: string, changes: string[]): Entry {
  if (o.observed === undefined && o.observedPartitions === undefined) return o;
  const { observed: _o, observedPartitions: _p, ...rest } = o;
  changes.push(`observed: the broker\u2019s report no longer describes ${what} (removed)`);
  return rest;
}

/**
 * Whether the group `g` holds a report with the owners of `topic`: once the topic's partition
 * count changes, it lists the old count's partitions, and the settings refuse the group for that.
 */
export function reportsOwnersOf(g: unknown, topic: string): g is Entry {
  return Array.isArray((g as Reported | null)?.observed?.owners?.[topic]);
}

type Reported = Entry & { observed?: { owners?: Record<string, unknown> } };

/**
 * `groups` where a Kafka topic's partition count changes, each group with a report of `topic`
 * without it (but those an import `replaces` with new ones); undefined where none has one. Kept,
 * another group imported on the topic was left for the user to mend by hand.
 */
export function withoutTopicReports(groups: unknown, topic: string, changes: string[], replaces?: Entry[]): unknown[] | undefined {
  const n = changes.length;
  const next = (Array.isArray(groups) ? groups : []).map((g) => (reportsOwnersOf(g, topic) && !replaces?.some((r) => r.name === g.name) ? withoutReport(g, `group ${textOf(g.name)}`, changes) : g));
  return changes.length > n ? next : undefined;
}
