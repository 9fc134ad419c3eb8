/**
 * Importing what a live cluster reports into the settings (CONTRACT.md section 4), for the
 * command line and the extension alike: no Node, no vscode. Each kind reads one tool's output.
 */
import { importKafkaGroups } from './kafkaGroups';
import { importKafkaTopics } from './kafkaTopics';
import type { Imported, ImportOptions } from './options';
import { importPulsarStats } from './pulsarStats';

export { ImportError } from './errors';
export { mergeImported, KAFKA_GROUPS } from './merge';
export type { Imported, ImportOptions } from './options';

export const IMPORT_KINDS = ['pulsar-stats', 'kafka-groups', 'kafka-topics'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export function isImportKind(v: unknown): v is ImportKind {
  return typeof v === 'string' && (IMPORT_KINDS as readonly string[]).includes(v);
}

export function importReport(kind: ImportKind, text: string, opts: ImportOptions): Imported {
  switch (kind) {
    case 'pulsar-stats':
      return importPulsarStats(text, opts);
    case 'kafka-groups':
      return importKafkaGroups(text, opts);
    case 'kafka-topics':
      return importKafkaTopics(text, opts);
  }
}
