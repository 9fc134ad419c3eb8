/**
 * Export of an analysis: the figures as CSV (one long table, analyze/csvExport.ts) or as the JSON
 * the CLI's `analyze` prints, to a file the user picks in a save dialog. Written through
 * `workspace.fs`, so it works on every file system VS Code has, in the web too.
 */
import * as vscode from 'vscode';
import { toCsv } from '../../analyze/csvExport';
import type { AnalysisRunInfo, ExportOutcome } from '../../shared/protocol';

export interface ExportOutcomeInfo {
  outcome: ExportOutcome;
  message: string;
  uri?: vscode.Uri;
}

/** The file's contents; refuses what would read as more than it is. */
export function exportText(run: AnalysisRunInfo, format: 'csv' | 'json'): string | { refused: string } {
  const r = run.result;
  if (run.status === 'running' || !r) return { refused: run.status === 'running' ? vscode.l10n.t('The analysis is still running: export it when it has finished (or cancel it).') : vscode.l10n.t('This analysis has no figures to export.') };
  if (format === 'csv') {
    // A CSV row cannot say that its figures cover only part of the input; JSON carries the status.
    if (r.status !== 'complete') return { refused: vscode.l10n.t('The analysis was stopped before the end: CSV cannot mark its figures as partial. Export JSON (its "status" says "cancelled") or run it again.') };
    return toCsv(r);
  }
  return JSON.stringify(r, null, 2) + '\n';
}

function defaultName(run: AnalysisRunInfo, format: 'csv' | 'json'): string {
  const base = run.source.replace(/^selection of /, '').replace(/ \(.*\)$/, '').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '-') || 'keys';
  return `${base}-analysis${run.whatIf ? '-what-if' : ''}.${format}`;
}

/** Asks where (unless `target` is given) and writes the file. */
export async function exportAnalysis(run: AnalysisRunInfo, format: 'csv' | 'json', target?: vscode.Uri): Promise<ExportOutcomeInfo> {
  const text = exportText(run, format);
  if (typeof text !== 'string') return { outcome: 'failed', message: text.refused };
  let uri = target;
  if (!uri) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = defaultName(run, format);
    uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Key Routing: export the analysis of {0} as {1}', run.source, format.toUpperCase()),
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Export'),
    });
    if (!uri) return { outcome: 'cancelled', message: vscode.l10n.t('Export cancelled.') };
  }
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  } catch (e) {
    return { outcome: 'failed', message: vscode.l10n.t('Could not write {0}: {1}', uri.fsPath || uri.toString(), (e as Error).message) };
  }
  return { outcome: 'saved', message: vscode.l10n.t('Saved {0} to {1}.', format.toUpperCase(), vscode.workspace.asRelativePath(uri)), uri };
}
