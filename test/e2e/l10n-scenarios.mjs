// The extension in Simplified Chinese: a workbench started with --locale zh-cn (suites.mjs). The
// real Chinese language pack cannot be installed offline, so a stub pack (test/e2e/fixtures/)
// declares zh-cn without translating VS Code itself: VS Code's own menus stay English, while the
// display language is zh-cn and VS Code loads our package.nls.zh-cn.json and
// l10n/bundle.l10n.zh-cn.json exactly as it does with the real pack. Expected texts are read from
// those files; expected routes come from the engine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './codeServer.mjs';
import { assertContains, engine, memberLeaves, readSettings, routes, topology } from './engine.mjs';

const read = (f) => JSON.parse(readFileSync(join(root, f), 'utf8'));

export default async function l10nScenarios({ wb, scenario }) {
  const { page, workspace } = wb;
  const zh = read('l10n/bundle.l10n.zh-cn.json');
  const nls = read('package.nls.zh-cn.json');
  const category = nls.category;
  /** The translation of an English string, which the zh-cn bundle must have. */
  const zhOf = (en) => {
    if (!zh[en]) throw new Error(`the zh-cn bundle does not translate ${JSON.stringify(en)}`);
    return zh[en];
  };
  const routeKeyTitle = `${category}: ${nls['command.routeKey.title']}`;
  /** The column heads of the table in `box` (a locator), once it has them. */
  /**
   * A table's heads as shown. A paged or deferred table's box is content-visibility: auto
   * (media/panel.css): a table just made reads as empty text until a rendering step has found it
   * in sight (one frame is not always enough), so this waits for its first head to show text.
   */
  const headsOf = async (box) => {
    const heads = box.locator('thead th');
    await heads.first().scrollIntoViewIfNeeded();
    await heads.first().evaluate(
      (th) =>
        new Promise((shown) => {
          const check = () => (th.innerText.trim() !== '' ? shown() : requestAnimationFrame(check));
          check();
        }),
    );
    return heads.allInnerTexts();
  };

  await scenario('zh-cn: the command palette lists the commands with their Chinese titles', async () => {
    await wb.openFile('keys.txt');
    await wb.openQuickInput('F1', `>${routeKeyTitle}`);
    await wb.pickRow(routeKeyTitle).waitFor();
    await wb.screenshot('zh-cn-palette');
    await page.keyboard.press('Escape');
  });

  await scenario('zh-cn: the route notification speaks Chinese and routes as the engine does', async () => {
    await wb.clearNotifications();
    await wb.palette(routeKeyTitle);
    // The input box's prompt is ours, in Chinese.
    await page.locator('.quick-input-widget', { hasText: zh['The message key as the producer sets it (text, sent as UTF-8). Leading and trailing spaces count.'] }).waitFor();
    await wb.input('user-1');
    const text = await wb.notification(/^user-1 →/);
    const orders = routes(workspace, 'user-1')[0];
    assertContains(text, [`orders p${orders.partition}`], 'the notification');
    const toast = wb.toast(/^user-1 →/);
    for (const label of [zh['Open Panel'], zh['Show Output']]) await toast.locator('.monaco-button', { hasText: label }).first().waitFor();
    await wb.screenshot('zh-cn-notification');
    // The panel opens from the notification's Chinese button (in this scenario: a toast hides after a while).
    await wb.notificationButton(/^user-1 →/, zh['Open Panel']);
  });

  await scenario('zh-cn: the routing panel speaks Chinese (its strings come from the host, the CSP unchanged)', async () => {
    const frame = wb.webview();
    await frame.locator('.key-legend .key', { hasText: 'user-1' }).waitFor();
    const lang = await (await wb.webviewFrame()).evaluate(() => document.documentElement.lang);
    if (lang !== 'zh-cn') throw new Error(`the panel's page is in ${JSON.stringify(lang)}: vscode.env.language is not zh-cn`);
    await frame.locator('h1', { hasText: zh['Key Routing'] }).waitFor();
    await frame.locator('.keys h2', { hasText: zh.Keys }).waitFor();
    await frame.locator('#key-add', { hasText: zh['Add key'] }).waitFor();
    await frame.locator('.view-tabs [role="tab"]', { hasText: zh.Partitions }).first().waitFor();
    // The Partitions view's note: its words in Chinese around the count, the partitioner and its hash.
    const orders = topology(workspace).topic('orders');
    const note = zhOf("{0} partitions. A keyed message goes where the topic's partitioner puts it: {1}, from the {2} hash of the serialized key.");
    const parts = note.replace('{0}', String(orders.partitions)).split(/\{[12]\}/);
    // Under the group's note (the partitions coloured by member), which is also a view note.
    const notes = await frame.locator('p.view-note').allInnerTexts();
    assertContains(notes.find((n) => n.startsWith(parts[0])) ?? notes.join(' | '), parts, 'the Partitions view note');
    const csp = await (await wb.webviewFrame()).evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '');
    if (/unsafe-inline|unsafe-eval|connect-src/.test(csp) || !/default-src 'none'/.test(csp)) throw new Error(`the panel's CSP is ${csp}`);
    await wb.screenshot('zh-cn-panel');
    // payments' Namespace view: the namespace's bundles as the settings give them, and the table's heads.
    await frame.locator('.topic-tabs [role="tab"][data-topic="persistent://public/default/payments"]').click();
    await frame.locator('.view-tabs [role="tab"][data-view="namespace"]').click();
    await frame.locator('.ns-table').waitFor();
    const { bundles } = engine().parseSettings(readSettings(workspace)).settings.namespaces.find((n) => n.name === 'public/default');
    assertContains(await frame.locator('p.view-note').first().innerText(), [zhOf('Namespace {0}, bundles: {1}.').replace('{0}', 'public/default').replace('{1}', String(bundles))], 'the Namespace view note');
    const heads = await headsOf(frame.locator('.ns-table'));
    if (heads.join('|') !== ['topic', 'hash', 'bundle', 'keys'].map(zhOf).join('|')) throw new Error(`the partition topics' table heads read ${heads.join(', ')}`);
  });

  await scenario('zh-cn: the panel\'s consumers legend and producers table in Chinese', async () => {
    const frame = wb.webview();
    // invoices' STICKY ranges leave hashes to no consumer: the legend names them.
    await frame.locator('.topic-tabs [role="tab"][data-topic="persistent://public/default/invoices"]').click();
    await frame.locator('.view-tabs [role="tab"][data-view="ranges"]').click();
    await frame.locator('.legend .legend-name', { hasText: zhOf('unowned') }).waitFor();
    // The view's first sentence: the broker, the selector, how the slot is hashed, the consumers.
    const invoices = readSettings(workspace)['keyRouting.topics'].find((t) => t.name.endsWith('/invoices'));
    const slot = zhOf('the slot is {0}').replace('{0}', `murmur3 % ${invoices.subscription.hashRangeSize ?? 65536}`);
    const sentence = zhOf('Broker {0}, {1}: {2}. Consumers connected: {3}.').replace('{0}', invoices.brokerVersion).replace('{1}', zhOf('sticky ranges')).replace('{2}', slot).replace('{3}', String(invoices.subscription.consumers.length));
    assertContains(await frame.locator('p.view-note').first().innerText(), [sentence], 'the Hash ranges view note');
    // The keys table's heads (a Pulsar topic's: the sticky key hash, its slot, consumer and range;
    // with many keys the table comes after the first picture, hence the wait in headsOf).
    const heads = await headsOf(frame.locator('.keys-table'));
    const want = ['#', ...['key', 'sticky key hash', 'slot', 'consumer', 'range'].map(zhOf)];
    if (heads.join('|') !== want.join('|')) throw new Error(`the keys table's heads read ${heads.join(', ')}, want ${want.join(', ')}`);
    // orders with two producer clients: the table's heading, its note and each key's verdict; and
    // with 600 partitions, and a ring of 1,600 points, charts dense enough for a canvas, whose
    // data tables (for screen readers) have heads of their own.
    const examples = readFileSync(wb.settingsFile, 'utf8');
    const settings = JSON.parse(examples);
    const orders = settings['keyRouting.topics'].find((t) => t.name === 'orders');
    orders.producers = ['java', 'librdkafka'];
    orders.partitions = 600;
    const consumers = Array.from({ length: 16 }, (_, i) => ({ name: `ring-${i}-x` }));
    const sub = { name: 'd', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers };
    settings['keyRouting.topics'].push({ name: 'persistent://public/default/dense', system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: sub });
    /** Opens the data table whose summary says `what` and returns its heads. */
    const dataHeads = async (what) => {
      const data = frame.locator('details.data-table', { hasText: what }).first();
      await data.locator('summary').click();
      // Filled when it opens (its toggle event): wait for the rows' heads.
      return headsOf(data);
    };
    const expectHeads = (got, want, what) => {
      if (got.join('|') !== want.join('|')) throw new Error(`${what}'s heads read ${got.join(', ')}, want ${want.join(', ')}`);
    };
    await wb.writeSettings(JSON.stringify(settings));
    try {
      await frame.locator('.topic-tabs [role="tab"][data-topic="orders"]').click();
      await frame.locator('.view-tabs [role="tab"][data-view="partitions"]').click();
      await frame.locator('.producers h3', { hasText: zhOf('Producer clients') }).waitFor();
      const r = topology(workspace).topic('orders').route(engine().stringKey('user-1'));
      const verdict = await frame.locator('.producers-table tr.producer-row', { hasText: 'user-1' }).first().locator('td.verdict').innerText();
      if (verdict !== zhOf(r.disagree ? 'disagree' : 'agree')) throw new Error(`user-1's producers verdict reads ${verdict}; the engine says ${r.disagree ? 'disagree' : 'agree'}`);
      const note = await frame.locator('.producers p').innerText();
      const want = r.disagree ? zhOf('Keys the producers disagree on: {0} of {1}. The same key lands on different partitions, so per-key order and co-location break between them.').split(/\{[01]\}/) : [zhOf('The producers agree on every key shown.')];
      assertContains(note, want, 'the producers note');
      await wb.screenshot('zh-cn-producers');
      expectHeads(await dataHeads('partitions as a table'), ['partition', 'member', 'keys'].map(zhOf), 'the partitions data table');
      await frame.locator('.topic-tabs [role="tab"][data-topic="persistent://public/default/dense"]').click();
      await frame.locator('.view-tabs [role="tab"][data-view="ranges"]').click();
      expectHeads(await dataHeads('segments as a table'), ['#', ...['first hash', 'last hash', 'owner', 'share of key hashes', 'keys'].map(zhOf)], 'the segments data table');
      expectHeads(await headsOf(frame.locator('.keys-table')), ['#', ...['key', 'sticky key hash', 'slot', 'consumer', 'range', 'ring point', 'arc'].map(zhOf)], 'the keys table on a ring');
    } finally {
      await wb.writeSettings(examples);
    }
  });

  await scenario('zh-cn: Import Topology asks in Chinese, and says so when cancelled', async () => {
    // The quick picks' title is text; their question is the input's placeholder.
    const asks = (question) => page.locator(`.quick-input-widget input[placeholder=${JSON.stringify(question)}]`).waitFor();
    await wb.palette(`${category}: ${nls['command.importTopology.title']}`);
    await page.locator('.quick-input-widget', { hasText: zh['Key Routing: Import Topology'] }).waitFor();
    await asks(zh['What does the report describe?']);
    await wb.pickRow(zh['Kafka consumer groups']).waitFor();
    await wb.pick(zh['Pulsar topic stats']);
    await asks(zh['Where is the report?']);
    await wb.pickRow(zh['From the Clipboard']).waitFor();
    await wb.pickRow(zh['From a File...']).waitFor();
    await wb.screenshot('zh-cn-import');
    await page.keyboard.press('Escape');
    await wb.until(() => wb.keyRoutingOutput().includes(`import: ${zh['cancelled; nothing was written']}`), 'the cancelled import in the output channel, in Chinese');
  });

  await scenario('zh-cn: What If It Leaves on a group member, in Chinese, with the engine\'s figures', async () => {
    await wb.clearNotifications();
    const icon = wb.keyRoutingIcon();
    await icon.waitFor();
    if (!(await icon.getAttribute('class'))?.includes('checked')) await icon.click();
    const t = topology(workspace);
    const g = t.groups[0];
    const [id] = g.members.keys();
    await wb.sideBarRow(id).waitFor();
    await wb.contextMenu(wb.sideBarRow(id), nls['command.tree.whatIfRemove.title']);
    const { moved, total, gains } = memberLeaves(t, g, id, zh.nobody, (n) => zh['(and {0} more; see the Key Routing output)'].replace('{0}', n));
    const want = zh['Key Routing: if {0} leaves group {1}, {2} of its {3} partitions change member: {4}.'].replace(/\{(\d)\}/g, (_, i) => String([id, g.name, moved.toLocaleString('en-US'), total.toLocaleString('en-US'), gains][i]));
    const text = await wb.notification(`${id} `);
    assertContains(text, [want], 'the notification');
    await wb.screenshot('zh-cn-what-if-member');
    // Its Open Panel: the group's what-if in the panel, its editor and its figures in Chinese.
    await wb.notificationButton(`${id} `, zh['Open Panel']);
    const frame = wb.webview();
    await frame.locator('#group-whatif-add', { hasText: zhOf('Member joins') }).waitFor();
    await frame.locator('#group-whatif-remove', { hasText: zhOf('Member leaves') }).waitFor();
    await frame.locator('#group-whatif-steps li', { hasText: `-${id}` }).waitFor();
    const topic = g.config.topics[0];
    const line = zhOf('of {0} partitions of {1} change member.').replace('{0}', t.topic(topic).partitions.toLocaleString('en-US')).replace('{1}', topic);
    await frame.locator('#group-whatif-moved-partitions', { hasText: line }).waitFor();
    await frame.locator('h3', { hasText: zhOf('Rebalance what-if: group {0}').replace('{0}', g.name) }).waitFor();
    await wb.screenshot('zh-cn-group-what-if', { of: wb.webviewElement() });
  });

  await scenario('zh-cn: Analyze Keys on keys.txt, its figures in Chinese in the Analysis view', async () => {
    await wb.clearNotifications();
    await wb.palette('View: Close All Editors');
    await wb.openFile('keys.txt');
    await wb.editorContextMenu('user-3', nls['command.analyzeKeys.title']);
    // The format quick pick's guess first.
    await page.locator('.quick-input-list .monaco-list-row:visible').first().waitFor();
    await page.keyboard.press('Enter');
    const frame = wb.webview();
    await frame.locator('#analysis-status[data-status="complete"]').waitFor();
    const keys = readFileSync(join(workspace, 'keys.txt'), 'utf8').replace(/\n$/, '').split('\n').length;
    const every = zhOf('Every line gave a key ({0} lines, {1} keys).').replace('{0}', keys.toLocaleString('en-US')).replace('{1}', keys.toLocaleString('en-US'));
    await frame.locator('#analysis-problems p', { hasText: every }).waitFor();
    await frame.locator('.topic-tabs [role="tab"][data-topic="orders"]').click();
    await frame.locator('#before-partition-skew', { hasText: zhOf('Skew: max over mean {0}, coefficient of variation {1}').split('{0}')[0] }).waitFor();
    await frame.locator('.share-legend', { hasText: zhOf('share of keys') }).waitFor();
    await wb.screenshot('zh-cn-analysis', { of: wb.webviewElement() });
  });
}
