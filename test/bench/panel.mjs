// The routing panel at production scale (issue 14): `node test/bench/panel.mjs` after `node esbuild.js`.
//
// Topologies: a Pulsar subscription of 1,000 consumers x 100 ring points (3.0 and 4.0 rings, a
// 3.0 ring whose 1,000 consumers share one name, and the same 100,000 points as 100 consumers x
// 1,000 on 3.0), 2,000 AUTO_SPLIT consumers, 2,000 STICKY
// consumers with a range each and with 16 each, a Kafka topic of 10,000 partitions with a 500-member consumer
// group (its what-if adds members), the same partitions as 200 topics of 50 under one group, and
// one of 500 sticky members subscribing to different topics (3 topics of 10,000 partitions
// between them), a 3.0 ring of 10 consumers x 100 points (few enough points for SVG charts: what
// the keys alone cost), and two started from a live cluster's reports (that Kafka group's owners
// as kafka-consumer-groups printed them, a run of one partition each; a 4.0 ring on 4 partitions,
// each reporting its own ranges and draining hashes); 100 keys marked in each.
// Renderers, side by side:
//   today  this bundle fed the state message as the host sent it before (settings only: the panel
//          connects every consumer itself) and drawing SVG charts;
//   new    the host's frames in the state message (`buildFrames`, as the extension sends them) and
//          the charts chosen by density (canvas for these topologies).
// With `--baseline REV`, a third column runs the webview of that git revision (its script, built as
// dist/extension.js is built, and its panel.css), fed this bundle's host message (with the settings
// as parsed if its webview is from before their packing, which it could not read)
// (`npm run bench` passes main before the scale work: the renderer users have today).
// The columns take turns page by page, in an order that turns with each run and case (`measureCase`).
//
// Figures, each in Chromium (1,200 x 900 px) against its goal:
//   first picture   from posting the host's state message to the first frame painted with the
//                   charts (cold: a fresh page, as a panel opening; warm: the same message again in
//                   that page, as after a settings change), wall clock and the renderer's
//                   main-thread CPU time (CDP ThreadTime, which machine load does not inflate);
//   complete        until the deferred parts (keys table, ordering note) are in as well;
//   layout objects  what the page's layouts visited from the state message until complete, and
//                   from a what-if step's click until nothing is busy (Chrome's per-layout count of
//                   dirty objects: the same in every run, where the times move with the machine);
//   what-if step    from clicking "Add consumer" to the frame showing the ranges, moved share,
//                   moved keys and the ordering note (the first step after the panel has warmed
//                   up, then the median of four more), and a "Remove consumer" step;
//   zoom / pan      a gesture of 60 scripted inputs (wheel, +/-, Shift+arrows, Page Down) on the bar,
//                   one per frame: per input, the main thread's work until its frame is painted
//                   (busy wall time, p50 and p95, against the 16 ms a frame has at 60 frames a
//                   second; and its CPU time), the frames the gesture missed, and the time from the
//                   input to its frame (which holds the wait for the display's next frame as well);
//   warm-up done    from the state message until the panel's idle warm-up has ended (its body's
//                   data-engine is "ready", polled every 50 ms): what the first what-if step's
//                   speed costs in idle time after opening; and the longest task the page ran
//                   from the first picture until then (Long Tasks API: tasks over 50 ms), which an
//                   input that comes during it waits for before the page sees it;
//   not waiting     a user who does not wait for that warm-up: in a fresh page, the What-if tab
//                   clicked right after the first picture (to the frame with its editor), then a
//                   consumer or member added at once (to the frame with its picture and note),
//                   in another page added once the tab has settled (nothing busy: as after
//                   typing a name), and in a third at a user's pace (the tab clicked 0.5 s after
//                   the first picture, the step 0.5 s after the tab is drawn: the warm-up may
//                   still be running);
//   zoom at once    the same gesture begun right after the first picture, in a fresh page, while
//                   the idle warm-up still has parts to run (frame work p95 and frames missed, and
//                   whether the warm-up had ended by the last input: if so, a what-if step right
//                   after the gesture runs warm code);
//   heap            the page's JS heap after a garbage collection (CDP JSHeapUsedSize), in a page
//                   of its own after opening, and after the what-if steps (both measured after the
//                   timings: the forced collection drops V8's compiled code).
// Prints tables and writes test-artifacts/panel-bench.json. Asserts nothing.
//
// With `--profile`, the renderer's main thread is sampled (CDP Profiler) over the cold first
// picture, the warm one, the zoom inputs and each what-if step, and each profile is written as
// test-artifacts/panel-profiles/<case>-<renderer>-<part>.cpuprofile (open it in Chrome DevTools'
// Performance panel, or `node test/bench/profileTop.mjs FILE` for the functions by self time).
//
// `--renderer new` (or `today`) times only that renderer (and the baseline, if asked for).
//
// For finding where a what-if step's time goes (the figures reported stay the same ones):
//   --steps N         add N consumers instead of 5 (the JSON's `stepsCpuMs` lists them all; "next"
//                     stays the median of steps 2-5): on the 3.x ring the steps after the fifth
//                     settled at about 30-50 ms of CPU where the second to fifth took 40-100, as V8
//                     was still optimising (and deoptimising) the step's code; from 10 steps on,
//                     the median of the last five is a column of its own (whether a long
//                     what-if's later steps cost more than its first);
//   --dump-traces DIR writes the trace of each first picture, the zoom gesture and each step
//                     (Chrome's JSON, for DevTools or Perfetto) to DIR, with V8's garbage collection
//                     and compilation events in it (tracing those costs the page a little more);
//   --js-flags FLAGS  starts Chromium with these V8 flags and copies the browser's output to
//                     stderr, the zoom gesture preceded by a line "BENCH-ZOOM", each step by
//                     a line "BENCH-STEP-<n>" and the not-waiting pages' steps by "BENCH-EAGER-once",
//                     "-settled" and "-paced" (each page's output runs to the next marker): with
//                     `--js-flags --trace-deopt` it shows which functions V8 deoptimised in which step.
//
// `--shots DIR` saves what the pages show, for looking at the panel at this scale (a hundred keys'
// numbers on a ring or 10,000 partitions): <case>-<renderer>.png once the heap page has settled, and
// <case>-<renderer>-whatif.png after the what-if steps (the page's top 1,600 px each).
//
// `--case FILE` times a topology of your own instead of the bench's own: a JSON object with `settings` (as
// in .vscode/settings.json), `topic` (the one the panel opens on) and optionally `label`, `view`
// (ring, ranges or partitions) and `keys` (strings, or { "format": "hex", "value": ... }). On a STICKY
// subscription the consumers a step adds take the hash values nobody holds (the gaps, split as needed).
//
//   node test/bench/panel.mjs [--case FILE] [--runs N] [--only ring30,ring40,split,split30,sticky,stickyMany,ring30OneName,ring30Pairs,ring30Points,ring30small,kafka,kafkaManyTopics,kafkaMixed,kafkaReported,ringReported,ring30Reported,all] [--baseline REV] [--renderer new|today] [--profile]
//                             [--steps N] [--dump-traces DIR] [--js-flags FLAGS] [--shots DIR]
import { build } from 'esbuild';
import esbuildConfig from '../../esbuild.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { panelHtml, bundlePath } from './panelPage.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const arg = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const RUNS = Number(arg('--runs', 3));
const ONLY = arg('--only', '') ? arg('--only', '').split(',') : null;
const BASELINE = arg('--baseline', null);
const PROFILE = argv.includes('--profile');
const RENDERER = arg('--renderer', null);
const PROFILE_DIR = join(root, 'test-artifacts/panel-profiles');
const STEPS = Number(arg('--steps', 5));
const DUMP_TRACES = arg('--dump-traces', null);
const SHOTS = arg('--shots', null);
// `%DebugPrint` writes the step markers into V8's own output, in order with its traces.
const CASE_FILE = arg('--case', null);
const JS_FLAGS = arg('--js-flags', null) && `${arg('--js-flags', null)} --allow-natives-syntax`;
const CHROMIUM = process.env.KEY_ROUTING_CHROMIUM ?? '/usr/bin/chromium';
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'toplevel',
  ...(DUMP_TRACES ? ['v8', 'disabled-by-default-v8.gc', 'disabled-by-default-v8.compile'] : []),
];
const GOALS = { firstPicture: 100, whatIf: 50, frame: 16, heapMB: 150 };

