/**
 * Runs the CLI as a user would, with stdin and a config file: `cli`/`cliText` call its `main` in
 * this process, with stdin, stdout and stderr as pipes would carry them (not terminals; bytes as
 * UTF-8), which saves a Node process per call; `CLI` (`dist/cli.js`) and `cliPty` are the real
 * process, for what only the process shows (terminals, closed pipes, exit codes, reading stdin as
 * it arrives).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChunkSource } from '../../src/analyze/run';
import type { CliIo, TextSink } from '../../src/cli/cliIo';
import { main } from '../../src/cli/main';
import { scratchDir } from './scratch';

export const CLI = resolve(__dirname, '../../cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: any[];
}

export interface CliOptions {
  /** Default: an empty folder, so no settings are found from it upward unless a test puts them there. */
  cwd?: string;
  /** Added to the environment (a value of undefined removes the variable). */
  env?: Record<string, string | undefined>;
}

let emptyDir: string | undefined;

/** The environment the CLI sees: this one without colour settings, plus `extra`. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...extra };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

export async function cli(args: string[], stdin = '', options: CliOptions = {}): Promise<CliResult> {
  const r = await cliText(args, stdin, options);
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return { ...r, lines };
}

/** Like `cli` for output that is not JSON (help, tables). */
export async function cliText(args: string[], stdin = '', options: CliOptions = {}): Promise<Omit<CliResult, 'lines'>> {
  const cwd = options.cwd ?? (emptyDir ??= scratchDir('key-routing-cwd-'));
  const stdout = new Collected();
  const stderr = new Collected();
  const code = await main(args, { stdin: pipedStdin(Buffer.from(stdin, 'utf8')), stdout, stderr, env: cliEnv(options.env), cwd });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Like `cliText`, through the real process (`node dist/cli.js`) with stdin and stdout as pipes. */
export function cliProcess(args: string[], stdin = '', options: CliOptions = {}): Omit<CliResult, 'lines'> {
  const cwd = options.cwd ?? (emptyDir ??= scratchDir('key-routing-cwd-'));
  const r = spawnSync(process.execPath, [CLI, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 28, cwd, env: cliEnv(options.env) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** stdout or stderr into a pipe: kept, and read back as UTF-8 as the other end would (a lone surrogate becomes U+FFFD). */
class Collected implements TextSink {
  readonly isTTY = false;
  private readonly parts: string[] = [];
  write(text: string): void {
    this.parts.push(text);
  }
  text(): string {
    return Buffer.from(this.parts.join(''), 'utf8').toString('utf8');
  }
}

/**
 * stdin from a pipe holding `bytes`: read once (analyze cannot read it again for its exact pass),
 * in blocks of 64 KB as Node reads a pipe.
 */
function pipedStdin(bytes: Buffer): CliIo['stdin'] {
  let at = 0;
  let opened = false;
  const source: ChunkSource = {
    rereadable: false,
    open: () => {
      if (opened) throw new Error('standard input can be read only once');
      opened = true;
      const blocks: Uint8Array[] = [];
      for (let i = at; i < bytes.length; i += 1 << 16) blocks.push(bytes.subarray(i, i + (1 << 16)));
      at = bytes.length;
      return blocks;
    },
  };
  return {
    isTTY: false,
    read: (buf) => {
      const n = Math.min(buf.length, bytes.length - at);
      buf.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
    text: () => {
      const rest = bytes.subarray(at);
      at = bytes.length;
      return rest.toString('utf8');
    },
    source: () => source,
  };
}

/** Writes a settings object to a temporary file and returns its path. */
export function configFile(settings: unknown): string {
  const dir = scratchDir('key-routing-');
  const p = join(dir, 'settings.json');
  writeFileSync(p, typeof settings === 'string' ? settings : JSON.stringify(settings));
  return p;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), so stdin, stdout and stderr are a TTY
 * as for a person at a terminal. Returns what the terminal showed (CR LF turned into LF) and the
 * exit code.
 */
export function cliPty(args: string[], options: CliOptions = {}): { code: number | null; output: string } {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  const cwd = options.cwd ?? (emptyDir ??= scratchDir('key-routing-cwd-'));
  const r = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd, env: cliEnv(options.env) });
  if (r.error) throw r.error;
  return { code: r.status, output: r.stdout.replace(/\r\n/g, '\n') };
}
