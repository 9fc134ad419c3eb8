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
import { UsageError } from './args';
import { readJsonFile } from './io';

const OPTIONS = ['config', 'topic', 'subscription', 'assignor'] as const;

export function importCli(argv: string[], write: (s: string) => void): void {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (!(OPTIONS as readonly string[]).includes(name)) throw new UsageError(`import: unknown option --${name} (options: ${OPTIONS.map((o) => `--${o}`).join(', ')})`);
    if (options.has(name)) throw new UsageError(`--${name} given twice`);
    if (eq < 0 && i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
    options.set(name, eq >= 0 ? a.slice(eq + 1) : argv[++i]);
  }
  const [kind, file, ...rest] = positional;
  if (!isImportKind(kind)) throw new UsageError(`import: KIND must be one of ${IMPORT_KINDS.join(', ')} (got ${kind === undefined ? 'nothing' : JSON.stringify(kind)})`);
  if (file === undefined) throw new UsageError(`import ${kind}: give the FILE to import (- for stdin)`);
  if (rest.length > 0) throw new UsageError(`import: unexpected argument ${JSON.stringify(rest[0])}`);
  const configPath = options.get('config');
  let base: Record<string, unknown> | undefined;
  if (configPath !== undefined) {
    const raw = readJsonFile(configPath, '--config');
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`--config ${configPath}: must be a JSON object of settings`);
    base = raw as Record<string, unknown>;
  }
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let imported;
  try {
    imported = importReport(kind, text, {
      source: file === '-' ? '(stdin)' : file,
      topic: options.get('topic'),
      subscription: options.get('subscription'),
      assignor: options.get('assignor'),
      base,
    });
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(e.message);
    throw e;
  }
  for (const n of imported.notes) process.stderr.write(`key-routing: note: ${n}\n`);
  write(JSON.stringify(mergeImported(base, imported), null, 2) + '\n');
}
