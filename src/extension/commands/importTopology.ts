/**
 * "Key Routing: Import Topology...": a report of the live cluster (Pulsar topic stats, Kafka
 * consumer groups or topics) from a file, the clipboard or, for Pulsar, the admin REST API, into
 * the workspace settings (CONTRACT.md section 4). It shows the settings change first (a diff
 * preview) and writes only after the user confirms; a report that fails writes nothing.
 *
 * The admin token: kept in SecretStorage keyed by the admin URL; sent to a URL from the workspace
 * settings only after the user confirmed that URL (remembered in global state, per URL), and over
 * plain HTTP only after the user agreed; never written to settings, logs or messages.
 */
import * as vscode from 'vscode';
import { TOPICS } from '../../engine/settings';
import { importReport, ImportError, KAFKA_GROUPS, mergeImported, type ImportKind } from '../../import';
import { describePulsarStats } from '../../import/pulsarStats';
import { AdminError, fetchTopicStats, normalizeAdminUrl, type AdminTransport } from '../import/adminApi';
import type { AdminCredentials } from '../import/trust';
import type { ImportUi, SourceKind } from '../import/ui';
import type { Services } from '../present';
import { writeSetting } from '../settingsWrite';

/** The settings that propose an admin URL and tune the requests. */
export const ADMIN_URL = 'keyRouting.pulsarAdmin.url';
export const ADMIN_TIMEOUT = 'keyRouting.pulsarAdmin.timeoutSeconds';
export const ADMIN_CA_FILE = 'keyRouting.pulsarAdmin.caFile';
const LAST_URL = 'keyRouting.pulsarAdmin.lastUrl';

export interface ImportDeps {
  credentials: AdminCredentials;
  state: vscode.Memento;
  /** The REST transport (Node http/https, or fetch on the web). */
  transport(): AdminTransport;
}

export interface ImportOutcome {
  outcome: 'written' | 'cancelled' | 'failed';
  message: string;
  /** The settings keys written. */
  written?: string[];
}

/** The argument a keybinding or a test may give to skip the first pickers. */
interface ImportArg {
  kind?: ImportKind;
  source?: SourceKind;
}

// See src/extension/import/ui.ts.
const l10n = vscode.l10n;

export async function importTopology(s: Services, deps: ImportDeps, ui: ImportUi, arg?: unknown): Promise<ImportOutcome> {
  const given: ImportArg = typeof arg === 'object' && arg !== null ? (arg as ImportArg) : {};
  const result = await run(s, deps, ui, given);
  if (result.outcome === 'written') void vscode.window.showInformationMessage(result.message);
  else if (result.outcome === 'failed') void vscode.window.showErrorMessage(result.message);
  s.output.appendLine(`import: ${result.message}`);
  return result;
}

const cancelled = (): ImportOutcome => ({ outcome: 'cancelled', message: l10n.t('cancelled; nothing was written') });
const failed = (message: string): ImportOutcome => ({ outcome: 'failed', message: l10n.t('Key Routing: {0}. Nothing was written.', message) });

async function run(s: Services, deps: ImportDeps, ui: ImportUi, given: ImportArg): Promise<ImportOutcome> {
  if (!vscode.workspace.workspaceFolders?.length) return failed(l10n.t('open a folder first; Import Topology writes to the workspace settings'));
  const kind = given.kind ?? (await ui.pickKind());
  if (!kind) return cancelled();
  const source = given.source ?? (await ui.pickSource(kind));
  if (!source) return cancelled();
  if (source === 'admin' && kind !== 'pulsar-stats') return failed(l10n.t('the admin API import reads Pulsar topic stats only'));

  const cfg = vscode.workspace.getConfiguration();
  const base = currentSettings(cfg);
  const pulsarTopics = configuredNames(base, 'pulsar');

  let text: string;
  let sourceName: string;
  let topic: string | undefined;
  let at: string | undefined;
  if (source === 'admin') {
    topic = await ui.pickTopic(pulsarTopics);
    if (topic === undefined) return cancelled();
    const fetched = await fromAdminApi(deps, ui, cfg, topic);
    if ('outcome' in fetched) return fetched;
    ({ text, sourceName, at } = fetched);
  } else if (source === 'clipboard') {
    text = await vscode.env.clipboard.readText();
    sourceName = l10n.t('the clipboard');
    if (text.trim() === '') return failed(l10n.t('the clipboard is empty; copy the report first'));
  } else {
    const uri = await ui.pickFile(kind);
    if (!uri) return cancelled();
    sourceName = vscode.workspace.asRelativePath(uri);
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      at = new Date((await vscode.workspace.fs.stat(uri)).mtime).toISOString();
    } catch (e) {
      return failed(l10n.t('cannot read {0}: {1}', sourceName, (e as Error).message));
    }
  }

  let subscription: string | undefined;
  if (kind === 'pulsar-stats') {
    const shape = describePulsarStats(text);
    if (shape && !shape.partitioned && topic === undefined) {
      topic = await ui.pickTopic(pulsarTopics);
      if (topic === undefined) return cancelled();
    }
    if (shape && shape.keyShared.length > 1) {
      subscription = await ui.pickSubscription(shape.keyShared);
      if (subscription === undefined) return cancelled();
    }
  }

  let imported;
  try {
    imported = importReport(kind, text, { source: sourceName, topic, subscription, at, base });
  } catch (e) {
    if (e instanceof ImportError) return failed(e.message);
    throw e;
  }
  const after = mergeImported(base, imported);
  const keys = [TOPICS, KAFKA_GROUPS].filter((k) => JSON.stringify(after[k]) !== JSON.stringify(base[k]));
  if (keys.length === 0) return { outcome: 'cancelled', message: l10n.t('{0} holds what the settings already say; nothing to write', sourceName) };
  const pick = (o: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, o[k] ?? []]));
  const changes = [
    ...imported.topics.map((e) => changeLine(base, TOPICS, e, l10n.t('topic'))),
    ...imported.groups.map((e) => changeLine(base, KAFKA_GROUPS, e, l10n.t('consumer group'))),
  ];
  if (!(await ui.confirmWrite({ changes, notes: imported.notes, before: pick(base), after: pick(after), source: sourceName }))) return cancelled();
  try {
    for (const k of keys) await writeSetting(k, after[k]);
  } catch (e) {
    return failed(l10n.t('could not write {0}: {1}', keys.join(', '), (e as Error).message));
  }
  for (const n of imported.notes) s.output.appendLine(`import: note: ${n}`);
  return { outcome: 'written', message: l10n.t('Key Routing: imported {0} into the workspace settings ({1}).', sourceName, changes.join('; ')), written: keys };
}

