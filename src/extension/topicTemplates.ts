/**
 * Starter entries for "Key Routing: Add Topic" (pure: no `vscode`). Each is a valid
 * `keyRouting.topics` entry the user edits from there.
 */

export type TopicKind = 'kafka' | 'pulsar-auto-split' | 'pulsar-consistent-hashing' | 'pulsar-sticky';

export interface KindChoice {
  kind: TopicKind;
  defaultName: string;
}

/** The kinds Add Topic offers, in its order (commands/addTopic.ts words them in the display language). */
export const TOPIC_KINDS: readonly KindChoice[] = [
  { kind: 'kafka', defaultName: 'orders' },
  { kind: 'pulsar-auto-split', defaultName: 'persistent://public/default/orders' },
  { kind: 'pulsar-consistent-hashing', defaultName: 'persistent://public/default/orders' },
  { kind: 'pulsar-sticky', defaultName: 'persistent://public/default/orders' },
];

export function isTopicKind(v: unknown): v is TopicKind {
  return TOPIC_KINDS.some((k) => k.kind === v);
}

/** A subscription name from a topic name: `persistent://public/default/orders` → `orders-sub`. */
function subscriptionName(topic: string): string {
  return `${topic.split('/').pop() || 'my'}-sub`;
}

export function starterTopic(kind: TopicKind, name: string): Record<string, unknown> {
  if (kind === 'kafka') return { name, system: 'kafka', partitions: 6, partitioner: 'java' };
  const base = { name, system: 'pulsar', partitions: 4, hashingScheme: 'JavaStringHash', brokerVersion: '4.0' };
  const sub = { name: subscriptionName(name), type: 'Key_Shared' };
  switch (kind) {
    case 'pulsar-auto-split':
      return { ...base, subscription: { ...sub, keySharedMode: 'AUTO_SPLIT', consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }] } };
    case 'pulsar-consistent-hashing':
      return { ...base, subscription: { ...sub, keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, consumers: [{ name: 'C1' }, { name: 'C2' }] } };
    case 'pulsar-sticky':
      return {
        ...base,
        subscription: {
          ...sub,
          keySharedMode: 'STICKY',
          consumers: [
            { name: 'C1', ranges: [[0, 32767]] },
            { name: 'C2', ranges: [[32768, 65535]] },
          ],
        },
      };
  }
}

/** `name`, or `name-2`, `name-3`... where the name is taken. */
export function uniqueName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let i = 2; ; i++) if (!taken.includes(`${name}-${i}`)) return `${name}-${i}`;
}

/** Names of the entries of a raw `keyRouting.topics` value. */
export function entryNames(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((t: unknown) => (typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string' ? [(t as { name: string }).name] : []));
}

/**
 * The list with the entry appended. Existing entries are kept as they are, invalid ones too; a
 * value that is not a list is refused rather than overwritten.
 */
export function appendTopic(current: unknown, entry: Record<string, unknown>): { ok: true; topics: unknown[] } | { ok: false; message: string } {
  if (current === undefined || current === null) return { ok: true, topics: [entry] };
  if (!Array.isArray(current)) {
    return { ok: false, message: 'keyRouting.topics in the workspace settings is not a list, so a topic cannot be added without losing it; make it a list ([...]) first.' };
  }
  return { ok: true, topics: [...current, entry] };
}
