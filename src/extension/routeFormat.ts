/**
 * Route results as people read them (pure: no `vscode`): the one-line summary of a notification
 * or status bar, and the aligned table of the output channel.
 *
 *   user-1 → orders p2 → billing: m2 · payments p3 → C4 [32769-49152]
 */
import type { GroupRouteFields } from '../engine/kafka/groupTopology';
import type { RouteFields } from '../engine/topology';

/** One key's routes over the configured topics, in settings order. */
export interface KeyRoutes {
  /** The key as shown (its text, or `0x...` for bytes that are not UTF-8). */
  label: string;
  routes: TopicRoute[];
}

export interface TopicRoute extends RouteFields, GroupRouteFields {
  /** Whether the topic has a Key_Shared subscription (so "no consumer" means unowned). */
  hasSubscription: boolean;
  /** True where the topic's current entry is invalid and its last good settings are used. */
  stale?: boolean;
}

/**
 * Short labels for topic names: a Pulsar `persistent://tenant/ns/name` is shown as `name`
 * unless another topic has the same local name, then as `tenant/ns/name`.
 */
export function shortNames(names: readonly string[]): Map<string, string> {
  const local = (n: string) => n.replace(/^(persistent|non-persistent):\/\//, '');
  const last = (n: string) => local(n).split('/').pop() || n;
  const count = new Map<string, number>();
  for (const n of names) count.set(last(n), (count.get(last(n)) ?? 0) + 1);
  const localCount = new Map<string, number>();
  for (const n of names) localCount.set(local(n), (localCount.get(local(n)) ?? 0) + 1);
  return new Map(names.map((n) => [n, count.get(last(n)) === 1 ? last(n) : localCount.get(local(n)) === 1 ? local(n) : n]));
}

/** A key as shown in one line: control characters escaped, long keys cut. */
export function showKey(label: string, max = 60): string {
  // eslint-disable-next-line no-control-regex
  const s = /[\u0000-\u001f\u007f\u2028\u2029]/.test(label) || label.trim() !== label || label === '' ? JSON.stringify(label) : label;
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * The members of a Kafka route's consumer groups: `billing: m2, audit: nobody`, with
 * ` (observed)` when a broker reported them. Empty when no group consumes the topic.
 */
export function groupMembers(r: TopicRoute, separator = ': '): string {
  if (!r.groups) return '';
  const s = Object.entries(r.groups)
    .map(([g, m]) => `${g}${separator}${m ?? 'nobody'}`)
    .join(', ');
  return r.observed ? `${s} (observed)` : s;
}

/** `orders p2 → billing: m2`, `payments p3 → C4 [32769-49152]`, `invoices → nobody (hash 61234 unowned)`. */
export function formatTopicRoute(r: TopicRoute, topicLabel: string): string {
  let s = topicLabel;
  if (r.partition !== null) s += ` p${r.partition}`;
  if (r.groups) s += ` → ${groupMembers(r)}`;
  if (r.hasSubscription) {
    if (r.consumer) s += ` → ${r.consumer}${r.range ? ` [${r.range[0]}-${r.range[1]}]` : ''}`;
    else s += ` → nobody (hash ${r.stickyKeyHash} unowned)`;
  } else if (r.system === 'pulsar' && r.partition === null) {
    s += ` hash ${r.stickyKeyHash}`;
  }
  if (r.stale) s += ' (last good settings)';
  return s;
}

/** The notification line for one key. */
export function summarize(k: KeyRoutes, names: Map<string, string>): string {
  const parts = k.routes.map((r) => formatTopicRoute(r, names.get(r.topic) ?? r.topic));
  return `${showKey(k.label)} → ${parts.join(' · ')}`;
}

/** The notification line for several keys: a count and where the table is. */
export function summarizeMany(keys: readonly KeyRoutes[], topics: number): string {
  const n = keys.length;
  return `${n.toLocaleString('en-US')} keys routed on ${topics} topic${topics === 1 ? '' : 's'}; see the Key Routing output for the table.`;
}

/** The aligned table of the output channel: one row per key per topic. */
export function routeTable(keys: readonly KeyRoutes[]): string {
  // Kafka consumer groups get a column of their own where any topic has one.
  const withGroups = keys.some((k) => k.routes.some((r) => r.groups));
  const header = ['key', 'topic', 'partition', 'hash', 'consumer', ...(withGroups ? ['group: member'] : []), 'range'];
  const rows: string[][] = [];
  for (const k of keys) {
    for (const r of k.routes) {
      rows.push([
        showKey(k.label, 80),
        r.topic + (r.stale ? ' *' : ''),
        r.partition === null ? '-' : String(r.partition),
        String(r.system === 'kafka' ? r.hash : r.stickyKeyHash),
        r.hasSubscription ? (r.consumer ?? '(nobody)') : '-',
        ...(withGroups ? [groupMembers(r) || '-'] : []),
        r.range ? `${r.range[0]}-${r.range[1]}` : '-',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (keys.some((k) => k.routes.some((r) => r.stale))) out.push('* the topic\'s entry is invalid; its last good settings are used');
  out.push('hash: Kafka murmur2 (signed 32-bit); Pulsar the sticky key hash (makeStickyKeyHash). range: the owner\'s hash range holding the key.');
  if (withGroups) out.push('group: member: the consumer-group member that owns the key\'s partition (keyRouting.kafkaGroups).');
  return out.join('\n');
}

/** The status bar text: short, a key and its first topics. */
export function statusText(k: KeyRoutes, names: Map<string, string>, max = 80): string {
  const parts = k.routes.map((r) => {
    let s = names.get(r.topic) ?? r.topic;
    if (r.partition !== null) s += ` p${r.partition}`;
    if (r.groups) s += `→${groupMembers(r, ':')}`;
    if (r.hasSubscription) s += r.consumer ? `→${r.consumer}` : '→nobody';
    return s;
  });
  let text = `${showKey(k.label, 24)}: `;
  for (let i = 0; i < parts.length; i++) {
    const next = (i ? ' · ' : '') + parts[i];
    if (text.length + next.length > max) {
      text += ` · +${parts.length - i}`;
      break;
    }
    text += next;
  }
  return text;
}
