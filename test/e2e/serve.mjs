// `npm start`: a real VS Code (code-server) with this extension and the examples/ workspace, on
// 127.0.0.1. Installs code-server into .vscode-test/ on first run (about 2 minutes), builds,
// links the extension into a private extensions dir (the test harness's session, kept between
// runs in .vscode-test/serve/), and prints the URL to open.
//   node test/e2e/serve.mjs [--port N] [--folder PATH]
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { build, freePort, root, workbenchUrl } from './codeServer.mjs';
import { Session } from './workbench.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
/** Whether a port is free on 127.0.0.1 now. */
const isFree = (p) =>
  new Promise((r) => {
    const s = createServer();
    s.once('error', () => r(false));
    s.listen(p, '127.0.0.1', () => s.close(() => r(true)));
  });
// 8080 unless it is taken (then any free port), or the port asked for.
const port = arg('--port') ? Number(arg('--port')) : (await isFree(8080)) ? 8080 : await freePort();
const folder = resolve(arg('--folder') ?? join(root, 'examples'));

build();
let session;
try {
  session = await Session.start({ name: 'serve', fresh: false, browser: false, folder, port });
} catch (e) {
  if (!arg('--port') && /EADDRINUSE|address already in use/i.test(String(e.message))) {
    console.error(`port ${port} is taken; try: npm start -- --port 8081`);
  } else console.error(String(e.message ?? e));
  process.exit(1);
}
const url = workbenchUrl(session.server.url, folder);
console.log(`\nVS Code (code-server) with Key Routing Inspector and the ${folder === join(root, 'examples') ? 'examples/' : folder} workspace:\n\n  ${url}\n`);
console.log('Open keys.txt, select a key (user-1), right-click > Show Route. Rebuild with `npm run build` and reload the page to pick up changes.');
console.log('Press Ctrl+C to stop.');

const shutdown = async () => {
  await session.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
