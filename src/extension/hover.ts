/**
 * The route of the string literal under the mouse, in the languages the user opted in
 * (`keyRouting.hover.languages`). In plain text, properties and YAML a bare word counts too.
 * Cheap by construction: one line is scanned and the engine routes in microseconds.
 */
import * as vscode from 'vscode';
import { HOVER_LANGUAGES, type RoutingConfig } from './config';
import { dialectOf, keyAtPosition } from './keyExtraction';
import { PARTITIONERS, type KafkaPartitionerName } from '../engine/kafka/partitioners';
import { disagreeingProducers, groupMembers, shortNames, type KeyRoutes } from './routeFormat';
import { routeKeys } from './settingsModel';
import { keyText } from '../shared/keyText';

/** Lines longer than this are not scanned (minified files, data dumps). */
const MAX_LINE = 20_000;
const WORDS_COUNT = new Set(['plaintext', 'properties', 'yaml']);

export class RouteHover implements vscode.Disposable {
  #registration: vscode.Disposable | undefined;
  readonly #subs: vscode.Disposable[] = [];

  constructor(private readonly config: RoutingConfig) {
    this.#register();
    this.#subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(HOVER_LANGUAGES)) this.#register();
      }),
    );
  }

  #register(): void {
    this.#registration?.dispose();
    const languages = this.config.hoverLanguages;
    this.#registration = languages.length
      ? vscode.languages.registerHoverProvider(
          languages.map((language) => ({ language })),
          { provideHover: (doc, pos) => this.provide(doc, pos) },
        )
      : undefined;
  }

  provide(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const model = this.config.model;
    if (model.settings.topics.length === 0) return undefined;
    // The settings file itself is full of topic names, not keys.
    if (isSettingsFile(doc.uri)) return undefined;
    const text = doc.lineAt(pos.line).text;
    if (text.length > MAX_LINE) return undefined;
    const k = keyAtPosition(text, pos.line, pos.character, dialectOf(doc.languageId), WORDS_COUNT.has(doc.languageId));
    if (!k) return undefined;
    const [routes] = routeKeys(model, [k]);
    const range = new vscode.Range(k.span.start.line, k.span.start.character, k.span.end.line, k.span.end.character);
    return new vscode.Hover(hoverMarkdown(routes, shortNames(model.topology.topics.map((t) => t.name))), range);
  }

  dispose(): void {
    this.#registration?.dispose();
    for (const s of this.#subs) s.dispose();
  }
}

/** A settings file (workspace or folder): its strings are topic names, not keys. */
export function isSettingsFile(uri: vscode.Uri): boolean {
  return /\/\.vscode\/settings\.json$/.test(uri.path) || uri.path.endsWith('.code-workspace') || uri.scheme === 'vscode-userdata';
}

/** The name of the hash a Kafka topic's partitioner computes (murmur2, crc32, fnv1a, ...). */
function kafkaHashName(client: string | undefined): string {
  return (client !== undefined && PARTITIONERS[client as KafkaPartitionerName]?.hashFunction) || 'hash';
}

export function hoverMarkdown(k: KeyRoutes, names: Map<string, string>): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${vscode.l10n.t('Key Routing')}** `);
  md.appendCodeblock(keyText(k.label, 80), 'text');
  const cell = (s: string) => s.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`);
  const withBytes = k.routes.some((r) => r.keyHex !== undefined);
  const rows = k.routes.map((r) => {
    const topic = `${cell(names.get(r.topic) ?? r.topic)}${r.stale ? ' \\*' : ''}`;
    // A key the topic's serializer refuses: the reason fills the row.
    if (r.error !== undefined) return `| ${topic} | ✗ ${cell(r.error)} | | | |${withBytes ? ' |' : ''}`;
    const consumer = r.hasSubscription ? (r.consumer ?? vscode.l10n.t('nobody (unowned)')) : groupMembers(r);
    const range = r.range ? `${r.range[0]}-${r.range[1]}` : '';
    const hash = r.system === 'kafka' ? (r.hash === undefined ? '' : `${kafkaHashName(r.client)} ${r.hash}`) : `${r.stickyKeyHash}`;
    const partition = r.partition ?? (r.note !== undefined ? vscode.l10n.t('no fixed partition') : '-');
    const warn = r.disagree ? ' ⚠' : '';
    const bytes = withBytes ? ` ${r.keyHex === undefined ? '' : `\`${r.keyHex}\``} |` : '';
    return `| ${topic} | ${partition}${warn} | ${cell(consumer)} | ${range} | ${cell(hash)} |${bytes}`;
  });
  const consumerHeader = k.routes.some((r) => r.groups) ? vscode.l10n.t('consumer / group: member') : vscode.l10n.t('consumer');
  const columns = [vscode.l10n.t('topic'), vscode.l10n.t('partition'), consumerHeader, vscode.l10n.t('range'), vscode.l10n.t('hash')].join(' | ');
  const head = withBytes ? [`| ${columns} | ${vscode.l10n.t('bytes')} |`, '|---|---|---|---|---|---|'] : [`| ${columns} |`, '|---|---|---|---|---|'];
  md.appendMarkdown(['', ...head, ...rows].join('\n'));
  const notes: string[] = [];
  for (const r of k.routes) {
    const label = cell(names.get(r.topic) ?? r.topic);
    const others = disagreeingProducers(r);
    if (others) notes.push(`⚠ ${vscode.l10n.t('{0}: the producers disagree: {1}', label, cell(others))}`);
    if (r.note !== undefined && r.error === undefined) notes.push(`${label}: ${cell(r.note)}`);
  }
  if (notes.length) md.appendMarkdown('\n\n' + notes.join('  \n'));
  if (k.routes.some((r) => r.stale)) md.appendMarkdown(`\n\n\\* ${vscode.l10n.t('invalid entry: its last good settings are used')}`);
  return md;
}
