/**
 * What Import Topology asks the user, as one interface: the command drives it, the real one asks
 * through VS Code's pickers and modals, and the extension-host tests script it (only in test mode).
 */
import * as vscode from 'vscode';
import type { ImportKind } from '../../import';

export type SourceKind = 'file' | 'clipboard' | 'admin';

export interface WriteSummary {
  /** One line per settings entry: `adds Pulsar topic x`, `replaces consumer group g`. */
  changes: string[];
  notes: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  source: string;
}

export interface ImportUi {
  pickKind(): Promise<ImportKind | undefined>;
  pickSource(kind: ImportKind): Promise<SourceKind | undefined>;
  pickFile(kind: ImportKind): Promise<vscode.Uri | undefined>;
  /** A Pulsar topic name, from the configured ones or typed. */
  pickTopic(configured: string[]): Promise<string | undefined>;
  pickSubscription(names: string[]): Promise<string | undefined>;
  /** The admin URL, offered `proposed` where there is one. */
  adminUrl(proposed: string | undefined): Promise<string | undefined>;
  /** The workspace settings proposed `url`: send the stored (or a new) token there? */
  confirmProposedUrl(url: string): Promise<'send' | 'withoutToken' | undefined>;
  /** A token for `url`: undefined cancels, '' means none. */
  token(url: string, again: boolean): Promise<string | undefined>;
  /** `url` is plain HTTP and a token would go along. */
  confirmPlainHttp(url: string): Promise<'once' | 'always' | undefined>;
  /** After the broker refused the token: try another one? */
  retryToken(message: string): Promise<boolean>;
  /** Shows the change (a diff preview) and asks before writing. */
  confirmWrite(summary: WriteSummary): Promise<boolean>;
}

// The bundle loads this module where there is no `vscode` too (see src/main.ts): `l10n` is then
// undefined, and only the extension host calls `l10n.t`.
const l10n = vscode.l10n;

const kinds = (): Array<{ kind: ImportKind; label: string; detail: string }> => [
  { kind: 'pulsar-stats', label: l10n.t('Pulsar topic stats'), detail: l10n.t('pulsar-admin topics stats, partitioned-stats --per-partition, or the admin REST API') },
  { kind: 'kafka-groups', label: l10n.t('Kafka consumer groups'), detail: l10n.t('the output of kafka-consumer-groups.sh --describe (one group or --all-groups)') },
  { kind: 'kafka-topics', label: l10n.t('Kafka topics'), detail: l10n.t('the output of kafka-topics.sh --describe: partition counts and topic ids') },
];

/** The real UI: quick picks, input boxes and modal dialogs. */
export class VsCodeImportUi implements ImportUi {
  constructor(private readonly preview: { show(before: Record<string, unknown>, after: Record<string, unknown>, title: string): Promise<unknown> }) {}

  async pickKind(): Promise<ImportKind | undefined> {
    const pick = await vscode.window.showQuickPick(
      kinds().map((k) => ({ label: k.label, detail: k.detail, importKind: k.kind })),
      { title: l10n.t('Key Routing: Import Topology'), placeHolder: l10n.t('What does the report describe?'), ignoreFocusOut: true },
    );
    return pick?.importKind;
  }

  async pickSource(kind: ImportKind): Promise<SourceKind | undefined> {
    const items: Array<vscode.QuickPickItem & { source: SourceKind }> = [
      { label: l10n.t('From a File...'), source: 'file' },
      { label: l10n.t('From the Clipboard'), detail: l10n.t('the command output or JSON you copied'), source: 'clipboard' },
    ];
    if (kind === 'pulsar-stats' && process.env.KEY_ROUTING_WEB !== '1') {
      items.push({ label: l10n.t('From the Pulsar Admin API...'), detail: l10n.t('GET .../stats from a broker (the token stays in VS Code\u2019s secret storage)'), source: 'admin' });
    } else if (kind === 'pulsar-stats') {
      items.push({ label: l10n.t('From the Pulsar Admin API...'), detail: l10n.t('from the browser: the broker must allow this origin (CORS)'), source: 'admin' });
    }
    const pick = await vscode.window.showQuickPick(items, { title: l10n.t('Key Routing: Import Topology'), placeHolder: l10n.t('Where is the report?'), ignoreFocusOut: true });
    return pick?.source;
  }

