// UI scenarios of the Key Routing side bar and the walkthrough, as a user meets them: the tree of
// the workspace's topology (its numbers worked out here by the engine on the settings file, a
// consumer's share by counting what the selector selects over every key value), an inline action,
// a row's context menu, the editor menu entries that show only where Key Routing is configured,
// the welcome view, and the walkthrough's sample settings step with its modal confirmation.
// Run in the `ui` suite, on the linked tree or an installed .vsix (test/e2e/run-vsix.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertContains, engine, memberLeaves, readSettings, route, topology } from './engine.mjs';
import { root } from './codeServer.mjs';

const PAYMENTS = 'persistent://public/default/payments';

/** Throws unless `shown` (`25.0%`) is `values / total` to the digits it shows. */
function assertShare(shown, values, total, what) {
  const m = /^(\d+(?:\.(\d+))?)%$/.exec(shown);
  const exact = (100 * values) / total;
  if (!m || Math.abs(Number(m[1]) - exact) > 0.5 * 10 ** -(m[2]?.length ?? 0)) throw new Error(`${what}: the side bar shows ${shown}; the selector gives ${values} of ${total} (${exact}%)`);
}

/** What the selector selects for each consumer over every key value: counts and first/last value. */
function selectCounts(state) {
  const sel = state.subscription.selector;
  const [lo, hi] = sel.keyValues;
  const out = new Map();
  for (let v = lo; v <= hi; v++) {
    const id = sel.select(v)?.id ?? '';
    const o = out.get(id) ?? { count: 0, first: v, last: v, runs: 0 };
    if (o.count === 0 || o.last !== v - 1) o.runs++;
    o.count++;
    o.last = v;
    out.set(id, o);
  }
  // As the broker reports a range: a 4.x run from the lowest key value (1) starts at slot 0.
  const reported = (o) => `[${o.first === lo ? sel.keyHashRange[0] : o.first}-${o.last}]`;
  return { total: hi - lo + 1, of: (id) => out.get(id), reported };
}