/** Injected into the page: the JSON from panelScale.encode back to typed arrays, and a message's buffers. */
const decoderSource = `window.__buffers = (message) => {
  const found = new Set();
  const visit = (v) => {
    if (ArrayBuffer.isView(v)) found.add(v.buffer);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) visit(x);
  };
  visit(message);
  return [...found];
};
window.__decode = (json) => JSON.parse(json, (k, v) => {
  if (v && typeof v === 'object' && typeof v.$typed === 'string') {
    const bin = atob(v.b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new globalThis[v.$typed](bytes.buffer);
  }
  return v;
});`;

const dir = mkdtempSync(join(tmpdir(), 'panel-bench-'));
try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function main() {
  await build({ entryPoints: [join(root, 'test/bench/panelScale.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: join(dir, 'scale.cjs'), logLevel: 'warning' });
  const scale = require(join(dir, 'scale.cjs'));
  console.log(`Panel at production scale. Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (!existsSync(bundlePath(root))) {
    console.log('dist/extension.js is missing: run `node esbuild.js` first.');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`Chromium not found (${CHROMIUM}): the panel figures need it.`);
    return;
  }
  const renderers = [
    { id: 'today', label: 'this bundle, settings only, SVG', bundle: bundlePath(root), frames: false, packed: false, renderer: 'svg' },
    { id: 'new', label: 'new (host frames, canvas by density)', bundle: bundlePath(root), frames: true, packed: true, renderer: 'auto' },
  ];
  if (RENDERER) renderers.splice(0, renderers.length, ...renderers.filter((r) => r.id === RENDERER));
  if (BASELINE) renderers.push({ id: 'baseline', label: `before: webview of ${BASELINE}`, ...(await buildBaseline(BASELINE)), frames: true, renderer: 'auto' });

  const keys = scale.benchKeys(100);
  // The renderer's V8 prints its traces on the browser's output, which Playwright copies to
  // stderr only in its debug log (read when it is loaded).
  if (JS_FLAGS) process.env.DEBUG = [process.env.DEBUG, 'pw:browser'].filter(Boolean).join(',');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', ...(JS_FLAGS ? [`--js-flags=${JS_FLAGS}`] : [])],
  });
  const results = [];
  try {
    const cases = (CASE_FILE ? [scale.caseFromFile(CASE_FILE)] : scale.scaleCases()).filter((c) => !ONLY || ONLY.includes(c.id));
    // Each step adds a consumer, and a STICKY one needs a range of its own that nobody holds.
    for (const c of cases) {
      const room = c.stickyRanges?.length;
      if (room !== undefined && room < STEPS) {
        throw new Error(`${CASE_FILE ?? c.label}: the STICKY subscription's consumers leave ${room === 0 ? 'no hash value' : `room for only ${room} new consumers' ranges`}, and the what-if adds ${STEPS}: leave some hash values to nobody${room > 0 ? ` or pass --steps ${room}` : ''}`);
      }
    }
    for (const c of cases) {
      const caseKeys = c.keys ?? keys;
      const node = c.consumers ? scale.nodeWhatIf(c.settings, c.topic, caseKeys, 3) : null;
      process.stdout.write(`${c.label} (${renderers.map((r) => r.id).join(', ')}): `);
      for (const row of await measureCase(browser, scale, c, renderers, caseKeys, cases.indexOf(c))) {
        row.nodeWhatIf = node && { whatIfMs: round(node.whatIfMs), noteMs: round(node.noteMs) };
        results.push(row);
      }
      process.stdout.write('\n');
    }
  } finally {
    await browser.close();
  }
  print(results);
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  writeFileSync(join(root, 'test-artifacts/panel-bench.json'), JSON.stringify({ date: new Date().toISOString(), loadAverage: loadavg(), goals: GOALS, results }, null, 2) + '\n');
  console.log('\nwritten: test-artifacts/panel-bench.json');
}

/**
 * The webview of git revision `rev`, built into the temp directory: its script (`bundle`), its
 * stylesheet (`css`), and whether it reads packed settings (`packed`: a message without them is
 * larger, and slower to clone into the page).
 */
async function buildBaseline(rev) {
  const src = join(dir, 'baseline');
  mkdirSync(src, { recursive: true });
  const tar = join(dir, 'baseline.tar');
  // And the files outside src/ that the extension's part imports, and the TypeScript settings its
  // build reads, where the revision has them.
  const imported = ['package.json', 'examples/settings.json', 'tsconfig.json'].filter((f) => spawnSync('git', ['-C', root, 'cat-file', '-e', `${rev}:${f}`]).status === 0);
  execFileSync('git', ['-C', root, 'archive', '-o', tar, rev, 'src', 'media/panel.css', ...imported], { stdio: 'inherit' });
  execFileSync('tar', ['-xf', tar, '-C', src]);
  const out = join(dir, 'baseline-panel.js');
  // Since cf0320d one script, src/main.ts, holds the extension and the panel: built with the
  // options esbuild.js builds dist/extension.js with, which the other columns run (the same code
  // built as the panel's part alone ran the same pages slower, on average by 12 ms the complete
  // picture drawn again, 20 a step at once, 10 a step once the tab has settled). Before, the panel's own module, which starts
  // on load, with the same target, package entry points and strictness (a bundle of ES modules is
  // sloppy unless told).
  const main = join(src, 'src/main.ts');
  const common = { bundle: true, platform: 'node', format: 'iife', target: 'es2022', mainFields: ['module', 'main'], nodePaths: [join(root, 'node_modules')], logLevel: 'warning' };
  await build(existsSync(main) ? { ...common, ...esbuildConfig.extensionBundle, entryPoints: [main], outfile: out, absWorkingDir: src } : { ...common, entryPoints: [join(src, 'src/webview/main.ts')], banner: { js: "'use strict';" }, outfile: out });
  const model = join(src, 'src/webview/model.ts');
  return { bundle: out, css: join(src, 'media/panel.css'), packed: existsSync(model) && readFileSync(model, 'utf8').includes('unpackSettings') };
}

/**
 * Times case `c` (the `index`th) with every renderer, page by page: each page of a run (a cold
 * picture, the heap page, a not-waiting page...) is opened once per renderer before the next run's,
 * the renderers' order reversed from one run to the next and from one case to the next (a page a
 * case opens once comes first for one renderer in one case, for the other in the next), so that
 * neither column gets the browser and machine of a later moment than the other.
 */
async function measureCase(browser, scale, c, renderers, keys, index) {
  // The heap after opening is taken in a page of its own, after the timings: measuring it means a
  // forced full collection (`collectGarbage`), which also drops V8's compiled code, so a zoom or
  // what-if step timed after it would run cold code no user would meet.
  // After them, with a what-if to time, three pages of their own for a user who does not wait
  // for the idle warm-up (`eagerStep`): one adds at once, one once the tab is done, one at a
  // user's pace. Then one that zooms at once (`zoomAtOnce`).
  const pages = RUNS + (c.consumers || c.group ? 3 : 0) + 1;
  const figures = new Map(renderers.map((r) => [r, { cold: [], warm: [], heap: {}, whatIf: null, zoom: null, zoomEarly: null, eager: null }]));
  for (let run = 0; run <= pages; run++) {
    for (const r of (run + index) % 2 === 0 ? renderers : [...renderers].reverse()) await measurePage(browser, scale, c, r, keys, run, pages, figures.get(r));
  }
  return renderers.map((r) => summary(c, r, figures.get(r)));
}

/** Page `run` of case `c` with renderer `r`, its figures added to `f`. */
async function measurePage(browser, scale, c, r, keys, run, pages, f) {
  // A renderer without the editor (the baseline has no group what-if) has no step to time.
  if (run > RUNS && run < pages && !f.whatIf) return;
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  try {
    await page.setContent(panelHtml(root, r.css));
    await page.evaluate(
      ({ topic, view, keys, renderer }) => {
        window.__initialState = { version: 1, topic, views: view ? { [topic]: view } : {}, keys, zoom: {}, whatIf: {}, positions: {}, renderer };
      },
      { topic: c.topic, view: c.view, keys, renderer: r.renderer },
    );
    await page.addScriptTag({ path: r.bundle });
    await page.evaluate(decoderSource);
    await page.evaluate(`window.__paintedWhen = ${inPagePaintedWhen.toString()}`);
    await page.evaluate(`window.__step = ${inPageStep.toString()}`);
    await page.evaluate(`window.__postState = ${inPagePostState.toString()}`);
    // The host's answer to what the panel posted before `ready` (its keys, width and topic).
    const view = await page.evaluate(() => window.__posted.find((m) => m.type === 'panelView'));
    // A baseline from before the settings' packing gets them as parsed (and reads frames only if
    // its host sent the same ones: else it works the views out itself).
    const msg = scale.stateMessage(c.settings, view?.keys ?? keys, r.frames, view?.width, view?.topic, r.packed);
    f.hostFramesMs = msg.hostFramesMs;
    await page.evaluate((json) => {
      window.__message = window.__decode(json);
    }, msg.json);
    const name = (part) => `${c.id}-${r.id}-${part}`;
    if (run === pages) {
      f.zoomEarly = await zoomAtOnce(page, c, cdp, name('zoom-at-once'));
    } else if (run === RUNS + 1) {
      f.eager = await eagerStep(page, c, cdp, name('eager'), 'once');
    } else if (run === RUNS + 2) {
      const later = await eagerStep(page, c, cdp, name('eager-settled'), 'settled');
      f.eager.settledStepMs = later.stepMs;
      f.eager.settledAfterMs = later.settledAfterMs;
    } else if (run === RUNS + 3) {
      f.eager.pacedStepMs = (await eagerStep(page, c, cdp, name('eager-paced'), 'paced')).stepMs;
    } else if (run === RUNS) {
      // The heap page: opened as a panel opens, left to finish its idle work, then measured.
      await page.evaluate(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries())).observe({ type: 'longtask' });
      });
      await picture(page, cdp, r.id === 'baseline', name('heap'));
      await settle(page);
      // From the state message to the end of the idle warm-up (what a what-if step's speed costs).
      f.readyMs = await page.evaluate(() => performance.now() - performance.getEntriesByName('bench:post').at(-1).startTime);
      // The longest task after the first picture (0: none over 50 ms). An older bundle marks no
      // first picture: from the state message then.
      f.longestIdleTaskMs = await page.evaluate(() => {
        const first = performance.getEntriesByName('keyRouting:firstPicture').at(-1);
        const from = first ? first.startTime + first.duration : performance.getEntriesByName('bench:post').at(-1).startTime;
        return Math.max(0, ...window.__longTasks.filter((t) => t.startTime >= from).map((t) => t.duration));
      });
      f.heap.afterOpenMB = await heapMB(cdp);
      await shoot(page, `${c.id}-${r.id}`);
    } else {
      f.cold.push(await picture(page, cdp, r.id === 'baseline', name(`cold-${run}`)));
      process.stdout.write('.');
      // The same state again in the warm page (as after a settings change).
      await page.evaluate((json) => {
        window.__message = window.__decode(json);
      }, msg.json);
      f.warm.push(await picture(page, cdp, r.id === 'baseline', name(`warm-${run}`)));
      if (run === RUNS - 1) {
        await settle(page);
        f.zoom = await zoomPan(page, c, cdp, name('zoom'));
        process.stdout.write('z');
        if (c.consumers || c.group) {
          f.whatIf = await whatIfSteps(page, c, cdp, name('whatif'));
          f.heap.afterWhatIfMB = await heapMB(cdp);
          await shoot(page, name('whatif'));
          process.stdout.write('w');
        }
      }
    }
  } finally {
    await page.close();
  }
}

