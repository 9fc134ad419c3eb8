/**
 * `key-routing analyze --config FILE [--topic NAME] [--column N|NAME | --field NAME]
 *   [--key-format utf8|hex] [--then EVENT]... [--input FILE]`
 *
 * Reads keys (one per line; a CSV/TSV column with --column, 1-based or a header name; a JSON Lines
 * field with --field) from --input or stdin, streamed, and prints the figures as one JSON object:
 * keys per partition, consumer and bundle, hash-space share against key share, skew, the heaviest
 * keys, the lines that gave no key, and with --then the same figures after the events.
 */
import { statSync } from 'node:fs';
import { parseEvent, type TopologyEvent } from '../engine/events';
import { AnalyzeInputError, type InputSpec } from '../analyze/analyzer';
import { fileSource } from '../analyze/nodeSource';
import { parseColumn } from '../analyze/readers';
import { analyzeKeys, type AnalyzeProgress, type ChunkSource } from '../analyze/run';
import { single, UsageError, type ParsedArgs } from './args';
import { inCwd, type CliIo, type TextSink } from './cliIo';
import { keyFormat, loadSettings, reportProblems } from './io';
import { configPath as settingsPath } from './settingsFile';
import { resolveTopicName } from './topicArg';
import type { CommandSpec } from './command';
import { CONFIG, KEY_FORMAT, THEN, TOPIC } from './commonOptions';
import { analyzeTable } from './tableViews';

export async function analyzeCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): Promise<void> {
  const configPath = settingsPath(io, args);
  const settings = loadSettings(io, configPath);
  const format = keyFormat(single(args, 'key-format'));
  const given = single(args, 'topic');
  const topic = given === undefined ? undefined : resolveTopicName(given, settings.topics.map((t) => t.name), configPath);
  const inputPath = single(args, 'input');
  const input = inputSpec(single(args, 'column'), single(args, 'field'), inputPath);
  const events: TopologyEvent[] = (args.options.get('then') ?? []).map((text) => {
    try {
      return parseEvent(text);
    } catch (e) {
      throw new UsageError(`--then: ${(e as Error).message}`);
    }
  });
  if (topic === undefined && events.some((e) => e.kind === 'partitions')) {
    throw new UsageError('--then partitions=N needs --topic to name the topic it changes');
  }

  let source: ChunkSource;
  if (inputPath !== undefined) {
    try {
      // A folder passes the stat that fileSource makes and fails only once read, inside the run.
      if (statSync(inCwd(io, inputPath)).isDirectory()) throw new UsageError(`--input ${inputPath}: is a folder; give a file of keys`);
      source = fileSource(inCwd(io, inputPath));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`--input ${inputPath}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  } else {
    source = io.stdin.source();
  }

  const progress = progressLine(io.stderr);
  let result;
  try {
    result = await analyzeKeys(source, { settings, topic, events, input, keyFormat: format }, { onProgress: progress.show, progressIntervalMs: 200 });
  } catch (e) {
    if (e instanceof AnalyzeInputError) {
      throw new UsageError(e.message.startsWith('no topic named') ? `--topic: ${e.message} in ${configPath}` : e.message);
    }
    throw e;
  } finally {
    progress.clear();
  }
  reportProblems(io.stderr, result.configProblems);
  for (const o of result.whatIf?.events ?? []) {
    if (o.error !== undefined) io.stderr.write(`key-routing: --then ${o.event}: ${o.topic}: ${o.error}\n`);
  }
  write(JSON.stringify(result) + '\n');
}

function inputSpec(column: string | undefined, field: string | undefined, path: string | undefined): InputSpec {
  if (column !== undefined && field !== undefined) {
    throw new UsageError('give --column (a CSV/TSV column) or --field (a JSON Lines field), not both');
  }
  if (column !== undefined) {
    let parsed;
    try {
      parsed = parseColumn(column);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    // A .tsv/.tab file is tab-separated; otherwise the first line decides (tabs over commas).
    const tab = path !== undefined && /\.(tsv|tab)$/i.test(path);
    return { kind: 'csv', column: parsed, delimiter: tab ? '\t' : 'auto' };
  }
  if (field !== undefined) {
    if (field === '') throw new UsageError('--field needs the name of the JSON field that holds the key');
    return { kind: 'jsonl', field };
  }
  return { kind: 'lines' };
}

/**
 * Progress on stderr, where it is a terminal and the run is long (from the first report after
 * PROGRESS_AFTER_MS; analyzeKeys reports at most every 200 ms): one line rewritten in place,
 * erased at the end.
 */
const PROGRESS_AFTER_MS = 1000;

function progressLine(stderr: TextSink): { show?: (p: AnalyzeProgress) => void; clear: () => void } {
  if (!stderr.isTTY) return { clear: () => {} };
  let shown = false;
  return {
    show: (p) => {
      if (p.elapsedMs < PROGRESS_AFTER_MS) return;
      shown = true;
      const pct = p.totalBytes ? ` ${Math.floor((100 * p.bytes) / p.totalBytes)}%,` : '';
      const phase = p.phase === 'exact' ? 'counting the heaviest keys exactly' : 'analysing';
      stderr.write(`\r\x1b[Kkey-routing: ${phase}${pct} ${p.keys.toLocaleString('en-US')} keys`);
    },
    clear: () => {
      if (shown) stderr.write('\r\x1b[K');
    },
  };
}

export const analyzeSpec: CommandSpec = {
  name: 'analyze',
  summary: 'How a population of keys spreads: keys per partition, consumer and bundle, skew, the heaviest keys.',
  options: [
    CONFIG,
    TOPIC,
    { name: 'input', value: 'FILE', description: 'The keys (streamed, never read whole). Default: stdin.' },
    { name: 'column', value: 'N|NAME', description: 'Take the keys from a CSV/TSV column: its number (from 1) or its header. Not with --field.' },
    { name: 'field', value: 'NAME', description: 'Take the keys from a top-level field of JSON Lines.' },
    KEY_FORMAT,
    THEN,
  ],
  details: [
    'JSON: one object with the figures per topic, the heaviest keys (exact where the input can be read twice) and the lines that gave no key. On a terminal, progress is shown on stderr for a long run.',
  ],
  examples: ['key-routing analyze --input keys.txt', 'key-routing analyze --input orders.csv --column customer --then +C5'],
  table: analyzeTable,
  run: analyzeCommand,
};
