/**
 * Asks how the keys are laid out (quick pick, the guess first), which CSV/TSV column or JSON Lines
 * field holds them (input box, the guess filled in), and for columns and fields whether the keys
 * are text or hex bytes.
 */
import * as vscode from 'vscode';
import type { InputSpec } from '../../analyze/analyzer';
import type { KeyFormat } from '../../analyze/readers';
import { checkWhere, guessFormat, inputSpec, type FormatGuess, type Layout } from './inputFormat';

export interface ChosenFormat {
  input: InputSpec;
  keyFormat: KeyFormat;
}

interface LayoutItem extends vscode.QuickPickItem {
  layout: Layout;
  keyFormat?: KeyFormat;
}

const layouts = (): LayoutItem[] => [
  { layout: 'lines', keyFormat: 'utf8', label: vscode.l10n.t('One key per line'), detail: vscode.l10n.t('Each line is a key, as text (UTF-8). An empty line is the empty key.') },
  { layout: 'lines', keyFormat: 'hex', label: vscode.l10n.t('One key per line, hex bytes'), detail: vscode.l10n.t('Binary keys: each line is the key\'s bytes in hex, e.g. 0a1bff.') },
  { layout: 'csv', label: vscode.l10n.t('A column of CSV…'), detail: vscode.l10n.t('Comma-separated, RFC 4180 quoting; the column by number (from 1) or by header name.') },
  { layout: 'tsv', label: vscode.l10n.t('A column of TSV…'), detail: vscode.l10n.t('Tab-separated; the column by number (from 1) or by header name.') },
  { layout: 'jsonl', label: vscode.l10n.t('A field of JSON Lines…'), detail: vscode.l10n.t('One JSON object per line; the key is a string field.') },
];


/** Asks; undefined if the user backs out. `head` is the input's first bytes as text. */
export async function askFormat(fileName: string | undefined, head: string): Promise<ChosenFormat | undefined> {
  const guess = guessFormat(fileName, head);
  const items = layouts().map((i) => ({ ...i, description: isGuess(i, guess) ? vscode.l10n.t('guessed: {0}', guess.reason) : undefined }));
  items.sort((a, b) => Number(isGuess(b, guess)) - Number(isGuess(a, guess)));
  const layout = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Key Routing: Analyze Keys: how are the keys laid out?'), placeHolder: vscode.l10n.t('How are the keys laid out?'), ignoreFocusOut: true, matchOnDetail: true });
  if (!layout) return undefined;
  if (layout.layout === 'lines') return { input: { kind: 'lines' }, keyFormat: layout.keyFormat ?? 'utf8' };
  const json = layout.layout === 'jsonl';
  const offered = json ? (guess.layout === 'jsonl' ? guess.field : 'key') : guess.layout === layout.layout ? guess.column : '1';
  const where = await vscode.window.showInputBox({
    title: json ? vscode.l10n.t('Key Routing: Analyze Keys: which field holds the key?') : vscode.l10n.t('Key Routing: Analyze Keys: which column holds the key?'),
    prompt: json ? vscode.l10n.t('The name of the JSON field that holds the key (a string).') : vscode.l10n.t('The column: a number from 1, or the name in the header line (then the first line is the header).'),
    value: offered ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => checkWhere(layout.layout, v),
  });
  if (where === undefined) return undefined;
  const fmt = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Text'), detail: vscode.l10n.t('The key is the text of the field, sent as UTF-8.'), keyFormat: 'utf8' as const },
      { label: vscode.l10n.t('Hex bytes'), detail: vscode.l10n.t('Binary keys: the field holds the key\'s bytes in hex.'), keyFormat: 'hex' as const },
    ],
    { title: vscode.l10n.t('Key Routing: Analyze Keys: how is the key written?'), placeHolder: vscode.l10n.t('How is the key written in that field?'), ignoreFocusOut: true },
  );
  if (!fmt) return undefined;
  return { input: inputSpec(layout.layout, where), keyFormat: fmt.keyFormat };
}

function isGuess(item: LayoutItem, guess: FormatGuess): boolean {
  return item.layout === guess.layout && (item.layout !== 'lines' || item.keyFormat === guess.keyFormat);
}