/** With `--shots DIR`: the page's top 1,600 px as DIR/<name>.png. */
async function shoot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, clip: { x: 0, y: 0, width: 1200, height: 1600 } });
}

/** The row of case `c` for renderer `r`: medians of its pages' figures `f`. */
function summary(c, r, f) {
  const medOf = (xs, k) => round(med(xs.map((x) => x[k])));
  const { cold, warm } = f;
  return {
    case: c.label,
    renderer: r.label,
    hostFramesMs: round(f.hostFramesMs),
    firstPicture: { coldMs: medOf(cold, 'firstMs'), coldCpuMs: medOf(cold, 'cpuMs'), warmMs: medOf(warm, 'firstMs'), warmCpuMs: medOf(warm, 'cpuMs') },
    complete: { coldMs: medOf(cold, 'completeMs'), warmMs: medOf(warm, 'completeMs'), coldLayoutObjects: medOf(cold, 'layoutObjects'), warmLayoutObjects: medOf(warm, 'layoutObjects') },
    elements: cold[cold.length - 1].elements,
    whatIf: f.whatIf,
    zoom: f.zoom,
    zoomEarly: f.zoomEarly,
    heap: f.heap,
    readyMs: round(f.readyMs),
    longestIdleTaskMs: round(f.longestIdleTaskMs),
    eager: f.eager,
  };
}

