/**
 * Kafka consumer group rows of the side bar (pure): each group of `keyRouting.kafkaGroups` with its
 * assignor, and its members in join order with the partitions each consumes, as the engine's
 * assignor gives them (or as the broker reported them, for a group with an `observed` block):
 * the panel's group view of each topic (`buildGroupView`), so both count the same way.
 */
import type { ConsumerGroupState } from '../../engine/kafka/consumerGroup';
import { KAFKA_GROUPS } from '../../engine/kafka/groupSettings';
import { KafkaTopicState } from '../../engine/topology';
import { buildGroupView, MAX_COUNTED_PARTITIONS, type GroupViewModel } from '../../shared/view/groupView';
import type { Localizer } from '../localize';
import { code, count, md, node, section, type TreeNode } from './nodes';
import { percent } from './shares';
import { joinDescription, lines, MAX_EXPANDED_CONSUMERS, partitionCount, type BuildContext } from './topics';

/** Partition runs written out in a member's tooltip at most, per topic. */
const MAX_TOOLTIP_RUNS = 12;

export function groupsSection(ctx: BuildContext): TreeNode | undefined {
  const { l10n } = ctx;
  const groups = ctx.model.topology.groups;
  if (groups.length === 0) return undefined;
  return section('groups', l10n.t('Kafka consumer groups'), l10n.t('The consumer groups of `{0}`, in settings order.', KAFKA_GROUPS), 'organization', KAFKA_GROUPS, groups.map((g) => groupNode(ctx, g)));
}

/** The group on each of its topics, as the panel draws it: owners and counts per member, in join order. */
function viewsOf(ctx: BuildContext, g: ConsumerGroupState): GroupViewModel[] {
  const out: GroupViewModel[] = [];
  for (const t of g.config.topics) {
    const state = ctx.model.topology.topic(t);
    if (state instanceof KafkaTopicState) out.push(buildGroupView(g, state, []));
  }
  return out;
}

function groupNode(ctx: BuildContext, g: ConsumerGroupState): TreeNode {
  const { l10n, model } = ctx;
  const path = model.settings.kafkaGroups?.find((s) => s.name === g.name)?.path;
  const ids = [...g.members.keys()];
  const views = viewsOf(ctx, g);
  const total = views.reduce((n, v) => n + v.partitions, 0);
  // Past MAX_COUNTED_PARTITIONS on a topic (the range assignors, which follow any count) the
  // partitions are not gone through one by one: the members' counts are then unknown.
  const counted = views.every((v) => v.owner !== null);
  const owned = ids.map((_, i) => views.reduce((n, v) => n + (v.members[i].partitions ?? 0), 0));
  const unowned = views.reduce((n, v) => n + (v.unowned ?? 0), 0);
  const observedAt = views[0]?.observedAt ?? null;
  const topics = views.map((v) => `${code(ctx.names.get(v.topic) ?? v.topic)} (${partitionCount(l10n, v.partitions)})`).join(', ');
  const rows = ids.map((id, i) => memberNode(ctx, g, id, i, path, views, counted ? owned[i] : null, total));
  if (unowned > 0) rows.push(nobodyNode(ctx, g, views, unowned, total));
  return node({
    id: `group:${g.name}`,
    kind: 'group',
    label: g.name,
    description: joinDescription(g.assignor, memberCount(l10n, ids.length), observedAt === null ? undefined : l10n.t('observed')),
    tooltip: lines(
      l10n.t('**{0}**: Kafka consumer group, {1} assignor, on {2}', md(g.name), g.assignor, topics),
      observedAt === null ? undefined : observedAt ? l10n.t('observed at {0}', observedAt) : l10n.t('the state the broker reported'),
      counted ? undefined : l10n.t('Its members\' partitions are not counted: a topic has over {0}.', count(MAX_COUNTED_PARTITIONS)),
      ...g.notes().map(md),
      path ? l10n.t('Setting: `{0}`', path) : undefined,
    ),
    icon: 'organization',
    settingPath: path,
    copyText: g.name,
    children: rows,
    expanded: ids.length <= MAX_EXPANDED_CONSUMERS,
  });
}

function memberNode(ctx: BuildContext, g: ConsumerGroupState, id: string, order: number, groupPath: string | undefined, views: readonly GroupViewModel[], n: number | null, total: number): TreeNode {
  const { l10n } = ctx;
  const path = groupPath && `${groupPath}.members[${order}]`;
  const own = g.config.members[order]?.topics;
  return node({
    id: `group:${g.name}/member:${id}`,
    kind: 'member',
    label: id,
    description: n === null ? '–' : `${partitionCount(l10n, n)} · ${percent(n, total)}`,
    // Made on hover: a member's partition list reads every partition of the group's topics.
    tooltip: () =>
      lines(
        l10n.t('**{0}**, member {1} to join', md(id), order + 1),
        ...partitionLines(ctx, views, order),
        own ? l10n.t('Its own subscription: {0}', own.map(code).join(', ')) : undefined,
        path ? l10n.t('Setting: `{0}`', path) : undefined,
      ),
    icon: 'person',
    settingPath: path,
    consumerId: id,
    group: g.name,
    copyText: id,
  });
}

function nobodyNode(ctx: BuildContext, g: ConsumerGroupState, views: readonly GroupViewModel[], n: number, total: number): TreeNode {
  const { l10n } = ctx;
  return node({
    id: `group:${g.name}/unowned`,
    kind: 'unowned',
    label: l10n.t('nobody'),
    description: `${partitionCount(l10n, n)} · ${percent(n, total)}`,
    tooltip: () => lines(...partitionLines(ctx, views, -1)),
    icon: 'circle-slash',
  });
}

/** `orders: partitions 0-2, 7` for each topic where member `index` (-1: nobody) consumes some. */
function partitionLines(ctx: BuildContext, views: readonly GroupViewModel[], index: number): string[] {
  const { l10n } = ctx;
  const out: string[] = [];
  for (const { topic, owner } of views) {
    if (owner === null) continue;
    const mine: number[] = [];
    for (let p = 0; p < owner.length; p++) if (owner[p] === index) mine.push(p);
    if (mine.length > 0) out.push(l10n.t('{0}: partitions {1}', code(ctx.names.get(topic) ?? topic), partitionRuns(mine, MAX_TOOLTIP_RUNS)));
  }
  return out;
}

/** Ascending partitions as runs, `0-2, 7`; past `max` runs, the number of runs left out. */
export function partitionRuns(partitions: readonly number[], max = Infinity): string {
  const runs: string[] = [];
  let more = 0;
  for (let i = 0; i < partitions.length; i++) {
    let j = i;
    while (j + 1 < partitions.length && partitions[j + 1] === partitions[j] + 1) j++;
    if (runs.length < max) runs.push(i === j ? String(partitions[i]) : `${partitions[i]}-${partitions[j]}`);
    else more++;
    i = j;
  }
  return runs.join(', ') + (more ? ` … (+${count(more)})` : '');
}

function memberCount(l10n: Localizer, n: number): string {
  return n === 1 ? l10n.t('1 member') : l10n.t('{0} members', count(n));
}