/** The workspace's lists (a user-settings list carried over, as a workspace list replaces it). */
function currentSettings(cfg: vscode.WorkspaceConfiguration): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of [TOPICS, KAFKA_GROUPS]) {
    const i = cfg.inspect<unknown>(k);
    const v = i?.workspaceValue ?? i?.globalValue;
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function configuredNames(base: Record<string, unknown>, system: string): string[] {
  const list = base[TOPICS];
  if (!Array.isArray(list)) return [];
  return list.filter((e) => e && typeof e === 'object' && e.system === system && typeof e.name === 'string').map((e) => e.name as string);
}

function changeLine(base: Record<string, unknown>, key: string, entry: Record<string, unknown>, what: string): string {
  const list = base[key];
  const replaces = Array.isArray(list) && list.some((e) => e && typeof e === 'object' && e.name === entry.name);
  return replaces ? l10n.t('replaces {0} {1}', what, String(entry.name)) : l10n.t('adds {0} {1}', what, String(entry.name));
}

/**
 * The stats from the admin API, with the token handled as the file header says. The URL a
 * workspace proposes needs the user's confirmation before a token goes there.
 */
async function fromAdminApi(
  deps: ImportDeps,
  ui: ImportUi,
  cfg: vscode.WorkspaceConfiguration,
  topic: string,
): Promise<{ text: string; sourceName: string; at: string } | ImportOutcome> {
  const inspected = cfg.inspect<unknown>(ADMIN_URL);
  // An untrusted workspace proposes nothing (the manifest also restricts the setting there).
  const fromWorkspace = vscode.workspace.isTrusted ? [inspected?.workspaceFolderValue, inspected?.workspaceValue].find((v): v is string => typeof v === 'string') : undefined;
  const fromUser = typeof inspected?.globalValue === 'string' ? inspected.globalValue : undefined;
  const raw = await ui.adminUrl(fromWorkspace ?? fromUser ?? deps.state.get<string>(LAST_URL));
  if (raw === undefined) return cancelled();
  let url: string;
  try {
    url = normalizeAdminUrl(raw);
  } catch (e) {
    return failed((e as Error).message);
  }
  await deps.state.update(LAST_URL, url);
  const proposedByWorkspace = fromWorkspace !== undefined && sameUrl(fromWorkspace, url) && !(fromUser !== undefined && sameUrl(fromUser, url));
  let mayUseToken = true;
  if (proposedByWorkspace && !deps.credentials.confirmed(url)) {
    const answer = await ui.confirmProposedUrl(url);
    if (answer === undefined) return cancelled();
    if (answer === 'send') await deps.credentials.confirm(url);
    else mayUseToken = false;
  }
  let token = mayUseToken ? await deps.credentials.token(url) : undefined;
  if (mayUseToken && token === undefined) {
    const typed = await ui.token(url, false);
    if (typed === undefined) return cancelled();
    if (typed !== '') {
      token = typed;
      await deps.credentials.storeToken(url, typed);
    }
  }
  const timeoutSeconds = cfg.get<number>(ADMIN_TIMEOUT);
  const timeoutMs = Math.round(1000 * (typeof timeoutSeconds === 'number' && timeoutSeconds > 0 ? timeoutSeconds : 15));
  for (;;) {
    if (token && url.startsWith('http:') && !deps.credentials.plainHttpAllowed(url)) {
      const answer = await ui.confirmPlainHttp(url);
      if (answer === undefined) return cancelled();
      if (answer === 'always') await deps.credentials.allowPlainHttp(url);
    }
    try {
      const fetched = await fetchTopicStats(deps.transport(), url, topic, token, timeoutMs);
      return { text: fetched.body, sourceName: fetched.url, at: new Date().toISOString() };
    } catch (e) {
      if (!(e instanceof AdminError)) throw e;
      if (e.kind !== 'auth' || !mayUseToken || !(await ui.retryToken(l10n.t('Key Routing: {0}', e.message)))) return failed(e.message);
      const typed = await ui.token(url, true);
      if (typed === undefined) return cancelled();
      if (typed === '') {
        await deps.credentials.forgetToken(url);
        token = undefined;
      } else {
        await deps.credentials.storeToken(url, typed);
        token = typed;
      }
    }
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return normalizeAdminUrl(a) === normalizeAdminUrl(b);
  } catch {
    return false;
  }
}