/** Posts the prepared state message; waits for the first picture and the complete one. */
async function picture(page, cdp, legacy, name) {
  await startTrace(page);
  await startProfile(cdp);
  const r = await page.evaluate(async (legacy) => {
    const measures = () => performance.getEntriesByType('measure');
    const seen = new Set(measures());
    const fresh = (name) => measures().find((e) => e.name === name && !seen.has(e));
    const nextFrame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
    // As VS Code hands a host message to the webview: a structured clone delivered as a message
    // event, with the typed arrays' buffers transferred, not copied (VS Code 1.100's webview host,
    // pre/index.html, posts `data.message` with `data.transfer`: the buffers the extension host's
    // `serializeWebviewMessage` took out of the message, before it reached the webview's page).
    const transfer = window.__buffers(window.__message);
    // Complete: the page drawn and nothing busy any more (the keys table, the ordering note), to
    // the end of the frame that paints it (polling for it, every 5 ms after the first picture was
    // found, ended up to two frames late).
    const drawn = legacy ? () => fresh('keyRouting:render') || fresh('keyRouting:viewModel') : () => fresh('keyRouting:render');
    const completed = window.__paintedWhen(() => drawn() && !document.querySelector('[aria-busy="true"]'));
    performance.mark('bench:post');
    const t0 = performance.now();
    window.postMessage(window.__message, '*', transfer);
    // The new bundle marks its first picture; an older one renders synchronously in the handler.
    let first;
    for (;;) {
      await nextFrame();
      const m = fresh('keyRouting:firstPicture');
      if (m) {
        first = m.startTime + m.duration - t0;
        break;
      }
      if (legacy && drawn()) {
        first = performance.now() - t0;
        performance.mark('bench:first');
        break;
      }
    }
    if (!legacy) performance.mark('bench:first');
    completed.check(); // in case nothing changed after the page was drawn
    const complete = (await completed.at) - t0;
    performance.mark('bench:complete');
    return { firstMs: first, completeMs: complete, elements: document.querySelectorAll('#view *').length };
  }, legacy);
  // To the end of the first picture (the panel's own measure), or where an older one had drawn.
  await stopProfile(cdp, name);
  const events = await stopTrace(page);
  dumpTrace(name, events);
  r.cpuMs = mainThread(events, 'bench:post', legacy ? 'bench:first' : 'keyRouting:firstPicture').cpuMs;
  r.layoutObjects = mainThread(events, 'bench:post', 'bench:complete').layoutObjects;
  return r;
}

