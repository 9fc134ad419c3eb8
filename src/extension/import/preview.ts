/**
 * The settings change an import would make, shown before anything is written: a diff editor of
 * the changed settings (before | after) as read-only virtual documents.
 */
import * as vscode from 'vscode';

export const PREVIEW_SCHEME = 'key-routing-import';

export class ImportPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #docs = new Map<string, string>();
  readonly #registration: vscode.Disposable;
  #next = 0;

  constructor() {
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#docs.get(uri.toString()) ?? '';
  }

  /** Opens the diff of `before` and `after` (settings objects) and returns the two documents' URIs. */
  async show(before: Record<string, unknown>, after: Record<string, unknown>, title: string): Promise<[vscode.Uri, vscode.Uri]> {
    const n = ++this.#next;
    const left = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/settings before import ${n}.json` });
    const right = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/settings after import ${n}.json` });
    this.#docs.set(left.toString(), JSON.stringify(before, null, 2) + '\n');
    this.#docs.set(right.toString(), JSON.stringify(after, null, 2) + '\n');
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    return [left, right];
  }

  dispose(): void {
    this.#registration.dispose();
    this.#docs.clear();
  }
}
