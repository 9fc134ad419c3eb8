/**
 * Pulsar's topic and namespace names, resolved as `TopicName` and `NamespaceName` resolve them,
 * because the broker hashes the *resolved* name (`TopicName.toString()`) to pick a bundle:
 *
 * - A name without `://` is a short name. Split on `/` with empty pieces dropped (commons-lang
 *   `StringUtils.split`): one piece `x` becomes `persistent://public/default/x`; three pieces get
 *   `persistent://` put in front of the name *as written*; any other count is refused.
 * - The domain before `://` is `persistent` or `non-persistent`, compared ignoring case (Java's
 *   `equalsIgnoreCase`) and written back in lower case.
 * - The rest is split on `/` into at most four pieces (Guava `Splitter.limit(4)`): three pieces are
 *   `tenant/namespace/local` (the local name holds no `/`), four are the legacy
 *   `tenant/cluster/namespace/local` where the local name keeps any further `/`.
 * - Tenant, cluster and namespace must be non-empty and made of `[-=:.a-zA-Z0-9_]`
 *   (`NamedEntity.checkName`); the local name must be non-empty and is not otherwise checked.
 * - A partition topic `x-partition-3` is an ordinary name here: it is hashed as written.
 */

export type TopicDomain = 'persistent' | 'non-persistent';

export interface TopicName {
  domain: TopicDomain;
  tenant: string;
  /** Only in legacy (V1) names `tenant/cluster/namespace/local`. */
  cluster?: string;
  namespacePortion: string;
  localName: string;
  /** The namespace as `NamespaceName.toString()`: `tenant/namespace` or `tenant/cluster/namespace`. */
  namespace: string;
  /** `TopicName.toString()`: the string the broker hashes. */
  fullName: string;
  /** `getPartitionIndex()`: the n of a trailing `-partition-n`, or -1. */
  partitionIndex: number;
}

export class TopicNameError extends Error {}

/** `NamedEntity`'s pattern: Java's `\w` is ASCII-only, as here. */
const NAMED_ENTITY = /^[-=:.\w]*$/;
const ALLOWED = 'letters, digits, "_" and "-=:."';

export function parseTopicName(input: string): TopicName {
  let complete = input;
  if (!complete.includes('://')) {
    const pieces = complete.split('/').filter((p) => p !== '');
    if (pieces.length === 3) complete = 'persistent://' + complete;
    else if (pieces.length === 1) complete = 'persistent://public/default/' + pieces[0];
    else {
      throw new TopicNameError(
        `invalid short topic name ${JSON.stringify(input)}: it should be <tenant>/<namespace>/<topic> or <topic>`,
      );
    }
  }
  const sep = complete.indexOf('://');
  const domainText = complete.slice(0, sep);
  const domain = topicDomain(domainText);
  if (!domain) {
    throw new TopicNameError(`invalid topic name ${JSON.stringify(input)}: domain ${JSON.stringify(domainText)} is not "persistent" or "non-persistent"`);
  }
  const parts = splitLimit(complete.slice(sep + 3), '/', 4);
  let tenant: string;
  let cluster: string | undefined;
  let namespacePortion: string;
  let localName: string;
  if (parts.length === 3) {
    [tenant, namespacePortion, localName] = parts;
    checkNamespaceParts(input, [tenant, namespacePortion]);
  } else if (parts.length === 4) {
    [tenant, cluster, namespacePortion, localName] = parts;
    checkNamespaceParts(input, [tenant, cluster, namespacePortion]);
  } else {
    throw new TopicNameError(`invalid topic name ${JSON.stringify(input)}: expected domain://tenant/namespace/topic`);
  }
  if (localName === '') throw new TopicNameError(`invalid topic name ${JSON.stringify(input)}: the topic's local name is empty`);
  const namespace = cluster === undefined ? `${tenant}/${namespacePortion}` : `${tenant}/${cluster}/${namespacePortion}`;
  return {
    domain,
    tenant,
    cluster,
    namespacePortion,
    localName,
    namespace,
    fullName: `${domain}://${namespace}/${localName}`,
    partitionIndex: partitionIndex(complete),
  };
}

/**
 * Checks a namespace name as `NamespaceName` does (`tenant/namespace`, or legacy
 * `tenant/cluster/namespace`); returns what is wrong, or null when the broker accepts it.
 */
export function namespaceNameProblem(name: string): string | null {
  const parts = name.split('/');
  if (parts.length !== 2 && parts.length !== 3) {
    return 'must be "tenant/namespace" (or the legacy "tenant/cluster/namespace")';
  }
  for (const p of parts) {
    if (p === '') return 'must be "tenant/namespace" (or the legacy "tenant/cluster/namespace") with no empty part';
    if (!NAMED_ENTITY.test(p)) return `${JSON.stringify(p)} has characters Pulsar does not allow in names (only ${ALLOWED})`;
  }
  return null;
}

function checkNamespaceParts(input: string, parts: string[]): void {
  for (const p of parts) {
    if (p === '') throw new TopicNameError(`invalid topic name ${JSON.stringify(input)}: the tenant, cluster or namespace part is empty`);
    if (!NAMED_ENTITY.test(p)) {
      throw new TopicNameError(`invalid topic name ${JSON.stringify(input)}: ${JSON.stringify(p)} has characters Pulsar does not allow in a tenant or namespace (only ${ALLOWED})`);
    }
  }
}

/** Guava's `Splitter.on(sep).limit(n)`: at most n pieces, the last keeping the rest. */
function splitLimit(s: string, sep: string, limit: number): string[] {
  const out: string[] = [];
  let from = 0;
  while (out.length < limit - 1) {
    const at = s.indexOf(sep, from);
    if (at < 0) break;
    out.push(s.slice(from, at));
    from = at + sep.length;
  }
  out.push(s.slice(from));
  return out;
}

function topicDomain(s: string): TopicDomain | undefined {
  if (javaEqualsIgnoreCase(s, 'persistent')) return 'persistent';
  if (javaEqualsIgnoreCase(s, 'non-persistent')) return 'non-persistent';
  return undefined;
}

/**
 * `String.equalsIgnoreCase`: per UTF-16 unit, equal, or equal after `Character.toUpperCase`, or
 * after `toLowerCase` of that (so `ſ` matches `s` and `İ` matches `i`, as in Java).
 */
function javaEqualsIgnoreCase(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    const ux = upper(x);
    const uy = upper(y);
    if (ux === uy) continue;
    if (lower(ux) === lower(uy)) continue;
    return false;
  }
  return true;
}

// Java's Character case mappings are one unit to one unit; JS's may expand (e.g. "İ" lower-cases
// to "i" + a combining dot), in which case Java's simple mapping is the first unit or the unit itself.
function upper(c: string): string {
  const u = c.toUpperCase();
  return u.length === 1 ? u : c;
}

function lower(c: string): string {
  if (c === '\u0130') return 'i';
  const l = c.toLowerCase();
  return l.length === 1 ? l : c;
}

/**
 * `TopicName.getPartitionIndex(String)`: the text after the last `-partition-`, if it is a
 * non-negative int written without sign or leading zeros. (Java's `Integer.parseInt` also takes
 * non-ASCII digits; such names are treated here as not partitioned.)
 */
function partitionIndex(complete: string): number {
  const at = complete.lastIndexOf('-partition-');
  if (at < 0) return -1;
  const idx = complete.slice(at + '-partition-'.length);
  if (!/^(0|[1-9][0-9]*)$/.test(idx)) return -1;
  const n = Number(idx);
  return n <= 0x7fffffff ? n : -1;
}