/**
 * The page's main thread between two marks: its CPU time (the thread time of every task that ran
 * there in between, which a loaded machine does not inflate as it does the wall clock), its busy
 * wall time (those tasks' durations cut to the marks, idle gaps left out), and the layout objects
 * its layouts visited (Chrome's count of "dirty objects" per layout: unlike the times, the same in
 * every run, so it shows layout work saved or added where the times are within their noise).
 */
function mainThread(events, from, to) {
  const a = events.find((e) => e.name === from);
  // A mark, or the end of a measure (its "e" event).
  const b = events.find((e) => e.name === to && e.ph === 'I') ?? events.find((e) => e.name === to && (e.ph === 'e' || e.ph === 'E'));
  if (!a || !b) return { cpuMs: NaN, busyMs: NaN, layoutObjects: NaN };
  let cpu = 0;
  let busy = 0;
  let layoutObjects = 0;
  for (const e of events) {
    if (e.pid !== a.pid || e.tid !== a.tid || e.ph !== 'X') continue;
    const end = e.ts + (e.dur ?? 0);
    if (end < a.ts || e.ts > b.ts) continue;
    if (e.name === 'Layout') layoutObjects += e.args?.beginData?.dirtyObjects ?? 0;
    if (e.name !== 'RunTask') continue;
    cpu += e.tdur ?? 0;
    busy += Math.min(end, b.ts) - Math.max(e.ts, a.ts);
  }
  return { cpuMs: cpu / 1000, busyMs: busy / 1000, layoutObjects };
}

/** The page's JS heap after a garbage collection, typed arrays' backing stores (outside it) included. */
async function heapMB(cdp) {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const u = await cdp.send('Runtime.getHeapUsage');
  return round((u.usedSize + (u.backingStorageSize ?? 0) + (u.embedderHeapUsedSize ?? 0)) / 1048576);
}

/** Waits until the panel's idle work (the charts' zoom layouts, its own topology warmed up) is done. */
async function settle(page) {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && (document.body.dataset.engine === undefined || document.body.dataset.engine === 'ready'), null, { timeout: 600_000, polling: 50 });
}

/**
 * A zoom and pan gesture on the bar of the open view: 20 scripted inputs, three times over, each
 * dispatched in the task right after the previous frame, as a wheel or a held key delivers them.
 * Per input: the main thread's busy time until its frame is painted (wall, and CPU), which is
 * what must fit in a 16 ms frame; the time from the input to that frame (it also holds the wait
 * for the display's next frame, about one frame whatever the work); and over the gesture, the
 * frames missed: a gap between two frames' animation callbacks (when they ran: the timestamp
 * Chromium passes them is the frame's planned start, which a late frame keeps) that holds one
 * or more frame intervals more than one.
 */
async function zoomPan(page, c, cdp, name) {
  // The view the panel shows (a case of one's own may leave the choice to it).
  const view = c.view ?? (await page.evaluate(() => document.querySelector('.view-tabs [role="tab"][aria-selected="true"]')?.dataset.view));
  if (view !== 'ring' && view !== 'ranges') return null;
  const chartId = view === 'ring' ? 'detail' : 'ranges';
  await startTrace(page);
  await startProfile(cdp);
  if (JS_FLAGS) await page.evaluate(() => new Function('%DebugPrint("BENCH-ZOOM")')());
  const { times, stamps } = await page.evaluate(async (chartId) => {
    let stamp = 0;
    const nextFrame = () => new Promise((res) => requestAnimationFrame(() => ((stamp = performance.now()), setTimeout(res, 0))));
    const chart = () => document.querySelector(`.chart[data-chart="${chartId}"]`);
    const surface = () => chart().querySelector('canvas') ?? chart().querySelector('svg.bar');
    const key = (k, shift = false) => chart().dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true }));
    const wheel = (fx, dy) => {
      const s = surface();
      const rect = s.getBoundingClientRect();
      s.dispatchEvent(new WheelEvent('wheel', { deltaY: dy, clientX: rect.left + rect.width * fx, clientY: rect.top + rect.height / 2, bubbles: true, cancelable: true }));
    };
    const once = [
      () => wheel(0.3, -100), () => wheel(0.35, -100), () => wheel(0.4, -100), () => wheel(0.5, -100), () => wheel(0.5, -100), () => wheel(0.6, -100),
      () => key('ArrowRight', true), () => key('ArrowRight', true), () => key('ArrowLeft', true), () => key('PageDown'), () => key('PageDown'), () => key('PageUp'),
      () => key('+'), () => key('+'), () => key('-'), () => key('-'), () => wheel(0.5, 100), () => wheel(0.5, 100), () => key('-'), () => key('0'),
    ];
    const script = [...once, ...once, ...once];
    const times = [];
    const stamps = [];
    await nextFrame();
    stamps.push(stamp);
    for (let i = 0; i < script.length; i++) {
      performance.mark(`bench:z${i}a`);
      const t0 = performance.now();
      script[i]();
      await nextFrame();
      times.push(performance.now() - t0);
      stamps.push(stamp);
      performance.mark(`bench:z${i}b`);
      // The next input starts in a task of its own: the task that ends this input's measure
      // must not also hold the next input's work.
      await new Promise((res) => setTimeout(res, 0));
    }
    return { times, stamps };
  }, chartId);
  await stopProfile(cdp, name);
  const events = await stopTrace(page);
  dumpTrace(name, events);
  const frames = times.map((_, i) => mainThread(events, `bench:z${i}a`, `bench:z${i}b`));
  const cpu = frames.map((f) => f.cpuMs);
  const busy = frames.map((f) => f.busyMs);
  const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
  const interval = med(gaps);
  const missed = gaps.reduce((n, g) => n + Math.max(0, Math.round(g / interval) - 1), 0);
  const pct = (xs, p) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
  };
  return {
    inputs: times.length,
    frameP50Ms: pct(busy, 50),
    frameP95Ms: pct(busy, 95),
    frameMaxMs: pct(busy, 100),
    cpuP50Ms: pct(cpu, 50),
    cpuP95Ms: pct(cpu, 95),
    latencyP50Ms: pct(times, 50),
    latencyP95Ms: pct(times, 95),
    frameIntervalMs: round(interval),
    framesMissed: missed,
    fps: round((1000 * gaps.length) / (stamps[stamps.length - 1] - stamps[0])),
    busyPerInputMs: busy.map(round),
    cpuPerInputMs: cpu.map(round),
  };
}

