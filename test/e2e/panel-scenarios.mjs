// UI scenarios of the routing panel: open the panel from a route, find the key's marker and its
// hash inside the webview, switch topics and views, edit a what-if and read its moved share and
// moved keys, apply it to the settings, and post hostile messages from inside the webview. Every
// expected number is worked out by the engine on the workspace's settings, never read from the
// panel first. A screenshot of the panel per view (and light / dark / high contrast).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engine, route as routeIn, topology as topologyOf } from './engine.mjs';
import { WINDOW_MS } from './workbench.mjs';

const PAYMENTS = 'persistent://public/default/payments';
const SHIPMENTS = 'persistent://public/default/shipments';
const KEY = 'Order-3459134';
const MORE_KEYS = ['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6', 'order:42'];

export default async function panelScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const settingsFile = join(workspace, '.vscode/settings.json');
  const topology = () => topologyOf(workspace);
  const route = (topic, key) => routeIn(workspace, topic, key);
  const frame = () => wb.webview();
  const shot = (name) => wb.screenshot(`panel-${name}`, { of: wb.webviewElement() });
  const tab = (topic) => frame().locator(`.topic-tabs [role="tab"][data-topic="${topic}"]`);
  const view = (v) => frame().locator(`.view-tabs [role="tab"][data-view="${v}"]`);
  const selected = async (loc) => (await loc.getAttribute('aria-selected')) === 'true';
  /** Waits until the what-if's moved share reads `want` (after an edit, undo or redo). */
  const movedShareBecomes = async (want, what) => {
    try {
      await frame().locator(`#whatif-moved-share[data-fraction="${want}"]`).waitFor();
    } catch {
      throw new Error(`${what} the moved share is ${await frame().locator('#whatif-moved-share').getAttribute('data-fraction').catch(() => 'not shown')}, want ${want}`);
    }
  };

  await scenario('panel: opens from a route result with the key marked at its hash', async () => {
    await wb.palette('View: Close All Editors');
    await wb.palette('Key Routing: Route a Key...');
    await wb.input(KEY);
    await wb.notification(KEY);
    await wb.notificationButton(KEY, 'Open Panel');
    await frame().locator('.key-legend .key', { hasText: KEY }).waitFor();
    await tab(PAYMENTS).click();
    const r = route(PAYMENTS, KEY);
    // AUTO_SPLIT without consistent hashing: the hash-range bar is the first view.
    if (!(await selected(view('ranges')))) throw new Error('the hash-range view is not selected for payments');
    const marker = frame().locator(`[data-chart="ranges"] .key-marker[data-key="${KEY}"]`);
    await marker.waitFor();
    const hash = await marker.getAttribute('data-hash');
    const shown = await marker.locator('.marker-hash').textContent();
    if (hash !== String(r.stickyKeyHash) || shown !== String(r.stickyKeyHash)) {
      throw new Error(`the marker says hash ${hash} / "${shown}", the engine ${r.stickyKeyHash}`);
    }
    // ALGORITHMS.md: murmur3 of Order-3459134 is 964695987; 4.0 AUTO_SPLIT takes % 65536.
    if (r.stickyKeyHash !== 964695987 % 65536) throw new Error(`the engine's hash ${r.stickyKeyHash} is not 964695987 % 65536`);
    const row = frame().locator('.keys-table tr.key-row', { hasText: KEY });
    const consumer = await row.locator('td.consumer').textContent();
    if (consumer !== r.consumer) throw new Error(`the table says ${consumer}, the engine ${r.consumer}`);
    await shot('hash-range-bar');
  });

  await scenario('panel: switching topics shows each topic\'s view of the key', async () => {
    await tab('orders').click();
    const k = route('orders', KEY);
    const cell = frame().locator(`[data-chart="partitions"] .partition-marker[data-n="1"]`);
    await cell.waitFor();
    if ((await cell.getAttribute('data-partition')) !== String(k.partition)) throw new Error(`Kafka: marker in partition ${await cell.getAttribute('data-partition')}, the engine ${k.partition}`);
    const hashCell = await frame().locator('.keys-table tr.key-row', { hasText: KEY }).locator('td.hash').textContent();
    if (hashCell !== String(k.hash)) throw new Error(`Kafka hash ${hashCell}, the engine ${k.hash}`);
    await shot('kafka-partitions');

    await tab(SHIPMENTS).click();
    const s = route(SHIPMENTS, KEY);
    if (!(await selected(view('ring')))) throw new Error('the ring view is not selected for a consistent-hashing topic');
    const ringMarker = frame().locator(`.ring-marker[data-key="${KEY}"]`);
    await ringMarker.waitFor();
    if ((await ringMarker.getAttribute('data-hash')) !== String(s.stickyKeyHash)) throw new Error(`ring marker hash ${await ringMarker.getAttribute('data-hash')}, the engine ${s.stickyKeyHash}`);
    // 4.0 ring: murmur3 % 65535 + 1.
    if (s.stickyKeyHash !== (964695987 % 65535) + 1) throw new Error(`the engine's 4.0 ring hash ${s.stickyKeyHash}`);
    const consumer = await frame().locator('.keys-table tr.key-row', { hasText: KEY }).locator('td.consumer').textContent();
    if (consumer !== s.consumer) throw new Error(`ring: the table says ${consumer}, the engine ${s.consumer}`);
    await shot('ring');

    await tab(PAYMENTS).click();
    await view('namespace').click();
    const p = route(PAYMENTS, KEY).partition;
    const nsRow = frame().locator(`.ns-table tr.hit[data-partition="${p}"]`);
    await nsRow.waitFor();
    const e = engine();
    const expected = e.topicHash(`${PAYMENTS}-partition-${p}`);
    const text = await nsRow.locator('td.hash').textContent();
    if (!text.includes(`(${expected})`)) throw new Error(`namespace: partition ${p} hash reads ${text}, the engine ${expected}`);
    await shot('namespace');
  });

  await scenario('panel: the what-if editor shows the moved share and the moved keys of adding a consumer', async () => {
    // More keys, through the panel's own key input.
    for (const k of MORE_KEYS) {
      await frame().locator('#key-input').fill(k);
      await frame().locator('#key-add').click();
      await frame().locator('.key-legend .key', { hasText: k }).first().waitFor();
    }
    await tab(PAYMENTS).click();
    await view('whatif').click();
    await frame().locator('#whatif-name').fill('C5');
    await frame().locator('#whatif-add').click();
    const keys = [KEY, ...MORE_KEYS];
    const e = engine();
    const topic = topology().topic(PAYMENTS);
    const expected = runWhatIf(e, topic, '+C5', keys);
    await movedShareBecomes(expected.movedFraction, 'after +C5');
    const moved = await frame().locator('#whatif-moved-keys li.moved-key').evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
    if (JSON.stringify([...moved].sort()) !== JSON.stringify([...expected.movedKeys].sort())) {
      throw new Error(`moved keys ${JSON.stringify(moved)}, the engine ${JSON.stringify(expected.movedKeys)}`);
    }
    const stepText = await frame().locator('#whatif-steps li').first().textContent();
    if (!stepText.includes('+C5')) throw new Error(`the step reads ${stepText}`);
    await frame().locator('#whatif-ordering:not([aria-busy])').waitFor();
    await shot('what-if');
    // Undo and redo: the step goes and comes back.
    await frame().locator('#whatif-undo').click();
    await movedShareBecomes(0, 'after undo');
    await frame().locator('#whatif-redo').click();
    await movedShareBecomes(expected.movedFraction, 'after redo');
  });

  await scenario('panel: hostile messages from the webview are ignored and logged', async () => {
    const before = readFileSync(settingsFile, 'utf8');
    // VS Code deletes window.parent in the webview's content frame, so a script there reaches the
    // host only through acquireVsCodeApi().postMessage (already taken by the panel). That function
    // calls the webview host frame's `__vscode_post_message__('onmessage', {message})`; the messages
    // are posted through that same entry point, from the webview's own frames.
    const content = await wb.webviewFrame();
    const hostFrame = content.parentFrame();
    const sent = await hostFrame.evaluate(() => {
      const post = (message) => window.__vscode_post_message__('onmessage', { message, transfer: undefined });
      let deep = {};
      const top = deep;
      for (let i = 0; i < 50; i++) deep = deep.a = {};
      const messages = [
        { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: -5 },
        { type: 'applyToSettings', requestId: 2, topic: 'orders', partitions: 9, extra: 'field' },
        JSON.parse('{"type":"applyToSettings","requestId":3,"topic":"orders","partitions":9,"__proto__":{"admin":true}}'),
        { type: 'applyToSettings', requestId: 4, topic: 'orders', consumers: [{ name: 'x'.repeat(5000) }] },
        { type: 'webviewError', message: 'y'.repeat(200_000) },
        { type: 'applyToSettings', requestId: 5, topic: 'orders', partitions: 9, nested: top },
        { type: 'writeFile', path: '/etc/passwd' },
        'applyToSettings',
        null,
      ];
      for (const m of messages) post(m);
      return messages.length;
    });
    const lines = await wb.showOutput('Key Routing');
    // Monaco renders spaces as no-break spaces; the channel may still be receiving lines.
    const shown = async () => (await lines.first().innerText()).replace(/\u00a0/g, ' ');
    const count = async () => ((await shown()).match(/ignored an invalid message/g) ?? []).length;
    try {
      await wb.until(async () => (await count()) >= sent, `${sent} ignored messages in the output channel`);
    } catch {
      throw new Error(`the output channel shows ${await count()} of ${sent} ignored messages:\n${(await shown()).slice(-1500)}`);
    }
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('a confirmation dialog opened for a hostile message');
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('the settings changed');
    await wb.screenshot('panel-hostile-messages-output');
    await wb.palette('View: Hide Panel');
  });

  await scenario('panel: "Apply to settings" writes the what-if only after the user confirms', async () => {
    await frame().locator('#whatif-apply').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    // Cancel first: nothing is written.
    const before = readFileSync(settingsFile, 'utf8');
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await frame().locator('#whatif-apply-status', { hasText: 'cancelled' }).waitFor();
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('cancel changed the settings');
    await frame().locator('#whatif-apply').click();
    await dialog.waitFor();
    await wb.screenshot('panel-apply-confirm');
    await dialog.locator('.monaco-button', { hasText: 'Apply' }).click();
    // VS Code writes the file in place: wait until it changed and parses.
    const settings = await wb.until(() => {
      const text = readFileSync(settingsFile, 'utf8');
      try {
        return text !== before && JSON.parse(text);
      } catch {
        return undefined; // mid-write
      }
    }, 'the settings file to change');
    const topics = settings['keyRouting.topics'];
    const payments = topics.find((t) => t.name === PAYMENTS);
    const names = payments.subscription.consumers.map((c) => c.name);
    if (JSON.stringify(names) !== JSON.stringify(['C1', 'C2', 'C3', 'C4', 'C5'])) throw new Error(`the settings now list ${JSON.stringify(names)}`);
    if (topics.length !== 4 || topics.find((t) => t.name === 'orders').partitions !== 6) throw new Error('other topics changed');
    // The panel follows the new settings: C5 is in the consumers' legend.
    await view('ranges').click();
    await frame().locator('.legend-item[data-owner="C5"]').waitFor();
  });

  await scenario('panel: screenshots in light, dark and high-contrast themes', async () => {
    for (const [theme, name] of [
      ['Light Modern', 'light'],
      ['Dark High Contrast', 'high-contrast'],
      ['Dark Modern', 'dark'],
    ]) {
      await wb.setTheme(theme);
      await tab(SHIPMENTS).click();
      await view('ring').click();
      await shot(`ring-${name}`);
      await tab(PAYMENTS).click();
      await view('whatif').click();
      await frame().locator('#whatif-name').fill('C6');
      await frame().locator('#whatif-add').click();
      await frame().locator('#whatif-moved-share').waitFor();
      await shot(`what-if-${name}`);
      await frame().locator('#whatif-clear').click();
    }
  });

  await scenario('panel: keyboard moves along the tabs and through the segments', async () => {
    await tab('orders').focus();
    await page.keyboard.press('ArrowRight');
    if (!(await selected(tab(PAYMENTS)))) throw new Error('ArrowRight did not select the next topic tab');
    await view('ranges').click();
    const chart = frame().locator('.chart[data-chart="ranges"]');
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    const live = await frame().locator('#live').textContent();
    const first = topology().topic(PAYMENTS).subscription.selector.segments()[0];
    if (!live.includes(`${first.start}–${first.end}`) || !live.includes(first.consumers[0].id)) throw new Error(`the live region reads ${JSON.stringify(live)}`);
    // "+" zooms in around the cursor: the axis now says how much of the space is shown.
    await page.keyboard.press('+');
    await frame().locator('.chart[data-chart="ranges"] .zoom-note').waitFor();
    await frame().locator('.chart[data-chart="ranges"]').focus();
    await page.keyboard.press('0');
    await frame().locator('.chart[data-chart="ranges"] .zoom-note').waitFor({ state: 'detached' });
    // Hovering the key's segment lists its consumer, range and share.
    const r = route(PAYMENTS, KEY);
    const markerLine = frame().locator(`[data-chart="ranges"] .key-marker[data-key="${KEY}"] line`);
    const box = await markerLine.boundingBox();
    await page.mouse.move(box.x + 1, box.y + box.height - 6);
    const tip = frame().locator('#tooltip:not([hidden])');
    await tip.waitFor();
    const tipText = await tip.innerText();
    if (!tipText.includes(r.consumer) || !tipText.includes(`${r.range[0]}–${r.range[1]}`) || !/% of key hashes/.test(tipText)) throw new Error(`the tooltip reads ${JSON.stringify(tipText)}`);
    await page.mouse.move(5, 5);
  });

  await scenario('panel: a window reload restores the panel with its topic, view and keys (serializer + getState)', async () => {
    await tab(SHIPMENTS).click();
    await view('ranges').click();
    const keysBefore = await frame().locator('.key-legend .key').allTextContents();
    await wb.reload();
    await frame().locator('.key-legend').waitFor({ timeout: 60_000 });
    if (!(await selected(tab(SHIPMENTS)))) throw new Error('after the reload another topic is selected');
    if (!(await selected(view('ranges')))) throw new Error('after the reload another view is selected');
    const keysAfter = await frame().locator('.key-legend .key').allTextContents();
    if (JSON.stringify(keysAfter) !== JSON.stringify(keysBefore)) throw new Error(`keys before ${JSON.stringify(keysBefore)}, after ${JSON.stringify(keysAfter)}`);
    const s = route(SHIPMENTS, KEY);
    const marker = frame().locator(`[data-chart="ranges"] .key-marker[data-key="${KEY}"]`);
    if ((await marker.getAttribute('data-hash')) !== String(s.stickyKeyHash)) throw new Error('the restored panel marks the key at another hash');
    await shot('restored-after-reload');
  }, { timeout: WINDOW_MS + 60_000 }); // a reload is a window opening again
}

