// Renders the Marketplace icon, media/icon.svg, to media/icon.png (128x128, transparent corners)
// with Debian's Chromium through playwright-core, as the UI tests drive it, then makes the PNG
// smaller where Debian's pngquant, zopfli and advancecomp are installed: a palette of 32 colours
// without dithering (the icon is six flat colours and their antialiased edges, 208 colours in all:
// pngquant's mean squared error against the full rendering is under 3 of 255^2, nothing visible),
// then zopflipng's and advpng's deflate: 4.0 KB -> 0.9 KB. The .vsix stores the PNG as it is, and its
// budget is tight. Run it after changing the SVG and commit both: `node scripts/render-icon.mjs`.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, launchChromium, root } from '../test/e2e/codeServer.mjs';

const SIZE = 128;
const svg = readFileSync(join(root, 'media/icon.svg'), 'utf8');
const profile = join(cacheDir, 'render-icon-chromium');
const browser = await launchChromium(profile, { viewport: { width: SIZE, height: SIZE } });
try {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(`<html><body style="margin:0;background:transparent"><img id="i" width="${SIZE}" height="${SIZE}" src="${src}"></body></html>`);
  await page.locator('#i').evaluate((img) => img.decode());
  const png = await page.locator('#i').screenshot({ omitBackground: true });
  const out = join(root, 'media/icon.png');
  writeFileSync(out, png);
  for (const [tool, args] of [
    ['pngquant', ['--speed', '1', '--nofs', '--strip', '--verbose', '--force', '--output', out, '32', out]],
    ['zopflipng', ['-y', '-m', out, out]],
    ['advpng', ['-z', '-4', out]],
  ]) {
    const r = spawnSync(tool, args, { encoding: 'utf8' });
    const mse = /MSE=[\d.]+/.exec(r.stderr ?? '');
    if (mse) console.log(`pngquant: ${mse[0]} against the full rendering`);
    if (r.error) console.log(`${tool} not found (Debian package ${{ zopflipng: 'zopfli', advpng: 'advancecomp' }[tool] ?? tool}): left out`);
    else if (r.status !== 0) throw new Error(`${tool} failed (exit ${r.status}): ${r.stderr}`);
  }
  console.log(`media/icon.png: ${SIZE}x${SIZE}, ${statSync(join(root, 'media/icon.png')).size} bytes`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