/**
 * The zoom and pan gesture (`zoomPan`) begun as soon as the first picture is painted, in a fresh
 * page: a user who zooms at once meets the panel's idle warm-up, and a part of it (5-90 ms) that
 * runs between two of the gesture's frames makes the next one late. With whether the warm-up had
 * ended by the gesture's end.
 */
async function zoomAtOnce(page, c, cdp, name) {
  await page.evaluate(() => window.__postState());
  const z = await zoomPan(page, c, cdp, name);
  return z && { ...z, warmUpDone: warmUpEnded(await page.evaluate(() => document.body.dataset.engine)) };
}

/** With --dump-traces: writes a trace as DIR/`name`.json. */
function dumpTrace(name, events) {
  if (!DUMP_TRACES) return;
  mkdirSync(DUMP_TRACES, { recursive: true });
  writeFileSync(join(DUMP_TRACES, `${name}.json`), JSON.stringify(events));
}

/** With --profile: starts sampling the page's main thread. */
async function startProfile(cdp) {
  if (!PROFILE) return;
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}

/** With --profile: stops sampling and writes the profile as `name`.cpuprofile. */
async function stopProfile(cdp, name) {
  if (!PROFILE) return;
  const { profile } = await cdp.send('Profiler.stop');
  mkdirSync(PROFILE_DIR, { recursive: true });
  writeFileSync(join(PROFILE_DIR, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile));
}

async function startTrace(page) {
  await page.context().browser().startTracing(page, { categories: TRACE_CATEGORIES });
}

async function stopTrace(page) {
  const trace = JSON.parse((await page.context().browser().stopTracing()).toString('utf8'));
  return trace.traceEvents ?? trace;
}

/**
 * Installed in the page as `window.__paintedWhen`: `at` resolves to the time at the end of the frame
 * that paints the change after which `ready()` holds (a throw from `ready` rejects it). A
 * MutationObserver checks at every change of the page's elements or of an `aria-busy`, in the task
 * that made it, so the frame asked for is that change's own; `check()` checks now.
 */
function inPagePaintedWhen(ready) {
  let check;
  const at = new Promise((resolve, reject) => {
    let done = false;
    check = () => {
      if (done) return;
      try {
        if (!ready()) return;
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
      } catch (e) {
        reject(e);
      }
      done = true;
      watch.disconnect();
    };
  });
  const watch = new MutationObserver(() => check());
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  return { at, check };
}

/**
 * Installed in the page as `window.__postState`: posts the host's state message (its buffers
 * transferred, as VS Code hands it over) and resolves once the first picture is painted: its mark,
 * or, in a bundle older than it (the baseline), the mark of its render.
 */
async function inPagePostState() {
  const transfer = window.__buffers(window.__message);
  performance.mark('bench:post');
  window.postMessage(window.__message, '*', transfer);
  const drawn = () => ['keyRouting:firstPicture', 'keyRouting:render', 'keyRouting:viewModel'].some((n) => performance.getEntriesByName(n).length > 0);
  while (!drawn()) await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
}

/**
 * Installed in the page as `window.__step`: one what-if step, clicked as a user would (`act.add`: a
 * consumer or member of that name joins; else the first one leaves), timed from the click to the
 * frame showing its picture and ordering note (`stepMs`), and until nothing is busy (`allMs`).
 */
