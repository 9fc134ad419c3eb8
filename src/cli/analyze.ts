/**
 * `key-routing analyze --config FILE [--topic NAME] [--column N|NAME | --field NAME]
 *   [--key-format utf8|hex] [--then EVENT]... [--input FILE]`
 *
 * Reads keys (one per line; a CSV/TSV column with --column, 1-based or a header name; a JSON Lines
 * field with --field) from --input or stdin, streamed, and prints the figures as one JSON object:
 * keys per partition, consumer and bundle, hash-space share against key share, skew, the heaviest
 * keys, the lines that gave no key, and with --then the same figures after the events.
 */
import { parseEvent, type TopologyEvent } from '../engine/events';
import { AnalyzeInputError, type InputSpec } from '../analyze/analyzer';
import { fileSource, stdinSource } from '../analyze/nodeSource';
import { parseColumn } from '../analyze/readers';
import { analyzeKeys, type ChunkSource } from '../analyze/run';
import { required, single, UsageError, type ParsedArgs } from './args';
import { keyFormat, loadSettings, reportProblems } from './io';

export async function analyzeCommand(args: ParsedArgs, write: (s: string) => void): Promise<void> {
  const configPath = required(args, 'config');
  const settings = loadSettings(configPath);
  const format = keyFormat(single(args, 'key-format'));
  const topic = single(args, 'topic');
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
      source = fileSource(inputPath);
    } catch (e) {
      throw new UsageError(`--input ${inputPath}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  } else {
    source = stdinSource();
  }

  const progress = process.stderr.isTTY
    ? (p: { keys: number; bytes: number; totalBytes?: number; phase: string }) => {
        const pct = p.totalBytes ? ` ${((100 * p.bytes) / p.totalBytes).toFixed(0)}%` : '';
        process.stderr.write(`\rkey-routing: ${p.phase === 'exact' ? 'exact counts' : 'analysing'}${pct}, ${p.keys} keys  `);
      }
    : undefined;
  let result;
  try {
    result = await analyzeKeys(source, { settings, topic, events, input, keyFormat: format }, { onProgress: progress });
  } catch (e) {
    if (e instanceof AnalyzeInputError) {
      throw new UsageError(e.message.startsWith('no topic named') ? `--topic: ${e.message} in ${configPath}` : e.message);
    }
    throw e;
  } finally {
    if (progress) process.stderr.write('\r\x1b[K');
  }
  reportProblems(result.configProblems);
  for (const o of result.whatIf?.events ?? []) {
    if (o.error !== undefined) process.stderr.write(`key-routing: --then ${o.event}: ${o.topic}: ${o.error}\n`);
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
