/**
 * The Key Routing side bar in a real VS Code: its rows against the engine run here on the
 * workspace's settings file (each consumer's share counted with the selector's `select` over every
 * key value), live updates, settings problems on their rows, the `keyRouting.configured` context
 * key behind the welcome view, Use Sample Settings (declined and accepted), and the rows' actions.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { KAFKA_GROUPS, NAMESPACES, parseSettings, TOPICS } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import type { StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { locate, positionAt } from '../../src/extension/jsonLocate';
import type { KeyRoutingTestApi } from '../../src/extension/extension';
import type { KeyRoutes } from '../../src/extension/routeFormat';
import type { TreeNode } from '../../src/extension/tree/nodes';
import type { GroupRemoval, Removal } from '../../src/extension/tree/removal';
import { percent } from '../../src/extension/tree/shares';
import type { WriteConfirmation } from '../../src/extension/sampleSettings';
import { EXTENSION_ID, sleep, until as untilWithin } from './util';

/** The shared wait, with 15 s for this suite's waits (the tree follows settings.json through a file watcher). */
const until = <T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> => untilWithin(what, f, 15_000);

const folder = () => vscode.workspace.workspaceFolders![0].uri;
const settingsUri = () => vscode.Uri.joinPath(folder(), '.vscode', 'settings.json');
const settingsText = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsUri()));
const cfg = () => vscode.workspace.getConfiguration();

/** The engine's topology on the settings file as it is on disk now. */
async function engineTopology(): Promise<Topology> {
  const { settings, problems } = parseSettings(JSON.parse(await settingsText()));
  assert.deepEqual(problems, []);
  return new Topology(settings, []);
}

/** What `select` gives each consumer over every key value of a topic's selector: counts and runs. */
function selectCounts(state: PulsarTopicState) {
  const sel = state.subscription!.selector;
  const [lo, hi] = sel.keyValues;
  const counts = new Map<string, number>();
  const runs = new Map<string, number>();
  const span = new Map<string, [number, number]>();
  let last: string | undefined;
  for (let v = lo; v <= hi; v++) {
    const id = sel.select(v)?.id ?? '';
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if (id !== last) runs.set(id, (runs.get(id) ?? 0) + 1);
    span.set(id, [span.get(id)?.[0] ?? v, v]);
    last = id;
  }
  return { total: hi - lo + 1, counts, runs, span };
}

