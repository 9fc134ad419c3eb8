/**
 * Topic rows of the side bar: each configured topic with its system, partitions and producer hash;
 * a Pulsar topic's Key_Shared subscription with its consumers in connection order, each with its
 * exact share of the key values and its ranges as the engine's selector holds them (pure).
 */
import { partitionerNamed } from '../../engine/kafka/partitioners';
import { consumerId, type Consumer } from '../../engine/pulsar/keyShared/selector';
import { NamespaceBundles, topicHash } from '../../engine/pulsar/namespaceBundles';
import { parseTopicName } from '../../engine/pulsar/topicName';
import { namespaceBundles, TOPICS, type ConsumerConfig, type KafkaTopicConfig, type PulsarTopicConfig } from '../../engine/settings';
import { KafkaTopicState, PulsarTopicState, type TopicState } from '../../engine/topology';
import type { Localizer } from '../localize';
import type { SettingsModel } from '../settingsModel';
import { capped, code, count, md, node, section, type TreeNode } from './nodes';
import { consumerShares, percent, type OwnerShare, type Shares } from './shares';

export interface BuildContext {
  model: SettingsModel;
  l10n: Localizer;
  /** Short labels for topic names (`payments` for `persistent://public/default/payments`). */
  names: Map<string, string>;
}

/** Rows listed under one consumer at most (a ring of 10,000 points has as many ranges). */
const MAX_RANGE_ROWS = 200;
/**
 * A subscription opens expanded up to this many consumers; a larger one starts collapsed (its row
 * still counts them). A thousand-row list under one topic pushes the rest of the tree out of
 * sight, and five production topics' 6,000 rows took the side bar 0.4-0.9 s to show.
 */
export const MAX_EXPANDED_CONSUMERS = 100;
/** Ranges written out in a tooltip at most. */
const MAX_TOOLTIP_RANGES = 12;
/** The broker's `defaultNumberOfNamespaceBundles`, for a namespace not in the settings. */
const DEFAULT_BUNDLES = 4;

export function topicsSection(ctx: BuildContext): TreeNode | undefined {
  const { l10n } = ctx;
  const topics = ctx.model.topology.topics;
  if (topics.length === 0) return undefined;
  return section('topics', l10n.t('Topics'), l10n.t('The topics of `{0}`, in settings order.', TOPICS), 'list-tree', TOPICS, topics.map((t) => topicNode(ctx, t)));
}

function topicNode(ctx: BuildContext, state: TopicState): TreeNode {
  const { l10n, model } = ctx;
  const index = model.topicIndex.get(state.name);
  const path = index === undefined ? undefined : `${TOPICS}[${index}]`;
  const stale = model.stale.has(state.name);
  const staleNote = stale ? [l10n.t('**Its entry is invalid**: routing uses its last good settings until it is fixed.')] : [];
  const base = {
    id: `topic:${state.name}`,
    kind: 'topic' as const,
    label: ctx.names.get(state.name) ?? state.name,
    settingPath: path,
    topic: state.name,
    copyText: state.name,
  };
  if (state instanceof KafkaTopicState) {
    const t = state.config as KafkaTopicConfig;
    return node({
      ...base,
      description: joinDescription(partitionCount(l10n, t.partitions), t.partitioner, stale ? l10n.t('last good settings') : undefined),
      icon: 'list-ordered',
      tags: ['kafka'],
      tooltip: lines(
        `**${md(t.name)}** · Kafka`,
        partitionerLine(l10n, t),
        ...staleNote,
        path ? l10n.t('Setting: `{0}`', path) : undefined,
      ),
    });
  }
  const p = state as PulsarTopicState;
  const t = p.config as PulsarTopicConfig;
  const sub = p.subscription ? subscriptionNode(ctx, p, path) : undefined;
  return node({
    ...base,
    description: joinDescription(
      t.partitions > 0 ? partitionCount(l10n, t.partitions) : l10n.t('non-partitioned'),
      t.partitions > 0 ? t.hashingScheme : undefined,
      stale ? l10n.t('last good settings') : undefined,
    ),
    icon: 'broadcast',
    tags: ['pulsar'],
    tooltip: lines(
      `**${md(t.name)}** · Pulsar`,
      t.partitions > 0
        ? l10n.t('{0} · the producer picks `signSafeMod({1}(key), {2})`.', partitionCount(l10n, t.partitions), t.hashingScheme, t.partitions)
        : l10n.t('Non-partitioned: every key goes to the one topic.'),
      p.subscription ? undefined : l10n.t('No Key_Shared subscription configured: keys get their sticky key hash only.'),
      bundleLine(ctx, t),
      ...staleNote,
      path ? l10n.t('Setting: `{0}`', path) : undefined,
    ),
    children: sub ? [sub] : [],
    expanded: true,
  });
}

