/**
 * Kafka consumer group rows of the side bar (pure): each group of `keyRouting.kafkaGroups` with its
 * assignor, and its members in join order with the partitions each consumes, as the engine's
 * assignor gives them (or as the broker reported them, for a group with an `observed` block).
 */
import type { ConsumerGroupState } from '../../engine/kafka/consumerGroup';
import { KAFKA_GROUPS } from '../../engine/kafka/groupSettings';
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

/** Who consumes each partition of each of the group's topics: member index in join order, -1 for nobody. */
function ownersOf(g: ConsumerGroupState, ids: readonly string[], partitions: ReadonlyMap<string, number>): Map<string, Int32Array> {
  const index = new Map(ids.map((id, i) => [id, i]));
  const out = new Map<string, Int32Array>();
  for (const [topic, n] of partitions) {
    const owner = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const id = g.ownerOf(topic, p);
      owner[p] = id === null ? -1 : (index.get(id) ?? -1);
    }
    out.set(topic, owner);
  }
  return out;
}

function groupNode(ctx: BuildContext, g: ConsumerGroupState): TreeNode {
  const { l10n, model } = ctx;
  const path = model.settings.kafkaGroups?.find((s) => s.name === g.name)?.path;
  const ids = [...g.members.keys()];
  const partitions = new Map(g.config.topics.map((t) => [t, model.topology.topic(t)?.partitions ?? 0]));
  const total = [...partitions.values()].reduce((a, b) => a + b, 0);
  const owners = ownersOf(g, ids, partitions);
  // Partitions per member index, and nobody's at the end.
  const counts = new Array<number>(ids.length + 1).fill(0);
  for (const owner of owners.values()) for (const i of owner) counts[i < 0 ? ids.length : i]++;
  const observedAt = g.observed ? (g.config.observed?.at ?? '') : undefined;
  const topics = [...partitions].map(([t, n]) => `${code(ctx.names.get(t) ?? t)} (${partitionCount(l10n, n)})`).join(', ');
  const rows = ids.map((id, i) => memberNode(ctx, g, id, i, path, owners, counts[i], total));
  if (counts[ids.length] > 0) rows.push(nobodyNode(ctx, g, owners, counts[ids.length], total));
  return node({
    id: `group:${g.name}`,
    kind: 'group',
    label: g.name,
    description: joinDescription(g.assignor, memberCount(l10n, ids.length), observedAt === undefined ? undefined : l10n.t('observed')),
    tooltip: lines(
      l10n.t('**{0}**: Kafka consumer group, {1} assignor, on {2}', md(g.name), g.assignor, topics),
      observedAt === undefined ? undefined : observedAt ? l10n.t('observed at {0}', observedAt) : l10n.t('the state the broker reported'),
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

function memberNode(ctx: BuildContext, g: ConsumerGroupState, id: string, order: number, groupPath: string | undefined, owners: ReadonlyMap<string, Int32Array>, n: number, total: number): TreeNode {
  const { l10n } = ctx;
  const path = groupPath && `${groupPath}.members[${order}]`;
  const own = g.config.members[order]?.topics;
  return node({
    id: `group:${g.name}/member:${id}`,
    kind: 'member',
    label: id,
    description: `${partitionCount(l10n, n)} · ${percent(n, total)}`,
    // Made on hover: a member's partition list reads every partition of the group's topics.
    tooltip: () =>
      lines(
        l10n.t('**{0}**, member {1} to join', md(id), order + 1),
        ...partitionLines(ctx, owners, order),
        own ? l10n.t('Its own subscription: {0}', own.map(code).join(', ')) : undefined,
        path ? l10n.t('Setting: `{0}`', path) : undefined,
      ),
    icon: 'person',
    settingPath: path,
    copyText: id,
  });
}

function nobodyNode(ctx: BuildContext, g: ConsumerGroupState, owners: ReadonlyMap<string, Int32Array>, n: number, total: number): TreeNode {
  const { l10n } = ctx;
  return node({
    id: `group:${g.name}/unowned`,
    kind: 'unowned',
    label: l10n.t('nobody'),
    description: `${partitionCount(l10n, n)} · ${percent(n, total)}`,
    tooltip: () => lines(...partitionLines(ctx, owners, -1)),
    icon: 'circle-slash',
  });
}

/** `orders: partitions 0-2, 7` for each topic where member `index` (-1: nobody) consumes some. */
function partitionLines(ctx: BuildContext, owners: ReadonlyMap<string, Int32Array>, index: number): string[] {
  const { l10n } = ctx;
  const out: string[] = [];
  for (const [topic, owner] of owners) {
    const runs: string[] = [];
    let more = 0;
    for (let p = 0; p < owner.length; p++) {
      if (owner[p] !== index) continue;
      let q = p;
      while (q + 1 < owner.length && owner[q + 1] === index) q++;
      if (runs.length < MAX_TOOLTIP_RUNS) runs.push(q === p ? String(p) : `${p}-${q}`);
      else more++;
      p = q;
    }
    if (runs.length > 0) out.push(l10n.t('{0}: partitions {1}', code(ctx.names.get(topic) ?? topic), runs.join(', ') + (more ? ` … (+${count(more)})` : '')));
  }
  return out;
}

function memberCount(l10n: Localizer, n: number): string {
  return n === 1 ? l10n.t('1 member') : l10n.t('{0} members', count(n));
}
