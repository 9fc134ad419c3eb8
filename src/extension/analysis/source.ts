/**
 * What "Analyze Keys" reads: a file (by URI; streamed from disk in the Node extension host), or a
 * document's text (a selection, an unsaved or changed document), handed to the analyser in chunks
 * of lines so that no copy of the whole text is made.
 */
import * as vscode from 'vscode';
import type { ChunkSource } from '../../analyze/run';

export type AnalysisSource =
  | { kind: 'file'; uri: vscode.Uri; label: string }
  /** `version`: the document's version when it was chosen; a later run of it must see the same text. */
  | { kind: 'document'; document: vscode.TextDocument; range?: vscode.Range; version: number; label: string };

/** Lines per chunk of document text. */
const LINES_PER_CHUNK = 2048;

/** The name of a URI's file, for labels. */
export function baseName(uri: vscode.Uri): string {
  const parts = uri.path.split('/');
  return parts[parts.length - 1] || uri.toString();
}

export function fileSource(uri: vscode.Uri): AnalysisSource {
  return { kind: 'file', uri, label: baseName(uri) };
}

export function documentSource(document: vscode.TextDocument, range?: vscode.Range): AnalysisSource {
  const name = document.isUntitled ? document.uri.path || 'Untitled' : baseName(document.uri);
  const version = document.version;
  if (!range) return { kind: 'document', document, version, label: document.isDirty ? `${name} (unsaved changes)` : name };
  const lines = range.start.line === range.end.line ? `line ${range.start.line + 1}` : `lines ${range.start.line + 1}–${range.end.line + 1}`;
  return { kind: 'document', document, range, version, label: `selection of ${name} (${lines})` };
}

/**
 * The document's text (or the range of it) as UTF-8 chunks of whole lines. Re-readable for the
 * analyser's second pass and for a what-if; if the document is no longer at `version` (edited or
 * closed since it was chosen), reading fails with a message saying so rather than mix two texts.
 */
export function documentChunks(document: vscode.TextDocument, range: vscode.Range | undefined, version: number): ChunkSource {
  const full = new vscode.Range(0, 0, document.lineCount, 0);
  const r = document.validateRange(range ?? full);
  const encoder = new TextEncoder();
  const source: ChunkSource = {
    rereadable: true,
    // Characters, not bytes: close enough for a progress bar (the run caps it below 100 %).
    size: document.offsetAt(r.end) - document.offsetAt(r.start),
    *open() {
      for (let line = r.start.line; line <= r.end.line; line += LINES_PER_CHUNK) {
        if (document.version !== version || document.isClosed) {
          throw new Error(`${baseName(document.uri)} was ${document.isClosed ? 'closed' : 'edited'} after Analyze Keys read it first; run Analyze Keys again`);
        }
        const from = line === r.start.line ? r.start : new vscode.Position(line, 0);
        const next = line + LINES_PER_CHUNK;
        const to = next > r.end.line ? r.end : new vscode.Position(next, 0);
        const text = document.getText(new vscode.Range(from, to));
        if (text.length > 0) yield encoder.encode(text);
      }
    },
  };
  return source;
}
