/**
 * What one run of the CLI reads and writes, passed to `main` rather than taken from `process`:
 * `node dist/cli.js` passes the process's own (src/cli.ts), and the unit tests run `main` in their
 * own process with text in and strings out, as a pipe would carry them.
 */
import { isAbsolute, join } from 'node:path';
import type { ChunkSource } from '../analyze/run';

/** stdout or stderr. */
export interface TextSink {
  /** Writes all of `text`, blocking until it is taken; on stdout it throws `PipeClosed` where the reader has gone. */
  write(text: string): void;
  /** A terminal: decides the default format, colour and progress. */
  readonly isTTY: boolean;
}

export interface CliStdin {
  /** A terminal: keys are then not read from it unasked (what-if), and a hint says how to end them. */
  readonly isTTY: boolean;
  /** Up to `buf.length` bytes into `buf`, waiting for them; 0 at the end. */
  read(buf: Uint8Array): number;
  /** All of it, as UTF-8 text (`import KIND -`). */
  text(): string;
  /** All of it, for `analyze` (re-readable only where it is a regular file). */
  source(): ChunkSource;
}

export interface CliIo {
  stdin: CliStdin;
  stdout: TextSink;
  stderr: TextSink;
  /** NO_COLOR, FORCE_COLOR, TERM. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where settings are looked for without --config, and what relative FILE arguments are relative to. */
  cwd: string;
}

/** A FILE argument as the run's working folder sees it (messages still name it as given). */
export function inCwd(io: CliIo, path: string): string {
  return isAbsolute(path) ? path : join(io.cwd, path);
}
