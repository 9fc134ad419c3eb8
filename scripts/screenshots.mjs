// `npm run screenshots`: the README's pictures, taken by the UI suites in a real code-server
// (test/e2e/run.mjs ui panel) and copied to docs/images/ (kept out of the .vsix by .vscodeignore),
// each cropped to what it shows and scaled down so the repository stays small.
//   node scripts/screenshots.mjs [--no-run] [--no-build]   (--no-run: reuse test-artifacts/ of the last run)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/e2e/codeServer.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'docs/images');

/**
 * What the README shows: the artifact (suite, name after its NN- prefix), the part of the
 * screenshot it crops to (x, y, width, height in its pixels: a window is 1400x900, a panel
 * screenshot the webview's size), and the width it is scaled to.
 */
const SHOTS = [
  { file: 'notification', suite: 'ui', name: 'show-route', crop: [930, 730, 470, 150], width: 470 },
  { file: 'hover', suite: 'ui', name: 'hover', crop: [340, 60, 1060, 330], width: 700 },
  { file: 'sidebar', suite: 'ui', name: 'sidebar', crop: [0, 30, 340, 620], width: 340 },
  { file: 'ring', suite: 'panel', name: 'panel-ring', crop: [0, 0, 1052, 760], width: 640 },
  { file: 'hash-range-what-if', suite: 'panel', name: 'panel-what-if', crop: [0, 0, 1052, 720], width: 700 },
  { file: 'analysis', suite: 'panel', name: 'analysis-02-orders-skew-heavy', crop: [0, 120, 526, 560], width: 460 },
];

if (!process.argv.includes('--no-run')) {
  const r = spawnSync(process.execPath, [join(root, 'test/e2e/run.mjs'), 'ui', 'panel', ...process.argv.filter((a) => a === '--no-build')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) console.log('(some scenarios failed; the screenshots they took are still used)');
}

/** The newest artifact of a suite named NN-<name>.png. */
function artifact(suite, name) {
  const dir = join(root, 'test-artifacts', suite);
  const hits = readdirSync(dir).filter((f) => f.replace(/^\d+-/, '') === `${name}.png`);
  if (!hits.length) throw new Error(`no screenshot ${name} in test-artifacts/${suite}/: did its scenario run?`);
  return join(dir, hits.sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs)[0]);
}

mkdirSync(out, { recursive: true });
const browser = await launchChromium(join(root, '.vscode-test/screenshots-chromium'));
try {
  const page = await browser.context.newPage();
  for (const s of SHOTS) {
    const png = readFileSync(artifact(s.suite, s.name));
    // The image's own size, from its IHDR chunk.
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    const [x, y, cw, ch] = s.crop ?? [0, 0, w, h];
    const scale = s.width / cw;
    await page.setViewportSize({ width: Math.round(cw * scale), height: Math.round(ch * scale) });
    await page.setContent(
      `<body style="margin:0;overflow:hidden"><img style="display:block;transform-origin:0 0;transform:scale(${scale}) translate(${-x}px,${-y}px)" width="${w}" height="${h}" src="data:image/png;base64,${png.toString('base64')}"></body>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    const target = join(out, `${s.file}.png`);
    await page.screenshot({ path: target });
    console.log(`docs/images/${s.file}.png  ${Math.round(statSync(target).size / 1024)} KB  (${s.name})`);
  }
} finally {
  await browser.close();
}