async function inPageStep(act, group) {
  const nextFrame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
  // The first consumer or member leaves, chosen before the step as a user would: a select
  // (older renderers) has it chosen already; a field with a list of choices (made when it is
  // focused) gets it typed in.
  const field = document.querySelector(group ? '#group-whatif-remove-id' : '#whatif-remove-id');
  if (!act.add && field?.tagName === 'INPUT') {
    field.focus();
    field.value = field.list?.options[0]?.value ?? '';
    await nextFrame();
  }
  // The step is over at the end of the frame that paints its picture and ordering note (polling
  // for it, every 2 ms, which Chromium stretches to 4 once timers nest, could ask a frame too late).
  const stepsList = () => document.querySelector('#group-whatif-steps');
  const ordering = () => document.querySelector('#whatif-ordering');
  const listed = () => document.querySelectorAll('#whatif-steps li:not(.undone)').length;
  const before = stepsList()?.children.length ?? 0;
  const stepsBefore = listed();
  const done = window.__paintedWhen(() => {
    if (group) return (stepsList()?.children.length ?? 0) !== before;
    // A refused step (a STICKY range taken, say) lists nothing: say why instead of waiting forever.
    const refused = document.querySelector('p.error[role="alert"]');
    if (refused) throw new Error(`the panel refused the step: ${refused.textContent}`);
    return listed() !== stepsBefore && ordering() !== null && ordering().getAttribute('aria-busy') !== 'true';
  });
  performance.mark('bench:wa');
  const t0 = performance.now();
  if (group) {
    // A group's step: a member joins (or the first one leaves); its picture lists the step.
    if (act.add) {
      document.querySelector('#group-whatif-member').value = act.add;
      document.querySelector('#group-whatif-add').click();
    } else {
      document.querySelector('#group-whatif-remove').click();
    }
  } else if (act.add) {
    document.querySelector('#whatif-name').value = act.add;
    // A STICKY subscription's consumer brings its ranges (free ones, from the case).
    if (act.ranges) document.querySelector('#whatif-ranges').value = act.ranges;
    document.querySelector('#whatif-add').click();
  } else {
    document.querySelector('#whatif-remove').click();
  }
  const stepMs = (await done.at) - t0;
  performance.mark('bench:wb');
  while (document.querySelector('[aria-busy="true"]')) await new Promise((res) => setTimeout(res, 5));
  performance.mark('bench:wc');
  return { stepMs, allMs: performance.now() - t0, share: document.querySelector(group ? '#group-whatif-moved-partitions' : '#whatif-moved-share')?.getAttribute(group ? 'data-count' : 'data-fraction') };
}

/**
 * A user who does not wait for the panel's warm-up: in a fresh page, the What-if tab clicked right
 * after the first picture, and a consumer (a member) added as soon as the tab's editor is drawn
 * (`mode` 'once'), or once nothing in the tab is busy any more ('settled': its ordering note is
 * in, as for a user typing a name), or at a user's pace ('paced': the tab 0.5 s after the first
 * picture, the step 0.5 s after the tab). Times the tab (its click to the frame with the editor),
 * the wait for it to settle, and the step (as `inPageStep` does). Each waits for whatever idle
 * task runs when it comes, and the step may run code that nothing has compiled yet.
 */
async function eagerStep(page, c, cdp, name, mode) {
  if (DUMP_TRACES) await startTrace(page);
  await startProfile(cdp);
  const r = await page.evaluate(
    async ({ group, ranges, mode, natives }) => {
      const pause = () => new Promise((res) => setTimeout(res, 500));
      const nextFrame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      await window.__postState();
      if (mode === 'paced') await pause();
      performance.mark('bench:tab');
      const t0 = performance.now();
      document.querySelector('#view-tab-whatif').click();
      while (!document.querySelector(group ? '#group-whatif-member' : '#whatif-name')) await new Promise((res) => setTimeout(res, 0));
      await nextFrame();
      const tabMs = performance.now() - t0;
      performance.mark('bench:tabShown');
      if (mode === 'settled') while (document.querySelector('[aria-busy="true"]')) await new Promise((res) => setTimeout(res, 5));
      if (mode === 'paced') await pause();
      const settledAfterMs = performance.now() - t0;
      if (natives) new Function(`%DebugPrint("BENCH-EAGER-${mode}")`)();
      const step = await window.__step({ add: 'extra-1', ranges }, group);
      return { tabMs, settledAfterMs, stepMs: step.stepMs, engine: document.body.dataset.engine };
    },
    { group: c.group === true, ranges: c.stickyRanges?.[0], mode, natives: !!JS_FLAGS },
  );
  await stopProfile(cdp, name);
  if (DUMP_TRACES) dumpTrace(name, await stopTrace(page));
  return { tabMs: round(r.tabMs), stepMs: round(r.stepMs), settledAfterMs: round(r.settledAfterMs), warmUpDone: warmUpEnded(r.engine) };
}

/**
 * Whether the panel's body says no warm-up is running: "pending" and "warming" say one is (a
 * panel drawn again starts it over); a bundle without the attribute (the baseline) has none.
 */
function warmUpEnded(engine) {
  return engine !== 'pending' && engine !== 'warming';
}

/** Opens the What-if view, adds five consumers one step at a time, then removes one. */
async function whatIfSteps(page, c, cdp, name) {
  const group = c.group === true;
  await page.evaluate(() => document.querySelector('#view-tab-whatif').click());
  await settle(page);
  // A renderer without the editor (the group what-if before this branch) has no step to time.
  if (!(await page.evaluate((sel) => document.querySelector(sel) !== null, group ? '#group-whatif-member' : '#whatif-name'))) return null;
  let stepNo = 0;
  const step = async (act) => {
    await startTrace(page);
    await startProfile(cdp);
    if (JS_FLAGS) await page.evaluate((n) => new Function(`%DebugPrint("BENCH-STEP-${n}")`)(), stepNo);
    const r = await page.evaluate(({ act, group }) => window.__step(act, group), { act, group });
    await stopProfile(cdp, `${name}-${stepNo++}${act.add ? '' : '-remove'}`);
    const trace = await stopTrace(page);
    dumpTrace(`${name}-${stepNo - 1}${act.add ? '' : '-remove'}`, trace);
    r.cpuMs = mainThread(trace, 'bench:wa', 'bench:wb').cpuMs;
    r.layoutObjects = mainThread(trace, 'bench:wa', 'bench:wc').layoutObjects;
    return r;
  };
  const steps = [];
  for (let i = 1; i <= STEPS; i++) steps.push(await step({ add: `extra-${i}`, ranges: c.stickyRanges?.[i - 1] }));
  const remove = await step({});
  const later = steps.slice(1, 5);
  const lastFive = steps.slice(-5);
  return {
    firstMs: round(steps[0].stepMs),
    firstCpuMs: round(steps[0].cpuMs),
    nextMedianMs: round(med(later.map((s) => s.stepMs))),
    nextCpuMs: round(med(later.map((s) => s.cpuMs))),
    removeMs: round(remove.stepMs),
    removeCpuMs: round(remove.cpuMs),
    removeWithApplyCheckMs: round(remove.allMs),
    /** Layout objects from the click until nothing is busy: the median of steps 2-5, and the remove step. */
    nextLayoutObjects: med(later.map((s) => s.layoutObjects)),
    removeLayoutObjects: remove.layoutObjects,
    /** Each add step's CPU time, in order (the JSON only). */
    stepsCpuMs: steps.map((x) => round(x.cpuMs)),
    /**
     * With `--steps 10` or more, the median of the last five add steps: whether a long what-if's
     * later steps cost more than its first (its moved share compares the state before the first
     * step with the state after the last; its ordering note explains every step).
     */
    ...(STEPS >= 10 ? { lastMedianMs: round(med(lastFive.map((s) => s.stepMs))), lastCpuMs: round(med(lastFive.map((s) => s.cpuMs))) } : {}),
  };
}

