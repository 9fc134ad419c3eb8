// The routing panel's performance figures (`node test/bench/panel.mjs` after `node esbuild.js`):
// 1. In Node: building the view model for 1,000 consumers x 100 points (the engine connecting
//    the consumers is timed apart), laying it out for 1,200 px, binning the ring, and a what-if.
// 2. In Chromium: the webview bundle in a page with a stub acquireVsCodeApi; the time from the
//    host's `state` message to the rendered view (script), to the next frame (layout + paint), and
//    to the complete picture (what is worked out after the first paint, such as the what-if's
//    ordering note, shown too). Each run is a fresh page, so the code runs cold as a panel opening does.
// Prints tables; asserts nothing (figures, not thresholds).
import { build } from 'esbuild';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { panelHtml, bundlePath } from './panelPage.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);

const dir = mkdtempSync(join(tmpdir(), 'panel-bench-'));
try {
  await build({ entryPoints: [join(root, 'test/bench/panelModel.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: join(dir, 'model.cjs'), logLevel: 'warning' });
  const { runModelBench, benchSettings } = require(join(dir, 'model.cjs'));
  const rows = runModelBench();
  console.log('Panel view model (Node, warm: median of 7 runs; what-if and ordering note median of 3)');
  console.table(rows);

  if (!existsSync(bundlePath(root))) {
    console.log('media/dist/panel.js is missing: run `node esbuild.js` first for the webview figures.');
  } else if (!existsSync(process.env.KEY_ROUTING_CHROMIUM ?? '/usr/bin/chromium')) {
    console.log('Chromium not found (/usr/bin/chromium): webview figures skipped.');
  } else {
    console.log('\nWebview render (Chromium, 1,200 x 900 px, median of 5 runs after 1 warm-up)');
    console.table(await webviewBench(benchSettings));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function webviewBench(benchSettings) {
  const { chromium } = await import('playwright-core');
  const { parseSettings } = require(join(root, 'dist/engine.js'));
  const browser = await chromium.launch({
    executablePath: process.env.KEY_ROUTING_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const rows = [];
  try {
    const cases = [
      ['3.0 ring: ring + zoom strip', '3.0', true, 'ring'],
      ['4.0 ring: ring + zoom strip', '4.0', true, 'ring'],
      ['3.0 ring: hash-range bar', '3.0', true, 'ranges'],
      ['4.0 auto-split: hash-range bar', '4.0', false, 'ranges'],
      ['4.0 ring: what-if +1 consumer', '4.0', true, 'whatif'],
    ];
    for (const [label, version, ch, view] of cases) {
      const { settings } = parseSettings(benchSettings(1000, 100, version, ch));
      const topic = settings.topics[0].name;
      const times = [];
      const frames = [];
      const parts = { topology: [], viewModel: [], render: [], complete: [] };
      let elements = 0;
      for (let run = 0; run < 6; run++) {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        await page.setContent(panelHtml(root));
        const keys = Array.from({ length: 10 }, (_, i) => ({ format: 'utf8', value: `order-${i}` }));
        // The view to open, as a reload restores it (getState), before the bundle runs.
        await page.evaluate(
          ({ topic, view, keys }) => {
            const whatIf = view === 'whatif' ? { [topic]: { events: [{ kind: 'connect', name: 'extra' }], cursor: 1 } } : {};
            window.__initialState = { version: 1, topic, views: { [topic]: view }, keys, zoom: {}, whatIf, positions: {} };
          },
          { topic, view, keys },
        );
        await page.addScriptTag({ path: bundlePath(root) });
        const r = await page.evaluate(
          async ({ settings }) => {
            // The host's answer to `ready`: the view model is built and the view drawn synchronously.
            const t0 = performance.now();
            window.dispatchEvent(new MessageEvent('message', { data: { type: 'state', settings, stale: [], problems: [], keys: [] } }));
            const script = performance.now() - t0;
            const t1 = performance.now();
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
            const frame = performance.now() - t1;
            // What is still worked out after the first paint (the what-if's ordering note), then
            // the frame that shows it: the time to the complete picture.
            let complete = performance.now() - t0;
            if (document.querySelector('[aria-busy="true"]')) {
              while (document.querySelector('[aria-busy="true"]')) await new Promise((r) => setTimeout(r, 5));
              await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
              complete = performance.now() - t0;
            }
            // The first render after the state message builds the models; later ones (a resize) reuse them.
            const last = (name) => performance.getEntriesByName(name, 'measure').find((e) => e.startTime >= t0)?.duration ?? NaN;
            return {
              script,
              frame,
              complete,
              topology: last('keyRouting:topology'),
              viewModel: last('keyRouting:viewModel'),
              render: last('keyRouting:render'),
              elements: document.querySelectorAll('svg *').length,
              ready: window.__posted.some((m) => m.type === 'ready'),
            };
          },
          { settings },
        );
        if (!r.ready) throw new Error('the panel did not post ready');
        await page.close();
        if (run === 0) continue;
        times.push(r.script);
        frames.push(r.frame);
        for (const k of Object.keys(parts)) parts[k].push(r[k]);
        elements = r.elements;
      }
      rows.push({
        case: label,
        'engine: settings -> topology, joins queued (ms)': med(parts.topology),
        'ring assignment + view model (ms)': med(parts.viewModel),
        'DOM render (ms)': med(parts.render),
        'state -> rendered, all script (ms)': med(times),
        'next frame, layout + paint (ms)': med(frames),
        'complete picture (ms)': med(parts.complete),
        'SVG elements': elements,
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}

function med(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 100) / 100;
}
