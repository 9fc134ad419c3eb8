/** Runs the built CLI (`dist/cli.js`) as a user would, with stdin and a config file. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: any[];
}

export function cli(args: string[], stdin = ''): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 28 });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines };
}

/** Writes a settings object to a temporary file and returns its path. */
export function configFile(settings: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'key-routing-'));
  const p = join(dir, 'settings.json');
  writeFileSync(p, typeof settings === 'string' ? settings : JSON.stringify(settings));
  return p;
}