  async pickFile(kind: ImportKind): Promise<vscode.Uri | undefined> {
    const filters: Record<string, string[]> = kind === 'pulsar-stats' ? { [l10n.t('JSON')]: ['json'], [l10n.t('All files')]: ['*'] } : { [l10n.t('Text')]: ['txt', 'log', 'out'], [l10n.t('All files')]: ['*'] };
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: l10n.t('Import'), filters, title: l10n.t('Key Routing: Import Topology') });
    return picked?.[0];
  }

  async pickTopic(configured: string[]): Promise<string | undefined> {
    const other = l10n.t('Another topic...');
    if (configured.length > 0) {
      const pick = await vscode.window.showQuickPick([...configured, other], { title: l10n.t('Key Routing: Import Topology'), placeHolder: l10n.t('Which topic are the stats of?'), ignoreFocusOut: true });
      if (pick === undefined) return undefined;
      if (pick !== other) return pick;
    }
    return vscode.window.showInputBox({
      title: l10n.t('Key Routing: Import Topology'),
      prompt: l10n.t('The full Pulsar topic name'),
      placeHolder: 'persistent://public/default/orders',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? l10n.t('The name must not be empty.') : undefined),
    });
  }

  async pickSubscription(names: string[]): Promise<string | undefined> {
    return vscode.window.showQuickPick(names, { title: l10n.t('Key Routing: Import Topology'), placeHolder: l10n.t('The topic has several Key_Shared subscriptions: which one?'), ignoreFocusOut: true });
  }

  async adminUrl(proposed: string | undefined): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: l10n.t('Key Routing: Import Topology'),
      prompt: l10n.t('The broker\u2019s admin URL (webServicePort), e.g. https://pulsar.example.com:8443'),
      value: proposed ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : l10n.t('Give an http:// or https:// URL.')),
    });
  }

  async confirmProposedUrl(url: string): Promise<'send' | 'withoutToken' | undefined> {
    const send = l10n.t('Use It With My Token');
    const without = l10n.t('Connect Without a Token');
    const choice = await vscode.window.showWarningMessage(
      l10n.t('The workspace settings propose the Pulsar admin URL {0}.', url),
      { modal: true, detail: l10n.t('Only confirm an address you know: your admin token would be sent to it. Your answer is remembered for this URL (not in the workspace).') },
      send,
      without,
    );
    return choice === send ? 'send' : choice === without ? 'withoutToken' : undefined;
  }

  async token(url: string, again: boolean): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: l10n.t('Key Routing: Import Topology'),
      prompt: again ? l10n.t('Another token for {0} (empty for none)', url) : l10n.t('The admin token for {0} (empty for none); it is kept in VS Code\u2019s secret storage', url),
      password: true,
      ignoreFocusOut: true,
    });
  }

  async confirmPlainHttp(url: string): Promise<'once' | 'always' | undefined> {
    const once = l10n.t('Send It');
    const always = l10n.t('Always for This URL');
    const choice = await vscode.window.showWarningMessage(
      l10n.t('{0} is plain HTTP: the token would travel unencrypted.', url),
      { modal: true, detail: l10n.t('Anyone on the network path can read it. Prefer the broker\u2019s HTTPS port.') },
      once,
      always,
    );
    return choice === once ? 'once' : choice === always ? 'always' : undefined;
  }

  async retryToken(message: string): Promise<boolean> {
    const again = l10n.t('Enter Another Token');
    return (await vscode.window.showErrorMessage(message, again)) === again;
  }

  async confirmWrite(summary: WriteSummary): Promise<boolean> {
    await this.preview.show(summary.before, summary.after, l10n.t('Key Routing: settings after importing {0}', summary.source));
    const write = l10n.t('Write Settings');
    const detail = [...summary.changes, ...(summary.notes.length > 0 ? ['', ...summary.notes] : [])].join('\n');
    const choice = await vscode.window.showInformationMessage(l10n.t('Write the imported topology to the workspace settings?'), { modal: true, detail }, write);
    return choice === write;
  }
}
