/** Input for the CLI: the config file and the keys on stdin. */
import { readFileSync } from 'node:fs';
import { bytesKey, type MessageKey } from '../engine/key';
import { parseHex } from '../engine/bytes';
import { parseSettings, type Problem, type Settings } from '../engine/settings';
import { UsageError } from './args';

export function readJsonFile(path: string, option: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${option} ${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** The settings of `--config`; any problem is a configuration error (the CLI is strict). */
export function loadSettings(path: string): Settings {
  const { settings, problems } = parseSettings(readJsonFile(path, '--config'));
  if (problems.length > 0) {
    const p = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new UsageError(`${p.path}: ${p.message}${more}`);
  }
  return settings;
}

export function reportProblems(problems: Problem[]): void {
  for (const p of problems) process.stderr.write(`key-routing: ${p.path}: ${p.message}\n`);
}

/** Lines of stdin as bytes: split on LF, a trailing CR dropped, no key after a final newline. */
export function readStdinLines(): Uint8Array[] {
  let data: Uint8Array;
  try {
    data = readFileSync(0);
  } catch {
    return [];
  }
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= data.length; i++) {
    if (i === data.length || data[i] === 0x0a) {
      if (i === data.length && start === i) break;
      let end = i;
      if (end > start && data[end - 1] === 0x0d) end--;
      lines.push(data.subarray(start, end));
      start = i + 1;
    }
  }
  return lines;
}

export type KeyFormat = 'utf8' | 'hex';

export function keyFormat(v: string | undefined): KeyFormat {
  if (v === undefined || v === 'utf8' || v === 'hex') return v ?? 'utf8';
  throw new UsageError(`--key-format must be utf8 or hex (got ${JSON.stringify(v)})`);
}

const lossy = new TextDecoder('utf-8');

/** The key a line stands for, and the line as given (for the output's `key`). */
export function lineKey(line: Uint8Array, format: KeyFormat): { shown: string; key: MessageKey } {
  const shown = lossy.decode(line);
  // Only ASCII white space around the digits is ignored, as `analyze` does.
  if (format === 'hex') return { shown, key: bytesKey(parseHex(shown.replace(/^[ \t\r\n\v\f]+|[ \t\r\n\v\f]+$/g, '')), true) };
  return { shown, key: bytesKey(line) };
}
