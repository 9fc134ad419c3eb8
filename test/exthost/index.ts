/**
 * Entry of the tests that run inside VS Code's extension host (code-server through
 * test/e2e/run.mjs, or Electron through test/e2e/run-electron.mjs). Mocha stays
 * external (required from node_modules at run time); results go to console.log, which the
 * workbench forwards to the driver, closing with "N passed, N failed".
 */
import Mocha from 'mocha';
import { defineAnalyzeTests } from './analyze.test';
import { defineExtensionTests } from './extension.test';
import { defineTreeTests } from './tree.test';
import { defineGroupTests } from './groups.test';
import { defineImportTests } from './importTopology.test';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false });
  // Bundled suites call mocha's describe/it, which bind to the context set by this event.
  mocha.suite.emit('pre-require', globalThis, 'exthost', mocha);
  defineExtensionTests();
  defineAnalyzeTests();
  defineTreeTests();
  defineGroupTests();
  defineImportTests();
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const runner = mocha.reporter(Mocha.reporters.Base).run(() => {
      console.log(`${passed} passed, ${failed} failed`);
      if (failed > 0) reject(new Error(`${failed} extension-host test${failed === 1 ? '' : 's'} failed`));
      else resolve();
    });
    runner.on('pass', (t) => {
      passed++;
      console.log(`  ✔ ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on('fail', (t, err: Error) => {
      failed++;
      console.log(`  ✖ ${t.fullTitle()}\n      ${String(err?.stack ?? err).split('\n').slice(0, 8).join('\n      ')}`);
    });
  });
}