export default async function sidebarScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const settingsFile = join(workspace, '.vscode/settings.json');
  const sidebar = page.locator('.part.sidebar');
  const row = (label) => wb.sideBarRow(label);
  const description = async (label) => (await row(label).locator('.label-description').innerText()).trim();
  const menuItems = async () => (await page.locator('.context-view .monaco-menu .action-item').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  // Earlier scenarios of the suite may have left the settings changed or broken: start from the
  // examples', read by the extension before the side bar first shows. (Shown while a settings
  // change was being refreshed, VS Code 1.100's tree once attached children to the wrong rows
  // (the topic row listed another subscription's consumers) and kept them: its batched child
  // fetches race a refresh of the view's first render; later VS Code versions tag each fetch.)
  await wb.writeSettings(readFileSync(join(root, 'examples/.vscode/settings.json'), 'utf8'));
  const sideBarScenario = (name, fn) =>
    scenario(name, async () => {
      await wb.clearNotifications();
      try {
        await fn();
      } finally {
        // A panel left open by a failed scenario would be the webview the next one reads.
        if (await wb.webviewElement().count()) await wb.palette('View: Close All Editors');
      }
    });

  const panel = () => wb.webview();
  const panelTab = (topic) => panel().locator(`.topic-tabs [role="tab"][data-topic="${topic}"]`);
  /** Waits until the routing panel shows `topic` in `view`. */
  const panelShows = async (topic, view = 'whatif') => {
    await panel().locator(`.topic-tabs [role="tab"][data-topic="${topic}"][aria-selected="true"]`).waitFor();
    await panel().locator(`.view-tabs [role="tab"][data-view="${view}"][aria-selected="true"]`).waitFor();
  };

  /** Opens the Key Routing side bar from its activity bar icon, as a user does (a second click would close it). */
  async function openSideBar() {
    const icon = wb.keyRoutingIcon();
    await icon.waitFor();
    if (!(await icon.getAttribute('class'))?.includes('checked')) await icon.click();
    await sidebar.locator('.composite.title', { hasText: /Key Routing/i }).first().waitFor();
  }

  await sideBarScenario('the Key Routing side bar shows the configured topology (topics, consumers, groups) with the engine\'s numbers', async () => {
    await openSideBar();
    await row('orders').waitFor({ timeout: 30_000 });
    const t = topology(workspace);
    const orders = t.topic('orders');
    if ((await description('orders')) !== `${orders.partitions} partitions · java`) throw new Error(`orders reads ${await description('orders')}`);
    const payments = t.topic(PAYMENTS);
    const { total, of, reported } = selectCounts(payments);
    for (const c of payments.subscription.consumers) {
      const s = of(c.id);
      const [share, where] = (await description(c.id)).split(' · ');
      assertShare(share, s.count, total, c.id);
      const want = s.runs === 1 ? reported(s) : `${s.runs} ranges`;
      if (where !== want) throw new Error(`${c.id}: the side bar shows ${where}; the selector gives ${want}`);
    }
    // The consumer groups: each member's partitions as the engine's assignor gives them.
    for (const g of t.groups) {
      const want = `${g.assignor} · ${g.members.size} members`;
      if ((await description(g.name)) !== want) throw new Error(`group ${g.name} reads ${await description(g.name)}, not ${want}`);
      const total = g.config.topics.reduce((n, x) => n + t.topic(x).partitions, 0);
      for (const id of g.members.keys()) {
        let k = 0;
        for (const x of g.config.topics) for (let p = 0; p < t.topic(x).partitions; p++) if (g.ownerOf(x, p) === id) k++;
        const [count, share] = (await description(id)).split(' · ');
        if (count !== `${k} partition${k === 1 ? '' : 's'}`) throw new Error(`${g.name} member ${id}: the side bar shows ${count}; the assignor gives ${k}`);
        assertShare(share, k, total, `${g.name} member ${id}`);
      }
    }
    if (t.groups.length === 0) throw new Error('the example settings have no consumer group to check');
    await wb.screenshot('sidebar');
  });

  await sideBarScenario('hovering a consumer row shows its tooltip (resolved on hover, not sent with the rows)', async () => {
    await openSideBar();
    const payments = topology(workspace).topic(PAYMENTS);
    const c = payments.subscription.consumers[1];
    const { total, of } = selectCounts(payments);
    const want = `Receives ${of(c.id).count.toLocaleString('en-US')} of the ${total.toLocaleString('en-US')} key hash values`;
    await row(c.id).hover();
    const hover = page.locator('.workbench-hover, .monaco-hover', { hasText: want }).first();
    await hover.waitFor({ timeout: 30_000 });
    await wb.screenshot('sidebar-tooltip');
    await page.mouse.move(5, 450);
  });

  await sideBarScenario('an inline action on a topic row routes a key on that topic', async () => {
    await row('payments').hover();
    await row('payments').locator('.actions .action-label[aria-label^="Route a Key on This Topic"]').click();
    await wb.input('user-1');
    const text = await wb.notification(/^user-1 →/);
    const r = route(workspace, PAYMENTS, 'user-1');
    assertContains(text, [`payments p${r.partition} → ${r.consumer} [${r.range[0]}-${r.range[1]}]`], 'the notification');
    if (text.includes('orders')) throw new Error(`the route of one topic names another: ${text}`);
    await wb.screenshot('sidebar-route-key');
  });

  await sideBarScenario('a consumer row\'s context menu: What If It Leaves', async () => {
    await wb.contextMenu(row('C2'), 'What If It Leaves');
    const text = await wb.notification(/if C2 leaves/);
    // The same what-if with the selector before and after, counted value by value.
    const state = topology(workspace).topic(PAYMENTS);
    const before = state.subscription.selector.clone();
    state.apply({ kind: 'disconnect', id: 'C2' });
    const after = state.subscription.selector;
    let moved = 0;
    for (let v = before.keyValues[0]; v <= before.keyValues[1]; v++) if (before.select(v)?.id !== after.select(v)?.id) moved++;
    const total = before.keyValues[1] - before.keyValues[0] + 1;
    const shown = /, ([\d.]+%) of the key hashes move/.exec(text);
    if (!shown) throw new Error(`the what-if reads ${JSON.stringify(text)}`);
    assertShare(shown[1], moved, total, 'the moved share');
    await wb.screenshot('sidebar-what-if');
    // Its Open Panel shows that what-if: payments' What-if view with the one step -C2, the same share.
    await wb.notificationButton(/if C2 leaves/, 'Open Panel');
    await panelShows(PAYMENTS);
    await panel().locator(`#whatif-steps li.step[data-fraction="${moved / total}"]`, { hasText: '-C2' }).waitFor();
    const steps = await panel().locator('#whatif-steps li').allInnerTexts();
    if (steps.length !== 1) throw new Error(`the panel's what-if has the steps ${JSON.stringify(steps)}, want -C2 alone`);
    await panel().locator(`#whatif-moved-share[data-fraction="${moved / total}"]`).waitFor();
  });

  await sideBarScenario('a group member\'s context menu: What If It Leaves, the partitions its group\'s rebalance moves', async () => {
    const t = topology(workspace);
    const g = t.groups[0];
    const [id] = g.members.keys();
    await wb.contextMenu(row(id), 'What If It Leaves');
    // A string matches as a substring (a member or group name may hold regular-expression characters).
    const text = await wb.notification(`if ${id} leaves group ${g.name},`);
    const { moved, total, gains } = memberLeaves(t, g, id);
    if (moved === 0) throw new Error(`nothing moves when ${id} leaves: the scenario would prove nothing`);
    assertContains(text, [`${moved.toLocaleString('en-US')} of its ${total.toLocaleString('en-US')} partitions change member: ${gains}.`], 'the notification');
    await wb.screenshot('sidebar-what-if-member');
    // Its Open Panel shows that rebalance on the group's first topic: the step -ID, and the
    // partitions of that topic whose member changes, as the engine has them.
    const topic = g.config.topics[0];
    const after = g.clone();
    after.apply({ kind: 'leave', id });
    const changed = Array.from({ length: t.topic(topic).partitions }, (_, p) => p).filter((p) => g.ownerOf(topic, p) !== after.ownerOf(topic, p));
    await wb.notificationButton(`if ${id} leaves group ${g.name},`, 'Open Panel');
    await panelShows(topic);
    await panel().locator('#group-whatif-steps li', { hasText: `-${id}` }).waitFor();
    const shownChanged = await panel().locator('#group-whatif-moved-partitions').getAttribute('data-partitions');
    if (shownChanged !== changed.join(',')) throw new Error(`the panel moves partitions ${shownChanged} of ${topic}, the engine ${changed.join(',')}`);
    // The group's what-if is below the topic's own: the panel scrolls to it, or the user sees the
    // topic's editor and not the what-if the toast counted.
    const top = await panel().locator('section.group-whatif').evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const height = await panel().locator('body').evaluate(() => window.innerHeight);
    if (top < 0 || top >= height / 2) throw new Error(`the group's what-if starts ${top} px down a panel ${height} px high: not in view`);
  });

  await sideBarScenario('the panel opened on a topic from the side bar stays on the topic chosen in it when the settings change', async () => {
    await wb.contextMenu(row('payments'), 'Open in Routing Panel');
    await panelShows(PAYMENTS, 'ranges');
    await panelTab('orders').click();
    await panelShows('orders', 'partitions');
    // A settings change sends the panel a new state: a topic more, whose tab shows that it came.
    const examples = readFileSync(join(root, 'examples/.vscode/settings.json'), 'utf8');
    const more = JSON.parse(examples);
    more['keyRouting.topics'].push({ name: 'orders-eu', system: 'kafka', partitions: 3 });
    await wb.writeSettings(JSON.stringify(more));
    try {
      await panelTab('orders-eu').waitFor();
      if ((await panelTab('orders').getAttribute('aria-selected')) !== 'true') {
        throw new Error(`after the settings change the panel shows ${await panel().locator('.topic-tabs [role="tab"][aria-selected="true"]').getAttribute('data-topic')}, not orders`);
      }
    } finally {
      await wb.writeSettings(examples);
    }
  });

  await sideBarScenario('What If It Leaves on a ring of 300 consumers: a toast with the five largest gains, the rest counted', async () => {
    const examples = readFileSync(join(root, 'examples/.vscode/settings.json'), 'utf8');
    // Names no other name plus a point index can spell (c-1 and c-10 would share points on a 3.x ring).
    const consumers = Array.from({ length: 300 }, (_, i) => ({ name: `pod-${i}-x` }));
    const sub = { name: 's', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers };
    await wb.writeSettings(JSON.stringify({ 'keyRouting.topics': [{ name: 'persistent://public/default/big', system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: sub }] }));
    try {
      // A subscription of more than 100 consumers starts collapsed: open it as a user does.
      await row('s').waitFor();
      await row('s').click();
      await page.keyboard.press('ArrowRight');
      await wb.contextMenu(row('pod-7-x'), 'What If It Leaves');
      // Every consumer that gains, from the engine: a hundred-odd names made a toast VS Code did not show.
      const e = engine();
      const [step] = e.runWhatIf(topology(workspace).topic('persistent://public/default/big').clone(), [{ kind: 'disconnect', id: 'pod-7-x' }], []).steps;
      const gainers = Object.keys(step.gained).length;
      if (gainers <= 5) throw new Error(`only ${gainers} consumers gain: the scenario would prove nothing`);
      const text = await wb.notification(/if pod-7-x leaves/);
      const named = text.match(/pod-\d+-x \+/g) ?? [];
      if (named.length !== 5 || !text.includes(`(and ${gainers - 5} more; see the Key Routing output)`)) throw new Error(`the toast reads ${JSON.stringify(text)} (${gainers} consumers gain)`);
      await wb.screenshot('sidebar-what-if-ring');
    } finally {
      await wb.clearNotifications();
      await wb.writeSettings(examples);
    }
  });

  await sideBarScenario('Show Route and Analyze Keys come after the Command Palette in the editor menu', async () => {
    await wb.openFile('keys.txt');
    await wb.editorLine('user-1').click({ button: 'right' });
    await page.locator('.context-view .monaco-menu .action-item', { hasText: /^Show Route$/ }).waitFor();
    const items = await menuItems();
    const at = (label) => items.findIndex((t) => t.startsWith(label));
    if (!(at('Paste') < at('Command Palette') && at('Command Palette') < at('Show Route') && at('Show Route') < at('Analyze Keys'))) {
      throw new Error(`the editor menu reads ${JSON.stringify(items)}`);
    }
    await wb.screenshot('editor-menu');
    await page.keyboard.press('Escape');
  });

  const original = readFileSync(settingsFile, 'utf8');
  await sideBarScenario('without Key Routing settings: the welcome view, and no Show Route in the editor menu', async () => {
    // Every keyRouting.* setting out (topics, namespaces, groups): then nothing is configured.
    const rest = Object.fromEntries(Object.entries(JSON.parse(original)).filter(([k]) => !k.startsWith('keyRouting.')));
    writeFileSync(settingsFile, JSON.stringify(rest, null, 2) + '\n');
    const welcome = sidebar.locator('.welcome-view-content', { hasText: 'No topics are configured' });
    await welcome.waitFor({ timeout: 30_000 });
    for (const b of ['Add Topic', 'Use Sample Settings']) await welcome.locator('.monaco-button', { hasText: b }).waitFor();
    await wb.screenshot('sidebar-welcome');
    await wb.editorLine('user-1').click({ button: 'right' });
    await page.locator('.context-view .monaco-menu .action-item', { hasText: /^Command Palette/ }).waitFor();
    if ((await menuItems()).some((t) => t === 'Show Route' || t === 'Analyze Keys')) throw new Error(`the editor menu offers Key Routing without settings: ${await menuItems()}`);
    await page.keyboard.press('Escape');
  });

  await sideBarScenario('the walkthrough opens from the welcome view; its sample settings step writes the example topology after the modal', async () => {
    await sidebar.locator('.welcome-view-content a', { hasText: 'Open the walkthrough' }).click();
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('.getting-started-category', { hasText: 'Get started with Key Routing' }).or(walkthrough.locator('h2', { hasText: 'Get started with Key Routing' })).first().waitFor({ timeout: 30_000 });
    const step = walkthrough.locator('.getting-started-step', { hasText: 'Add a topic' }).first();
    await step.click();
    const button = step.locator('.monaco-button', { hasText: 'Try It with Sample Settings' });
    await button.waitFor();
    await wb.screenshot('walkthrough');
    const dialog = page.locator('.monaco-dialog-box');
    // Cancel first: nothing is written.
    const before = readFileSync(settingsFile, 'utf8');
    await button.click();
    await dialog.waitFor();
    assertContains(await dialog.innerText(), ['Write the sample Key Routing topology', 'orders: Kafka, 6 partitions', 'public/default: 4 bundles', 'billing: range assignor, 3 members on orders'], 'the confirmation');
    await wb.screenshot('sample-settings-modal');
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('Cancel wrote the settings');
    // Then accept: exactly the example topology.
    const reads = wb.settingsReads();
    await button.click();
    await dialog.locator('.monaco-button', { hasText: 'Write Sample Settings' }).click();
    const example = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));
    await wb.until(() => {
      const s = readSettings(workspace);
      return ['keyRouting.topics', 'keyRouting.pulsarNamespaces', 'keyRouting.kafkaGroups'].every((k) => JSON.stringify(s[k]) === JSON.stringify(example[k]));
    }, 'the example topology (topics, namespaces and consumer group) in the settings file');
    // The step's completion event is a change of keyRouting.topics: it is checked off.
    await step.locator('.codicon.complete').waitFor();
    await wb.settingsRead(reads);
    await openSideBar();
    await row('orders').waitFor({ timeout: 30_000 });
    await wb.screenshot('walkthrough-done');
    writeFileSync(settingsFile, original);
  });

  await sideBarScenario('activation in the real extension host (Developer: Show Running Extensions)', async () => {
    await wb.palette('Developer: Show Running Extensions');
    // The list is ordered by activation time: where ours falls varies, and past the rows in view
    // it is not drawn.
    const entry = await wb.listRow('.runtime-extensions-editor', 'Key Routing Inspector');
    const text = (await entry.innerText()).replace(/\s+/g, ' ');
    const time = /(\d+)\s*ms/.exec(text);
    if (!time) throw new Error(`no activation time in ${JSON.stringify(text)}`);
    console.log(`      activation as the running extensions editor shows it: ${text}`);
    await wb.screenshot('running-extensions', { of: entry });
    await wb.palette('View: Close All Editors');
  });

  // Later scenarios find files in the explorer: leave it showing, as the window started.
  await wb.palette('View: Show Explorer');
  await page.locator('.explorer-folders-view').waitFor();
}
