/**
 * Fetching a topic's stats from a Pulsar broker's admin REST API (`/admin/v2/...`), as
 * `pulsar-admin topics stats` / `partitioned-stats --per-partition` do: first the topic's
 * partition count (`.../partitions`), then `.../stats` or `.../partitioned-stats?perPartition=true`.
 * The transport (Node http/https in the desktop host, fetch on the web) is given; this file has no
 * Node import. Errors say which request failed and why (status and the broker's reason, timeout,
 * TLS, DNS), never the token. Redirects are not followed: the token goes only to the given URL.
 */
import { parseTopicName, TopicNameError } from '../../engine/pulsar/topicName';

export interface AdminAnswer {
  status: number;
  statusText: string;
  body: string;
  /** A redirect's target, where the answer is one. */
  location?: string;
}

/** A failed request, with a message for people (it names the request, never the token). */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly kind: 'http' | 'auth' | 'timeout' | 'tls' | 'dns' | 'network' | 'input',
  ) {
    super(message);
  }
}

export interface AdminTransport {
  /** GET `url` with `headers`; rejects with an AdminError for what happens below HTTP. */
  get(url: string, headers: Record<string, string>, timeoutMs: number): Promise<AdminAnswer>;
}

/** The admin URL as the token is keyed by it: `https://host:port/path`, no trailing slash. */
export function normalizeAdminUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AdminError(`${JSON.stringify(text)} is not a URL; give the broker's admin address, e.g. https://pulsar.example.com:8443`, 'input');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdminError(`${url.protocol} is not http: or https:; the admin API is served over HTTP(S)`, 'input');
  if (url.username || url.password) throw new AdminError('the admin URL must not carry a user or password; the token is asked for separately and kept in VS Code\u2019s secret storage', 'input');
  if (url.search || url.hash) throw new AdminError('the admin URL must not carry a query or a fragment', 'input');
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The REST path of a topic: `/admin/v2/persistent/tenant/namespace/topic`. */
export function topicPath(topic: string): string {
  let name;
  try {
    name = parseTopicName(topic);
  } catch (e) {
    if (e instanceof TopicNameError) throw new AdminError(e.message, 'input');
    throw e;
  }
  if (name.cluster !== undefined) throw new AdminError(`${topic} is a legacy name (tenant/cluster/namespace/topic), served by the v1 admin API, which this import does not call`, 'input');
  return `/admin/v2/${name.domain}/${encodeURIComponent(name.tenant)}/${encodeURIComponent(name.namespacePortion)}/${encodeURIComponent(name.localName)}`;
}

export interface FetchedStats {
  body: string;
  /** The URL that answered (for messages and the import's source name). */
  url: string;
  partitions: number;
}

/** The topic's stats as `import pulsar-stats` reads them. */
export async function fetchTopicStats(transport: AdminTransport, adminUrl: string, topic: string, token: string | undefined, timeoutMs: number): Promise<FetchedStats> {
  const base = normalizeAdminUrl(adminUrl) + topicPath(topic);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const metaUrl = `${base}/partitions`;
  const meta = await getJson(transport, metaUrl, headers, timeoutMs, token !== undefined);
  const n = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).partitions : undefined;
  if (!Number.isInteger(n) || (n as number) < 0) throw new AdminError(`GET ${metaUrl}: the answer is not a partition count ({"partitions": N})`, 'http');
  const url = (n as number) > 0 ? `${base}/partitioned-stats?perPartition=true` : `${base}/stats`;
  const answer = await checked(transport, url, headers, timeoutMs, token !== undefined);
  return { body: answer.body, url, partitions: n as number };
}

async function getJson(transport: AdminTransport, url: string, headers: Record<string, string>, timeoutMs: number, withToken: boolean): Promise<unknown> {
  const answer = await checked(transport, url, headers, timeoutMs, withToken);
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new AdminError(`GET ${url}: the answer is not JSON (it begins ${JSON.stringify(answer.body.slice(0, 40))})`, 'http');
  }
}

async function checked(transport: AdminTransport, url: string, headers: Record<string, string>, timeoutMs: number, withToken: boolean): Promise<AdminAnswer> {
  let answer: AdminAnswer;
  try {
    answer = await transport.get(url, headers, timeoutMs);
  } catch (e) {
    if (e instanceof AdminError) throw new AdminError(`GET ${url}: ${e.message}`, e.kind);
    throw new AdminError(`GET ${url}: ${(e as Error).message}`, 'network');
  }
  if (answer.status >= 200 && answer.status < 300) return answer;
  const status = `HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`;
  if (answer.status >= 300 && answer.status < 400) {
    throw new AdminError(`GET ${url}: ${status}, a redirect to ${answer.location ?? '(no location)'}, not followed so that the token goes nowhere else: give that address as the admin URL`, 'http');
  }
  const reason = brokerReason(answer.body);
  if (answer.status === 401 || answer.status === 403) {
    const why = withToken ? 'the broker did not accept the token' : 'the admin API needs a token';
    throw new AdminError(`GET ${url}: ${status}: ${why}${reason ? ` (${reason})` : ''}`, 'auth');
  }
  throw new AdminError(`GET ${url}: ${status}${reason ? `: ${reason}` : ''}`, 'http');
}

/** The broker's own message: `{"reason": "..."}` as the admin API writes errors, or short text. */
function brokerReason(body: string): string | undefined {
  const t = body.trim();
  if (t === '') return undefined;
  try {
    const j = JSON.parse(t);
    if (j && typeof j.reason === 'string') return j.reason;
    if (j && typeof j.message === 'string') return j.message;
  } catch {
    // not JSON
  }
  if (t.startsWith('<')) return undefined;
  return t.length > 200 ? `${t.slice(0, 197)}...` : t;
}
