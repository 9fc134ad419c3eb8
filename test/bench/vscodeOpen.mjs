// The routing panel opened in a real VS Code (code-server, Chromium): what the panel bench cannot
// see, the trip of the host's state message through VS Code (extension host, workbench, the
// webview's two frames). For a topology of one's own (the panel bench's --case file: `settings`,
// as in .vscode/settings.json), writes the settings into a scratch workspace, then opens the panel
// from the command palette a few times, and prints for each opening, on the webview's clock: when
// its script had loaded, when the host's state arrived, and the first picture after that; and the
// wall clock from the palette command to the first picture seen.
//
//   node test/bench/vscodeOpen.mjs --case FILE [--opens N] [--sidebar]      (after `node esbuild.js`)
//
// With --sidebar it times the Key Routing side bar instead: each opening is a new window whose
// settings are written before the side bar is first shown (a shown-before tree keeps its old rows
// on screen while it refreshes); then the activity bar icon is clicked, and the wall clock runs
// until the first subscription's row is shown, and (opening it first where it starts collapsed)
// until its first consumer row shows its share.
//
// It measured two defects the panel bench could not: the command's result (the panel object, the
// whole topology) serialized to the workbench, and a broker report sent as megabytes of JSON.
// Prints figures; asserts nothing.
import { readFileSync } from 'node:fs';
import { Session } from '../e2e/workbench.mjs';

const argv = process.argv.slice(2);
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const file = opt('--case');
const opens = Number(opt('--opens') ?? 3);
if (!file) {
  console.error('usage: node test/bench/vscodeOpen.mjs --case FILE [--opens N] [--sidebar]');
  process.exit(2);
}
const { settings, label } = JSON.parse(readFileSync(file, 'utf8'));

const session = await Session.start({ log: () => {} });
try {
  if (argv.includes('--sidebar')) {
    console.log(`${label ?? file}: ${opens} openings of the side bar, each in a new window`);
    for (let i = 0; i < opens; i++) {
      const wb = await session.openWindow(`ui-${i}`);
      await wb.writeSettings(JSON.stringify(settings));
      const { shown, consumers } = await openSideBar(wb);
      console.log(`  opening ${i + 1}: icon to the first subscription's row ${shown} ms; to its first consumer's share ${consumers} ms${consumers === shown ? '' : ' (after expanding it)'}`);
      await wb.page.close();
    }
  } else {
    const wb = await session.openWindow('ui');
    await wb.writeSettings(JSON.stringify(settings));
    await openPanel(wb);
  }
} finally {
  await session.close();
}

/**
 * Clicks the activity bar icon and waits for the first subscription's row (its consumer count);
 * then, where that subscription starts collapsed (over 100 consumers), opens it as a user does and
 * waits for its first consumer's share. Returns the milliseconds of each, from its click.
 */
async function openSideBar(wb) {
  const { page } = wb;
  const icon = wb.keyRoutingIcon();
  const topic = settings['keyRouting.topics'].find((t) => t.subscription?.consumers?.length);
  if (!topic) throw new Error('the side bar probe needs a topic with a Key_Shared subscription');
  const description = (label) => wb.sideBarRow(label).locator('.label-description').innerText().catch(() => '');
  const subName = topic.subscription.name ?? 'sub'; // the settings' default name
  const sub = wb.sideBarRow(subName);
  await icon.waitFor();
  let t0 = Date.now();
  await icon.click();
  await wb.until(async () => /consumers?$/.test(await description(subName)), 'the first subscription row', 120_000);
  const shown = Date.now() - t0;
  const first = topic.subscription.consumers[0].name;
  if ((await sub.getAttribute('aria-expanded')) === 'true') return { shown, consumers: shown };
  t0 = Date.now();
  await sub.click();
  await page.keyboard.press('ArrowRight');
  await wb.until(async () => (await description(first)).includes('%'), 'the first consumer row', 120_000);
  return { shown, consumers: Date.now() - t0 };
}

async function openPanel(wb) {
  console.log(`${label ?? file}: ${opens} openings from the command palette`);
  for (let i = 0; i < opens; i++) {
    const t0 = Date.now();
    await wb.palette('Key Routing: Open Routing Panel');
    const frame = await wb.webviewFrame();
    await frame.waitForFunction(() => performance.getEntriesByName('keyRouting:firstPicture').length > 0, null, { timeout: 120_000 });
    const wall = Date.now() - t0;
    const r = await frame.evaluate(() => {
      const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/dist/extension.js'));
      const state = performance.getEntriesByName('keyRouting:state')[0];
      const first = performance.getEntriesByName('keyRouting:firstPicture')[0];
      return { script: script?.responseEnd ?? NaN, state: state.startTime, first: first.duration };
    });
    const ms = (x) => `${Math.round(x)} ms`;
    console.log(`  opening ${i + 1}: palette to first picture ${ms(wall)}; script loaded at ${ms(r.script)}, state at ${ms(r.state)} (${ms(r.state - r.script)} later), first picture ${r.first.toFixed(1)} ms after it`);
    await wb.palette('View: Close All Editors');
  }
}
