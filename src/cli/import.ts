/**
 * `key-routing import KIND FILE [--config SETTINGS] [--topic NAME] [--subscription NAME] [--assignor NAME]`
 * prints one JSON settings object: the --config settings (if given) with the imported topics and
 * groups added, replacing entries of the same name. KIND is pulsar-stats, kafka-groups or
 * kafka-topics; FILE `-` reads stdin. Notes (settings kept or inferred, orders, a rebuilt ring
 * that differs from the report) go to stderr; a report that cannot be imported exits 2 with one
 * line naming the file and what is wrong, and prints nothing.
 */
import { readFileSync } from 'node:fs';
import { importReport, ImportError, IMPORT_KINDS, isImportKind, mergeImported } from '../import';
import { ASSIGNORS } from '../import/kafkaGroups';
import { single, UsageError, type ParsedArgs } from './args';
import { inCwd, type CliIo } from './cliIo';
import type { CommandSpec, Write } from './command';
import { readSettingsFile } from './settingsFile';

export function importCommand(args: ParsedArgs, write: Write, io: CliIo): void {
  const [kind, file, ...rest] = args.operands;
  if (!isImportKind(kind)) throw new UsageError(`import: KIND must be one of ${IMPORT_KINDS.join(', ')} (got ${kind === undefined ? 'nothing' : JSON.stringify(kind)})`);
  if (file === undefined) throw new UsageError(`import ${kind}: give the FILE to import (- for stdin)`);
  if (rest.length > 0) throw new UsageError(`import: unexpected argument ${JSON.stringify(rest[0])}`);
  const configPath = single(args, 'config');
  let base: Record<string, unknown> | undefined;
  if (configPath !== undefined) {
    const raw = readSettingsFile(inCwd(io, configPath), `--config ${configPath}`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`--config ${configPath}: must be a JSON object of settings`);
    base = raw as Record<string, unknown>;
  }
  let text: string;
  try {
    text = file === '-' ? io.stdin.text() : readFileSync(inCwd(io, file), 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let imported;
  try {
    imported = importReport(kind, text, {
      source: file === '-' ? '(stdin)' : file,
      topic: single(args, 'topic'),
      subscription: single(args, 'subscription'),
      assignor: single(args, 'assignor'),
      base,
    });
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(e.message);
    throw e;
  }
  // Merged first: the merge notes the reports it takes from groups already in the settings.
  const merged = mergeImported(base, imported);
  for (const n of imported.notes) io.stderr.write(`key-routing: note: ${n}\n`);
  write(JSON.stringify(merged, null, 2) + '\n');
}

export const importSpec: CommandSpec = {
  name: 'import',
  summary: "Settings from what a running cluster reports: Pulsar topic stats, Kafka consumer groups and topics.",
  operands: {
    name: 'KIND FILE',
    usage: 'KIND FILE',
    description: `KIND: ${IMPORT_KINDS.join(', ')}. FILE: the report (- for stdin).`,
  },
  options: [
    { name: 'config', value: 'FILE', description: 'The settings to add to (printed with the imported entries in place of same-named ones). Without it, only the imported entries are printed.' },
    { name: 'topic', value: 'NAME', description: 'pulsar-stats: the topic the stats are of (stats of one topic do not carry its name; per-partition stats do).' },
    { name: 'subscription', value: 'NAME', description: 'pulsar-stats: the Key_Shared subscription to import, where the topic has several.' },
    { name: 'assignor', value: 'NAME', description: `kafka-groups: the groups' assignor (${ASSIGNORS.join(', ')}); default: the --state view's, the settings', or range.` },
  ],
  details: [
    'pulsar-stats reads the JSON of pulsar-admin topics stats (REST .../stats) or partitioned-stats --per-partition: 4.x stats (keyHashRangeArrays, draining hashes) give brokerVersion "4.0", 2.x/3.x (keyHashRanges strings) "3.0"; consumers are ordered by connectedSince; the subscription gets an "observed" block (or "observedPartitions" where the partitions differ).',
    'kafka-groups reads kafka-consumer-groups.sh --describe (offsets, --members [--verbose] or --state; one group or --all-groups) into keyRouting.kafkaGroups entries with observed.owners; kafka-topics reads kafka-topics.sh --describe (partition counts and topic ids).',
    'Output: one JSON settings object. Notes go to stderr. A report no broker or tool could have written exits 2 with one line naming the file and what is wrong.',
  ],
  examples: [
    'key-routing import pulsar-stats stats.json --topic orders --config s.json',
    'pulsar-admin topics stats t | key-routing import pulsar-stats - --topic t',
    'key-routing import kafka-groups groups.txt --assignor cooperative-sticky',
  ],
  run: importCommand,
};