/** How the topic's producers pick a key's partition: each client's own formula, not only the Java client's. */
function partitionerLine(l10n: Localizer, t: KafkaTopicConfig): string {
  const p = partitionerNamed(t.partitioner);
  const count = partitionCount(l10n, t.partitions);
  return p.hashFunction === null
    ? l10n.t('{0} · partitioner `{1}`: the partition is `{2}`, whatever the key.', count, t.partitioner, p.formula(t.partitions))
    : l10n.t('{0} · partitioner `{1}`: the partition is `{2}` over the key bytes.', count, t.partitioner, p.formula(t.partitions));
}

/** Where the topic (every partition a topic of its own to the broker) sits among its namespace's bundles. */
function bundleLine(ctx: BuildContext, t: PulsarTopicConfig): string | undefined {
  const { l10n } = ctx;
  let name;
  try {
    name = parseTopicName(t.name);
  } catch {
    return undefined;
  }
  const ns = ctx.model.settings.namespaces.find((n) => n.name === name.namespace);
  const layout = ns ? namespaceBundles(ns) : NamespaceBundles.equal(DEFAULT_BUNDLES);
  const where = ns
    ? l10n.t('namespace {0}', code(name.namespace))
    : l10n.t('namespace {0} (not in keyRouting.pulsarNamespaces: the broker default of {1} bundles)', code(name.namespace), DEFAULT_BUNDLES);
  if (t.partitions === 0) {
    return l10n.t('Bundle {0} of {1}.', code(layout.bundleOf(topicHash(name.fullName)).name), where);
  }
  const bundles = new Set<number>();
  for (let i = 0; i < t.partitions; i++) bundles.add(layout.indexOf(topicHash(`${name.fullName}-partition-${i}`)));
  return l10n.t('Its partitions are in {0} of the {1} bundles of {2}.', count(bundles.size), count(layout.size), where);
}

function subscriptionNode(ctx: BuildContext, state: PulsarTopicState, topicPath: string | undefined): TreeNode {
  const { l10n } = ctx;
  const sub = state.config.subscription!;
  const selector = state.subscription!.selector;
  const shares = consumerShares(selector);
  const path = topicPath && `${topicPath}.subscription`;
  const mode =
    sub.keySharedMode === 'STICKY' ? l10n.t('sticky ranges') : sub.consistentHashing ? l10n.t('consistent hashing') : l10n.t('auto-split ranges');
  const connected = new Map(state.subscription!.consumers.map((c) => [c.id, c]));
  const ids = consumerIds(sub.consumers, ctx.model, connected);
  const consumers = sub.consumers.map((c, j) => consumerNode(ctx, state, c, j, ids[j] ? connected.get(ids[j]!) : undefined, shares));
  const [lo, hi] = shares.within;
  const unowned = shares.unowned.values > 0 && connected.size > 0 ? [unownedNode(ctx, state, shares)] : [];
  const detail =
    sub.keySharedMode === 'STICKY'
      ? l10n.t('STICKY: each consumer names its own hash ranges; the broker refuses overlaps.')
      : sub.consistentHashing
        ? l10n.t('AUTO_SPLIT with consistent hashing, {0} points per consumer (`subscriptionKeySharedConsistentHashingReplicaPoints`).', sub.replicaPoints)
        : l10n.t('AUTO_SPLIT hash ranges: each new consumer splits the largest range (range size {0}).', count(sub.hashRangeSize));
  return node({
    id: `topic:${state.name}/subscription`,
    kind: 'subscription',
    label: sub.name,
    description: joinDescription(mode, l10n.t('broker {0}', state.config.brokerVersion === '4.0' ? '4.x' : '3.x'), consumerCount(l10n, connected.size)),
    tooltip: lines(
      l10n.t('**{0}**: Key_Shared subscription on {1}', md(sub.name), md(state.name)),
      detail,
      state.config.brokerVersion === '4.0' ? l10n.t('Broker 4.x selectors (PIP-379).') : l10n.t('Broker 2.x/3.x selectors (before PIP-379).'),
      l10n.t('Shares are of the {0} key hash values {1}-{2}.', count(shares.total), lo, hi),
      state.partitions > 0 ? l10n.t('Each of the {0} partitions has a selector of its own, fed the same consumers in the same order: the same assignment.', state.partitions) : undefined,
      path ? l10n.t('Setting: `{0}`', path) : undefined,
    ),
    icon: 'type-hierarchy-sub',
    settingPath: path,
    topic: state.name,
    copyText: sub.name,
    children: [...consumers, ...unowned],
    expanded: sub.consumers.length <= MAX_EXPANDED_CONSUMERS,
  });
}

