/**
 * Route results as people read them (pure: no `vscode`): the one-line summary of a notification
 * or status bar, and the aligned table of the output channel.
 *
 *   user-1 → orders p2 → billing: m2 · payments p3 → C4 [32769-49152]
 *   k → shipments → C4 [16385-40960] (observed) ⧗ draining at C1 (2 unacked)   (a broker's report)
 *   user-1 → orders p2 ⚠ librdkafka p4          (the topic's producers disagree)
 *   42 → ids p5 (bytes 000000000000002a)         (a typed key)
 *   abc → ids ✗ "abc" is not a long (...)        (a key the serializer refuses)
 */
import type { GroupRouteFields } from '../engine/kafka/groupTopology';
import type { RouteFields } from '../engine/topology';
import { keyText } from '../shared/keyText';

/** One key's routes over the configured topics, in settings order. */
export interface KeyRoutes {
  /** The key as shown (its text, or `0x...` for bytes that are not UTF-8). */
  label: string;
  routes: TopicRoute[];
}

export interface TopicRoute extends RouteFields, GroupRouteFields {
  /** Whether the topic has a Key_Shared subscription (so "no consumer" means unowned). */
  hasSubscription: boolean;
  /** The producer client the route follows: the Kafka `partitioner` or the Pulsar `hashingScheme`. */
  client?: string;
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

/**
 * The members of a Kafka route's consumer groups: `billing: m2, audit: nobody`, with
 * ` (observed)` when a broker reported them. Empty when no group consumes the topic. Where the
 * client fixes no partition for the key (or the serializer refuses it), no member can be named:
 * `billing: no member`, next to the route's own reason.
 */
export function groupMembers(r: TopicRoute, separator = ': '): string {
  if (!r.groups) return '';
  const names = Object.keys(r.groups);
  if (r.partition === null) return names.map((g) => `${g}${separator}no member`).join(', ');
  const s = Object.entries(r.groups)
    .map(([g, m]) => `${g}${separator}${m ?? 'nobody'}`)
    .join(', ');
  return r.observed ? `${s} (observed)` : s;
}

/**
 * The producers that put the key elsewhere than the route's partition: `librdkafka p4, kafka-go
 * (no fixed partition)`; empty where they all agree with it.
 */
export function disagreeingProducers(r: RouteFields): string {
  if (!r.disagree || !r.byProducer) return '';
  return Object.entries(r.byProducer)
    .filter(([, p]) => p === null || p !== r.partition)
    .map(([name, p]) => (p === null ? `${name} (no fixed partition)` : `${name} p${p}`))
    .join(', ');
}

/** `orders p2 → billing: m2`, `payments p3 → C4 [32769-49152]`, `invoices → nobody (hash 61234 unowned)`. */
export function formatTopicRoute(r: TopicRoute, topicLabel: string): string {
  let s = topicLabel;
  if (r.error !== undefined) return `${s} ✗ ${r.error}${r.stale ? ' (last good settings)' : ''}`;
  if (r.partition !== null) s += ` p${r.partition}`;
  else if (r.note !== undefined) s += ' (no fixed partition)';
  if (r.keyHex !== undefined) s += ` (bytes ${r.keyHex || 'none'})`;
  if (r.groups) s += ` → ${groupMembers(r)}`;
  const others = disagreeingProducers(r);
  if (others) s += ` ⚠ ${others}`;
  if (r.hasSubscription) {
    if (r.consumer) s += ` → ${r.consumer}${r.range ? ` [${r.range[0]}-${r.range[1]}]` : ''}`;
    else s += ` → nobody (hash ${r.stickyKeyHash} unowned)`;
    s += reportMarks(r);
  } else if (r.system === 'pulsar' && r.partition === null) {
    s += ` hash ${r.stickyKeyHash}`;
  }
  if (r.stale) s += ' (last good settings)';
  return s;
}

/**
 * What a broker's report adds to a Pulsar route (CONTRACT.md section 4): ` (observed)` where the
 * consumer is read off the report, and the consumer a draining hash still waits for.
 */
export function reportMarks(r: RouteFields): string {
  let s = r.observed ? ' (observed)' : '';
  if (r.draining) s += ` ⧗ draining at ${r.draining.consumer} (${r.draining.unackMsgs} unacked)`;
  return s;
}

/** The notification line for one key. */
export function summarize(k: KeyRoutes, names: Map<string, string>): string {
  const parts = k.routes.map((r) => formatTopicRoute(r, names.get(r.topic) ?? r.topic));
  return `${keyText(k.label, 60)} → ${parts.join(' · ')}`;
}

/** The producers' partitions in one cell: `java p2, librdkafka p4 ⚠`. */
function producersCell(r: RouteFields): string {
  if (!r.byProducer) return '-';
  const list = Object.entries(r.byProducer).map(([name, p]) => `${name} ${p === null ? 'random' : `p${p}`}`);
  return list.join(', ') + (r.disagree ? ' ⚠ disagree' : '');
}

/**
 * The aligned table of the output channel: one row per key per topic. The bytes, producers and
 * note columns appear only where some route has them.
 */
export function routeTable(keys: readonly KeyRoutes[]): string {
  const all = keys.flatMap((k) => k.routes);
  const withBytes = all.some((r) => r.keyHex !== undefined);
  const withProducers = all.some((r) => r.byProducer !== undefined);
  const withNote = all.some((r) => r.note !== undefined || r.error !== undefined);
  // Kafka consumer groups get a column of their own where any topic has one.
  const withGroups = all.some((r) => r.groups);
  const header = ['key', 'topic', 'partition', 'hash', 'consumer', ...(withGroups ? ['group: member'] : []), 'range'];
  if (withBytes) header.push('bytes');
  if (withProducers) header.push('producers');
  if (withNote) header.push('note');
  const rows: string[][] = [];
  for (const k of keys) {
    for (const r of k.routes) {
      const hash = r.system === 'kafka' ? r.hash : r.stickyKeyHash;
      const row = [
        keyText(k.label, 80),
        r.topic + (r.stale ? ' *' : ''),
        r.partition === null ? '-' : String(r.partition),
        hash === undefined ? '-' : String(hash),
        r.hasSubscription ? (r.consumer ?? '(nobody)') + reportMarks(r) : '-',
        ...(withGroups ? [groupMembers(r) || '-'] : []),
        r.range ? `${r.range[0]}-${r.range[1]}` : '-',
      ];
      if (withBytes) row.push(r.keyHex === undefined ? '-' : r.keyHex || '(empty)');
      if (withProducers) row.push(producersCell(r));
      if (withNote) row.push(r.error !== undefined ? `error: ${r.error}` : (r.note ?? ''));
      rows.push(row);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (keys.some((k) => k.routes.some((r) => r.stale))) out.push('* the topic\'s entry is invalid; its last good settings are used');
  out.push(
    "hash: Kafka the partitioner's hash, signed 32-bit (murmur2 for java, CRC-32 for librdkafka, FNV-1a for sarama and kafka-go); Pulsar the sticky key hash (makeStickyKeyHash). range: the owner's hash range holding the key.",
  );
  if (withGroups) out.push('group: member: the consumer-group member that owns the key\'s partition (keyRouting.kafkaGroups).');
  if (withBytes) out.push('bytes: the serialized key (keySerializer) the partitioner hashed, in hex.');
  return out.join('\n');
}

/** The status bar text: short, a key and its first topics. */
export function statusText(k: KeyRoutes, names: Map<string, string>, max = 80): string {
  const parts = k.routes.map((r) => {
    let s = names.get(r.topic) ?? r.topic;
    if (r.error !== undefined) return `${s} ✗`;
    if (r.partition !== null) s += ` p${r.partition}`;
    else if (r.note !== undefined) s += ' p?';
    if (r.groups) s += `→${groupMembers(r, ':')}`;
    if (r.disagree) s += ' ⚠';
    if (r.hasSubscription) s += r.consumer ? `→${r.consumer}` : '→nobody';
    return s;
  });
  let text = `${keyText(k.label, 24)}: `;
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