function all(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

export function defineTreeTests(): void {
  describe('Key Routing side bar', () => {
    let api: KeyRoutingTestApi;
    let topics: unknown;
    let namespaces: unknown;
    let groups: unknown;
    const rows = () => all(api.tree.roots);
    const row = (id: string) => rows().find((n) => n.id === id);

    before(async () => {
      api = await vscode.extensions.getExtension<KeyRoutingTestApi>(EXTENSION_ID)!.activate();
      topics = cfg().inspect(TOPICS)?.workspaceValue;
      namespaces = cfg().inspect(NAMESPACES)?.workspaceValue;
      groups = cfg().inspect(KAFKA_GROUPS)?.workspaceValue;
      assert.ok(Array.isArray(topics) && Array.isArray(namespaces), 'the scratch workspace configures topics and namespaces');
    });

    const restore = async () => {
      await cfg().update(TOPICS, topics, vscode.ConfigurationTarget.Workspace);
      await cfg().update(NAMESPACES, namespaces, vscode.ConfigurationTarget.Workspace);
      await cfg().update(KAFKA_GROUPS, groups, vscode.ConfigurationTarget.Workspace);
      await until('the original settings', () => JSON.stringify(api.model.settings.topics.map((t) => t.name)) === JSON.stringify((topics as { name: string }[]).map((t) => t.name)) && api.model.findings.every((f) => f.severity === 'info'));
    };
    after(restore);

    it('shows every configured topic, and each consumer\'s share and ranges as the selector selects', async () => {
      await vscode.commands.executeCommand('keyRouting.topology.focus');
      const topology = await engineTopology();
      for (const t of topology.topics) {
        const topicRow = row(`topic:${t.name}`);
        assert.ok(topicRow, t.name);
        const item = api.tree.item(topicRow);
        assert.match(String(item.contextValue), /\btopic\b/);
        if (!(t instanceof PulsarTopicState)) {
          assert.equal(item.description, `${t.partitions} partitions · java`);
          continue;
        }
        if (!t.subscription) continue;
        const { total, counts, runs, span } = selectCounts(t);
        for (const c of t.subscription.consumers) {
          const r = row(`topic:${t.name}/consumer:${c.id}`);
          assert.ok(r, `${t.name} ${c.id}`);
          // As the broker reports a range: a 4.x run from the lowest key value (1) starts at slot 0.
          const sel: StickyKeyConsumerSelector = t.subscription.selector;
          const [first, last] = span.get(c.id)!;
          const where: string = runs.get(c.id) === 1 ? `[${first === sel.keyValues[0] ? sel.keyHashRange[0] : first}-${last}]` : `${runs.get(c.id) ?? 0} ranges`;
          assert.equal(api.tree.item(r).description, `${percent(counts.get(c.id) ?? 0, total)} · ${where}`, `${t.name} ${c.id}`);
        }
      }
      // The brief's example row, the same as the CLI's `ranges` reads it.
      assert.equal(api.tree.item(row('topic:persistent://public/default/payments/consumer:C2')!).description, '25.0% · [16385-32768]');
      // The view shows it: revealing a row works on the tree VS Code holds.
      await api.tree.reveal('topic:persistent://public/default/payments/consumer:C2');
      assert.equal(api.tree.view.selection[0]?.id, 'topic:persistent://public/default/payments/consumer:C2');
    });

    it('builds a consumer\'s range rows only when they are asked for, and reveals one', async () => {
      const name = 'persistent://public/default/shipments';
      const state = (await engineTopology()).topic(name) as PulsarTopicState;
      const sel: StickyKeyConsumerSelector = state.subscription!.selector;
      const [lo, hi] = sel.keyValues;
      const runs: Array<[number, number]> = [];
      for (let v = lo; v <= hi; v++) {
        if (sel.select(v)?.id !== 'worker') continue;
        const last = runs[runs.length - 1];
        if (last && last[1] + 1 === v) last[1] = v;
        else runs.push([v, v]);
      }
      assert.ok(runs.length > 3 && runs.length <= 200, `worker has ${runs.length} ranges`);
      const worker = row(`topic:${name}/consumer:worker`)!;
      assert.equal(api.tree.item(worker).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      assert.equal(worker.children.length, 0, 'the range rows are not built before the consumer is expanded');
      // Its tooltip is made on hover, from the same share.
      assert.equal(api.tree.item(worker).tooltip, undefined);
      assert.match(api.tree.tooltip(worker).value, new RegExp(`Receives [\\d,]+ of the [\\d,]+ key hash values: ${api.tree.item(worker).description!.toString().split(' · ')[0].replace('.', '\\.')}\\.`));
      const [s, e] = runs[2];
      const range = await api.tree.reveal(`topic:${name}/consumer:worker/range:${s}`);
      assert.equal(range?.label, `${s}-${e}`);
      assert.equal(api.tree.view.selection[0]?.id, `topic:${name}/consumer:worker/range:${s}`);
      assert.deepEqual(row(`topic:${name}/consumer:worker`)!.children.map((r) => r.label), runs.map(([a, b]) => `${a === lo ? sel.keyHashRange[0] : a}-${b}`));
    });

    it('follows a settings change without a reload', async () => {
      const changed = structuredClone(topics) as Array<Record<string, any>>;
      const payments = changed.findIndex((t) => t.name === 'persistent://public/default/payments');
      changed[payments].subscription.consumers.push({ name: 'C5' });
      await cfg().update(TOPICS, changed, vscode.ConfigurationTarget.Workspace);
      const c5 = await until('the C5 row', () => row('topic:persistent://public/default/payments/consumer:C5'));
      const state = (await engineTopology()).topic('persistent://public/default/payments') as PulsarTopicState;
      const { total, counts } = selectCounts(state);
      assert.match(String(api.tree.item(c5).description), new RegExp(`^${percent(counts.get('C5')!, total).replace('.', '\\.')} · `));
      assert.equal(api.tree.item(row('topic:persistent://public/default/payments/subscription')!).description, 'auto-split ranges · broker 4.x · 5 consumers');
      await restore();
      await until('C5 gone', () => !row('topic:persistent://public/default/payments/consumer:C5'));
    });

    it('shows a settings problem on its row, and one that has no row on top', async () => {
      const changed = structuredClone(topics) as Array<Record<string, any>>;
      const invoices = changed.findIndex((t) => t.subscription?.keySharedMode === 'STICKY');
      changed[invoices].subscription.consumers.push({ name: 'E4', ranges: [[100, 200]] });
      changed.push({ name: 'no-system' });
      await cfg().update(TOPICS, changed, vscode.ConfigurationTarget.Workspace);
      const refused = await until('the refused row', () => rows().find((n) => n.id.startsWith(`topic:${changed[invoices].name}/refused:`)));
      const item = api.tree.item(refused);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
      // The tooltip is resolved when the row is hovered, not sent with the row.
      assert.equal(item.tooltip, undefined);
      assert.match(api.tree.tooltip(refused).value, /Range conflict with consumer E1/);
      assert.match(String(item.description), /1 problem$/);
      const top = await until('the problems row', () => row('problems'));
      assert.equal(api.tree.roots[0], top);
      assert.deepEqual(top.children.map((c) => c.label), [`keyRouting.topics[${changed.length - 1}].system`]);
      assert.equal((api.tree.item(top.children[0]).iconPath as vscode.ThemeIcon).id, 'error');
      assert.equal(api.tree.view.badge?.value, api.model.findings.filter((f) => f.severity !== 'info').length);
      await restore();
      assert.equal(row('problems'), undefined);
      assert.equal(api.tree.view.badge, undefined);
    });

    it('without Key Routing settings: no rows, keyRouting.configured false (the welcome view), no hover or status bar', async () => {
      assert.equal(api.tree.configuredContext, true);
      assert.equal(api.editorFeatures, true);
      await cfg().update(TOPICS, undefined, vscode.ConfigurationTarget.Workspace);
      await cfg().update(NAMESPACES, undefined, vscode.ConfigurationTarget.Workspace);
      // A consumer group alone counts as configured too.
      await cfg().update(KAFKA_GROUPS, undefined, vscode.ConfigurationTarget.Workspace);
      await until('configured to be false', () => api.tree.configuredContext === false);
      assert.deepEqual(api.tree.roots, []);
      assert.equal(api.editorFeatures, false);
      await restore();
      assert.equal(api.tree.configuredContext, true);
      assert.equal(api.editorFeatures, true);
    });

    it('Use Sample Settings: declining writes nothing', async () => {
      const before = await settingsText();
      let asked: WriteConfirmation | undefined;
      const outcome = await api.useSampleSettings(async (c) => ((asked = c), false));
      assert.equal(outcome, 'declined');
      assert.ok(asked?.replaces, 'it says it would replace the workspace\'s topics');
      assert.match(asked!.detail, /REPLACES/);
      await sleep(300); // a write would be on disk by now; nothing should come
      assert.equal(await settingsText(), before);
    });

    it('Use Sample Settings: accepting writes exactly the example topology', async () => {
      await cfg().update(TOPICS, [{ name: 'other', system: 'kafka', partitions: 1 }], vscode.ConfigurationTarget.Workspace);
      await cfg().update(NAMESPACES, undefined, vscode.ConfigurationTarget.Workspace);
      await cfg().update(KAFKA_GROUPS, undefined, vscode.ConfigurationTarget.Workspace);
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      const example = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext.extensionUri, 'examples', 'settings.json'))));
      let asked: WriteConfirmation | undefined;
      assert.equal(await api.useSampleSettings(async (c) => ((asked = c), true)), 'written');
      assert.match(asked!.detail, /keyRouting\.topics \(1 entry\)/);
      const onDisk = JSON.parse(await settingsText());
      assert.deepEqual(onDisk[TOPICS], example[TOPICS]);
      assert.deepEqual(onDisk[NAMESPACES], example[NAMESPACES]);
      assert.ok(example[KAFKA_GROUPS]?.length > 0, 'the example has a consumer group');
      assert.deepEqual(onDisk[KAFKA_GROUPS], example[KAFKA_GROUPS]);
      assert.deepEqual(cfg().inspect(TOPICS)?.workspaceValue, example[TOPICS]);
      await until('the sample\'s rows', () => row('topic:persistent://public/default/invoices') && !row('topic:other'));
      await restore();
    });

    it('routes a key on one topic from its row, as the engine routes it', async () => {
      const topic = row('topic:persistent://public/default/payments')!;
      const routes = await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.tree.routeKey', topic, 'user-1');
      const expected = (await engineTopology()).topic('persistent://public/default/payments')!.route(stringKey('user-1'));
      assert.equal(routes.length, 1);
      // `client` is the display label of the producer's hash; the engine's route has the hash itself.
      assert.deepEqual(routes[0].routes.map(({ hasSubscription: _h, stale: _s, client: _c, ...r }) => r), [expected]);
    });

    it('what-if from a consumer row: the share that moves, as the selector selects before and after', async () => {
      const c1 = row('topic:persistent://public/default/payments/consumer:C1')!;
      const r = await vscode.commands.executeCommand<Removal>('keyRouting.tree.whatIfRemove', c1);
      const state = (await engineTopology()).topic('persistent://public/default/payments') as PulsarTopicState;
      const before = state.subscription!.selector.clone();
      assert.ok(state.apply({ kind: 'disconnect', id: 'C1' }).ok);
      const after = state.subscription!.selector;
      let moved = 0;
      for (let v = before.keyValues[0]; v <= before.keyValues[1]; v++) if (before.select(v)?.id !== after.select(v)?.id) moved++;
      assert.equal(r.moved, moved);
      assert.ok(moved > 0);
      // The side bar still shows C1: a what-if changes nothing.
      assert.ok(row('topic:persistent://public/default/payments/consumer:C1'));
    });

    it('what-if from a group member\'s row: the partitions its group\'s rebalance gives to others', async () => {
      const t = await engineTopology();
      const g = t.groups[0];
      assert.ok(g && g.members.size > 1, 'the example has a group of several members');
      const [id] = g.members.keys();
      const r = await vscode.commands.executeCommand<GroupRemoval>('keyRouting.tree.whatIfRemove', row(`group:${g.name}/member:${id}`)!);
      const after = g.clone();
      assert.ok(after.apply({ kind: 'leave', id }).ok);
      const moved: string[] = [];
      let total = 0;
      for (const topic of g.config.topics) {
        for (let p = 0; p < t.topic(topic)!.partitions; p++, total++) {
          // A partition nobody consumed that gets a member is not one that moved (nor does one here).
          const was = g.ownerOf(topic, p);
          if (was !== null && was !== after.ownerOf(topic, p)) moved.push(`${topic}-${p}`);
        }
      }
      assert.equal(r.error, undefined);
      assert.deepEqual([r.moved, r.total], [moved.length, total]);
      assert.deepEqual(r.gains.flatMap((x) => x.partitions.map((p) => `${p.topic}-${p.partition}`)).sort(), moved.sort());
      assert.ok(moved.length > 0);
      // The side bar still shows the member: a what-if changes nothing.
      assert.ok(row(`group:${g.name}/member:${id}`));
    });

    it('reveals a row\'s entry in settings.json', async () => {
      const c2 = row('topic:persistent://public/default/payments/consumer:C2')!;
      await vscode.commands.executeCommand('keyRouting.tree.revealSetting', c2);
      const editor = await until('settings.json in front', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('/.vscode/settings.json') && vscode.window.activeTextEditor);
      const text = editor.document.getText();
      const loc = locate(text, c2.settingPath!)!;
      assert.ok(loc.exact);
      const at = positionAt(text, loc.start);
      await until('the selection on the entry', () => editor.selection.start.line === at.line);
      // The entry of C2 starts there: its name follows within the next lines.
      assert.match(text.slice(loc.start, loc.start + 80), /"name": "C2"/);
    });

    it('copies a row\'s id and opens a topic in the routing panel', async () => {
      await vscode.commands.executeCommand('keyRouting.tree.copy', row('topic:persistent://public/default/shipments/consumer:worker#2'));
      assert.equal(await vscode.env.clipboard.readText(), 'worker#2');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // Nothing for the workbench to serialize (see 'opens the routing panel' in extension.test.ts).
      assert.strictEqual(await vscode.commands.executeCommand('keyRouting.tree.openInPanel', row('topic:orders')), undefined);
      await until('a Key Routing tab', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Key Routing')));
    });
  });
}
