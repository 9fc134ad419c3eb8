/**
 * The extension in a real VS Code: commands registered, routes from the real workspace
 * settings (compared with the engine run here on the same file), settings errors reported at
 * their path and line, live reload, Add Topic. Runs on a scratch copy of examples/.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { KAFKA_GROUPS, parseSettings, TOPICS } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { groupRouteFields } from '../../src/engine/kafka/groupTopology';
import { stringKey } from '../../src/engine/key';
import { kafkaPartition } from '../../src/engine/kafka/partitioner';
import type { KeyRoutingTestApi } from '../../src/extension/extension';
import type { KeyRoutes } from '../../src/extension/routeFormat';
import { EXTENSION_ID, until } from './util';

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the tests need the examples workspace open');
  return f.uri;
}

const settingsUri = () => vscode.Uri.joinPath(folder(), '.vscode', 'settings.json');

async function settingsText(): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsUri()));
}

/** What the engine itself says for `key` on the settings of the workspace file (with the members of its consumer groups). */
async function engineRoutes(key: string) {
  const { settings, problems } = parseSettings(JSON.parse(await settingsText()));
  assert.deepEqual(problems, []);
  const topology = new Topology(settings, []);
  return topology.topics.map((t) => {
    const r = t.route(stringKey(key));
    return { ...r, ...groupRouteFields(topology.groups, r) };
  });
}

const strip = (k: KeyRoutes) => k.routes.map(({ hasSubscription: _h, stale: _s, client: _c, ...r }) => r);

/** A file written into the scratch workspace and opened. */
async function scratchFile(name: string, content: string): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  return vscode.workspace.openTextDocument(uri);
}

async function openAndSelect(file: string, line: number, from: number, to: number): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), file));
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(line, from, line, to);
  return editor;
}

