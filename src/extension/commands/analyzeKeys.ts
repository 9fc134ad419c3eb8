/**
 * "Key Routing: Analyze Keys": the key population of a selection, a whole file, or a file picked
 * from disk, on every configured topic. From the palette it asks what to read; from the editor's
 * context menu it takes the selection (or the whole file); from the explorer's, the file.
 *
 * Given an options object instead (keybindings, other extensions, tests) it asks nothing:
 *   { uri?, selection?: boolean, layout?: 'lines'|'csv'|'tsv'|'jsonl', column?, field?,
 *     keyFormat?: 'utf8'|'hex', whatIf?: { topic, events: ['+C5', ...] }, token? }
 * It resolves with the outcome (figures, status, where it ran), or undefined if the user backed out.
 */
import * as vscode from 'vscode';
import type { KeyFormat } from '../../analyze/readers';
import { parseEvent, type TopologyEvent } from '../../engine/events';
import { askFormat, type ChosenFormat } from '../analysis/askFormat';
import { inputSpec, type Layout } from '../analysis/inputFormat';
import type { AnalysisOutcome, AnalysisService } from '../analysis/service';
import { baseName, documentSource, fileSource, type AnalysisSource } from '../analysis/source';
import { requireTopics, type Services } from '../present';

export interface AnalyzeKeysOptions {
  uri?: vscode.Uri;
  /** With `uri` or the active editor: its selection rather than the whole file. */
  selection?: boolean;
  layout?: Layout;
  column?: string;
  field?: string;
  keyFormat?: KeyFormat;
  whatIf?: { topic: string; events: Array<string | TopologyEvent> };
  token?: vscode.CancellationToken;
}

/** Bytes read from the start of a file to guess its layout. */
const HEAD_BYTES = 64 * 1024;

function isOptions(v: unknown): v is AnalyzeKeysOptions {
  return typeof v === 'object' && v !== null && !(v instanceof vscode.Uri) && ('layout' in v || 'uri' in v || 'selection' in v);
}

/**
 * `arg`: a URI from a context menu, or options. The explorer's menu passes the selected files as
 * `second` (an array): a file from the explorer is the file, never the editor's selection.
 */
export async function analyzeKeys(s: Services, service: AnalysisService, arg?: unknown, second?: unknown): Promise<AnalysisOutcome | undefined> {
  if (!requireTopics(s)) return undefined;
  const options = isOptions(arg) ? arg : undefined;
  const uri = arg instanceof vscode.Uri ? arg : options?.uri;
  const selection = options ? options.selection === true : !Array.isArray(second);
  const source = uri ? sourceOfUri(uri, selection) : options ? activeSource(selection) : await pickSource();
  if (!source) return undefined;

  let format: ChosenFormat | undefined;
  if (options?.layout) {
    try {
      format = { input: inputSpec(options.layout, options.layout === 'jsonl' ? options.field : options.column), keyFormat: options.keyFormat ?? 'utf8' };
    } catch (e) {
      void vscode.window.showErrorMessage(`Key Routing: Analyze Keys: ${(e as Error).message}`);
      return undefined;
    }
  } else {
    let head: string;
    try {
      head = await headText(source, service);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Key Routing: cannot read {0}: {1}', source.label, (e as Error).message));
      return undefined;
    }
    format = await askFormat(source.kind === 'file' ? source.uri.path : source.document.uri.path, head);
  }
  if (!format) return undefined;

  let whatIf: { topic: string; events: TopologyEvent[] } | undefined;
  if (options?.whatIf) {
    try {
      whatIf = { topic: options.whatIf.topic, events: options.whatIf.events.map((e) => (typeof e === 'string' ? parseEvent(e) : e)) };
    } catch (e) {
      void vscode.window.showErrorMessage(`Key Routing: Analyze Keys: ${(e as Error).message}`);
      return undefined;
    }
  }
  return withoutFiguresInJson(await service.analyze({ source, input: format.input, keyFormat: format.keyFormat, whatIf, token: options?.token }));
}

/**
 * The outcome whole to a caller in the extension host (tests, other commands), and without its
 * figures in the JSON that VS Code sends the workbench when the palette or a menu runs the command:
 * the figures of a production-scale workspace are megabytes (1.5 MB for 100,000 keys on five
 * topics, every partition of a 10,000-partition topic among them), which the workbench would parse
 * and drop. The panel gets them as it always did.
 */
function withoutFiguresInJson(outcome: AnalysisOutcome): AnalysisOutcome {
  const { result: _figures, ...rest } = outcome;
  return Object.assign(outcome, { toJSON: () => rest });
}

/**
 * A file: the editor's selection where the file is the active editor and `selection` is asked
 * for (the editor's context menu) and the selection is not empty; the editor's text where it has
 * unsaved changes (what the user sees); otherwise the file itself, streamed.
 */
function sourceOfUri(uri: vscode.Uri, selection: boolean): AnalysisSource {
  const editor = vscode.window.activeTextEditor;
  if (selection && editor && editor.document.uri.toString() === uri.toString() && !editor.selection.isEmpty) {
    return documentSource(editor.document, editor.selection);
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open && (open.isDirty || open.isUntitled)) return documentSource(open);
  if (uri.scheme === 'untitled' && open) return documentSource(open);
  return fileSource(uri);
}

function activeSource(selection: boolean): AnalysisSource | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Key Routing: Analyze Keys: no editor is open.'));
    return undefined;
  }
  if (selection && !editor.selection.isEmpty) return documentSource(editor.document, editor.selection);
  return sourceOfUri(editor.document.uri, false);
}

interface SourceItem extends vscode.QuickPickItem {
  pick: () => AnalysisSource | Promise<AnalysisSource | undefined> | undefined;
}

/** From the palette: the selection, the active file, or a file from disk. */
async function pickSource(): Promise<AnalysisSource | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return pickFile();
  const doc = editor.document;
  const items: SourceItem[] = [];
  if (!editor.selection.isEmpty) {
    const sel = documentSource(doc, editor.selection);
    items.push({ label: vscode.l10n.t('The selection'), description: sel.label, pick: () => sel });
  }
  items.push({ label: vscode.l10n.t('The whole file'), description: doc.isUntitled ? vscode.l10n.t('Untitled') : baseName(doc.uri), pick: () => sourceOfUri(doc.uri, false) });
  items.push({ label: 'A file from disk…', description: 'streamed, never read whole into memory', pick: pickFile });
  const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Key Routing: Analyze Keys: which keys?'), placeHolder: vscode.l10n.t('Which keys?'), ignoreFocusOut: true });
  return choice ? choice.pick() : undefined;
}

async function pickFile(): Promise<AnalysisSource | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Key Routing: Analyze Keys: a file of keys'),
    openLabel: vscode.l10n.t('Analyze'),
    canSelectMany: false,
    canSelectFolders: false,
    filters: { [vscode.l10n.t('Key files')]: ['txt', 'keys', 'csv', 'tsv', 'tab', 'jsonl', 'ndjson', 'json', 'hex', 'log'], [vscode.l10n.t('All files')]: ['*'] },
  });
  return picked?.[0] ? sourceOfUri(picked[0], false) : undefined;
}

/** The first bytes of the input as text, for the format guess. */
async function headText(source: AnalysisSource, service: AnalysisService): Promise<string> {
  if (source.kind === 'document') {
    const start = source.range?.start ?? new vscode.Position(0, 0);
    return source.document.getText(new vscode.Range(start, new vscode.Position(start.line + 20, 0)));
  }
  const bytes = await service.backend.head(source.uri, HEAD_BYTES);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
