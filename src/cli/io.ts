/** Input for the CLI: the config file, and the keys as arguments or on stdin. */
import { readFileSync } from 'node:fs';
import { bytesKey, type MessageKey } from '../engine/key';
import { parseHex } from '../engine/bytes';
import { KAFKA_GROUPS, NAMESPACES, parseSettings, TOPICS, type Problem, type Settings } from '../engine/settings';
import { lintProperties } from '../engine/settingsLint';
import { UsageError, type ParsedArgs } from './args';
import { inCwd, type CliIo, type CliStdin, type TextSink } from './cliIo';
import { readSettingsFile } from './settingsFile';

export function readJsonFile(io: CliIo, path: string, option: string): unknown {
  let text: string;
  try {
    text = readFileSync(inCwd(io, path), 'utf8');
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${option} ${path}: not valid JSON (${(e as Error).message})`);
  }
}

/**
 * The settings in the `--config` file; any problem is a configuration error (the CLI is strict).
 * A property the parser ignores (unknown, or of the other system) is a warning on stderr, as the
 * extension shows it: a misspelt "replicaPoint" would otherwise change the answer in silence.
 */
export function loadSettings(io: CliIo, path: string): Settings {
  const raw = readSettingsFile(inCwd(io, path), `--config ${path}`);
  const { settings, problems } = parseSettings(raw);
  if (problems.length > 0) {
    const p = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new UsageError(`${p.path}: ${p.message}${more}`);
  }
  const r = raw as Record<string, unknown>;
  for (const f of lintProperties(r[TOPICS], r[NAMESPACES], r[KAFKA_GROUPS])) {
    if (f.severity === 'warning') io.stderr.write(`key-routing: warning: ${f.path}: ${f.message} (${f.fix})\n`);
  }
  return settings;
}

export function reportProblems(stderr: TextSink, problems: Problem[]): void {
  for (const p of problems) stderr.write(`key-routing: ${p.path}: ${p.message}\n`);
}

/**
 * Lines of stdin as bytes: split on LF, a trailing CR dropped, no key after a final newline.
 * Read as they arrive (blocking reads of 64 KB), so output can follow input (`tail -f log | key-routing
 * route`) and a run whose reader has gone stops reading (`main` writes output held back before each read).
 * A line longer than a read is kept as its pieces and joined once, at its end: joining it again at
 * every read, and looking for its end from its start, made a 50 MB line take 33 s.
 */
export function* readStdinLines(stdin: CliStdin): Generator<Uint8Array> {
  const buf = new Uint8Array(1 << 16);
  let pieces: Uint8Array[] = [];
  for (;;) {
    const n = stdin.read(buf);
    if (n === 0) break;
    // Lines are handed out as views of this copy, which the next read does not overwrite.
    const chunk = buf.slice(0, n);
    let start = 0;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, start)) {
      const end = chunk.subarray(start, i);
      yield trimCr(pieces.length > 0 ? concat([...pieces, end]) : end);
      pieces = [];
      start = i + 1;
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  }
  if (pieces.length > 0) yield trimCr(concat(pieces));
}

function trimCr(line: Uint8Array): Uint8Array {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The input lines of a command that takes keys (or names) as arguments or on stdin: the arguments
 * when there are any (stdin is then not read), else stdin's lines.
 */
export function inputLines(io: CliIo, args: ParsedArgs, what: string): Iterable<Uint8Array> {
  if (args.operands.length > 0) {
    const enc = new TextEncoder();
    return args.operands.map((a) => enc.encode(a));
  }
  if (io.stdin.isTTY) io.stderr.write(`key-routing: reading ${what} from the terminal, one per line; end with Ctrl-D (or give them as arguments)\n`);
  return readStdinLines(io.stdin);
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
