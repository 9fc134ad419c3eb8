/** The keys of an editor's selections, through the pure extraction in keyExtraction.ts. */
import * as vscode from 'vscode';
import { extractKeys, DEFAULT_LIMITS, type DocLike, type Extraction, type Limits, type Span } from './keyExtraction';

export function docLike(doc: vscode.TextDocument): DocLike {
  return {
    lineCount: doc.lineCount,
    lineText: (line) => doc.lineAt(line).text,
    offsetAt: (p) => doc.offsetAt(new vscode.Position(p.line, p.character)),
    getText: (s) => doc.getText(new vscode.Range(s.start.line, s.start.character, s.end.line, s.end.character)),
  };
}

export function spanOf(r: vscode.Range): Span {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

export function keysFromEditor(editor: vscode.TextEditor, limits: Limits = DEFAULT_LIMITS): Extraction {
  // Selections in document order, as the user reads them.
  const sels = [...editor.selections].sort((a, b) => a.start.compareTo(b.start));
  return extractKeys(docLike(editor.document), sels.map(spanOf), editor.document.languageId, limits);
}