export function defineExtensionTests(): void {
  describe('Key Routing in the extension host', () => {
    let api: KeyRoutingTestApi;
    let original: unknown;
    const cfg = () => vscode.workspace.getConfiguration();

    before(async () => {
      const ext = vscode.extensions.getExtension<KeyRoutingTestApi>(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is not loaded`);
      api = await ext.activate();
      original = cfg().inspect(TOPICS)?.workspaceValue;
      assert.ok(Array.isArray(original), 'the scratch workspace has keyRouting.topics');
    });

    after(async () => {
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
    });

    it('registers its commands', async () => {
      const all = await vscode.commands.getCommands(true);
      for (const id of ['keyRouting.showRoute', 'keyRouting.openPanel', 'keyRouting.routeKey', 'keyRouting.addTopic']) assert.ok(all.includes(id), id);
    });

    it('routes keys on the workspace settings exactly as the engine does', async () => {
      for (const key of ['user-1', 'user-2', 'Order-3459134', 'ключ-7', '']) {
        const [mine] = api.route([key]);
        assert.deepEqual(strip(mine), await engineRoutes(key), key);
      }
      // ALGORITHMS.md: Kafka user-1..6 on 6 partitions give 2, 2, 5, 1, 4, 5.
      assert.deepEqual(api.route(['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6']).map((k) => k.routes[0].partition), [2, 2, 5, 1, 4, 5]);
    });

    it('Show Route takes the selection', async () => {
      await openAndSelect('keys.txt', 0, 0, 6);
      const routes = (await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.showRoute'))!;
      assert.deepEqual(routes.map((k) => k.label), ['user-1']);
      assert.deepEqual(strip(routes[0]), await engineRoutes('user-1'));
    });

    it('Show Route takes one key per selected line and per selection', async () => {
      const editor = await openAndSelect('keys.txt', 0, 0, 0);
      editor.selections = [new vscode.Selection(0, 0, 2, 6), new vscode.Selection(7, 0, 7, 8)];
      const routes = (await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.showRoute'))!;
      assert.deepEqual(routes.map((k) => k.label), ['user-1', 'user-2', 'user-3', 'order:42']);
    });

    it('Show Route decodes the string literal under the cursor, in the file\'s language', async () => {
      // Go: \x escapes are bytes, so this is the UTF-8 key "é\tx" (TypeScript files are covered by the UI tests).
      const doc = await scratchFile('decode.go', 'producer.Send("\\xc3\\xa9\\tx")\n');
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 18, 0, 18);
      const routes = (await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.showRoute'))!;
      assert.deepEqual(routes.map((k) => k.label), ['é\tx']);
      assert.deepEqual(strip(routes[0]), await engineRoutes('é\tx'));
    });

    it('Route a Key routes the given key', async () => {
      const routes = (await vscode.commands.executeCommand<KeyRoutes[]>('keyRouting.routeKey', 'user-4'))!;
      assert.deepEqual(strip(routes[0]), await engineRoutes('user-4'));
    });

    it('the hover shows the route of a string literal in an opted-in language', async () => {
      const doc = await scratchFile('hover.yaml', 'key: "user-2"\n');
      assert.equal(doc.languageId, 'yaml');
      const hovers = await until('a hover', async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 8));
        return h.find((x) => x.contents.some((c) => (c as vscode.MarkdownString).value?.includes('Key Routing')));
      });
      const text = hovers.contents.map((c) => (c as vscode.MarkdownString).value).join('\n');
      const orders = (await engineRoutes('user-2'))[0];
      assert.match(text, new RegExp(`\\| orders \\| ${orders.partition} \\|`));
      assert.deepEqual(hovers.range && [hovers.range.start.character, hovers.range.end.character], [5, 13], 'the hover covers the literal');
    });

    it('the hover stays away from languages not opted in', async () => {
      const doc = await vscode.workspace.openTextDocument({ language: 'go', content: 'k := "user-1"\n' });
      const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 8));
      assert.ok(!h.some((x) => x.contents.some((c) => (c as vscode.MarkdownString).value?.includes('Key Routing'))));
    });

    it('the status bar shows the selected key\'s route and hides without a selection', async () => {
      const editor = await openAndSelect('keys.txt', 1, 0, 6);
      const text = await until('the status bar text', () => api.statusBarText?.includes('user-2') && api.statusBarText);
      assert.match(text, new RegExp(`orders p${(await engineRoutes('user-2'))[0].partition}`));
      editor.selection = new vscode.Selection(1, 0, 1, 0);
      await until('the status bar to hide', () => api.statusBarText === undefined);
    });

    it('follows a settings change without a reload', async () => {
      const topics = structuredClone(original) as { partitions?: number }[];
      topics[0].partitions = 7;
      await cfg().update(TOPICS, topics, vscode.ConfigurationTarget.Workspace);
      await until('the new partition count', () => api.model.settings.topics[0].system === 'kafka' && (api.model.settings.topics[0] as { partitions: number }).partitions === 7);
      assert.equal(api.route(['user-1'])[0].routes[0].partition, kafkaPartition('user-1', 7));
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      await until('the original settings', () => (api.model.settings.topics[0] as { partitions: number }).partitions === 6);
    });

    it('reports an invalid setting at its path and line, and keeps the last good topic', async () => {
      const topics = structuredClone(original) as { partitions?: number }[];
      topics[0].partitions = 0;
      await cfg().update(TOPICS, topics, vscode.ConfigurationTarget.Workspace);
      const finding = await until('the finding', () => api.model.findings.find((f) => f.severity === 'error'));
      assert.equal(finding.path, 'keyRouting.topics[0].partitions');
      assert.ok(api.model.stale.has('orders'));
      assert.equal(api.route(['user-1'])[0].routes[0].partition, 2, 'routes with the last good 6 partitions');
      const diag = await until('the diagnostic', () => vscode.languages.getDiagnostics(settingsUri()).find((d) => d.message.includes('keyRouting.topics[0].partitions')));
      const lines = (await settingsText()).split('\n');
      assert.match(lines[diag.range.start.line], /"partitions": 0/, 'the diagnostic sits on the setting\'s line');
      assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
      assert.match(diag.message, /Fix:/);
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      await until('the error to clear', () => !api.model.findings.some((f) => f.severity === 'error'));
      await until('the diagnostic to clear', () => !vscode.languages.getDiagnostics(settingsUri()).some((d) => d.severity === vscode.DiagnosticSeverity.Error));
    });

    it('reports the broker refusing an overlapping STICKY consumer, and routes without it', async () => {
      const topics = structuredClone(original) as Record<string, any>[];
      const invoices = topics.findIndex((t) => t.subscription?.keySharedMode === 'STICKY');
      topics[invoices].subscription.consumers.push({ name: 'E4', ranges: [[100, 200]] });
      await cfg().update(TOPICS, topics, vscode.ConfigurationTarget.Workspace);
      const f = await until('the refusal', () => api.model.findings.find((x) => x.severity === 'warning'));
      assert.equal(f.path, `keyRouting.topics[${invoices}].subscription.consumers[3]`);
      assert.match(f.message, /Range conflict with consumer E1/);
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      await until('the warning to clear', () => !api.model.findings.some((x) => x.severity === 'warning'));
    });

    it('Add Topic appends a valid entry and keeps every existing one', async () => {
      const before = cfg().inspect<unknown[]>(TOPICS)!.workspaceValue!;
      const entry = await vscode.commands.executeCommand<Record<string, unknown>>('keyRouting.addTopic', { kind: 'pulsar-sticky', name: 'persistent://public/default/added' });
      assert.ok(entry);
      const after = await until('the new entry', () => {
        const v = cfg().inspect<unknown[]>(TOPICS)!.workspaceValue!;
        return v.length === before.length + 1 && v;
      });
      assert.deepEqual(after.slice(0, before.length), before);
      assert.deepEqual(after[before.length], entry);
      assert.deepEqual(parseSettings({ [TOPICS]: after }).problems, []);
      // Written to the workspace's settings file itself.
      assert.match(await settingsText(), /persistent:\/\/public\/default\/added/);
      await until('the model to have it', () => api.model.settings.topics.some((t) => t.name === 'persistent://public/default/added'));
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
    });

    describe('client choices: other clients\' partitioners, producers, typed keys', () => {
      // user-2 on 6 partitions: java p2, librdkafka p4 (CLIENT-PARTITIONERS.md).
      const clientTopics = [
        { name: 'orders', system: 'kafka', partitions: 6, producers: ['java', 'librdkafka'] },
        { name: 'ids', system: 'kafka', partitions: 12, keySerializer: 'long' },
        { name: 'rd', system: 'kafka', partitions: 6, partitioner: 'librdkafka' },
      ];

      // The workspace's consumer group would add its member to the texts checked here: set aside.
      let groups: unknown;

      before(async () => {
        groups = cfg().inspect(KAFKA_GROUPS)?.workspaceValue;
        await cfg().update(KAFKA_GROUPS, undefined, vscode.ConfigurationTarget.Workspace);
        await cfg().update(TOPICS, clientTopics, vscode.ConfigurationTarget.Workspace);
        await until('the client topics', () => api.model.settings.topics.length === 3 && api.model.settings.topics[1].name === 'ids' && api.model.topology.groups.length === 0);
      });

      after(async () => {
        await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
        await cfg().update(KAFKA_GROUPS, groups, vscode.ConfigurationTarget.Workspace);
        await until('the original settings', () => api.model.settings.topics.length === (original as unknown[]).length && api.model.topology.groups.length === (Array.isArray(groups) ? groups.length : 0));
      });

      it('routes as the engine does, with byProducer, keyHex and the serializer\'s error', async () => {
        for (const key of ['user-2', '42', 'abc', '']) {
          const [mine] = api.route([key]);
          assert.deepEqual(strip(mine), await engineRoutes(key), key);
        }
        const [k] = api.route(['user-2']);
        assert.deepEqual(k.routes[0].byProducer, { java: 2, librdkafka: 4 });
        assert.equal(k.routes[2].partition, 4);
      });

      it('the notification warns where the producers disagree; the table lists them', async () => {
        await vscode.commands.executeCommand('keyRouting.routeKey', 'user-2');
        const shown = api.lastShown!;
        assert.match(shown.message, /^user-2 → orders p2 ⚠ librdkafka p4 · ids ✗ "user-2" is not a long \(-9223372036854775808\.\.9223372036854775807\) · rd p4$/);
        assert.match(shown.table, /^key\s+topic\s+partition\s+hash\s+consumer\s+range\s+producers\s+note$/m);
        assert.match(shown.table, /user-2\s+orders\s+2\s+-?\d+\s+-\s+-\s+java p2, librdkafka p4 ⚠ disagree/);
        assert.match(shown.table, /user-2\s+ids\s+-\s+-\s+-\s+-\s+-\s+error: "user-2" is not a long/);
      });

      it('the notification and the table show a typed key\'s bytes', async () => {
        await vscode.commands.executeCommand('keyRouting.routeKey', '42');
        const shown = api.lastShown!;
        const ids = (await engineRoutes('42'))[1];
        assert.match(shown.message, new RegExp(` · ids p${ids.partition} \\(bytes 000000000000002a\\) · `));
        assert.match(shown.table, /^42\s+ids\s+\d+\s+-?\d+\s+-\s+-\s+000000000000002a\s/m);
      });

      it('the hover names the disagreeing producers and a typed key\'s bytes, and says why a key cannot be serialized', async () => {
        const doc = await scratchFile('clients.yaml', 'a: "user-2"\nb: "42"\n');
        const hoverAt = async (line: number) => {
          const h = await until('a hover', async () => {
            const all = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(line, 6));
            return all.find((x) => x.contents.some((c) => (c as vscode.MarkdownString).value?.includes('Key Routing')));
          });
          return h.contents.map((c) => (c as vscode.MarkdownString).value).join('\n');
        };
        const user2 = await hoverAt(0);
        assert.match(user2, /\| orders \| 2 ⚠ \|/);
        assert.match(user2, /⚠ orders: the producers disagree: librdkafka p4/);
        assert.match(user2, /\| ids \| ✗ "user-2" is not a long/);
        assert.match(user2, /\| rd \| 4 \|\s+\|\s+\| crc32 -?\d+ \|/);
        const fortyTwo = await hoverAt(1);
        assert.match(fortyTwo, /\| ids \| \d+ \|\s+\|\s+\| murmur2 -?\d+ \| `000000000000002a` \|/);
      });

      it('the status bar marks the disagreement', async () => {
        const editor = await openAndSelect('keys.txt', 1, 0, 6);
        const text = await until('the status bar text', () => api.statusBarText?.includes('user-2') && api.statusBarText);
        assert.match(text, /user-2: orders p2 ⚠ · ids ✗ · rd p4/);
        editor.selection = new vscode.Selection(1, 0, 1, 0);
        await until('the status bar to hide', () => api.statusBarText === undefined);
      });

      it('an unknown partitioner is reported at its path, with the clients to choose from', async () => {
        await cfg().update(TOPICS, [{ ...clientTopics[0], partitioner: 'murmur3' }, ...clientTopics.slice(1)], vscode.ConfigurationTarget.Workspace);
        const f = await until('the finding', () => api.model.findings.find((x) => x.path === 'keyRouting.topics[0].partitioner'));
        assert.match(f.message, /must be one of "java", "librdkafka", "librdkafka-consistent", "sarama"/);
        assert.match(f.fix, /"kafkajs-legacy"/);
        await cfg().update(TOPICS, clientTopics, vscode.ConfigurationTarget.Workspace);
        await until('the finding to clear', () => !api.model.findings.some((x) => x.severity === 'error'));
      });
    });

    it('opens the routing panel, and returns nothing to the workbench', async () => {
      // Run from the palette, a menu or a key, a command's result goes to the workbench as JSON:
      // the panel object it returned was the whole topology (seconds of the extension host's and
      // the workbench's time at production scale before the panel could open).
      assert.strictEqual(await vscode.commands.executeCommand('keyRouting.openPanel'), undefined);
      await until('a Key Routing tab', () =>
        vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Key Routing')),
      );
    });
  });
}
