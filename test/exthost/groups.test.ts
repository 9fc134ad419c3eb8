/**
 * Kafka consumer groups in a real VS Code: key -> partition -> member in the notification, the
 * routes, the hover and the status bar, checked against the engine run here on the same settings;
 * group problems reported at their setting path. The group setting is added for these tests and
 * removed after.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { KAFKA_GROUPS, parseSettings, TOPICS } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { groupRouteFields } from '../../src/engine/kafka/groupTopology';
import type { KeyRoutingTestApi } from '../../src/extension/extension';
import type { KeyRoutes } from '../../src/extension/routeFormat';

import { EXTENSION_ID, until } from './util';

const GROUPS = [
  { name: 'billing', assignor: 'cooperative-sticky', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }] },
  { name: 'audit', assignor: 'uniform', topics: ['orders'], members: [{ id: 'a1' }] },
];

export function defineGroupTests(): void {
  describe('Kafka consumer groups in the extension host', () => {
    let api: KeyRoutingTestApi;
    const cfg = () => vscode.workspace.getConfiguration();
    const folder = () => vscode.workspace.workspaceFolders![0].uri;

    /** The engine's member per group for the key on orders, from the same settings. */
    function engineGroups(key: string): Record<string, string | null> | undefined {
      const { settings, problems } = parseSettings({ [TOPICS]: cfg().get(TOPICS), [KAFKA_GROUPS]: GROUPS });
      assert.deepEqual(problems, []);
      const topology = new Topology(settings, []);
      const orders = topology.topic('orders')!;
      return groupRouteFields(topology.groups, orders.route(stringKey(key))).groups;
    }

    // The workspace's own groups (the examples have one), put back afterwards.
    let original: unknown;

    before(async () => {
      const ext = vscode.extensions.getExtension<KeyRoutingTestApi>(EXTENSION_ID)!;
      api = await ext.activate();
      original = cfg().inspect(KAFKA_GROUPS)?.workspaceValue;
      await cfg().update(KAFKA_GROUPS, GROUPS, vscode.ConfigurationTarget.Workspace);
      await until('the groups in the model', () => api.model.topology.groups.length === 2);
    });

    after(async () => {
      await cfg().update(KAFKA_GROUPS, original, vscode.ConfigurationTarget.Workspace);
      await until('the workspace\'s own groups', () => api.model.topology.groups.length === (Array.isArray(original) ? original.length : 0));
    });

    it('routes name each group\'s member, as the engine does', () => {
      for (const key of ['user-1', 'user-2', 'user-3', 'order:42', '']) {
        const [k] = api.route([key]);
        const orders = k.routes.find((r) => r.topic === 'orders')!;
        assert.deepEqual(orders.groups, engineGroups(key), key);
        assert.ok(orders.groups!.billing && orders.groups!.audit === 'a1');
      }
      // Pulsar routes carry no groups.
      assert.ok(api.route(['user-1'])[0].routes.filter((r) => r.system === 'pulsar').every((r) => r.groups === undefined));
    });

    it('the notification reads key -> partition -> member', async () => {
      const routes = (await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.routeKey', 'user-1'))!;
      const g = engineGroups('user-1')!;
      const p = routes[0].routes[0].partition;
      assert.ok(api.lastShown!.message.startsWith(`user-1 → orders p${p} → billing: ${g.billing}, audit: ${g.audit} · `), api.lastShown?.message);
    });

    it('the hover and the status bar show the member', async () => {
      const uri = vscode.Uri.joinPath(folder(), 'groups-hover.yaml');
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('key: "user-2"\n'));
      const doc = await vscode.workspace.openTextDocument(uri);
      const g = engineGroups('user-2')!;
      const hover = await until('a hover', async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 8));
        return h.find((x) => x.contents.some((c) => (c as vscode.MarkdownString).value?.includes('Key Routing')));
      });
      const text = hover.contents.map((c) => (c as vscode.MarkdownString).value).join('\n');
      assert.match(text, /consumer \/ group: member/);
      assert.ok(text.includes(`billing: ${g.billing}, audit: ${g.audit}`), text);

      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 6, 0, 12);
      const status = await until('the status bar', () => api.statusBarText?.includes('user-2') && api.statusBarText);
      assert.ok(status.includes(`→billing:${g.billing}, audit:${g.audit}`), status);
    });

    it('follows the group setting: an event-free change of members re-routes at once', async () => {
      const two = [{ ...GROUPS[0], assignor: 'range', members: [{ id: 'x1' }, { id: 'x2' }] }];
      await cfg().update(KAFKA_GROUPS, two, vscode.ConfigurationTarget.Workspace);
      await until('the new members', () => api.model.topology.groups[0]?.members.has('x1'));
      const p = api.route(['user-1'])[0].routes[0].partition!;
      // Range over x1, x2 on 6 partitions: x1 0-2, x2 3-5.
      assert.equal(api.route(['user-1'])[0].routes[0].groups!.billing, p < 3 ? 'x1' : 'x2');
      await cfg().update(KAFKA_GROUPS, GROUPS, vscode.ConfigurationTarget.Workspace);
      await until('the groups back', () => api.model.topology.groups.length === 2);
    });

    it('reports an invalid group at its path, with a fix, and keeps routing the topics', async () => {
      const bad = [{ ...GROUPS[0], members: [{ id: 'm1' }, { id: 'm1' }] }];
      await cfg().update(KAFKA_GROUPS, bad, vscode.ConfigurationTarget.Workspace);
      const f = await until('the finding', () => api.model.findings.find((x) => x.path.startsWith('keyRouting.kafkaGroups')));
      assert.equal(f.path, 'keyRouting.kafkaGroups[0].members[1].id');
      assert.match(f.message, /duplicate member id "m1"/);
      assert.equal(f.severity, 'error');
      assert.equal(api.route(['user-1'])[0].routes[0].partition, 2);
      await cfg().update(KAFKA_GROUPS, GROUPS, vscode.ConfigurationTarget.Workspace);
      await until('the finding to clear', () => !api.model.findings.some((x) => x.path.startsWith('keyRouting.kafkaGroups') && x.severity === 'error'));
    });
  });
}
