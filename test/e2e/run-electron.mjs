// `npm run test:electron`: the extension-host tests (test/exthost) in VS Code's own Electron
// build through @vscode/test-electron, for contributors with internet access: it downloads
// VS Code 1.100.3 into .vscode-test/ on first use. (Offline, as on CI here, use
// `npm run test:exthost`, which runs the same tests in code-server.)
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { cacheDir, root } from './codeServer.mjs';

const workspace = join(cacheDir, 'electron', 'workspace');
rmSync(workspace, { recursive: true, force: true });
cpSync(join(root, 'examples'), workspace, { recursive: true });
try {
  const code = await runTests({
    version: '1.100.3',
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'dist/test/exthost/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
  process.exit(code);
} catch (e) {
  console.error(`test:electron failed: ${e.message ?? e}`);
  console.error('It needs to download VS Code (update.code.visualstudio.com); offline, run `npm run test:exthost` instead.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
