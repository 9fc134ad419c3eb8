// VS Code for the Web: the extension runs in the browser's web worker extension host (the suite's
// code-server is told so with `remote.extensionKind`), and Analyze Keys runs in a web worker with
// the same analyser as the Node worker thread. Expected figures come from the engine on the
// workspace's settings, key by key, never from the panel.
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { engine, topology as topologyOf } from './engine.mjs';

export default async function webScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const frame = () => wb.webview();
  const tab = (topic) => frame().locator(`.topic-tabs [role="tab"][data-topic="${topic}"]`);
  const bars = (chart) =>
    frame()
      .locator(`.chart[data-chart="${chart}"] g.unit`)
      .evaluateAll((els) => Object.fromEntries(els.map((el) => [el.getAttribute('data-unit'), Number(el.getAttribute('data-keys'))])));
  const total = async (chart) => Object.values(await bars(chart)).reduce((a, b) => a + b, 0);
  const analyze = async (file) => {
    await wb.explorerRow(file).waitFor();
    await wb.explorerContextMenu(file, 'Analyze Keys');
    // The format question follows the file's head, and on the web that means the whole file read
    // through workspace.fs (no ranged read): a large file's pick comes once it is read.
    await wb.pick('One key per line', { timeout: 180_000 });
  };

  await scenario('web: the extension runs in the web worker extension host and routes a key', async () => {
    // The palette activates the extension; the route proves it is up wherever it runs.
    await wb.palette('Key Routing: Route a Key...');
    await wb.input('user-1');
    const partition = topologyOf(workspace).topic('orders').route(engine().stringKey('user-1')).partition;
    const text = await wb.notification(/^user-1 /);
    if (!text.includes(`orders p${partition}`)) throw new Error(`the notification reads ${JSON.stringify(text)}; the engine puts user-1 on orders p${partition}`);
    // The Node extension host of the window never activated it: it ran in the browser.
    if (wb.extensionActive()) throw new Error('the Node extension host activated the extension; it should run in the web worker extension host');
  });

  await scenario('web: Analyze Keys runs in a web worker, and its figures equal the engine\'s routes key by key', async () => {
    await analyze('keys.txt');
    const status = frame().locator('#analysis-status[data-status="complete"]');
    await status.waitFor();
    const where = await frame().locator('p.muted', { hasText: 'run in' }).first().innerText();
    if (!/web worker/.test(where)) throw new Error(`the analysis ran in ${JSON.stringify(where)}, not in a web worker`);
    const keys = readFileSync(join(workspace, 'keys.txt'), 'utf8').replace(/\n$/, '').split('\n');
    const t = topologyOf(workspace);
    const e = engine();
    await tab('orders').click();
    await frame().locator('.chart[data-chart="before-partition"]').waitFor();
    const want = Object.fromEntries(Array.from({ length: t.topic('orders').partitions }, (_, p) => [String(p), 0]));
    for (const k of keys) want[t.topic('orders').route(e.stringKey(k)).partition] += 1;
    const got = await bars('before-partition');
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`orders: the panel shows ${JSON.stringify(got)}, the engine counts ${JSON.stringify(want)}`);
    await wb.screenshot('web-analysis', { of: wb.webviewElement() });
  });

  await scenario('web: a large file shows partial figures while the web worker runs, and Cancel stops it', async () => {
    // workspace.fs has no streaming read on the web, so the file is read whole before the worker
    // starts; 6,000,000 keys (54 MB) keep the worker busy while the partial figures are checked.
    const lines = 6_000_000;
    const block = Buffer.from(Array.from({ length: 1_000_000 }, (_, j) => `w-${(j * 7919) % 1_000_003}\n`).join(''));
    const staging = join(wb.session.base, 'web-big-keys.txt');
    const fd = openSync(staging, 'w');
    for (let i = 0; i < lines; i += 1_000_000) writeSync(fd, block);
    closeSync(fd);
    const big = join(workspace, 'web-big-keys.txt');
    renameSync(staging, big);
    try {
      await analyze('web-big-keys.txt');
      await tab('orders').click();
      await frame().locator('#analysis-status[data-status="running"][data-result-status="partial"]').waitFor({ timeout: 120_000 });
      const partial = await total('before-partition');
      if (!(partial > 0 && partial < lines)) throw new Error(`the partial bars count ${partial} keys`);
      // Pressed as a keyboard user does (focus, Enter): a mouse click waits for the button to be
      // scrolled into view and hit-tested in a page redrawn every 0.6 s with partial figures, and
      // on a loaded machine it did not land before the run ended (web suite, load 20).
      await frame().locator('#analysis-cancel').press('Enter');
      const status = frame().locator('#analysis-status[data-status="cancelled"]');
      await status.waitFor();
      // The worker reads fast: the cancel may land in the first pass (the figures cover the keys
      // read so far) or in the second, which counts the heaviest keys exactly (every key counted).
      const text = await status.textContent();
      const counted = await total('before-partition');
      const firstPass = counted >= partial && counted < lines && /^Cancelled: the figures cover only the [\d,]+ keys read before the stop/.test(text);
      const secondPass = counted === lines && /^Cancelled in the second pass: all [\d,]+ keys were counted, but the heaviest keys' counts are bounds/.test(text);
      if (!firstPass && !secondPass) throw new Error(`after the cancel the bars count ${counted} of ${lines} keys and the status reads ${JSON.stringify(text)}`);
      if ((await status.getAttribute('data-result-status')) !== 'cancelled') throw new Error('the figures of a cancelled run are not marked cancelled');
      // The extension host stayed responsive: a route answers after the cancel.
      await wb.palette('Key Routing: Route a Key...');
      await wb.input('user-1');
      await wb.notification(/^user-1 /);
    } finally {
      rmSync(big, { force: true });
    }
  });
}
