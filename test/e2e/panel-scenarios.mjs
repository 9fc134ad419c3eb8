// UI scenarios of the routing panel: open the panel from a route, find the key's marker and its
// hash inside the webview, switch topics and views, edit a what-if and read its moved share and
// moved keys, apply it to the settings, and post hostile messages from inside the webview. Every
// expected number is worked out by the engine on the workspace's settings, never read from the
// panel first. A screenshot of the panel per view (and light / dark / high contrast).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engine, route as routeIn, topology as topologyOf } from './engine.mjs';
import { WINDOW_MS } from './workbench.mjs';

const PAYMENTS = 'persistent://public/default/payments';
const SHIPMENTS = 'persistent://public/default/shipments';
const DENSE = 'persistent://public/default/dense-ring';
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

  /**
   * Every consumer-coloured mark of the open view (segments, ticks, legend swatches, a group's
   * partition cells) is painted in its class's colour: c0..c5 the theme's chart colours, c6..c11
   * its terminal colours. The canvas charts read their palette from the same segment classes.
   */
  const checkPalette = async (what, kinds) => {
    const { counts, wrong } = await (await wb.webviewFrame()).evaluate(() => {
      const names = ['charts-blue', 'charts-orange', 'charts-green', 'charts-purple', 'charts-red', 'charts-yellow', 'terminal-ansiCyan', 'terminal-ansiMagenta', 'terminal-ansiBrightBlue', 'terminal-ansiBrightGreen', 'terminal-ansiBrightRed', 'terminal-ansiBrightCyan'];
      const want = names.map((n) => {
        const probe = document.body.appendChild(document.createElement('span'));
        probe.style.color = `var(--vscode-${n})`;
        const c = getComputedStyle(probe).color;
        probe.remove();
        return c;
      });
      const counts = {};
      const wrong = [];
      for (const el of document.querySelectorAll('.seg, .tick, .swatch, .cell.owned')) {
        const colour = [...el.classList].find((c) => /^c\d+$/.test(c));
        if (!colour) continue;
        const kind = ['seg', 'tick', 'swatch', 'cell'].find((k) => el.classList.contains(k));
        const st = getComputedStyle(el);
        const got = kind === 'tick' ? st.stroke : kind === 'swatch' ? st.backgroundColor : st.fill;
        counts[kind] = (counts[kind] ?? 0) + 1;
        if (got !== want[Number(colour.slice(1))]) wrong.push(`${el.getAttribute('class')}: ${got}, want ${want[Number(colour.slice(1))]}`);
      }
      return { counts, wrong };
    });
    for (const k of kinds) if (!counts[k]) throw new Error(`${what}: no ${k} in a consumer colour to check (${JSON.stringify(counts)})`);
    if (wrong.length) throw new Error(`${what}: marks not in their consumer colour: ${wrong.slice(0, 5).join('; ')}`);
  };

  /** After a scenario writes `original` settings back: the members table lists orders's group in them (none without one). */
  const ordersGroupRestored = async (original) => {
    const restored = JSON.parse(original)['keyRouting.kafkaGroups']?.find((g) => g.topics.includes('orders'));
    await wb.until(async () => (await frame().locator('#members-table tbody tr').count()) === (restored?.members.length ?? 0), 'the restored group in the members table');
  };

  /** Alone (--grep), a scenario opens the panel here with the key, as a route result opens it. */
  const openWithKey = async () => {
    if ((await wb.webviewElement().count()) && (await frame().locator('.key-legend .key', { hasText: KEY }).count())) return;
    await wb.palette('Key Routing: Route a Key...');
    await wb.input(KEY);
    await wb.notification(KEY);
    await wb.notificationButton(KEY, 'Open Panel');
    await frame().locator('.key-legend .key', { hasText: KEY }).waitFor();
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
    await checkPalette('the hash-range bar', ['seg', 'swatch']);
    await shot('hash-range-bar');
  });

  await scenario('panel: switching topics shows each topic\'s view of the key', async () => {
    await tab('orders').click();
    const k = route('orders', KEY);
    const cell = frame().locator(`[data-chart="partitions"] .partition-marker[data-n="1"]`);
    await cell.waitFor();
    if ((await cell.getAttribute('data-partition')) !== String(k.partition)) throw new Error(`Kafka: marker in partition ${await cell.getAttribute('data-partition')}, the engine ${k.partition}`);
    const hashCell = await frame().locator('.keys-table tr.key-row', { hasText: KEY }).locator('td.client-hash').textContent();
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
    await checkPalette('the ring', ['seg', 'tick', 'swatch']);
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
    // The editor stays the same element through the steps (a step redraws what follows it), its
    // remove list patched by the step's consumer and its name field emptied for the next.
    await frame().locator('section.whatif-editor').evaluate((el) => el.setAttribute('data-test-mark', 'kept'));
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
    await frame().locator('#whatif-ordering:not([aria-busy])').waitFor();
    // Two notes of the step are timed now (a note of no steps is not), each far under
    // NOTE_IN_STEP_MS, and the smaller of the last two decides: the redone step's note is worked
    // out in the step's own task and shows in its frame, there as soon as the click's handler has run.
    await frame().locator('#whatif-undo').click();
    await movedShareBecomes(0, 'after the second undo');
    const noteAfterClick = await frame()
      .locator('#whatif-redo')
      .evaluate((el) => {
        el.click();
        const note = document.getElementById('whatif-ordering');
        return note ? (note.getAttribute('aria-busy') ?? 'shown') : 'missing';
      });
    if (noteAfterClick !== 'shown') throw new Error(`the redone step's ordering note is ${noteAfterClick === 'true' ? 'still being worked out' : 'missing'} once its click is handled`);
    await movedShareBecomes(expected.movedFraction, 'after the second redo');
    // The list of consumers to remove is made when the field is first focused.
    await frame().locator('#whatif-remove-id').focus();
    const editor = await frame().locator('section.whatif-editor').evaluate((el) => ({
      kept: el.getAttribute('data-test-mark'),
      name: el.querySelector('#whatif-name').value,
      removable: [...el.querySelectorAll('#whatif-remove-id-choices option')].map((o) => o.value),
    }));
    const consumers = topology().topic(PAYMENTS).subscription.consumers.map((c) => c.id);
    if (editor.kept !== 'kept') throw new Error('the what-if editor was made again by a step');
    if (editor.name !== '') throw new Error(`the name field still reads ${editor.name} after its step`);
    if (JSON.stringify(editor.removable) !== JSON.stringify([...consumers, 'C5'])) throw new Error(`the remove list is ${JSON.stringify(editor.removable)}, want ${JSON.stringify([...consumers, 'C5'])}`);
    // Removing: an id that is not connected is refused by name; one that is becomes the next step,
    // and leaves the list of choices.
    await frame().locator('#whatif-remove-id').fill('nobody-here');
    await frame().locator('#whatif-remove').click();
    await frame().locator('p.error[role="alert"]', { hasText: 'No consumer nobody-here is connected' }).waitFor();
    await frame().locator('#whatif-remove-id').fill('C5');
    await frame().locator('#whatif-remove').click();
    await frame().locator('#whatif-steps li', { hasText: '-C5' }).waitFor();
    await frame().locator('p.error[role="alert"]').waitFor({ state: 'detached' });
    const left = await frame().locator('#whatif-remove-id-choices option').evaluateAll((els) => els.map((o) => o.value));
    if (JSON.stringify(left) !== JSON.stringify(consumers)) throw new Error(`after -C5 the remove list is ${JSON.stringify(left)}, want ${JSON.stringify(consumers)}`);
    // Undone again: the next scenario applies the +C5 what-if.
    await frame().locator('#whatif-undo').click();
    await frame().locator('#whatif-steps li.undone', { hasText: '-C5' }).waitFor();
    await movedShareBecomes(expected.movedFraction, 'after undoing -C5');
  });

  await scenario('panel: hostile messages from the webview are ignored and logged, and a refused Apply is told why', async () => {
    const before = readFileSync(settingsFile, 'utf8');
    // VS Code deletes window.parent in the webview's content frame, so a script there reaches the
    // host only through acquireVsCodeApi().postMessage (already taken by the panel). That function
    // calls the webview host frame's `__vscode_post_message__('onmessage', {message})`; the messages
    // are posted through that same entry point, from the webview's own frames.
    const content = await wb.webviewFrame();
    const hostFrame = content.parentFrame();
    // The host's answers as the panel receives them: each refused Apply gets one saying why.
    await content.evaluate(() => {
      window.__applyResults = [];
      window.addEventListener('message', (e) => {
        if (e.data?.type === 'applyResult') window.__applyResults.push(e.data);
      });
    });
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
    const answers = await wb.until(async () => {
      const r = await content.evaluate(() => window.__applyResults);
      return r.length >= 5 && r;
    }, 'an answer to each of the five refused Apply requests');
    const expected = [1, 2, 3, 4, 5].map((id) => `${id} rejected`);
    if (JSON.stringify(answers.map((a) => `${a.requestId} ${a.outcome}`).sort()) !== JSON.stringify(expected)) throw new Error(`the answers: ${JSON.stringify(answers)}`);
    const tooLong = answers.find((a) => a.requestId === 4);
    if (!/^Not applied: message\.consumers\[0\]\.name: .*256/.test(tooLong.message)) throw new Error(`the answer to a name too long says: ${tooLong.message}`);
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

  /** On `topic`'s What-if tab: adds consumer `name` (with STICKY `ranges`), clicks Apply; the confirmation dialog and its text. */
  const applyAdding = async (topic, name, ranges) => {
    await tab(topic).click();
    await view('whatif').click();
    await frame().locator('#whatif-name').fill(name);
    if (ranges) await frame().locator('#whatif-ranges').fill(ranges);
    await frame().locator('#whatif-add').click();
    await frame().locator('#whatif-steps li', { hasText: `+${name}` }).waitFor();
    await frame().locator('#whatif-apply').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    return { dialog, text: await dialog.innerText() };
  };
  /** `topic`'s consumers once the settings file lists `n` of them (VS Code writes it in place). */
  const writtenConsumers = (topic, n) =>
    wb.until(() => {
      try {
        const consumers = JSON.parse(readFileSync(settingsFile, 'utf8'))['keyRouting.topics'].find((t) => t.name === topic).subscription.consumers;
        return consumers.length === n && consumers;
      } catch {
        return undefined; // mid-write
      }
    }, `the settings file to list ${n} consumers of ${topic}`);

  /**
   * Runs `body` with `topic` added to the workspace's settings (the panel open on a key), then puts
   * the settings back and waits until the panel has dropped the topic, for the next scenario.
   */
  const withTopic = async (topic, body) => {
    await openWithKey();
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    edited['keyRouting.topics'].push(topic);
    await wb.writeSettings(JSON.stringify(edited, null, 2));
    try {
      await body();
    } finally {
      writeFileSync(settingsFile, original);
    }
    await tab(topic.name).waitFor({ state: 'detached' });
  };

  await scenario('panel: "Apply to settings" on a subscription of 2,000 consumers says the change in one line and writes all 2,001', async () => {
    // The AUTO_SPLIT scale: the Apply carries the whole list of consumers (2,001 names).
    const FLEET = 'persistent://public/default/fleet';
    const names = Array.from({ length: 2000 }, (_, i) => `fleet-${String(i).padStart(4, '0')}`);
    const subscription = { name: 'fleet-sub', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consumers: names.map((name) => ({ name })) };
    await withTopic({ name: FLEET, system: 'pulsar', partitions: 0, subscription }, async () => {
      const { dialog, text } = await applyAdding(FLEET, 'extra-1');
      if (!text.includes('consumers: 2000 → 2001, added extra-1')) throw new Error(`the confirmation says: ${text.slice(0, 500)}`);
      if (text.includes('fleet-0001')) throw new Error('the confirmation lists the consumers one by one');
      await dialog.locator('.monaco-button', { hasText: 'Apply' }).click();
      const written = (await writtenConsumers(FLEET, 2001)).map((c) => c.name);
      if (JSON.stringify(written) !== JSON.stringify([...names, 'extra-1'])) throw new Error(`the settings list ${written.slice(-3).join(', ')} last`);
      await frame().locator('#whatif-apply-status', { hasText: 'consumers: 2000 → 2001, added extra-1' }).waitFor();
    });
  });

  await scenario('panel: "Apply to settings" on a STICKY subscription of 2,000 consumers x 16 ranges writes them without freezing the window', async () => {
    // VS Code's own writer formats a value token by token, copying the file for each: 32,000
    // ranges took it minutes, with the window frozen (settingsText.ts).
    const STICKY = 'persistent://public/default/sticky-fleet';
    const consumers = Array.from({ length: 2000 }, (_, i) => ({ name: `sticky-${i}`, ranges: Array.from({ length: 16 }, (_, j) => [(j * 2000 + i) * 2, (j * 2000 + i) * 2]) }));
    const subscription = { name: 'st', type: 'Key_Shared', keySharedMode: 'STICKY', consumers };
    await withTopic({ name: STICKY, system: 'pulsar', partitions: 0, brokerVersion: '4.0', subscription }, async () => {
      const { dialog, text } = await applyAdding(STICKY, 'extra', '1-1');
      if (!text.includes('consumers: 2000 → 2001, added extra')) throw new Error(`the confirmation says: ${text.slice(0, 500)}`);
      await dialog.locator('.monaco-button', { hasText: 'Apply' }).click();
      const written = await writtenConsumers(STICKY, 2001);
      if (JSON.stringify(written) !== JSON.stringify([...consumers, { name: 'extra', ranges: [[1, 1]] }])) throw new Error('the written consumers differ from the what-if');
      // The window answers, and the panel shows the written settings.
      await view('ranges').click();
      await frame().getByText('Consumers connected: 2,001.').waitFor();
    });
  });

  await scenario('panel: the idle warm-up waits while the user zooms the strip, and goes on once the zooming stops', async () => {
    // The 3.x ring (1,000 consumers x 100 points): its warm-up's throwaway steps take
    // 5-90 ms each, and run between a zoom's frames they made the frames late (app.ts, GESTURE_MS).
    const RING = 'persistent://public/default/big-ring';
    const consumers = Array.from({ length: 1000 }, (_, i) => ({ name: `ring-${String(i).padStart(4, '0')}` }));
    const topic = { name: RING, system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: { name: 'big-sub', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers } };
    const engineIs = async (want) => (await wb.webviewFrame()).waitForFunction((w) => document.body.dataset.engine === w, want, { timeout: 60_000, polling: 'raf' });
    await withTopic(topic, async () => {
      await tab(RING).click();
      await view('ring').click();
      await frame().locator('.chart[data-chart="detail"] canvas').waitFor();
      await engineIs('ready');
      // New settings with the ring shown: the panel builds its own topology again and warms it up
      // (a topic shown later reuses the topology the first one's warm-up built, without rounds).
      // The gesture starts as that warm-up does (the body's data-engine turns "pending" when the
      // panel has no topology of its own, then "warming", before the first part runs; a state
      // drawn before the new settings' goes from "warming" to "ready" at once): zoom in and out on
      // the strip every 40 ms for 3 s from inside the page (a wheel or a held key delivers inputs
      // at that pace), noting the warm-up's state at each input.
      // The observer is in place (awaited) before the settings change; the gesture's states are
      // read once it is done.
      await (await wb.webviewFrame()).evaluate(() => {
        window.__gesture = new Promise((resolve) => {
          const states = [];
          let pending = false;
          const giveUp = setTimeout(() => resolve(['never "warming"']), 60_000);
          const observer = new MutationObserver(async () => {
            pending ||= document.body.dataset.engine === 'pending';
            if (!pending || document.body.dataset.engine !== 'warming' || states.length) return;
            observer.disconnect();
            clearTimeout(giveUp);
            const end = performance.now() + 3000;
            for (let i = 0; performance.now() < end; i++) {
              states.push(document.body.dataset.engine);
              const canvas = document.querySelector('.chart[data-chart="detail"] canvas');
              const rect = canvas.getBoundingClientRect();
              canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 100 : -100, clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2, bubbles: true, cancelable: true }));
              await new Promise((res) => setTimeout(res, 40));
            }
            states.push(document.body.dataset.engine);
            resolve(states);
          });
          observer.observe(document.body, { attributes: true, attributeFilter: ['data-engine'] });
        });
      });
      const edited = JSON.parse(readFileSync(settingsFile, 'utf8'));
      edited['keyRouting.topics'].find((t) => t.name === RING).subscription.consumers[999].name = 'ring-last';
      await wb.writeSettings(JSON.stringify(edited, null, 2));
      const seen = await (await wb.webviewFrame()).evaluate(() => window.__gesture);
      // Without the pause the warm-up ends within the gesture. Another state drawn meanwhile
      // starts it again ("pending", then "warming").
      const ended = seen.findIndex((x) => x !== 'warming' && x !== 'pending');
      if (ended >= 0) throw new Error(`the warm-up was "${seen[ended]}" at input ${ended} of ${seen.length - 1}, zooming every 40 ms`);
      await engineIs('ready');
    });
  });

  await scenario('panel: a consumer group colours the partitions, lists its members, and its what-if adds a member with the partitions and keys that move', async () => {
    await openWithKey();
    // The workspace gets a group on orders, and orders two producer clients, for this scenario only.
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    edited['keyRouting.kafkaGroups'] = [{ name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }];
    const orders = edited['keyRouting.topics'].find((t) => t.name === 'orders');
    orders.producers = ['java', 'librdkafka'];
    await wb.writeSettings(JSON.stringify(edited, null, 2));
    try {
      await tab('orders').click();
      await view('partitions').click();
      // The edited settings are in the panel once the group has exactly its two members (the
      // workspace's own billing group has m1, m2 and m3: an m2 row alone may be the old state) and
      // orders shows its two producers.
      await frame().locator('.members-table tr[data-member="m2"]').waitFor();
      await wb.until(
        async () => (await frame().locator('.members-table tbody tr').count()) === 2 && (await frame().locator('.producers-table').count()) > 0,
        'the edited group (m1, m2) and the producers table in the panel',
      );
      const t = topology();
      const e = engine();
      const group = t.group('billing');
      const topic = t.topic('orders');
      const keys = await frame().locator('.key-legend .key').allTextContents();
      // Members and their partitions, as the engine's range assignor owns them.
      for (const id of ['m1', 'm2']) {
        let n = 0;
        for (let p = 0; p < topic.partitions; p++) if (group.ownerOf('orders', p) === id) n++;
        const shown = await frame().locator(`.members-table tr[data-member="${id}"] td.partitions`).textContent();
        if (shown !== String(n)) throw new Error(`member ${id}: the table says ${shown} partitions, the engine ${n}`);
      }
      // The key's partition and member.
      const r = topic.route(e.stringKey(KEY));
      const row = frame().locator('.group-keys-table tr.group-key-row', { hasText: KEY }).first();
      const member = await row.locator('td.member').textContent();
      if (member !== group.ownerOf('orders', r.partition)) throw new Error(`${KEY}: the panel says member ${member}, the engine ${group.ownerOf('orders', r.partition)}`);
      // The producers table: each client's partition, the disagreement marked.
      const prow = frame().locator('.producers-table tr.producer-row', { hasText: KEY }).first();
      for (const name of ['java', 'librdkafka']) {
        const cell = await prow.locator(`td[data-producer="${name}"]`).textContent();
        const want = r.byProducer[name] === null ? 'none fixed' : String(r.byProducer[name]);
        if (cell !== want) throw new Error(`${KEY} under ${name}: the panel says ${cell}, the engine ${want}`);
      }
      if ((await prow.getAttribute('class')).includes('disagree') !== r.disagree) throw new Error(`${KEY}: the disagreement mark does not follow the engine (${r.disagree})`);
      await shot('group-partitions');

      // What-if: m3 joins. The engine's answer on a copy of the group.
      const after = group.clone();
      const step = after.apply({ kind: 'plus', id: 'm3' });
      if (!step.ok) throw new Error(`the engine refuses +m3: ${step.error}`);
      const moved = [];
      for (let p = 0; p < topic.partitions; p++) if (group.ownerOf('orders', p) !== after.ownerOf('orders', p)) moved.push(p);
      const movedKeys = keys.filter((k) => {
        const p = topic.route(e.stringKey(k)).partition;
        return p !== null && group.ownerOf('orders', p) !== after.ownerOf('orders', p);
      });
      if (moved.length === 0) throw new Error('the engine moves no partition for +m3: the scenario would prove nothing');
      await view('whatif').click();
      // A group step draws the group's part again, not the topic's what-if above it: its chart stays the same element.
      await frame().locator('.side').first().evaluate((el) => el.setAttribute('data-e2e-kept', 'yes'));
      // Its editor stays in the page through steps, undo and redo (see GroupWhatIfEditor).
      await frame().locator('#group-whatif-member').evaluate((el) => el.setAttribute('data-e2e-kept', 'yes'));
      await frame().locator('#group-whatif-member').fill('m3');
      await frame().locator('#group-whatif-add').click();
      const count = frame().locator('#group-whatif-moved-partitions');
      await frame().locator(`#group-whatif-moved-partitions[data-count="${moved.length}"]`).waitFor().catch(async () => {
        throw new Error(`moved partitions: the panel says ${await count.getAttribute('data-count')}, the engine ${moved.length}`);
      });
      if ((await count.getAttribute('data-partitions')) !== moved.join(',')) throw new Error(`moved partitions ${await count.getAttribute('data-partitions')}, the engine ${moved.join(',')}`);
      // A range group's owners depend on its members alone: Apply gives the same ones, no warning.
      await frame().locator('span#group-whatif-apply-differs[data-count="0"]').waitFor({ state: 'attached' });
      const rows = await frame().locator('#group-whatif-moved-table tr[data-partition]').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-partition'))));
      if (rows.join(',') !== moved.slice(0, 50).join(',')) throw new Error(`moved partitions table ${rows.join(',')}, the engine ${moved.join(',')}`);
      if ((await frame().locator('.side[data-e2e-kept="yes"]').count()) !== 1) throw new Error('a group step drew the topic\'s what-if again');
      const shownKeys = await frame().locator('#group-whatif-moved-keys li.moved-key').evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
      if (JSON.stringify([...shownKeys].sort()) !== JSON.stringify([...movedKeys].sort())) throw new Error(`moved keys ${JSON.stringify(shownKeys)}, the engine ${JSON.stringify(movedKeys)}`);
      await shot('group-what-if');
      await frame().locator('#group-whatif-undo').click();
      await frame().locator('#group-whatif-moved-partitions[data-count="0"]').waitFor();
      await frame().locator('#group-whatif-redo').click();
      await frame().locator(`#group-whatif-moved-partitions[data-count="${moved.length}"]`).waitFor();
      if ((await frame().locator('#group-whatif-member[data-e2e-kept="yes"]').count()) !== 1) throw new Error('a group step made the group what-if editor again');
      // A refused member id is said, and stays typed for the user to mend.
      await frame().locator('#group-whatif-member').fill('-m9');
      await frame().locator('#group-whatif-add').click();
      await frame().locator('p.error', { hasText: 'Give the new member an id' }).waitFor();
      if ((await frame().locator('#group-whatif-member').inputValue()) !== '-m9') throw new Error('a refused member id was not kept in its field');
      await frame().locator('#group-whatif-member').fill('');
    } finally {
      writeFileSync(settingsFile, original);
    }
    // The panel follows the restored settings: their own group's members, or no group at all.
    await view('partitions').click();
    const restored = JSON.parse(original)['keyRouting.kafkaGroups']?.find((g) => g.topics.includes('orders'));
    if (restored) await frame().locator('.members-table tbody tr').nth(restored.members.length - 1).locator(`xpath=self::*[@data-member="${restored.members.at(-1).id}"]`).waitFor();
    else await frame().locator('.members-table').waitFor({ state: 'detached' });
    await wb.until(async () => (await frame().locator('#members-table tbody tr').count()) === (restored?.members.length ?? 0), 'the restored group in the members table');
  });

  await scenario('panel: a sticky group\'s what-if says how many partitions Apply gives another member, and after Apply the panel shows just those changed', async () => {
    await openWithKey();
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    edited['keyRouting.kafkaGroups'] = [{ name: 'ledger', assignor: 'sticky', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }];
    await wb.writeSettings(JSON.stringify(edited, null, 2));
    try {
      await tab('orders').click();
      await view('whatif').click();
      // A group of its own name: the what-if of the workspace's billing group may have steps.
      await frame().locator('.group-whatif h3', { hasText: 'group ledger' }).waitFor();
      // The engine: m3 joins (the what-if), and the group Apply's settings give (formed again).
      const stepped = topology().group('ledger').clone();
      if (!stepped.apply({ kind: 'plus', id: 'm3' }).ok) throw new Error('the engine refuses +m3');
      const formed = stepped.formedAgain();
      const n = topology().topic('orders').partitions;
      const differ = [];
      for (let p = 0; p < n; p++) if (stepped.ownerOf('orders', p) !== formed.ownerOf('orders', p)) differ.push(p);
      if (differ.length === 0) throw new Error('the engine forms the same owners again: the scenario would prove nothing');
      await frame().locator('#group-whatif-member').fill('m3');
      await frame().locator('#group-whatif-add').click();
      const warning = frame().locator(`p.warning#group-whatif-apply-differs[data-count="${differ.length}"]`);
      await warning.waitFor().catch(async () => {
        throw new Error(`the panel says ${await frame().locator('#group-whatif-apply-differs').getAttribute('data-count')} partitions differ after Apply, the engine ${differ.length}`);
      });
      if (!(await warning.textContent()).includes(`gives ${differ.length} partitions another member`)) throw new Error(`the warning reads: ${await warning.textContent()}`);
      await shot('group-apply-differs');
      // Undone, nothing to apply and nothing to warn of.
      await frame().locator('#group-whatif-undo').click();
      await frame().locator('span#group-whatif-apply-differs[data-count="0"]').waitFor({ state: 'attached' });
      await frame().locator('#group-whatif-redo').click();
      await warning.waitFor();
      await frame().locator('#group-whatif-apply').click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      await dialog.locator('.monaco-button', { hasText: 'Apply' }).click();
      await frame().locator('#group-whatif-apply-status', { hasText: 'Applied' }).waitFor();
      // The panel now draws the group from the settings: the owners formed again, which differ
      // from the what-if's on exactly the partitions the warning counted.
      await view('partitions').click();
      await frame().locator('.members-table tr[data-member="m3"]').waitFor();
      const shown = await wb.until(async () => {
        const cells = await frame().locator('[data-chart="partitions"] rect.cell').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-partition')), el.getAttribute('data-member')]));
        const owners = [];
        for (const [p, m] of cells) owners[p] = m;
        return owners.length === n && owners.every((m, p) => m === formed.ownerOf('orders', p)) && owners;
      }, 'the partitions view to show the owners the group forms from its members');
      const changed = shown.flatMap((m, p) => (m !== stepped.ownerOf('orders', p) ? [p] : []));
      if (changed.join() !== differ.join()) throw new Error(`after Apply partitions ${changed} have another member than the what-if showed; the warning counted ${differ}`);
    } finally {
      writeFileSync(settingsFile, original);
    }
    await view('partitions').click();
    await ordersGroupRestored(original);
  });

  await scenario('panel: a range group of 2,147,483,647 partitions: a step gives the share that moves, counted from the shares, and no count of none', async () => {
    await openWithKey();
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    edited['keyRouting.kafkaGroups'] = [{ name: 'huge', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }];
    edited['keyRouting.topics'].find((t) => t.name === 'orders').partitions = 2147483647;
    await wb.writeSettings(JSON.stringify(edited, null, 2));
    try {
      await tab('orders').click();
      await view('partitions').click();
      // The edited settings are in the panel once the group's two members are listed.
      await frame().locator('.members-table tr[data-member="m2"]').waitFor();
      await wb.until(async () => (await frame().locator('.members-table tbody tr').count()) === 2, 'the huge group (m1, m2) in the panel');
      // The engine's count for m3 joining, on a copy of the group (range: 1,073,741,823 partitions).
      const group = topology().group('huge').clone();
      const step = group.apply({ kind: 'plus', id: 'm3' });
      if (!step.ok || step.value.moved !== 1073741823) throw new Error(`the engine: ${JSON.stringify(step.ok ? step.value.moved : step.error)}`);
      const share = `${((step.value.moved / 2147483647) * 100).toFixed(2)} %`;
      await view('whatif').click();
      await frame().locator('#group-whatif-member').fill('m3');
      await frame().locator('#group-whatif-add').click();
      await frame().locator('#group-whatif-steps li', { hasText: `+m3 — partitions that change member: ${share}` }).waitFor();
      await frame().locator('#group-whatif-rebalance', { hasText: '1073741823 partitions of 2147483647 changed owner;' }).waitFor();
      // Too many to list: no "0 of 2,147,483,647 partitions change member".
      if ((await frame().locator('#group-whatif-moved-partitions').count()) !== 0) throw new Error(`the panel counts ${await frame().locator('#group-whatif-moved-partitions').textContent()}`);
    } finally {
      writeFileSync(settingsFile, original);
    }
    // The panel follows the restored settings before the next scenario: their group's members, or none.
    await view('partitions').click();
    await ordersGroupRestored(original);
  });

  await scenario('panel: past 20 topics a list takes the place of the topic tabs, and choosing one shows its view of the key', async () => {
    await openWithKey();
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    const many = Array.from({ length: 21 - edited['keyRouting.topics'].length }, (_, i) => ({ name: `many-${i}`, system: 'kafka', partitions: 7 + i }));
    edited['keyRouting.topics'].push(...many);
    await wb.writeSettings(JSON.stringify(edited, null, 2));
    try {
      const pick = frame().locator('select.topic-select');
      await wb.until(async () => (await pick.locator('option').count()) === 21, 'a list of the 21 topics');
      if ((await frame().locator('.topic-tabs [role="tab"]').count()) !== 0) throw new Error('topic tabs as well as the list');
      const topic = many.at(-1).name;
      await pick.selectOption(topic);
      // Its partitions view, with the key in the partition the engine gives on that many partitions.
      const p = route(topic, KEY).partition;
      await frame().locator(`[data-chart="partitions"] .partition-marker[data-n="1"][data-partition="${p}"]`).waitFor();
      if ((await pick.inputValue()) !== topic) throw new Error(`the list shows ${await pick.inputValue()} after drawing ${topic}`);
      await frame().getByText(`${many.at(-1).partitions} partitions.`, { exact: false }).first().waitFor();
    } finally {
      writeFileSync(settingsFile, original);
    }
    // Back to the workspace's own topics: tabs again.
    await tab('orders').waitFor();
  });

  await scenario('panel: a key pasted with a zero-width space shows it as an escape, and is marked where that key goes', async () => {
    await openWithKey();
    // It looks like user-1 when drawn as it is, and hashes elsewhere.
    const key = 'user-\u200b1';
    const shown = '"user-\\u200b1"';
    const r = route('orders', key);
    if (r.hash === route('orders', 'user-1').hash) throw new Error('the engine gives the key with a zero-width space the hash of user-1');
    await frame().locator('#key-input').fill(key);
    await frame().locator('#key-add').click();
    const item = frame().locator('.key-legend li.key-item', { has: frame().locator('span.key', { hasText: shown }) });
    await item.waitFor();
    const n = await item.getAttribute('data-n');
    await tab('orders').click();
    await frame().locator(`[data-chart="partitions"] .partition-marker[data-n="${n}"][data-partition="${r.partition}"]`).waitFor();
    const label = await frame().locator('[data-chart="partitions"] svg.partitions').getAttribute('aria-label');
    if (!label.includes(`key ${n} ${shown} in partition ${r.partition}`)) throw new Error(`the partitions' label reads ${label}`);
    const cell = await frame().locator(`.keys-table tr.key-row[data-n="${n}"] td.key`).textContent();
    if (cell !== shown) throw new Error(`the keys table shows the key as ${JSON.stringify(cell)}`);
    // Removed again: the scenarios after this one count the keys.
    await item.locator('button.icon').click();
    await item.waitFor({ state: 'detached' });
  });

  await scenario('panel: a topic with the broker\'s report shows "observed at", the comparison with the configured order, and a draining key', async () => {
    await openWithKey();
    const T = 'persistent://public/default/observed-panel';
    const AT = '2026-12-01T10:00:00Z';
    const original = readFileSync(settingsFile, 'utf8');
    const e = engine();
    // The configured order's layout, from the engine; the report swaps the two halves, and the
    // consumer that the report does not give the key's hash still drains it.
    const base = { name: T, system: 'pulsar', partitions: 0, brokerVersion: '4.0', subscription: { name: 'sub', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: [{ name: 'A' }, { name: 'B' }] } };
    const plain = new e.Topology(e.parseSettings({ 'keyRouting.topics': [base] }).settings, []).topic(T);
    const segs = plain.subscription.selector.segments();
    // The segments end at the top 4.x key hash (65535); the broker reports ranges up to 65536.
    const rangesOf = (id) => segs.filter((s) => s.consumers[0].id === id).map((s) => [s.start, s.end === 65535 ? 65536 : s.end]);
    const hash = plain.route(e.stringKey(KEY)).stickyKeyHash;
    const drainer = plain.route(e.stringKey(KEY)).consumer;
    // And 59 more, more than a page of the draining table.
    const more = Array.from({ length: 60 }, (_, i) => 1 + ((i + 1) * 1103) % 65535).filter((h) => h !== hash).slice(0, 59);
    const draining = { drainingHashes: [{ hash, unackMsgs: 3, blockedAttempts: 1 }, ...more.map((h, i) => ({ hash: h, unackMsgs: i, blockedAttempts: 0 }))] };
    const consumers = [
      { name: 'A', ranges: rangesOf('B'), ...(drainer === 'A' ? draining : {}) },
      { name: 'B', ranges: rangesOf('A'), ...(drainer === 'B' ? draining : {}) },
    ];
    const edited = JSON.parse(original);
    edited['keyRouting.topics'].push({ ...base, subscription: { ...base.subscription, observed: { at: AT, consumers } } });
    writeFileSync(settingsFile, JSON.stringify(edited, null, 2));
    try {
      await tab(T).waitFor();
      await tab(T).click();
      await view('ranges').click();
      const badge = frame().locator('.observed-badge');
      await badge.waitFor();
      const v = e.observedView(topology(), T);
      if (!v || v.system !== 'pulsar') throw new Error('the engine has no observed view of the topic: the scenario would prove nothing');
      if ((await badge.getAttribute('data-observed')) !== v.at || v.at !== AT) throw new Error(`the badge says ${await badge.getAttribute('data-observed')}, the engine ${v.at}, the report ${AT}`);
      const g = v.groups[0];
      if (g.predicted.equal) throw new Error('the engine finds the swapped report equal to the prediction: the scenario would prove nothing');
      const cmp = frame().locator('#observed-predicted-0');
      const got = [await cmp.getAttribute('data-equal'), await cmp.getAttribute('data-size'), await cmp.getAttribute('data-runs')];
      const want = [String(g.predicted.equal), String(g.predicted.size), String(g.predicted.differences.length)];
      if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`the comparison says ${got}, the engine ${want}`);
      for (const d of g.predicted.differences) {
        const row = frame().locator(`#observed-diff-0 tr[data-start="${d.start}"][data-end="${d.end}"]`);
        const cells = await row.locator('td').allTextContents();
        if (cells[1] !== d.reported.join(' + ') || cells[2] !== d.other.join(' + ')) throw new Error(`run ${d.start}-${d.end}: the panel says ${cells}, the engine ${d.reported} / ${d.other}`);
      }
      const r = topology().topic(T).route(e.stringKey(KEY));
      if (!r.draining) throw new Error('the engine marks no draining hash: the scenario would prove nothing');
      const cell = frame().locator('.keys-table tr.key-row', { hasText: KEY }).first().locator('td.consumer');
      await cell.waitFor();
      if (!(await cell.textContent()).startsWith(r.consumer)) throw new Error(`${KEY}: the panel says ${await cell.textContent()}, the engine ${r.consumer}`);
      if ((await cell.getAttribute('data-draining')) !== r.draining.consumer) throw new Error(`${KEY}: draining at ${await cell.getAttribute('data-draining')}, the engine ${r.draining.consumer}`);
      // Every draining hash in the table, a page of 50 rows at a time, and marked on the bar.
      if (g.draining.length <= 50) throw new Error(`the engine lists ${g.draining.length} draining hashes, not more than a page: the scenario would prove nothing about paging`);
      const pages = await readPages(frame().locator('#observed-draining-0'), g.draining.length, (trs) =>
        trs.map((tr) => [Number(tr.dataset.hash), tr.dataset.consumer, ...[...tr.querySelectorAll('td')].slice(2).map((td) => td.textContent)]),
      );
      const shown = pages.flat();
      const listed = g.draining.map((d) => [d.hash, d.consumer, String(d.unackMsgs), String(d.blockedAttempts)]);
      if (JSON.stringify(shown) !== JSON.stringify(listed)) throw new Error(`the draining table shows ${JSON.stringify(shown)}, the engine ${JSON.stringify(listed)}`);
      for (const d of g.draining) await frame().locator(`[data-chart="ranges"] .draining-mark[data-hash="${d.hash}"][data-consumer="${d.consumer}"]`).waitFor();
      await shot('observed');
    } finally {
      writeFileSync(settingsFile, original);
    }
    await tab(T).waitFor({ state: 'detached' });
  });

  await scenario('panel: a consistent-hashing subscription with the broker\'s report opens on the reported ranges, not a ring it cannot draw', async () => {
    await openWithKey();
    const T = 'persistent://public/default/observed-ring';
    const original = readFileSync(settingsFile, 'utf8');
    const e = engine();
    // What `import pulsar-stats` writes for a 4.x ring: consistentHashing true and the ranges the
    // broker reported (here the configured ring's own), which carry no ring points.
    const base = { name: T, system: 'pulsar', partitions: 0, brokerVersion: '4.0', subscription: { name: 'sub', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, consumers: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] } };
    const segs = new e.Topology(e.parseSettings({ 'keyRouting.topics': [base] }).settings, []).topic(T).subscription.selector.segments();
    const consumers = base.subscription.consumers.map(({ name }) => ({ name, ranges: segs.filter((s) => s.consumers[0].id === name).map((s) => [s.start, s.end]) }));
    const edited = JSON.parse(original);
    edited['keyRouting.topics'].push({ ...base, subscription: { ...base.subscription, observed: { at: '2026-12-01T10:00:00Z', consumers } } });
    writeFileSync(settingsFile, JSON.stringify(edited, null, 2));
    try {
      await tab(T).waitFor();
      await tab(T).click();
      await frame().locator('[data-chart="ranges"]').waitFor();
      await frame().locator('.observed-badge').waitFor();
      if ((await view('ranges').getAttribute('aria-selected')) !== 'true') throw new Error('the panel did not open the topic on its hash ranges');
      if ((await view('ring').count()) !== 0) throw new Error('the panel offers a Ring view of a report that has no ring points');
      const failed = await frame().locator('p.error').allTextContents();
      if (failed.length) throw new Error(`the panel says: ${failed.join(' / ')}`);
      const r = topology().topic(T).route(e.stringKey(KEY));
      if (!r.observed) throw new Error('the engine does not route the key from the report: the scenario would prove nothing');
      const cell = frame().locator('.keys-table tr.key-row', { hasText: KEY }).first().locator('td.consumer');
      await cell.waitFor();
      if (!(await cell.textContent()).startsWith(r.consumer)) throw new Error(`${KEY}: the panel says ${await cell.textContent()}, the engine ${r.consumer}`);
    } finally {
      writeFileSync(settingsFile, original);
    }
    await tab(T).waitFor({ state: 'detached' });
  });

  await scenario('panel: a consumer group with the broker\'s owners shows them on the Kafka partitions view', async () => {
    await openWithKey();
    const AT = '2026-12-01T11:00:00Z';
    const original = readFileSync(settingsFile, 'utf8');
    const edited = JSON.parse(original);
    const n = edited['keyRouting.topics'].find((t) => t.name === 'orders').partitions;
    // Owners the range assignor would not give (m2 first), and the last partition unowned.
    const owners = Array.from({ length: n }, (_, p) => (p === n - 1 ? null : p < n / 2 ? 'm2' : 'm1'));
    // And a topic whose owners alternate, as kafka-consumer-groups prints a roundrobin group's: a
    // run of one partition each, more than a page of them.
    const DEALT = 'dealt';
    const dealt = Array.from({ length: 120 }, (_, p) => (p % 2 ? 'm1' : 'm2'));
    edited['keyRouting.topics'].push({ name: DEALT, system: 'kafka', partitions: dealt.length });
    edited['keyRouting.kafkaGroups'] = [
      { name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }], observed: { at: AT, owners: { orders: owners } } },
      { name: 'dealer', assignor: 'roundrobin', topics: [DEALT], members: [{ id: 'm1' }, { id: 'm2' }], observed: { at: AT, owners: { [DEALT]: dealt } } },
    ];
    writeFileSync(settingsFile, JSON.stringify(edited, null, 2));
    try {
      await tab('orders').click();
      await view('partitions').click();
      const table = frame().locator('[data-group="billing"] #observed-owners');
      await table.waitFor();
      const v = engine().observedView(topology(), 'orders');
      if (!v || v.system !== 'kafka' || v.groups[0].at !== AT) throw new Error(`the engine's observed view of orders is ${JSON.stringify(v)}`);
      const badge = frame().locator('.observed .observed-badge');
      if ((await badge.getAttribute('data-observed')) !== AT) throw new Error(`the badge says ${await badge.getAttribute('data-observed')}, the report ${AT}`);
      const shown = [];
      for (const row of await table.locator('tbody tr').all()) {
        const [first, last, owner] = [Number(await row.getAttribute('data-first')), Number(await row.getAttribute('data-last')), await row.getAttribute('data-owner')];
        for (let p = first; p <= last; p++) shown[p] = owner === '' ? null : owner;
      }
      if (JSON.stringify(shown) !== JSON.stringify(v.groups[0].owners)) throw new Error(`the panel shows owners ${JSON.stringify(shown)}, the engine ${JSON.stringify(v.groups[0].owners)}`);
      // Each member's cells in its colour (over the plain and the key-hit fills), the two members
      // apart, and the unowned cell not in a member's colour.
      await checkPalette('the group-coloured partitions', ['cell']);
      const cells = await frame()
        .locator('[data-chart="partitions"] rect.cell')
        .evaluateAll((els) => els.map((el) => ({ partition: el.getAttribute('data-partition'), member: el.getAttribute('data-member'), fill: getComputedStyle(el).fill })));
      const owned = cells.filter((c) => c.member);
      const fillOf = new Map(owned.map((c) => [c.member, c.fill]));
      if (owned.length !== n - 1 || fillOf.size !== 2 || owned.some((c) => c.fill !== fillOf.get(c.member)) || fillOf.get('m1') === fillOf.get('m2')) {
        throw new Error(`the members' cells are not each in one colour of their own: ${JSON.stringify(cells)}`);
      }
      const unowned = cells.find((c) => c.partition === String(n - 1));
      if (!unowned || [...fillOf.values()].includes(unowned.fill)) throw new Error(`the unowned partition is filled as a member's: ${JSON.stringify(cells)}`);
      // 120 runs of one partition: a page of 50 rows at a time, every run reachable with Next.
      await tab(DEALT).click();
      await view('partitions').click();
      const paged = frame().locator('[data-group="dealer"] #observed-owners');
      await paged.waitFor();
      const want = engine().observedView(topology(), DEALT)?.groups[0]?.owners;
      if (JSON.stringify(want) !== JSON.stringify(dealt)) throw new Error(`the engine's observed owners of ${DEALT} are ${JSON.stringify(want)}`);
      const pages = await readPages(paged, dealt.length, (trs) => trs.map((tr) => [Number(tr.dataset.first), Number(tr.dataset.last), tr.dataset.owner]));
      if (pages.map((p) => p.length).join() !== '50,50,20') throw new Error(`the owners' table shows pages of ${pages.map((p) => p.length)} rows, not 50, 50 and 20`);
      const runs = pages.flat();
      if (runs.some(([first, last, owner], i) => first !== i || last !== i || owner !== dealt[i])) throw new Error(`the paged owners differ from the report: ${JSON.stringify(runs)}`);
      // Growing orders makes billing's report stale (it lists n partitions): Apply writes the count
      // and billing without its report, and leaves dealer's (another topic) as it was.
      await tab('orders').click();
      await view('whatif').click();
      await frame().locator('#whatif-partitions').fill(String(n + 2));
      await frame().locator('#whatif-set-partitions').click();
      await frame().locator('#whatif-steps li', { hasText: `partitions=${n + 2}` }).waitFor();
      const before = readFileSync(settingsFile, 'utf8');
      await frame().locator('#whatif-apply').click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      const detail = await dialog.innerText();
      if (!detail.includes('no longer describes group billing')) throw new Error(`the confirmation does not say billing's report goes: ${detail}`);
      await dialog.locator('.monaco-button', { hasText: 'Apply' }).click();
      const written = await wb.until(() => {
        const text = readFileSync(settingsFile, 'utf8');
        try {
          const json = text !== before && JSON.parse(text);
          // VS Code writes one setting at a time: wait for both.
          return json && json['keyRouting.topics'].find((t) => t.name === 'orders').partitions === n + 2 && !json['keyRouting.kafkaGroups'][0].observed && json;
        } catch {
          return undefined; // mid-write
        }
      }, 'the settings file to hold the new count and billing without its report');
      const [billing, dealer] = written['keyRouting.kafkaGroups'];
      if (JSON.stringify(billing) !== JSON.stringify({ name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] })) throw new Error(`billing is written as ${JSON.stringify(billing)}`);
      if (JSON.stringify(dealer.observed?.owners?.[DEALT]) !== JSON.stringify(dealt)) throw new Error(`dealer's report changed: ${JSON.stringify(dealer)}`);
      // The panel follows the settings with no problem on the group: it computes billing's owners again.
      await frame().locator('#whatif-apply-status', { hasText: 'Applied' }).waitFor();
      await view('partitions').click();
      await frame().locator(`[data-chart="partitions"] rect.cell[data-partition="${n + 1}"][data-member]`).waitFor();
      if (await frame().locator('details.problems').count()) throw new Error(`the panel shows settings problems: ${await frame().locator('details.problems').innerText()}`);
    } finally {
      writeFileSync(settingsFile, original);
    }
    await frame().locator('#observed-owners').waitFor({ state: 'detached' });
  });

  await scenario('panel: screenshots in light, dark and high-contrast themes', async () => {
    await openWithKey();
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
    // "+" zooms in around the cursor: the axis now says how much of the space is shown, and the
    // chart keeps the focus and the cursor (the bar is drawn again in place, not the panel), so
    // "0" goes to it too.
    await page.keyboard.press('+');
    await frame().locator('.chart[data-chart="ranges"] .zoom-note').waitFor();
    if (!(await frame().locator('.chart[data-chart="ranges"]').evaluate((el) => el === document.activeElement))) throw new Error('zooming took the focus from the chart');
    await frame().locator('.chart[data-chart="ranges"] rect.cursor[visibility="visible"]').waitFor();
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

  await scenario('panel: clicking a small ring zooms its strip, and the ring and the strip are drawn again in place', async () => {
    await tab(SHIPMENTS).click();
    await view('ring').click();
    const ring = frame().locator('svg.ring');
    const strip = frame().locator('.chart[data-chart="detail"]');
    await strip.locator('svg.bar').waitFor();
    // Marks on the elements: a zoom that drew the panel again would drop them.
    await ring.evaluate((el) => el.setAttribute('data-test-mark', 'ring'));
    await strip.evaluate((el) => el.setAttribute('data-test-mark', 'strip'));
    if ((await ring.locator('.zoom-wedge').getAttribute('d')) !== '') throw new Error('the full ring shows a zoom wedge');
    await ring.scrollIntoViewIfNeeded();
    const box = await ring.boundingBox();
    // The band at 3 o'clock (the ring's outer radius is size/2 - 34, the band 16 px inside it).
    await page.mouse.click(box.x + box.width - 42, box.y + box.height / 2);
    await strip.locator('.zoom-note').waitFor();
    const space = topology().topic(SHIPMENTS).subscription.selector.segments();
    const size = space[space.length - 1].end - space[0].start + 1;
    const from = Number(await strip.locator('.axis text').first().textContent());
    const to = Number(await strip.locator('.axis text').nth(1).textContent());
    // The click at a quarter of the ring: the strip shows a 32nd of the space around that hash.
    if (!(from <= size / 4 && to >= size / 4 && to - from + 1 <= Math.ceil(size / 32))) throw new Error(`the strip shows ${from}-${to} after a click at a quarter of ${size}`);
    if (!(await ring.locator('.zoom-wedge').getAttribute('d'))) throw new Error('the zoomed ring shows no wedge');
    if ((await ring.getAttribute('data-test-mark')) !== 'ring' || (await strip.getAttribute('data-test-mark')) !== 'strip') throw new Error('the zoom drew the panel again');
    await strip.focus();
    await page.keyboard.press('0');
    await strip.locator('.zoom-note').waitFor({ state: 'detached' });
    if ((await ring.locator('.zoom-wedge').getAttribute('d')) !== '') throw new Error('"0" left a wedge on the ring');
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

  await scenario('panel: a dense ring is drawn on a canvas, and zooming the strip moves the ring\'s wedge to the strip\'s window', async () => {
    await openWithKey();
    const before = readFileSync(settingsFile, 'utf8');
    const settings = JSON.parse(before);
    // 40 consumers x 100 points: more points than the panel draws as SVG elements.
    const consumers = Array.from({ length: 40 }, (_, i) => ({ name: `ring-${i + 1}` }));
    settings['keyRouting.topics'] = [
      ...settings['keyRouting.topics'],
      { name: DENSE, system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: { name: 'dense-sub', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers } },
    ];
    try {
      await wb.writeSettings(JSON.stringify(settings, null, 2));
      await tab(DENSE).click();
      await view('ring').click();
      const ringCanvas = frame().locator('.ring-canvas-box canvas');
      await ringCanvas.waitFor();
      await frame().locator('.chart[data-chart="detail"] canvas').waitFor();
      const f = await wb.webviewFrame();
      // The band is painted all the way round (every point has a consumer), on the canvas itself.
      const unpainted = await f.evaluate(() => {
        const canvas = document.querySelector('.ring-canvas-box canvas');
        const ctx = canvas.getContext('2d');
        const size = canvas.width / (window.devicePixelRatio || 1);
        const c = size / 2;
        const r = c - 42; // the middle of the band (ringCanvas.ts: outer radius c - 34, 16 px wide)
        const out = [];
        for (let i = 0; i < 72; i++) {
          const a = (i / 72) * 2 * Math.PI;
          const x = Math.round((c + r * Math.sin(a)) * (window.devicePixelRatio || 1));
          const y = Math.round((c - r * Math.cos(a)) * (window.devicePixelRatio || 1));
          if (ctx.getImageData(x, y, 1, 1).data[3] === 0) out.push(i * 5);
        }
        return out;
      });
      if (unpainted.length) throw new Error(`the ring's band is not painted at ${unpainted.join(', ')} degrees`);
      const wedge = frame().locator('.ring-overlay .ring-wedge');
      if ((await wedge.getAttribute('d')) !== '') throw new Error('the full ring shows a zoom wedge');
      // "+" on the strip zooms it; the wedge then spans the strip's window, clockwise from the top.
      await frame().locator('.chart[data-chart="detail"]').focus();
      await page.keyboard.press('+');
      await frame().locator('.chart[data-chart="detail"] .zoom-note', { hasText: /\S/ }).waitFor();
      const from = Number(await frame().locator('.chart[data-chart="detail"] .axis-from').textContent());
      const to = Number(await frame().locator('.chart[data-chart="detail"] .axis-to').textContent());
      const segs = topology().topic(DENSE).subscription.selector.segments();
      const lo = segs[0].start;
      const span = segs[segs.length - 1].end - lo + 1;
      if (!(to - from + 1 < span)) throw new Error(`the strip shows ${from}-${to} after "+"`);
      const d = await wedge.getAttribute('d');
      const nums = (d ?? '').match(/-?[\d.]+/g)?.map(Number) ?? [];
      const size = await f.evaluate(() => document.querySelector('.ring-overlay').viewBox.baseVal.width);
      const angleAt = (x, y) => {
        const a = Math.atan2(x - size / 2, size / 2 - y);
        return a < 0 ? a + 2 * Math.PI : a;
      };
      // M x y (the window's start, outer edge) ... L x y (its end, inner edge).
      const start = angleAt(nums[0], nums[1]);
      const lAt = d.indexOf('L');
      const [ex, ey] = d.slice(lAt + 1).match(/-?[\d.]+/g).map(Number);
      const end = angleAt(ex, ey);
      const want = (v) => ((v - lo) / span) * 2 * Math.PI;
      if (Math.abs(start - want(from)) > 0.01 || Math.abs(end - want(to + 1)) > 0.01) {
        throw new Error(`the wedge runs ${start.toFixed(3)}-${end.toFixed(3)} rad, the strip's window ${from}-${to} is ${want(from).toFixed(3)}-${want(to + 1).toFixed(3)}`);
      }
      await shot('dense-ring-zoomed');
      await frame().locator('.chart[data-chart="detail"]').focus();
      await page.keyboard.press('0');
      await frame().locator('.ring-overlay .ring-wedge[d=""]').waitFor({ state: 'attached' });

      // What-if steps draw the before and after bars on the canvases the last step drew them on
      // (a new canvas a step cost more than its drawing at production scale), with each step's model.
      await view('whatif').click();
      const canvasOf = (side) => frame().locator(`.chart[data-chart="${side}"] canvas`);
      await canvasOf('after').waitFor();
      for (const side of ['before', 'after']) await canvasOf(side).evaluate((el, s) => el.setAttribute('data-test-mark', s), side);
      const e = engine();
      const events = ['+ring-41', '+ring-42'];
      const whatIfTopic = topology().topic(DENSE);
      const expected = [];
      for (const x of events) {
        const [step] = e.runWhatIf(whatIfTopic, [e.parseEvent(x)], []).steps;
        // The owner sets the after bar names: each list of consumers that owns some of the ring.
        const owners = new Set(whatIfTopic.subscription.selector.segments().filter((s) => s.consumers.length).map((s) => s.consumers.map((c) => c.id).join(',')));
        expected.push({ movedFraction: step.movedFraction, owners: owners.size });
      }
      for (let i = 0; i < events.length; i++) {
        await frame().locator('#whatif-name').fill(events[i].slice(1));
        await frame().locator('#whatif-add').click();
        const step = frame().locator('#whatif-steps li:not(.undone)', { hasText: events[i] });
        await step.waitFor();
        const fraction = Number(await step.getAttribute('data-fraction'));
        if (fraction !== expected[i].movedFraction) throw new Error(`${events[i]}: the step moved ${fraction}, the engine ${expected[i].movedFraction}`);
        const after = await canvasOf('after').evaluate((el) => {
          const { width, height } = el;
          const data = el.getContext('2d').getImageData(0, 0, width, height).data;
          let painted = 0;
          for (let p = 3; p < data.length; p += 4) if (data[p] > 0) painted++;
          return { mark: el.getAttribute('data-test-mark'), label: el.getAttribute('aria-label'), painted: painted / (width * height) };
        });
        const beforeMark = await canvasOf('before').getAttribute('data-test-mark');
        if (after.mark !== 'after' || beforeMark !== 'before') throw new Error(`${events[i]}: a bar got a new canvas (marks ${beforeMark}, ${after.mark})`);
        if (!after.label.includes(`: ${expected[i].owners} owners`)) throw new Error(`${events[i]}: the after bar reads "${after.label}", the engine's ring has ${expected[i].owners} owner sets`);
        if (!(after.painted > 0.2)) throw new Error(`${events[i]}: the after bar is ${(after.painted * 100).toFixed(1)}% painted`);
      }
      await shot('dense-ring-what-if');
    } finally {
      await wb.writeSettings(before);
    }
  });
}

/**
 * A paged table's rows, a page of 50 at a time (Next between pages), for `rowCount` rows in all:
 * each page waits until its first row is row 50 x page + 1 of the whole (aria-rowindex counts the
 * header), then `read` (run in the page) turns its rows into values.
 */
async function readPages(table, rowCount, read) {
  const pages = [];
  for (let page = 0; page * 50 < rowCount; page++) {
    if (page > 0) await table.locator('xpath=..').getByRole('button', { name: 'next 50 rows' }).click();
    const rows = table.locator('tbody tr');
    await rows.first().and(table.locator(`tbody tr[aria-rowindex="${page * 50 + 2}"]`)).waitFor();
    pages.push(await rows.evaluateAll(read));
  }
  return pages;
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
