/**
 * Namespace rows of the side bar: each configured Pulsar namespace with its bundles, each bundle
 * with its exact share of the 32-bit topic hash ring and the configured topics (every partition a
 * topic of its own to the broker) that hash into it (pure).
 */
import { hex8, topicHash, type Bundle, type NamespaceBundles } from '../../engine/pulsar/namespaceBundles';
import { parseTopicName } from '../../engine/pulsar/topicName';
import { namespaceBundles, NAMESPACES, type NamespaceConfig } from '../../engine/settings';
import { capped, code, count, md, node, section, type TreeNode } from './nodes';
import { percent } from './shares';
import { joinDescription, lines, type BuildContext } from './topics';

/** A namespace with at most this many bundles lists them all; a larger one lists those holding topics. */
const LIST_ALL_BUNDLES = 64;
const MAX_BUNDLE_ROWS = 500;
const MAX_TOPIC_ROWS = 200;
/** The topic hash ring: CRC-32 values 0..0xffffffff. */
const RING = 0x100000000;

interface BrokerTopic {
  /** What the broker hashes: the full name, `-partition-i` for a partition. */
  name: string;
  /** The configured topic it belongs to. */
  topic: string;
  hash: number;
}

export function namespacesSection(ctx: BuildContext): TreeNode | undefined {
  const { l10n } = ctx;
  const namespaces = ctx.model.settings.namespaces;
  if (namespaces.length === 0) return undefined;
  return section('namespaces', l10n.t('Pulsar namespaces'), l10n.t('The namespaces of `{0}` and their bundles.', NAMESPACES), 'symbol-namespace', NAMESPACES, namespaces.map((ns) => namespaceNode(ctx, ns)));
}

/** The configured Pulsar topics of a namespace, every partition on its own. */
function brokerTopics(ctx: BuildContext, namespace: string): BrokerTopic[] {
  const out: BrokerTopic[] = [];
  for (const t of ctx.model.settings.topics) {
    if (t.system !== 'pulsar') continue;
    let name;
    try {
      name = parseTopicName(t.name);
    } catch {
      continue;
    }
    if (name.namespace !== namespace) continue;
    if (t.partitions === 0) out.push({ name: name.fullName, topic: t.name, hash: topicHash(name.fullName) });
    for (let i = 0; i < t.partitions; i++) {
      const p = `${name.fullName}-partition-${i}`;
      out.push({ name: p, topic: t.name, hash: topicHash(p) });
    }
  }
  return out;
}

function namespaceNode(ctx: BuildContext, ns: NamespaceConfig): TreeNode {
  const { l10n, model } = ctx;
  const index = model.namespaceIndex.get(ns.name);
  const path = index === undefined ? undefined : `${NAMESPACES}[${index}]`;
  const layout = namespaceBundles(ns);
  const topics = brokerTopics(ctx, ns.name);
  const byBundle = new Map<number, BrokerTopic[]>();
  for (const t of topics) {
    const b = layout.indexOf(t.hash);
    const list = byBundle.get(b);
    if (list) list.push(t);
    else byBundle.set(b, [t]);
  }
  const listAll = layout.size <= LIST_ALL_BUNDLES;
  const indices = listAll ? Array.from({ length: layout.size }, (_, i) => i) : [...byBundle.keys()].sort((a, b) => a - b);
  const bundles = indices.map((i) => bundleNode(ctx, ns, layout, layout.bundle(i), byBundle.get(i) ?? []));
  const rows = capped(bundles, MAX_BUNDLE_ROWS, `ns:${ns.name}/more`, (n) => l10n.t('… and {0} more bundles', count(n)));
  if (!listAll) {
    rows.push(
      node({
        id: `ns:${ns.name}/others`,
        kind: 'more',
        label: l10n.t('{0} other bundles hold no configured topic', count(layout.size - indices.length)),
        tooltip: l10n.t('Only the bundles holding a configured topic are listed when a namespace has more than {0} bundles.', LIST_ALL_BUNDLES),
        icon: 'ellipsis',
      }),
    );
  }
  return node({
    id: `ns:${ns.name}`,
    kind: 'namespace',
    label: ns.name,
    description: joinDescription(
      layout.size === 1 ? l10n.t('1 bundle') : l10n.t('{0} bundles', count(layout.size)),
      topics.length === 1 ? l10n.t('1 topic') : l10n.t('{0} topics', count(topics.length)),
    ),
    tooltip: lines(
      `**${md(ns.name)}**`,
      ns.boundaries
        ? l10n.t('{0} bundles at explicit boundaries.', count(layout.size))
        : l10n.t('{0} bundles of equal size (`PoliciesUtil.getBundles({1})`).', count(layout.size), ns.bundles),
      l10n.t('{0} configured topics (each partition counts as a topic) hash into its bundles by CRC-32 of the full topic name.', count(topics.length)),
      path ? l10n.t('Setting: `{0}`', path) : undefined,
    ),
    icon: 'symbol-namespace',
    settingPath: path,
    copyText: ns.name,
    children: rows,
    expanded: true,
  });
}

function bundleNode(ctx: BuildContext, ns: NamespaceConfig, layout: NamespaceBundles, b: Bundle, topics: BrokerTopic[]): TreeNode {
  const { l10n } = ctx;
  // Bundles are [lower, upper), the last one [lower, 0xffffffff] (`NamespaceBundle.includes`).
  const size = b.upper - b.lower + (b.index === layout.size - 1 ? 1 : 0);
  const share = percent(size, RING);
  const children = topics
    .slice()
    .sort((x, y) => x.hash - y.hash)
    .map((t) =>
      node({
        id: `ns:${ns.name}/bundle:${b.index}/topic:${t.name}`,
        kind: 'bundleTopic',
        label: shortTopic(t.name),
        description: hex8(t.hash),
        tooltip: lines(code(t.name), l10n.t('CRC-32 of the name: {0} ({1}).', t.hash, hex8(t.hash))),
        icon: 'symbol-event',
        topic: t.topic,
        copyText: t.name,
      }),
    );
  return node({
    id: `ns:${ns.name}/bundle:${b.index}`,
    kind: 'bundle',
    label: b.name,
    description: joinDescription(share, topics.length === 1 ? l10n.t('1 topic') : l10n.t('{0} topics', count(topics.length))),
    tooltip: lines(
      l10n.t('**Bundle {0}** of {1}', b.index, md(ns.name)),
      l10n.t('Topic hashes {0} to {1} ({2}): {3} of the hash ring.', hex8(b.lower), b.index === layout.size - 1 ? l10n.t('{0} inclusive', hex8(b.upper)) : l10n.t('{0} exclusive', hex8(b.upper)), count(size), share),
    ),
    icon: 'package',
    copyText: b.name,
    children: capped(children, MAX_TOPIC_ROWS, `ns:${ns.name}/bundle:${b.index}/more`, (n) => l10n.t('… and {0} more topics', count(n))),
  });
}

/** `payments-partition-0` for `persistent://public/default/payments-partition-0`. */
function shortTopic(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('/') + 1);
}
