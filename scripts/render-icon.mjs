// Renders the Marketplace icon, media/icon.svg, to media/icon.png (128x128, transparent corners)
// with Debian's Chromium through playwright-core, as the UI tests drive it. Run it after changing
// the SVG and commit both: `node scripts/render-icon.mjs`.
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
  writeFileSync(join(root, 'media/icon.png'), png);
  console.log(`media/icon.png: ${SIZE}x${SIZE}, ${statSync(join(root, 'media/icon.png')).size} bytes`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
