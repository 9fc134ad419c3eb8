/**
 * The side bar's tree as plain data (pure: no `vscode`): what each row says and which actions it
 * offers. `topologyView.ts` turns nodes into tree items; the node builders (one file per kind of
 * thing: topics, namespaces, problems) fill them in from the settings model.
 */
import type { Finding } from '../settingsModel';

export type NodeKind =
  | 'section'
  | 'topic'
  | 'subscription'
  | 'consumer'
  | 'range'
  | 'unowned'
  | 'group'
  | 'member'
  | 'namespace'
  | 'bundle'
  | 'bundleTopic'
  | 'more'
  | 'problems'
  | 'problem';

export interface TreeNode {
  /** Unique in the tree and stable across refreshes (VS Code keeps expansion state by it). */
  id: string;
  kind: NodeKind;
  label: string;
  /** The important number, next to the label. */
  description?: string;
  /** Markdown; or what makes it, where that is costly and wanted only on hover (a consumer's). */
  tooltip: string | (() => string);
  /** A codicon id (`ThemeIcon`). */
  icon: string;
  /** The setting the node stands for, e.g. `keyRouting.topics[1].subscription.consumers[0]`. */
  settingPath?: string;
  /** The topic the node belongs to (route a key, open it in the panel). */
  topic?: string;
  /** A consumer (or, for groups, a member) id: what-if removes it. */
  consumerId?: string;
  /** The Kafka consumer group a member row belongs to (its what-if is the group's rebalance). */
  group?: string;
  /** More words for the row's context value (menus match them), e.g. the topic's system. */
  tags?: string[];
  /** What "Copy" puts on the clipboard. */
  copyText?: string;
  /** Settings findings shown on this node (filled in by `attachFindings`). */
  findings: Finding[];
  children: TreeNode[];
  /**
   * Rows built the first time the node is expanded, in place of `children` (`childrenOf`): a
   * consumer's range rows, 150,000 of them for two rings of 1,000 consumers x 100 points, which
   * nobody sees until a consumer is opened. Never rows with a setting path: findings are placed
   * on the tree before any of them exists.
   */
  later?: () => TreeNode[];
  /** Expanded when first shown. */
  expanded?: boolean;
}

export function node(fields: Omit<TreeNode, 'findings' | 'children'> & Partial<Pick<TreeNode, 'findings' | 'children'>>): TreeNode {
  return { findings: [], children: [], ...fields };
}

/** A node's rows, building its deferred rows (`later`) the first time they are asked for. */
export function childrenOf(n: TreeNode): TreeNode[] {
  if (n.later) {
    n.children = n.later();
    n.later = undefined;
  }
  return n.children;
}

/** Whether the node has rows under it, built or not. */
export function hasChildren(n: TreeNode): boolean {
  return n.children.length > 0 || n.later !== undefined;
}

/** A top-level section: a kind of thing, counted, expanded, standing for a whole setting. */
export function section(id: string, label: string, tooltip: string, icon: string, settingPath: string, children: TreeNode[]): TreeNode {
  return node({ id: `section:${id}`, kind: 'section', label, description: String(children.length), tooltip, icon, settingPath, expanded: true, children });
}

/** Markdown text with the characters that would format escaped. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (c) => `\\${c}`);
}

/** A markdown code span holding `text` as it is (backslashes are literal inside one). */
export function code(text: string): string {
  const ticks = '`'.repeat((text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** `1,234,567` (the extension's numbers read the same in every locale, as the CLI prints them). */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** At most `max` children, then one "and N more" row. */
export function capped(children: TreeNode[], max: number, moreId: string, moreLabel: (n: number) => string): TreeNode[] {
  if (children.length <= max) return children;
  const rest = children.length - max;
  return [...children.slice(0, max), node({ id: moreId, kind: 'more', label: moreLabel(rest), tooltip: moreLabel(rest), icon: 'ellipsis' })];
}

/**
 * The row's kind and what it offers, as words the manifest's menus match with
 * `viewItem =~ /\bword\b/`: `topic`, `pulsar`/`kafka`, `consumer`, `setting` (it has a setting
 * path), `copy` (it has something to copy), `removable` (what-if can remove it).
 */
export function contextValue(n: TreeNode): string {
  const words: string[] = [n.kind, ...(n.tags ?? [])];
  if (n.consumerId !== undefined) words.push('removable');
  if (n.settingPath !== undefined) words.push('setting');
  if (n.copyText !== undefined) words.push('copy');
  return words.join(' ');
}