function print(results) {
  const mark = (v, goal) => (Number.isFinite(v) ? `${v}${v <= goal ? ' ok' : ' MISSED'}` : '-');
  const rows = results.map((r) => ({
    case: r.case,
    renderer: r.renderer,
    [`first picture cold (ms, goal ${GOALS.firstPicture})`]: mark(r.firstPicture.coldMs, GOALS.firstPicture),
    'cold main-thread CPU (ms)': r.firstPicture.coldCpuMs,
    [`first picture warm (ms)`]: mark(r.firstPicture.warmMs, GOALS.firstPicture),
    'warm CPU (ms)': r.firstPicture.warmCpuMs,
    'complete cold / warm (ms)': `${r.complete.coldMs} / ${r.complete.warmMs}`,
    [`what-if step first / next${STEPS >= 10 ? ` / steps ${STEPS - 4}-${STEPS}` : ''} (ms, goal ${GOALS.whatIf})`]: r.whatIf ? `${mark(r.whatIf.firstMs, GOALS.whatIf)} / ${mark(r.whatIf.nextMedianMs, GOALS.whatIf)}${r.whatIf.lastMedianMs !== undefined ? ` / ${mark(r.whatIf.lastMedianMs, GOALS.whatIf)}` : ''}` : '-',
    [`what-if CPU first / next${STEPS >= 10 ? ' / last five' : ''} (ms)`]: r.whatIf ? `${r.whatIf.firstCpuMs} / ${r.whatIf.nextCpuMs}${r.whatIf.lastCpuMs !== undefined ? ` / ${r.whatIf.lastCpuMs}` : ''}` : '-',
    'remove step, CPU (ms)': r.whatIf ? `${mark(r.whatIf.removeMs, GOALS.whatIf)}, ${r.whatIf.removeCpuMs}` : '-',
    [`zoom/pan frame work p50 / p95 (ms, goal ${GOALS.frame})`]: r.zoom ? `${r.zoom.frameP50Ms} / ${mark(r.zoom.frameP95Ms, GOALS.frame)}` : '-',
    'zoom/pan CPU p50 / p95 (ms)': r.zoom ? `${r.zoom.cpuP50Ms} / ${r.zoom.cpuP95Ms}` : '-',
    'zoom/pan frames missed (fps)': r.zoom ? `${r.zoom.framesMissed} of ${r.zoom.inputs}${r.zoom.framesMissed === 0 ? ' ok' : ' MISSED'} (${r.zoom.fps})` : '-',
    'input to its frame p50 / p95 (ms)': r.zoom ? `${r.zoom.latencyP50Ms} / ${r.zoom.latencyP95Ms}` : '-',
    [`zoom at once: frame work p95 (goal ${GOALS.frame}) / frames missed, warm-up ended`]: r.zoomEarly ? `${mark(r.zoomEarly.frameP95Ms, GOALS.frame)} / ${r.zoomEarly.framesMissed} of ${r.zoomEarly.inputs}${r.zoomEarly.framesMissed === 0 ? ' ok' : ' MISSED'}, ${r.zoomEarly.warmUpDone ? 'yes' : 'no'}` : '-',
    [`JS heap (MB, goal ${GOALS.heapMB})`]: r.heap ? mark(Math.max(r.heap.afterOpenMB, r.heap.afterWhatIfMB ?? 0), GOALS.heapMB) : '-',
    'DOM nodes in view': r.elements,
  }));
  console.log('\nPanel at production scale, 100 keys marked (Chromium, 1,200 x 900 px; medians of cold/warm runs)');
  console.table(rows);
  const extra = results.map((r) => ({ case: r.case, renderer: r.renderer, 'host: frames built (ms)': r.hostFramesMs, 'Node: what-if / note, warm (ms)': r.nodeWhatIf ? `${r.nodeWhatIf.whatIfMs} / ${r.nodeWhatIf.noteMs}` : '-', 'remove + apply check (ms)': r.whatIf?.removeWithApplyCheckMs ?? '-', 'layout objects: opening cold / warm, step, remove': `${r.complete.coldLayoutObjects} / ${r.complete.warmLayoutObjects}, ${r.whatIf ? `${r.whatIf.nextLayoutObjects}, ${r.whatIf.removeLayoutObjects}` : '-'}`, 'opened to idle warm-up done (ms)': r.readyMs ?? '-', 'longest task after the first picture (ms)': r.longestIdleTaskMs === 0 ? '< 50' : (r.longestIdleTaskMs ?? '-'), [`not waiting: what-if tab / step at once / step once the tab settled / at a user's pace (ms, goal ${GOALS.whatIf})`]: r.eager ? `${r.eager.tabMs} / ${mark(r.eager.stepMs, GOALS.whatIf)} / ${mark(r.eager.settledStepMs, GOALS.whatIf)} (settled after ${r.eager.settledAfterMs}) / ${mark(r.eager.pacedStepMs, GOALS.whatIf)}` : '-' }));
  console.table(extra);
}

function med(xs) {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

function round(x) {
  return Math.round(x * 10) / 10;
}
