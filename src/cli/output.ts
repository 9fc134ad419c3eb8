/**
 * Standard output for the CLI: JSON lines for scripts or a table for people, written so that a
 * reader that stops early (`key-routing route ... | head -1`) ends the run quietly.
 *
 * Output goes to fd 1 with blocking writes rather than through `process.stdout`: a blocking write
 * waits while the reader is busy (no output piles up in memory) and fails at once with EPIPE
 * when the reader has gone, so a long run stops there instead of computing everything first.
 * That is also why `process.stdout` is never touched (opening it would make fd 1 non-blocking).
 * If fd 1 is non-blocking anyway (EAGAIN: it shares a pipe with stderr, `2>&1 |`), the rest goes
 * through `process.stdout`, whose EPIPE arrives as an event.
 */
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { UsageError } from './args';
import type { CommandSpec, Write } from './command';
import { COLOUR, PLAIN, wantColour, type Style } from './table';

/** Thrown where stdout's reader has gone: the run ends with exit 0 and no message. */
export class PipeClosed extends Error {
  constructor() {
    super('stdout closed');
  }
}

let viaStream = false;

/** Writes all of `text` to stdout, blocking until it is taken. Throws `PipeClosed` on EPIPE. */
export function writeStdout(text: string): void {
  if (text === '') return;
  if (viaStream) {
    process.stdout.write(text);
    return;
  }
  const data = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(1, data, off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') throw new PipeClosed();
      if (code !== 'EAGAIN') throw e;
      viaStream = true;
      process.stdout.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') process.stderr.write(`key-routing: stdout: ${err.message}\n`);
        process.exit(err.code === 'EPIPE' ? 0 : 1);
      });
      process.stdout.write(data.subarray(off));
      return;
    }
  }
}

export const stdoutIsTerminal = (): boolean => isatty(1);

export type Format = 'json' | 'table';

/** `--format`, defaulting to a table on a terminal and JSON otherwise. */
export function chooseFormat(given: string | undefined): Format {
  if (given === undefined) return stdoutIsTerminal() ? 'table' : 'json';
  if (given === 'json' || given === 'table') return given;
  throw new UsageError(`--format must be table or json (got ${JSON.stringify(given)})`);
}

export function outputStyle(): Style {
  return wantColour(process.env, stdoutIsTerminal()) ? COLOUR : PLAIN;
}

/** Output held back at most this long (in characters) before it is written. */
const FLUSH_AT = 1 << 16;

let pending: Output | undefined;

/**
 * What a command writes. JSON is passed on in blocks of about 64 KB (and before each blocking read
 * of stdin, see `flushBeforeRead`); for a table the JSON records are kept and shown at the end.
 */
export class Output {
  private chunks: string[] = [];
  private size = 0;
  private readonly records: unknown[] = [];

  constructor(
    private readonly format: Format,
    private readonly view?: CommandSpec['table'],
  ) {
    pending = this;
  }

  readonly write: Write = (s) => {
    if (this.format === 'table' && this.view) {
      for (const line of s.split('\n')) if (line !== '') this.records.push(JSON.parse(line));
      return;
    }
    this.chunks.push(s);
    this.size += s.length;
    if (this.size > FLUSH_AT) this.flush();
  };

  flush(): void {
    if (this.chunks.length === 0) return;
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    writeStdout(text);
  }

  /** Writes what is left: the pending JSON, or the table of every record. */
  end(): void {
    pending = undefined;
    this.flush();
    if (this.format === 'table' && this.view && this.records.length > 0) writeStdout(this.view(this.records, outputStyle()));
  }
}

/** Called before a read of stdin that may block, so that output for the keys so far is not held back. */
export function flushBeforeRead(): void {
  pending?.flush();
}
