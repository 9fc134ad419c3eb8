// UI scenarios of Analyze Keys: right-click the examples' keys.txt, "Analyze Keys", take the
// guessed format in the quick pick, and read the figures in the routing panel's Analysis view;
// then analyse the keys under a what-if step typed in the panel; then a large file from the
// explorer's context menu, its partial figures, and Cancel in the panel. Every expected figure is
// counted here key by key with the engine on the workspace's settings as they are on disk, never
// read from the panel first. Runs after panel-scenarios.mjs (the panel is open).
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { engine, topology as topologyOf } from './engine.mjs';

const PAYMENTS = 'persistent://public/default/payments';

export default async function analyzeScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const frame = () => wb.webview();
  const topology = () => topologyOf(workspace);
  /** keys.txt as the analyser reads it: one key per line, no line after the final line break. */
  const fileKeys = () => readFileSync(join(workspace, 'keys.txt'), 'utf8').replace(/\n$/, '').split('\n');
  /** The panel as the user sees it, scrolled to `selector` where given (the view is taller than the panel). */
  const shot = async (name, selector) => {
    if (selector) await frame().locator(selector).first().scrollIntoViewIfNeeded();
    await wb.screenshot(`analysis-${name}`, { of: wb.webviewElement() });
  };
  const tab = (topic) => frame().locator(`.topic-tabs [role="tab"][data-topic="${topic}"]`);
  const view = (v) => frame().locator(`.view-tabs [role="tab"][data-view="${v}"]`);
  /** The bars of a chart as { unit: keys }. */
  const bars = (chart) =>
    frame()
      .locator(`.chart[data-chart="${chart}"] g.unit`)
      .evaluateAll((els) => Object.fromEntries(els.map((el) => [el.getAttribute('data-unit'), Number(el.getAttribute('data-keys'))])));
  const expectEqual = (got, want, what) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: the panel shows ${JSON.stringify(got)}, the engine counts ${JSON.stringify(want)}`);
  };

  await scenario('analysis: right-click keys.txt, "Analyze Keys", and read the figures in the Analysis view', async () => {
    await wb.palette('View: Close All Editors');
    // The bottom panel (output) would leave the routing panel little height for its screenshots.
    if (await page.locator('.part.panel').isVisible()) await wb.palette('View: Hide Panel');
    await wb.openFile('keys.txt');
    await wb.editorContextMenu('user-3', 'Analyze Keys');
    // The format quick pick offers its guess first.
    const first = page.locator('.quick-input-list .monaco-list-row:visible').first();
    await first.waitFor();
    const firstText = await first.innerText();
    if (!/One key per line/.test(firstText) || !/guessed/.test(firstText)) throw new Error(`the first choice reads ${JSON.stringify(firstText)}`);
    await wb.screenshot('analysis-00-format-pick');
    await page.keyboard.press('Enter');

    const status = frame().locator('#analysis-status[data-status="complete"]');
    await status.waitFor();
    const keys = fileKeys();
    const statusText = await status.textContent();
    if (!statusText.includes(`Complete: ${keys.length} keys`)) throw new Error(`the status reads ${JSON.stringify(statusText)}`);
    const t = topology();
    const e = engine();
    const count = (topic, f) => {
      const out = {};
      for (const k of keys) {
        const v = f(t.topic(topic).route(e.stringKey(k)));
        out[v] = (out[v] ?? 0) + 1;
      }
      return out;
    };

    // Kafka: keys per partition, every partition listed (zeros included), and the skew figures.
    await tab('orders').click();
    await frame().locator('.chart[data-chart="before-partition"]').waitFor();
    const partitions = Object.fromEntries(Array.from({ length: 6 }, (_, p) => [String(p), 0]));
    Object.assign(partitions, count('orders', (r) => r.partition));
    expectEqual(await bars('before-partition'), partitions, 'orders: keys per partition');
    const counts = Object.values(partitions);
    const mean = keys.length / counts.length;
    const maxOverMean = Math.max(...counts) / mean;
    const cv = Math.sqrt(counts.reduce((s, c) => s + (c - mean) ** 2, 0) / counts.length) / mean;
    const skew = frame().locator('#before-partition-skew');
    const shown = [Number(await skew.getAttribute('data-max-over-mean')), Number(await skew.getAttribute('data-cv'))];
    if (Math.abs(shown[0] - maxOverMean) > 1e-9 || Math.abs(shown[1] - cv) > 1e-9) throw new Error(`orders skew: the panel shows ${shown}, the counts give ${[maxOverMean, cv]}`);
    const skewText = await skew.innerText();
    if (!skewText.includes(maxOverMean.toFixed(2)) || !skewText.includes(cv.toFixed(3))) throw new Error(`the skew line reads ${JSON.stringify(skewText)}`);
    // Each key of the file once: the heaviest-keys table lists them all, with their partition.
    const rows = await frame().locator('#heavy tr.heavy-row').evaluateAll((els) => els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-count')), el.querySelector('td.partition')?.textContent]));
    if (rows.length !== new Set(keys).size) throw new Error(`the heaviest-keys table has ${rows.length} rows for ${new Set(keys).size} distinct keys`);
    for (const [key, n, p] of rows) {
      const want = keys.filter((k) => k === key).length;
      if (n !== want || p !== String(t.topic('orders').route(e.stringKey(key)).partition)) throw new Error(`heavy key ${key}: ${n} in p${p}; the file has it ${want} times, the engine routes it to p${t.topic('orders').route(e.stringKey(key)).partition}`);
    }
    const problems = await frame().locator('#analysis-problems').getAttribute('data-count');
    if (problems !== '0') throw new Error(`${problems} problem lines reported for a clean file`);
    await shot('01-orders');
    await shot('02-orders-skew-heavy', '#heavy');

    // Pulsar: keys per consumer and per partition of payments.
    await tab(PAYMENTS).click();
    await frame().locator('.chart[data-chart="before-consumer"]').waitFor();
    const consumers = Object.fromEntries(t.topic(PAYMENTS).subscription.consumers.map((c) => [c.id, 0]));
    Object.assign(consumers, count(PAYMENTS, (r) => r.consumer));
    expectEqual(await bars('before-consumer'), consumers, 'payments: keys per consumer');
    const pp = Object.fromEntries(Array.from({ length: t.topic(PAYMENTS).partitions }, (_, p) => [String(p), 0]));
    Object.assign(pp, count(PAYMENTS, (r) => r.partition));
    expectEqual(await bars('before-partition'), pp, 'payments: keys per partition');
    await frame().locator('.chart[data-chart="before-bundle"]').waitFor();
    await shot('03-payments', '#before-consumer-title');
  });

  await scenario('analysis: the keys under a what-if step from the panel', async () => {
    await tab(PAYMENTS).click();
    await view('whatif').click();
    await frame().locator('#whatif-name').fill('C9');
    await frame().locator('#whatif-add').click();
    await frame().locator('#whatif-moved-share').waitFor();
    await view('analysis').click();
    const go = frame().locator('#analysis-whatif-run');
    await go.waitFor();
    if (!(await go.innerText()).includes('+C9')) throw new Error(`the button reads ${await go.innerText()}`);
    await go.click();
    const moved = frame().locator('#whatif-moved-keys-share');
    await moved.waitFor();
    await frame().locator('#whatif-status[data-status="complete"]').waitFor();
    const e = engine();
    const before = topology().topic(PAYMENTS);
    const after = topology().topic(PAYMENTS);
    if (!after.apply(e.parseEvent('+C9')).ok) throw new Error('the engine refuses +C9');
    const keys = fileKeys();
    const want = keys.filter((k) => before.route(e.stringKey(k)).consumer !== after.route(e.stringKey(k)).consumer || before.route(e.stringKey(k)).partition !== after.route(e.stringKey(k)).partition).length;
    const got = Number(await moved.getAttribute('data-moved'));
    if (got !== want) throw new Error(`moved keys: the panel shows ${got}, the engine ${want}`);
    const perConsumer = Object.fromEntries(after.subscription.consumers.map((c) => [c.id, 0]));
    for (const k of keys) perConsumer[after.route(e.stringKey(k)).consumer]++;
    expectEqual(await bars('after-consumer'), perConsumer, 'payments after +C9: keys per consumer');
    await shot('04-what-if', '#analysis-whatif-title');
    await shot('05-what-if-consumers', '[data-section="after-consumer"]');
    await view('whatif').click();
    await frame().locator('#whatif-clear').click();
  });

  await scenario('analysis: a large file from the explorer shows partial figures while it runs, and Cancel in the panel stops it', async () => {
    const bigFile = join(workspace, 'big-keys.txt');
    // The first pass must still be going after the checks, the screenshot and the click on Cancel.
    // The worker and the browser slow down together on a loaded machine, but not equally: at a load
    // of 45, 6,000,000 keys were all read before Cancel arrived. 36,000,000 keys (a 1,000,000-key
    // block written 36 times, 320 MB) take a minute on an idle machine; the run is cancelled
    // within seconds. Written next to the workspace and moved in whole: the explorer sees one new
    // file, not a file growing under the context menu.
    const lines = 36_000_000;
    const block = Buffer.from(Array.from({ length: 1_000_000 }, (_, j) => `c-${(j * 7919) % 1_000_003}\n`).join(''));
    const staging = join(wb.session.base, 'big-keys.txt');
    const fd = openSync(staging, 'w');
    for (let i = 0; i < lines; i += 1_000_000) writeSync(fd, block);
    closeSync(fd);
    renameSync(staging, bigFile);
    await wb.explorerRow('big-keys.txt').waitFor();
    await wb.explorerContextMenu('big-keys.txt', 'Analyze Keys');
    await wb.pickRow('One key per line').waitFor();
    await page.keyboard.press('Enter');
    await tab('orders').click();
    // Partial figures: the run is still going and the bars already count keys.
    await frame().locator('#analysis-status[data-status="running"][data-result-status="partial"]').waitFor();
    const running = await frame().locator('#analysis-status').textContent();
    if (!/^Running: .* keys so far .*partial/.test(running)) throw new Error(`the running status reads ${JSON.stringify(running)}`);
    const partial = Object.values(await bars('before-partition')).reduce((a, b) => a + b, 0);
    if (!(partial > 0 && partial < lines)) throw new Error(`the partial bars count ${partial} keys`);
    await shot('06-running');
    // Pressed as a keyboard user does (focus, Enter): a mouse click waits for the button to be
    // scrolled into view and hit-tested in a page redrawn every 0.6 s with partial figures, and
    // on a loaded machine it did not land before the run ended (web suite, load 20).
    await frame().locator('#analysis-cancel').press('Enter');
    const status = frame().locator('#analysis-status[data-status="cancelled"]');
    await status.waitFor();
    const text = await status.textContent();
    if (!/^Cancelled: the figures cover only the [\d,]+ keys read before the stop/.test(text) || /Complete/.test(text)) throw new Error(`the cancelled status reads ${JSON.stringify(text)}`);
    if ((await status.getAttribute('data-result-status')) !== 'cancelled') throw new Error('the figures of a cancelled run are not marked cancelled');
    const counted = Object.values(await bars('before-partition')).reduce((a, b) => a + b, 0);
    if (!(counted >= partial && counted < lines)) throw new Error(`after the cancel the bars count ${counted} of ${lines} keys`);
    await shot('07-cancelled');
    rmSync(bigFile); // 320 MB; the run has stopped
  });

  await scenario('analysis: screenshots in light and high-contrast themes', async () => {
    // Alone (--grep): the analysis of keys.txt first, as the first scenario runs it.
    if (!((await wb.webviewElement().count()) && (await frame().locator('#analysis-status[data-status]').count()))) {
      await wb.openFile('keys.txt');
      await wb.editorContextMenu('user-3', 'Analyze Keys');
      await page.locator('.quick-input-list .monaco-list-row:visible').first().waitFor();
      await page.keyboard.press('Enter');
      await tab('orders').click();
      await view('analysis').click();
      await frame().locator('#analysis-status[data-status="complete"]').waitFor();
    }
    await tab('orders').click();
    for (const [theme, name] of [
      ['Light Modern', 'light'],
      ['Dark High Contrast', 'high-contrast'],
      ['Dark Modern', 'dark'],
    ]) {
      await wb.setTheme(theme);
      if (name !== 'dark') await shot(`08-${name}`, '.chart[data-chart="before-partition"]');
    }
  });
}
