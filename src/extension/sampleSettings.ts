/**
 * The sample topology the welcome view and the walkthrough offer: `examples/settings.json`, bundled
 * into the extension at build time (the .vsix does not ship `examples/`), and how writing it is
 * described before the user confirms (pure: no `vscode`).
 */
import sample from '../../examples/settings.json';
import { KAFKA_GROUPS, NAMESPACES, TOPICS } from '../engine/settings';
import type { Localizer } from './localize';

export const SAMPLE_SETTINGS: { readonly [TOPICS]: unknown[]; readonly [NAMESPACES]: unknown[]; readonly [KAFKA_GROUPS]: unknown[] } = sample;

/** The settings the sample writes, each replacing the workspace's value. */
export const SAMPLE_KEYS = [TOPICS, NAMESPACES, KAFKA_GROUPS] as const;

/** The sample as a document to read: short objects and lists on one line, as examples/settings.json writes them. */
export function sampleSettingsText(l10n: Localizer): string {
  const header = l10n.t('// The Key Routing sample settings. "Key Routing: Use Sample Settings" writes them to .vscode/settings.json;\n// or copy the entries you need.');
  return `${header}\n${pretty(SAMPLE_SETTINGS, '')}\n`;
}

const WIDTH = 100;

function flat(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flat).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${flat(x)}`).join(', ')} }`;
  return JSON.stringify(v);
}

function pretty(v: unknown, indent: string): string {
  const one = flat(v);
  if (typeof v !== 'object' || v === null || indent.length + one.length <= WIDTH) return one;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`).join(',\n')}\n${indent}}`;
}

/** One line per sample entry: `orders: Kafka, 6 partitions`. */
function entryLines(l10n: Localizer): string[] {
  const topics = SAMPLE_SETTINGS[TOPICS].map((raw) => {
    const t = raw as { name: string; system: string; partitions?: number; subscription?: { keySharedMode?: string; consistentHashing?: boolean; consumers?: unknown[] } };
    const parts = t.partitions ? l10n.t('{0} partitions', t.partitions) : l10n.t('non-partitioned');
    if (t.system === 'kafka') return l10n.t('  {0}: Kafka, {1}', t.name, parts);
    const sub = t.subscription;
    if (!sub) return l10n.t('  {0}: Pulsar, {1}', t.name, parts);
    const mode = sub.keySharedMode === 'STICKY' ? 'STICKY' : sub.consistentHashing === false ? 'AUTO_SPLIT' : l10n.t('consistent hashing');
    return l10n.t('  {0}: Pulsar, {1}, Key_Shared {2} with {3} consumers', t.name, parts, mode, sub.consumers?.length ?? 0);
  });
  const namespaces = SAMPLE_SETTINGS[NAMESPACES].map((raw) => {
    const n = raw as { name: string; bundles?: number; boundaries?: string[] };
    return n.boundaries ? l10n.t('  {0}: boundaries {1}', n.name, n.boundaries.join(', ')) : l10n.t('  {0}: {1} bundles', n.name, n.bundles ?? 4);
  });
  const groups = SAMPLE_SETTINGS[KAFKA_GROUPS].map((raw) => {
    const g = raw as { name: string; assignor?: string; topics?: string[]; members?: unknown[] };
    return l10n.t('  {0}: {1} assignor, {2} members on {3}', g.name, g.assignor ?? 'range', g.members?.length ?? 0, (g.topics ?? []).join(', '));
  });
  return [`${TOPICS}:`, ...topics, `${NAMESPACES}:`, ...namespaces, `${KAFKA_GROUPS}:`, ...groups];
}

/** How many entries a current value has, for the warning (a value that is not a list counts as one). */
function entries(v: unknown): number {
  return Array.isArray(v) ? v.length : v === undefined || v === null ? 0 : 1;
}

export interface WriteConfirmation {
  message: string;
  detail: string;
  /** The confirming button: it says "Replace" when something is replaced. */
  action: string;
  replaces: boolean;
}

/** What the modal says before the sample is written, given the workspace's current values. */
export function describeSampleWrite(l10n: Localizer, current: { readonly [K in (typeof SAMPLE_KEYS)[number]]?: unknown }): WriteConfirmation {
  const described = (id: string, n: number) => (n === 0 ? undefined : n === 1 ? l10n.t('{0} (1 entry)', id) : l10n.t('{0} ({1} entries)', id, n));
  const replaced = SAMPLE_KEYS.map((k) => described(k, entries(current[k]))).filter((x): x is string => x !== undefined);
  const replaces = replaced.length > 0;
  const detail = [
    l10n.t('These settings go to the workspace settings (.vscode/settings.json):'),
    ...entryLines(l10n),
    ...(replaces ? ['', l10n.t('This REPLACES the workspace\'s current {0}. To keep them, cancel and use "Key Routing: Add Topic" instead.', replaced.join(l10n.t(' and ')))] : []),
  ].join('\n');
  return {
    message: replaces ? l10n.t('Replace your Key Routing settings with the sample topology?') : l10n.t('Write the sample Key Routing topology to the workspace settings?'),
    detail,
    action: replaces ? l10n.t('Replace Settings') : l10n.t('Write Sample Settings'),
    replaces,
  };
}
