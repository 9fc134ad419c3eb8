// UI scenarios: the extension as a user meets it (linked into code-server's extensions dir, as
// `npm start` does, or installed from a .vsix with --vsix), on a scratch copy of examples/. Every
// expected route is worked out by the engine on that workspace's settings, never copied from the UI.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertContains, routes } from './engine.mjs';

export default async function uiScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const settingsFile = join(workspace, '.vscode/settings.json');
  const engineRoutes = (key) => routes(workspace, key);
  /** The parts of a summary line the engine's answer fixes: `orders p2 → billing: m2`, `→ C4 [32769-49152]`. */
  const expectedFragments = (key) =>
    engineRoutes(key).map((r) => {
      if (r.system === 'kafka') return `${r.topic} p${r.partition}${r.groups ? ` → ${Object.entries(r.groups).map(([g, m]) => `${g}: ${m}`).join(', ')}` : ''}`;
      if (r.consumer) return `→ ${r.consumer} [${r.range[0]}-${r.range[1]}]`;
      return `hash ${r.stickyKeyHash}`;
    });
  // Identical notifications merge: every scenario starts with none.
  const uiScenario = (name, fn) =>
    scenario(name, async () => {
      await wb.clearNotifications();
      await fn();
    });

  await uiScenario('status bar shows the selected key\'s route', async () => {
    await wb.openFile('keys.txt');
    await wb.selectLine('user-1');
    await wb.statusItem().waitFor();
    const text = await wb.statusItem().innerText();
    const orders = engineRoutes('user-1')[0];
    assertContains(text, ['user-1', `orders p${orders.partition}`], 'the status bar item');
    await wb.screenshot('status-bar');
  });

  await uiScenario('right-click "Show Route" on user-1 shows the route and the consumer-group member', async () => {
    await wb.selectLine('user-1');
    // Chosen as the harness chooses (hovered until focused, then Enter): a click right after the
    // menu appeared was once lost, the item highlighted and nothing run.
    await wb.editorContextMenu('user-1', 'Show Route', { position: { x: 15, y: 8 }, whenOpen: () => wb.screenshot('context-menu') });
    const text = await wb.notification(/^user-1 →/);
    assertContains(text, expectedFragments('user-1'), 'the notification');
    if (!text.includes('orders p2')) throw new Error('ALGORITHMS.md: Kafka user-1 on 6 partitions is partition 2');
    // The workspace's group consumes orders: the notification names the member owning p2.
    const orders = engineRoutes('user-1')[0];
    if (!orders.groups || typeof orders.groups.billing !== 'string') throw new Error(`the workspace has no billing group on orders: ${JSON.stringify(orders)}`);
    assertContains(text, [`user-1 → orders p${orders.partition} → billing: ${orders.groups.billing}`], 'the notification');
    await wb.screenshot('show-route');
  });

  await uiScenario('command palette "Route a Key..." routes a typed key', async () => {
    await wb.palette('Key Routing: Route a Key...');
    await wb.input('user-3');
    const text = await wb.notification(/^user-3 →/);
    assertContains(text, expectedFragments('user-3'), 'the notification');
    await wb.screenshot('route-a-key');
  });

  await uiScenario('"Open Panel" on a route notification shows the key in the routing panel', async () => {
    await wb.palette('Key Routing: Route a Key...');
    await wb.input('user-4');
    await wb.notification(/^user-4 →/);
    await wb.notificationButton(/^user-4 →/, 'Open Panel');
    try {
      // The panel opens on the first topic (orders, Kafka): the keys table's row has the key's
      // partition and its murmur2 hash; the members table's, its member in the billing group.
      const r = engineRoutes('user-4')[0];
      const row = wb.webview().locator('tr', { hasText: 'user-4', has: wb.webview().locator('td.client-hash') }).first();
      await row.waitFor();
      const cells = await row.locator('td').allInnerTexts();
      if (!cells.includes(String(r.partition)) || !cells.includes(String(r.hash))) throw new Error(`the panel's row for user-4 reads ${JSON.stringify(cells)}; the engine says partition ${r.partition}, hash ${r.hash}`);
      for (const member of Object.values(r.groups ?? {})) {
        const shown = await wb.webview().locator('tr', { hasText: 'user-4' }).allInnerTexts();
        if (!shown.some((t) => t.split(/\s+/).includes(member))) throw new Error(`no row for user-4 names its member ${member}: ${JSON.stringify(shown)}`);
      }
      await wb.screenshot('panel');
    } finally {
      // Later scenarios expect one editor group: the panel opened beside the editor.
      await wb.palette('View: Close All Editor Groups');
    }
  });

  await uiScenario('hovering a string literal in producer.ts shows its route', async () => {
    // One editor group, so the line with the literal is on screen whole.
    await wb.palette('View: Close All Editor Groups');
    await wb.openFile('producer.ts');
    // TypeScript is not an activation event: the earlier scenarios (keys.txt) activated the extension.
    if (!wb.extensionActive()) throw new Error('the extension is not active; hovers in producer.ts need a plaintext, JSON or YAML file opened first');
    // The cursor inside the literal "user-2", then the editor's hover there.
    const lines = readFileSync(join(workspace, 'producer.ts'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('"user-2"'));
    await wb.cursorTo(line + 1, lines[line].indexOf('"user-2"') + 4);
    await wb.showHover();
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'Key Routing' }).first();
    await hover.waitFor();
    const r = engineRoutes('user-2');
    const row = await hover.locator('tr', { hasText: 'orders' }).first().locator('td').allInnerTexts();
    if (row[0] !== 'orders' || row[1] !== String(r[0].partition)) throw new Error(`the hover's orders row reads ${JSON.stringify(row)}`);
    const pulsar = r.find((x) => x.consumer);
    const text = await hover.innerText();
    assertContains(text, [pulsar.consumer, `${pulsar.range[0]}-${pulsar.range[1]}`], 'the hover');
    await wb.screenshot('hover');
    await page.keyboard.press('Escape');
    await hover.waitFor({ state: 'hidden' });
  });

  await uiScenario('"Add Topic" writes a valid entry to the workspace settings', async () => {
    const before = JSON.parse(readFileSync(settingsFile, 'utf8'))['keyRouting.topics'];
    await wb.palette('Key Routing: Add Topic');
    await wb.pickRow('Kafka topic').waitFor();
    await wb.screenshot('add-topic-kinds');
    await wb.pick('Kafka topic');
    await wb.input('ui-added');
    await wb.notification(/added kafka topic "ui-added"/);
    const after = JSON.parse(readFileSync(settingsFile, 'utf8'))['keyRouting.topics'];
    if (after.length !== before.length + 1 || JSON.stringify(after.slice(0, before.length)) !== JSON.stringify(before)) {
      throw new Error('the existing entries changed');
    }
    const last = engineRoutes('user-1').at(-1);
    if (last.topic !== 'ui-added' || typeof last.partition !== 'number') throw new Error(`the engine does not route on the new topic: ${JSON.stringify(last)}`);
  });

  await uiScenario('a broken setting shows its error with the setting path', async () => {
    const raw = JSON.parse(readFileSync(settingsFile, 'utf8'));
    raw['keyRouting.topics'][0].partitions = 0;
    // And the parser's shorthand for a consumer and a member, a bare string (valid: the next
    // scenario checks that the schema takes it too).
    raw['keyRouting.topics'].push({ name: 'shorthand', system: 'pulsar', subscription: { consumers: ['C1', 'C2'] } }, { name: 'shorthand-kafka', system: 'kafka', partitions: 3 });
    raw['keyRouting.kafkaGroups'] = [...(raw['keyRouting.kafkaGroups'] ?? []), { name: 'shorthand', topics: ['shorthand-kafka'], members: ['m1', 'm2'] }];
    writeFileSync(settingsFile, JSON.stringify(raw, null, 2) + '\n');
    const text = await wb.notification(/keyRouting\.topics\[0\]\.partitions/);
    if (!/must be an integer/.test(text) || !/Fix:/.test(text)) throw new Error(`the error reads ${JSON.stringify(text)}`);
    await wb.screenshot('settings-error');
    await wb.notificationButton(/keyRouting\.topics\[0\]\.partitions/, 'Open Settings');
    await page.locator('.tab.active', { hasText: 'settings.json' }).waitFor();
    await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor();
    await wb.screenshot('settings-error-squiggle');
  });

  await uiScenario('settings.json gets the schema\'s checks and ours in the Problems view', async () => {
    await wb.palette('View: Focus Problems (Errors, Warnings, Infos)');
    const rows = page.locator('.markers-panel .monaco-list-row');
    // VS Code's JSON language server applies the contributed schema (Kafka: at least 1 partition) ...
    await rows.filter({ hasText: 'Value is below the minimum of 1.' }).first().waitFor();
    // ... and the extension adds its finding with the setting path and a fix.
    await rows.filter({ hasText: 'keyRouting.topics[0].partitions: must be an integer' }).first().waitFor();
    // Both have checked the whole file by now: nothing about the shorthand consumers and members
    // (the schema once wanted objects there, the parser took strings).
    const wrongType = (await rows.allInnerTexts()).filter((t) => /Incorrect type/.test(t));
    if (wrongType.length) throw new Error(`the schema refuses valid settings: ${wrongType.join(' | ')}`);
    await wb.screenshot('problems');
  });
}