/**
 * The id each configured consumer got, in connection order (undefined where the broker refused
 * it): the k-th accepted consumer of a name is `name#k`, as `KeySharedSubscription.connect`
 * counts; refusals are the model's findings at the consumer's own path. Checked against the
 * connected consumers, so a mismatch shows as "not connected" rather than a wrong share.
 */
function consumerIds(consumers: readonly ConsumerConfig[], model: SettingsModel, connected: ReadonlyMap<string, Consumer>): Array<string | undefined> {
  const refused = new Set(model.findings.filter((f) => f.message.startsWith('the broker refuses')).map((f) => f.path));
  const seen = new Map<string, number>();
  return consumers.map((c) => {
    if (refused.has(c.path)) return undefined;
    const k = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, k);
    const id = consumerId(c.name, k);
    return connected.has(id) ? id : undefined;
  });
}

function consumerNode(ctx: BuildContext, state: PulsarTopicState, c: ConsumerConfig, order: number, consumer: Consumer | undefined, shares: Shares): TreeNode {
  const { l10n } = ctx;
  const base = { kind: 'consumer' as const, settingPath: c.path, topic: state.name };
  if (!consumer) {
    return node({
      ...base,
      id: `topic:${state.name}/refused:${order}`,
      label: c.name,
      description: l10n.t('not connected: refused by the broker'),
      tooltip: lines(l10n.t('**{0}** is not connected: the broker refuses it (see the problem below).', md(c.name)), l10n.t('Setting: `{0}`', c.path)),
      icon: 'debug-disconnect',
      copyText: c.name,
    });
  }
  const share = shares.byConsumer.get(consumer) ?? { values: 0, ranges: [], shared: [] };
  const p = percent(share.values, shares.total);
  const pieces = share.ranges.length + share.shared.length;
  const where =
    pieces === 0
      ? l10n.t('no hashes')
      : pieces === 1 && share.ranges.length === 1
        ? `[${share.ranges[0][0]}-${share.ranges[0][1]}]`
        : share.shared.length === 0
          ? l10n.t('{0} ranges', count(share.ranges.length))
          : l10n.t('{0} ranges, {1} shared', count(share.ranges.length), count(share.shared.length));
  return node({
    ...base,
    id: `topic:${state.name}/consumer:${consumer.id}`,
    label: consumer.id,
    description: `${p} · ${where}`,
    // Made on hover: 6,000 consumer rows' tooltips were a third of a large workspace's tree build.
    tooltip: () => lines(
      consumer.id === c.name
        ? l10n.t('**{0}**, consumer {1} to connect', md(consumer.id), order + 1)
        : l10n.t('**{0}**: consumer name {1}, consumer {2} to connect (a repeated name gets `#k`)', md(consumer.id), code(c.name), order + 1),
      l10n.t('Receives {0} of the {1} key hash values: {2}.', count(share.values), count(shares.total), p),
      share.ranges.length ? l10n.t('Ranges: {0}', rangeList(share.ranges)) : undefined,
      ...sharedLines(ctx, consumer, share),
      c.ranges ? l10n.t('Asked for (STICKY): {0}', rangeList(c.ranges)) : undefined,
      l10n.t('Setting: `{0}`', c.path),
    ),
    icon: 'person',
    consumerId: consumer.id,
    copyText: consumer.id,
    later: pieces > 1 ? () => rangeNodes(ctx, state, consumer, share, shares.total) : undefined,
  });
}