/**
 * The engine's what-if of one event over the keys (`runWhatIf`, as the CLI's what-if), checked
 * against a plain slot-by-slot count of the key values whose owners changed.
 */
function runWhatIf(e, topic, event, keys) {
  const selector = topic.subscription.selector;
  const idsAt = (segs) => segs.map((s) => ({ start: s.start, end: s.end, ids: s.consumers.map((c) => c.id).join(',') }));
  const before = idsAt(selector.segments());
  const result = e.runWhatIf(topic, [e.parseEvent(event)], keys.map((k) => ({ shown: k, key: e.stringKey(k) })));
  const step = result.steps[0];
  if (step.error) throw new Error(`the engine refuses ${event}: ${step.error}`);
  const after = idsAt(selector.segments());
  const [lo, hi] = selector.keyValues;
  const owners = (segs, v) => segs.find((s) => s.start <= v && v <= s.end)?.ids ?? '';
  let moved = 0;
  for (let v = lo; v <= hi; v++) if (owners(before, v) !== owners(after, v)) moved++;
  if (moved / (hi - lo + 1) !== step.movedFraction) throw new Error(`runWhatIf says ${step.movedFraction}, the slot count ${moved / (hi - lo + 1)}`);
  return { movedFraction: step.movedFraction, movedKeys: result.keys.filter((k) => k.moved).map((k) => k.key) };
}
