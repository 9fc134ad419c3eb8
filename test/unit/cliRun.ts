/** Runs the built CLI (`dist/cli.js`) as a user would, with stdin and a config file. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

export function cli(args: string[], stdin = '', options: CliOptions = {}): CliResult {
  const r = cliText(args, stdin, options);
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return { ...r, lines };
}

/** Like `cli` for output that is not JSON (help, tables). */
export function cliText(args: string[], stdin = '', options: CliOptions = {}): Omit<CliResult, 'lines'> {
  const cwd = options.cwd ?? (emptyDir ??= scratchDir('key-routing-cwd-'));
  const r = spawnSync(process.execPath, [CLI, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 28, cwd, env: cliEnv(options.env) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
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
