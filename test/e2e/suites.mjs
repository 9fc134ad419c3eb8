// The browser suites, in the order `npm test` runs them, all against one code-server and one
// Chromium (test/e2e/run.mjs). A suite is either the extension-host mocha tests (`tests`, a built
// file, run in a window in extension development mode) or a list of scenario modules run in
// order in one window (`scenarios`; see the top of workbench.mjs for a module's shape). To add
// scenarios, add a module to a suite's list, or a suite here.
export const SUITES = {
  exthost: { tests: 'dist/test/exthost/index.js' },
  // import-scenarios first: it adds a topic of its own; ui-scenarios ends with the settings broken.
  ui: { scenarios: ['./import-scenarios.mjs', './ui-scenarios.mjs', './sidebar-scenarios.mjs'] },
  // The workbench with --locale zh-cn: the notifications and the panel in Simplified Chinese.
  l10n: { scenarios: ['./l10n-scenarios.mjs'], locale: 'zh-cn' },
  // VS Code for the Web: the extension in the browser's web worker extension host, analysis in a web worker.
  web: { scenarios: ['./web-scenarios.mjs'], settings: { 'remote.extensionKind': { 'key-routing.key-routing-inspector': ['web'] } }, viewport: { width: 1400, height: 1000 } },
  panel: { scenarios: ['./panel-scenarios.mjs', './analyze-scenarios.mjs'], viewport: { width: 1400, height: 1000 }, timeout: 180_000 },
};
