// The browser suites (suites.mjs) against one code-server and one Chromium: each suite gets its
// own window on its own scratch copy of examples/. Prints each suite's
// "<suite>: N passed, N failed (S s)" and closes with the total "N passed, N failed".
//   node test/e2e/run.mjs [exthost] [ui] [panel]   the suites to run (default: all, in order)
//     --grep RE     only the scenarios whose name matches (scenario suites; later scenarios may
//                   need the state earlier ones leave)
//     --vsix FILE   install that package instead of linking the tree (the exthost suite still
//                   loads the tree in development mode)
//     --no-build    skip `node esbuild.js` (test/run.mjs has built already)
import { join } from 'node:path';
import { build, root } from './codeServer.mjs';
import { SUITES } from './suites.mjs';
import { runExtensionTests, Session } from './workbench.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const grep = option('--grep');
const vsix = option('--vsix');
const noBuild = args.includes('--no-build');
const names = args.filter((a) => !a.startsWith('--'));
for (const n of names) {
  if (!SUITES[n]) {
    console.log(`unknown suite ${n}; the suites are ${Object.keys(SUITES).join(', ')}`);
    console.log('0 passed, 1 failed');
    process.exit(2);
  }
}
const chosen = names.length ? Object.keys(SUITES).filter((n) => names.includes(n)) : Object.keys(SUITES);
const log = (s) => console.log(`[browser] ${s}`);

const totals = { passed: 0, failed: 0 };
const started = Date.now();
let session;
try {
  if (!noBuild) build(log);
  session = await Session.start({ log, vsix });
  if (grep) session.grep = new RegExp(grep);
  log(`code-server and Chromium up in ${Math.round((Date.now() - started) / 1000)} s`);
  for (const name of chosen) {
    const suite = SUITES[name];
    const t0 = Date.now();
    console.log(`== ${name}`);
    let counts;
    try {
      if (suite.locale || suite.settings) {
        // A display language (code-server's --locale) or user settings read at startup (where
        // extensions run): the suite gets a code-server of its own.
        const own = await Session.start({ log, vsix, name: `run-${name}`, locale: suite.locale, settings: suite.settings });
        try {
          const wb = await own.openWindow(name, { viewport: suite.viewport });
          if (grep) own.grep = session.grep;
          wb.scenarioTimeout = suite.timeout;
          counts = await wb.runModules(suite.scenarios);
          await wb.close();
        } finally {
          await own.close();
        }
      } else if (suite.tests) {
        counts = await runExtensionTests(session, name, join(root, suite.tests));
      } else {
        const wb = await session.openWindow(name, { viewport: suite.viewport });
        wb.scenarioTimeout = suite.timeout;
        counts = await wb.runModules(suite.scenarios);
        await wb.close();
      }
    } catch (e) {
      console.log(`  ✖ ${name}: ${String(e.message ?? e).split('\n').slice(0, 8).join('\n      ')}`);
      counts = { passed: 0, failed: 1 };
    }
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed (${Math.round((Date.now() - t0) / 1000)} s)`);
  }
} catch (e) {
  console.log(`  ✖ browser suites: ${e.message ?? e}`);
  totals.failed += 1;
} finally {
  await session?.close();
}
log(`${chosen.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s; screenshots in test-artifacts/<suite>/`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
