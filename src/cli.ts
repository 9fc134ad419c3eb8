/**
 * `key-routing` (`node dist/cli.js`, the package's `bin`): runs `main` (src/cli/main.ts) against
 * this process's stdin, stdout, stderr, environment and working folder, and exits with its code.
 */
import { readFileSync, readSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { stdinSource } from './analyze/nodeSource';
import { UsageError } from './cli/args';
import type { CliIo } from './cli/cliIo';
import { main } from './cli/main';
import { PipeClosed } from './cli/output';

/*
 * stdout is fd 1 with blocking writes rather than `process.stdout`: a blocking write waits while
 * the reader is busy (no output piles up in memory) and fails at once with EPIPE when the reader
 * has gone, so a long run stops there instead of computing everything first. That is also why
 * `process.stdout` is never touched (opening it would make fd 1 non-blocking). Where fd 1 is
 * non-blocking anyway (it shares a pipe with stderr, `2>&1 |`, whose stream made it so), a full
 * pipe answers EAGAIN: the write waits a little and tries again, as a blocking one would. (Handing
 * the rest to `process.stdout` instead queued every later line in memory: the synchronous run
 * never let its event loop write them or see the EPIPE, and `route` on endless input into a slow
 * reader grew until V8 ran out of heap.)
 */

/** Writes all of `text` to stdout, blocking until it is taken. Throws `PipeClosed` on EPIPE. */
function writeStdout(text: string): void {
  if (text === '') return;
  const data = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(1, data, off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') throw new PipeClosed();
      if (code !== 'EAGAIN') throw e;
      pause();
    }
  }
}

/** A few milliseconds' sleep, for a non-blocking fd that has nothing to read or no room yet. */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
}

/** One read of fd 0: the byte count, 0 at the end (or where stdin is closed). */
function readStdin(buf: Uint8Array): number {
  for (;;) {
    try {
      return readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EOF' || code === 'EBADF') return 0;
      if (code !== 'EAGAIN') throw new UsageError(`stdin: cannot read it (${code ?? (e as Error).message})`);
      // fd 0 was left non-blocking by whoever started us: wait a little for input, then read again.
      pause();
    }
  }
}

/**
 * process.cwd(), or `.` where the folder was deleted (process.cwd() throws there): relative paths
 * then go to the system as given, and only a settings lookup fails, as it did before main took a cwd.
 */
function currentFolder(): string {
  try {
    return process.cwd();
  } catch {
    return '.';
  }
}

const io: CliIo = {
  stdin: { isTTY: isatty(0), read: readStdin, text: () => readFileSync(0, 'utf8'), source: stdinSource },
  stdout: { isTTY: isatty(1), write: writeStdout },
  stderr: { isTTY: isatty(2), write: (text) => void process.stderr.write(text) },
  env: process.env,
  cwd: currentFolder(),
};

// A reader of stderr that goes away (`2>&1 | head`) must not turn notes into a crash.
process.stderr.on('error', () => {});

void main(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
});
