/**
 * The side bar's whole tree from the settings model (pure): one section per kind of thing, then
 * each settings finding put on the node of its setting path (the deepest node whose path the
 * finding's path starts with); findings no node stands for go on a "Settings problems" row on top.
 *
 * A new kind of thing is one more section builder in SECTIONS.
 */
import type { Localizer } from '../localize';
import { shortNames } from '../routeFormat';
import type { Finding, SettingsModel } from '../settingsModel';
import { groupsSection } from './groups';
import { namespacesSection } from './namespaces';
import { code, md, node, type TreeNode } from './nodes';
import { topicsSection, type BuildContext } from './topics';

export const SECTIONS: ReadonlyArray<(ctx: BuildContext) => TreeNode | undefined> = [topicsSection, groupsSection, namespacesSection];

export function buildTree(model: SettingsModel, l10n: Localizer): TreeNode[] {
  const ctx: BuildContext = { model, l10n, names: shortNames(model.topology.topics.map((t) => t.name)) };
  const sections = SECTIONS.map((build) => build(ctx)).filter((s): s is TreeNode => s !== undefined);
  const unmatched = attachFindings(sections, model.findings);
  return unmatched.length ? [problemsNode(l10n, unmatched), ...sections] : sections;
}

/** Every built node of a tree, depth first (rows deferred to `later` and not yet asked for are not). */
export function* walk(nodes: readonly TreeNode[]): Generator<TreeNode> {
  for (const n of nodes) {
    yield n;
    yield* walk(n.children);
  }
}

/**
 * Puts each finding on the node of the longest prefix of its path that a node stands for, cut at
 * `.` or `[` (a whole setting such as `keyRouting.topics` only when the finding is about the
 * whole setting: a problem of an entry that has no row is not the section's). Returns the
 * findings no node took.
 */
export function attachFindings(roots: readonly TreeNode[], findings: readonly Finding[]): Finding[] {
  const byPath = new Map<string, TreeNode>();
  for (const n of walk(roots)) if (n.settingPath !== undefined && !byPath.has(n.settingPath)) byPath.set(n.settingPath, n);
  const unmatched: Finding[] = [];
  for (const f of findings) {
    const target = nodeFor(f.path, byPath);
    if (target) target.findings.push(f);
    else unmatched.push(f);
  }
  return unmatched;
}

function nodeFor(path: string, byPath: ReadonlyMap<string, TreeNode>): TreeNode | undefined {
  const exact = byPath.get(path);
  if (exact) return exact;
  let p = path;
  for (;;) {
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    // Stop before a bare setting id (`keyRouting.topics`): its dot is not a path step.
    if (cut <= 0 || !p.slice(0, cut).includes('[')) return undefined;
    p = p.slice(0, cut);
    const n = byPath.get(p);
    if (n) return n;
  }
}

/** The worst severity among findings, if any counts as a problem. */
export function worst(findings: readonly Finding[]): 'error' | 'warning' | undefined {
  if (findings.some((f) => f.severity === 'error')) return 'error';
  if (findings.some((f) => f.severity === 'warning')) return 'warning';
  return undefined;
}

/** A finding as a tooltip paragraph: path, message, fix. */
export function findingMarkdown(l10n: Localizer, f: Finding): string {
  const mark = f.severity === 'error' ? '$(error)' : f.severity === 'warning' ? '$(warning)' : '$(info)';
  return l10n.t('{0} {1}: {2}. Fix: {3}', mark, code(f.path), md(f.message), md(f.fix));
}

function problemsNode(l10n: Localizer, findings: Finding[]): TreeNode {
  return node({
    id: 'problems',
    kind: 'problems',
    label: l10n.t('Settings problems'),
    description: String(findings.length),
    tooltip: l10n.t('Problems in the Key Routing settings that belong to no row below (an entry that could not be read at all, for instance).'),
    icon: worst(findings) === 'error' ? 'error' : worst(findings) === 'warning' ? 'warning' : 'info',
    expanded: true,
    children: findings.map((f, i) =>
      node({
        id: `problem:${i}:${f.path}`,
        kind: 'problem',
        label: f.path,
        description: f.message,
        tooltip: findingMarkdown(l10n, f),
        icon: f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'info',
        settingPath: f.path,
        copyText: `${f.path}: ${f.message}`,
      }),
    ),
  });
}
