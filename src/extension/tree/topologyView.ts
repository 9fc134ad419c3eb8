/**
 * The "Key Routing" side bar view: the tree of `tree.ts` as VS Code tree items, rebuilt whenever
 * the settings model changes, with settings problems marked on their rows, a badge counting
 * problems, and the `keyRouting.configured` context key (the welcome view and the editor's
 * context menu entries depend on it).
 */
import * as vscode from 'vscode';
import type { RoutingConfig } from '../config';
import { CONFIGURED_CONTEXT, TOPOLOGY_VIEW } from '../constants';
import type { SettingsModel } from '../settingsModel';
import { TREE_COMMANDS } from './commandIds';
import { childrenOf, contextValue, hasChildren, type TreeNode } from './nodes';
import { buildTree, findingMarkdown, walk, worst } from './tree';


export class TopologyView implements vscode.Disposable, vscode.TreeDataProvider<TreeNode> {
  readonly #changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #view: vscode.TreeView<TreeNode>;
  readonly #disposables: vscode.Disposable[] = [];
  #rootsValue: TreeNode[] | undefined;
  /** The current tree's nodes and parents by id: VS Code may still hold nodes of an earlier build. */
  #byId = new Map<string, TreeNode>();
  #parents = new Map<string, TreeNode>();
  /** What `keyRouting.configured` was last set to. */
  configuredContext: boolean | undefined;

  constructor(private readonly config: RoutingConfig) {
    this.#view = vscode.window.createTreeView(TOPOLOGY_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.#disposables.push(this.#view, this.#changed, config.onDidChange((m) => this.#update(m)));
    this.#update(config.model);
  }

  /** The rows as built from the current settings (built on first use after a change). */
  get roots(): TreeNode[] {
    if (!this.#rootsValue) {
      this.#rootsValue = buildTree(this.config.model, vscode.l10n);
      this.#byId = new Map();
      this.#parents = new Map();
      for (const n of walk(this.#rootsValue)) this.#add(n, n.children);
    }
    return this.#rootsValue;
  }

  /** Indexes a node and its (built) rows. */
  #add(n: TreeNode, children: readonly TreeNode[]): void {
    this.#byId.set(n.id, n);
    for (const c of children) this.#parents.set(c.id, n);
  }

  /** The current build's rows of a node, building and indexing deferred ones on first use. */
  #rowsOf(n: TreeNode): TreeNode[] {
    if (!n.later) return n.children;
    const rows = childrenOf(n);
    for (const c of rows) this.#add(c, []);
    this.#add(n, rows);
    return rows;
  }

  get treeView(): vscode.TreeView<TreeNode> {
    return this.#view;
  }

  #update(model: SettingsModel): void {
    this.#rootsValue = undefined;
    this.configuredContext = model.configured;
    void vscode.commands.executeCommand('setContext', CONFIGURED_CONTEXT, model.configured);
    const problems = model.findings.filter((f) => f.severity !== 'info').length;
    this.#view.badge = problems ? { value: problems, tooltip: problems === 1 ? vscode.l10n.t('1 settings problem') : vscode.l10n.t('{0} settings problems', problems) } : undefined;
    this.#changed.fire(undefined);
  }

  getChildren(n?: TreeNode): TreeNode[] {
    const roots = this.roots;
    // A node of an earlier build (the settings changed while VS Code was expanding it) gets the
    // children its id has now, so the rows never mix two builds.
    if (!n) return roots;
    const current = this.#byId.get(n.id);
    return current ? this.#rowsOf(current) : [];
  }

  getParent(n: TreeNode): TreeNode | undefined {
    void this.roots;
    return this.#parents.get(n.id);
  }

  getTreeItem(n: TreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      n.label,
      !hasChildren(n) ? vscode.TreeItemCollapsibleState.None : n.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = n.id;
    const bad = worst(n.findings);
    const problems = n.findings.filter((f) => f.severity !== 'info').length;
    item.description = problems
      ? [n.description, problems === 1 ? vscode.l10n.t('1 problem') : vscode.l10n.t('{0} problems', problems)].filter(Boolean).join(' · ')
      : n.description;
    item.iconPath = bad ? new vscode.ThemeIcon(bad, new vscode.ThemeColor(bad === 'error' ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground')) : new vscode.ThemeIcon(n.icon);
    item.contextValue = contextValue(n);
    if (n.kind === 'problem' && n.settingPath) {
      item.command = { command: TREE_COMMANDS.revealSetting, title: vscode.l10n.t('Reveal in Settings'), arguments: [n] };
    }
    return item;
  }

  /**
   * The row's tooltip, made when VS Code first shows it (on hover): the rows go to the workbench
   * without one, as the five production topics' 6,000 consumer rows carried 1.6 MB of tooltips.
   */
  resolveTreeItem(item: vscode.TreeItem, n: TreeNode): vscode.TreeItem {
    const own = typeof n.tooltip === 'function' ? n.tooltip() : n.tooltip;
    item.tooltip = new vscode.MarkdownString([own, ...n.findings.map((f) => findingMarkdown(vscode.l10n, f))].join('\n\n---\n\n'), true);
    return item;
  }

  /** Shows the row of a node id, if it exists (the tests and "reveal" use this). */
  async reveal(id: string): Promise<TreeNode | undefined> {
    const n = this.find(id);
    if (n) await this.#view.reveal(n, { select: true, focus: false, expand: true });
    return n;
  }

  /**
   * The node of an id, building deferred rows where needed: a deferred row's id starts with its
   * parent's id and `/` (a range row: its consumer's id, `/range:`, its start).
   */
  find(id: string): TreeNode | undefined {
    void this.roots;
    const built = this.#byId.get(id);
    if (built) return built;
    // rowsOf adds to byId, but the loop returns before it would read on.
    for (const n of this.#byId.values()) {
      if (n.later && id.startsWith(`${n.id}/`)) return this.#rowsOf(n).find((x) => x.id === id);
    }
    return undefined;
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}