function sharedLines(ctx: BuildContext, consumer: Consumer, share: OwnerShare): string[] {
  const { l10n } = ctx;
  return share.shared.slice(0, MAX_TOOLTIP_RANGES).map((s) => {
    const others = s.owners.filter((o) => o !== consumer).map((o) => code(o.id)).join(', ');
    const k = s.owners.indexOf(consumer);
    return s.values > 0
      ? l10n.t('{0}-{1}: a ring point shared with {2}; the broker picks `list[hash % {3}]`, so this consumer gets the hashes with remainder {4} ({5} values).', s.start, s.end, others, s.owners.length, k, count(s.values))
      : l10n.t('{0}-{1}: queued behind {2} at a ring point it also holds; it gets these hashes only when the first one leaves.', s.start, s.end, code(s.owners[0].id));
  });
}

function rangeNodes(ctx: BuildContext, state: PulsarTopicState, consumer: Consumer, share: OwnerShare, total: number): TreeNode[] {
  const { l10n } = ctx;
  const rows: Array<{ start: number; end: number; values: number; shared: boolean }> = [
    ...share.ranges.map(([start, end]) => ({ start, end, values: end - start + 1, shared: false })),
    ...share.shared.map((s) => ({ start: s.start, end: s.end, values: s.values, shared: true })),
  ].sort((a, b) => a.start - b.start);
  const nodes = rows.map((r) =>
    node({
      id: `topic:${state.name}/consumer:${consumer.id}/range:${r.start}`,
      kind: 'range',
      label: `${r.start}-${r.end}`,
      description: r.shared ? l10n.t('{0} · shared point', percent(r.values, total)) : percent(r.values, total),
      tooltip: l10n.t('{0} of the {1} key hash values ({2}) from {3} to {4}.', count(r.values), count(total), percent(r.values, total), r.start, r.end),
      icon: r.shared ? 'debug-breakpoint-log-unverified' : 'arrow-both',
      topic: state.name,
      copyText: `${r.start}-${r.end}`,
    }),
  );
  return capped(nodes, MAX_RANGE_ROWS, `topic:${state.name}/consumer:${consumer.id}/more`, (n) => l10n.t('… and {0} more ranges (the panel draws them all)', count(n)));
}

function unownedNode(ctx: BuildContext, state: PulsarTopicState, shares: Shares): TreeNode {
  const { l10n } = ctx;
  const u = shares.unowned;
  return node({
    id: `topic:${state.name}/unowned`,
    kind: 'unowned',
    label: l10n.t('nobody'),
    description: `${percent(u.values, shares.total)} · ${u.ranges.length === 1 ? `[${u.ranges[0][0]}-${u.ranges[0][1]}]` : l10n.t('{0} ranges', count(u.ranges.length))}`,
    tooltip: lines(
      l10n.t('{0} of the {1} key hash values ({2}) have no consumer: the broker holds messages whose keys hash there until a consumer covers them.', count(u.values), count(shares.total), percent(u.values, shares.total)),
      l10n.t('Ranges: {0}', rangeList(u.ranges)),
    ),
    icon: 'circle-slash',
    topic: state.name,
  });
}

function rangeList(ranges: ReadonlyArray<readonly [number, number]>): string {
  const shown = ranges.slice(0, MAX_TOOLTIP_RANGES).map(([s, e]) => `${s}-${e}`);
  return shown.join(', ') + (ranges.length > MAX_TOOLTIP_RANGES ? ` … (+${count(ranges.length - MAX_TOOLTIP_RANGES)})` : '');
}

export function partitionCount(l10n: Localizer, n: number): string {
  return n === 1 ? l10n.t('1 partition') : l10n.t('{0} partitions', count(n));
}

function consumerCount(l10n: Localizer, n: number): string {
  return n === 1 ? l10n.t('1 consumer') : l10n.t('{0} consumers', count(n));
}

export function joinDescription(...parts: Array<string | undefined>): string {
  return parts.filter((p) => p !== undefined && p !== '').join(' · ');
}

/** Markdown paragraphs. */
export function lines(...paragraphs: Array<string | undefined>): string {
  return paragraphs.filter((p) => p !== undefined).join('\n\n');
}
