// Import Topology as a user meets it: a Pulsar stats file picked through the command's own
// pickers and VS Code's file dialog, the diff preview and the modal confirmed, then Show Route on
// a key names the consumer the broker reported. The expected consumer is worked out from the
// stats file itself (the built CLI's import, then the engine's route; and the consumer whose
// reported ranges hold the key's hash, read straight from the JSON), never from the UI.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './codeServer.mjs';
import { assertContains, engine, readSettings } from './engine.mjs';

const TOPIC = 'persistent://public/default/observed-orders';
const FIXTURE = join(root, 'test/unit/data/observed/pulsar-4.0-auto-split-draining.json');
const KEY = 'user-1';

export default async function importScenarios({ wb, scenario }) {
  const { page, workspace } = wb;

  await scenario('Import Topology of a Pulsar stats file, then Show Route names the observed consumer', async () => {
    await wb.clearNotifications();
    const statsFile = join(workspace, 'orders-stats.json');
    copyFileSync(FIXTURE, statsFile);

    // What the import must give, from the stats file and the settings as they are now.
    const imported = JSON.parse(
      execFileSync(process.execPath, [join(root, 'dist/cli.js'), 'import', 'pulsar-stats', statsFile, '--topic', TOPIC, '--config', join(workspace, '.vscode/settings.json')], { encoding: 'utf8' }),
    );
    const e = engine();
    const parsed = e.parseSettings(imported);
    if (parsed.problems.length) throw new Error(`the CLI's import has problems: ${JSON.stringify(parsed.problems[0])}`);
    const want = new e.Topology(parsed.settings, []).topic(TOPIC).route(e.stringKey(KEY));
    const stats = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const holder = Object.values(stats.subscriptions)[0].consumers.find((c) => c.keyHashRangeArrays.some(([s, end]) => s <= want.stickyKeyHash && want.stickyKeyHash <= end));
    if (!want.observed || want.consumer !== holder?.consumerName) {
      throw new Error(`the engine routes ${KEY} (hash ${want.stickyKeyHash}) to ${want.consumer}, the stats file to ${holder?.consumerName}`);
    }

    await wb.palette('Key Routing: Import Topology...');
    await wb.pick('Pulsar topic stats');
    await wb.pick('From a File...');
    // code-server's open dialog is VS Code's simple file dialog, a quick input on the workspace
    // folder: choosing the file's row accepts it, and the topic picker follows.
    await wb.pick('orders-stats.json');
    await wb.pick('Another topic...');
    await wb.input(TOPIC);
    // The diff preview, then the modal asking before anything is written.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assertContains(await dialog.innerText(), [`adds topic ${TOPIC}`], 'the confirmation');
    await wb.screenshot('import-confirm');
    if (readSettings(workspace)['keyRouting.topics'].some((t) => t.name === TOPIC)) throw new Error('the topic was written before the confirmation');
    await dialog.locator('.monaco-button', { hasText: 'Write Settings' }).click();
    await wb.notification(/imported orders-stats\.json into the workspace settings/);

    const written = await wb.until(() => readSettings(workspace)['keyRouting.topics'].find((t) => t.name === TOPIC), 'the imported topic in settings.json');
    const { at: _at, ...observed } = written.subscription.observed;
    const cliEntry = imported['keyRouting.topics'].find((t) => t.name === TOPIC);
    const { at: _cliAt, ...cliObserved } = cliEntry.subscription.observed;
    if (JSON.stringify(observed) !== JSON.stringify(cliObserved)) throw new Error(`the command wrote ${JSON.stringify(observed)}; key-routing import gives ${JSON.stringify(cliObserved)}`);

    await wb.clearNotifications();
    await wb.openFile('keys.txt');
    await wb.selectLine(KEY);
    await wb.editorContextMenu(KEY, 'Show Route', { position: { x: 15, y: 8 } });
    const text = await wb.notification(new RegExp(`^${KEY} →`));
    assertContains(text, [`observed-orders → ${want.consumer} [${want.range[0]}-${want.range[1]}] (observed)`], 'the Show Route notification');
    await wb.screenshot('import-show-route');
  });
}
