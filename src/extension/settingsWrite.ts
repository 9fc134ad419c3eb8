/**
 * Writes a workspace setting: with VS Code's `update` where the value is small (it keeps the file's
 * own formatting), and in one go where VS Code's formatting would take long (settingsText.ts).
 */
import * as vscode from 'vscode';
import { withSetting } from './settingsText';

/**
 * Compact JSON of this many characters takes VS Code's writer under 50 ms on this machine class
 * (a STICKY subscription of 500 consumers); from there its time grows fast: 0.4 s at 30,000, 1.1 s
 * at 44,000.
 */
const LARGE = 20_000;

/** Resolves once VS Code reads the new value, as `update` does. */
export async function writeSetting(key: string, value: unknown): Promise<void> {
  const cfg = vscode.workspace.getConfiguration();
  const file = vscode.workspace.workspaceFile;
  const folder = vscode.workspace.workspaceFolders?.[0];
  const uri = file ?? (folder && vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'));
  const json = JSON.stringify(value);
  try {
    // An open file with unsaved changes: `update` says so. The same value: nothing would change,
    // and no change event come.
    if (uri && json.length > LARGE && json !== JSON.stringify(cfg.inspect(key)?.workspaceValue) && !vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.path === uri.path)) {
      // No file yet (or an untitled workspace's): the setting alone, or VS Code's writer.
      const text = await vscode.workspace.fs.readFile(uri).then((b) => new TextDecoder().decode(b), () => '{}');
      const next = withSetting(text, file ? ['settings', key] : [key], value);
      if (next !== undefined) {
        const read = new Promise<void>((resolve) => {
          const d = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(key) && resolve(d.dispose()));
        });
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(next));
        return read;
      }
    }
  } catch {
    // A text nested past the parser's stack, a file that cannot be written: VS Code's writer says what is wrong.
  }
  await cfg.update(key, value, vscode.ConfigurationTarget.Workspace);
}
