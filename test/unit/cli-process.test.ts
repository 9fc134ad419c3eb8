/**
 * The real `key-routing` process (`dist/cli.js`), which the other CLI tests do not start (they call
 * `main` in their own process): the bin runs by its shebang, and each command through the process
 * gives the exit code, stdout and stderr the in-process run gives, so that what src/cli.ts passes
 * to `main` (stdin read from fd 0 or as analyze's stream, stdout to fd 1, stderr, the environment,
 * the working folder) is what the tests' stand-ins pass.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, cliProcess, cliText, configFile, type CliOptions } from './cliRun';
import { scratchDir } from './scratch';

const settings = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'persistent://public/default/payments', system: 'pulsar', partitions: 4, subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
  'keyRouting.kafkaGroups': [{ name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }],
};
const KEYS = 'user-1\nuser-2\nOrder-3459134\nключ-7\n\n';
const DATA = join(__dirname, '../../../test/unit/data/observed');

describe('the key-routing process', () => {
  test('dist/cli.js runs by its shebang (the package bin)', () => {
    assert.equal(readFileSync(CLI, 'utf8').split('\n')[0], '#!/usr/bin/env node');
    accessSync(CLI, constants.X_OK);
    const r = spawnSync(CLI, ['--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^key-routing \d+\.\d+\.\d+\n$/);
  });

  const cfg = configFile(settings);
  const input = (name: string, v: unknown): string => {
    const p = join(scratchDir('key-routing-process-'), name);
    writeFileSync(p, JSON.stringify(v));
    return p;
  };
  // One run of every command (stdin where it reads it), and the usage errors; the count is checked below.
  const cases: Array<[what: string, args: string[], stdin?: string, options?: CliOptions]> = [
    ['route, keys on stdin', ['route', '--config', cfg], KEYS],
    ['route --format table with FORCE_COLOR', ['route', '--config', cfg, '--format', 'table', '--topic', 'payments', 'user-1'], '', { env: { FORCE_COLOR: '1' } }],
    ['ranges', ['ranges', '--config', cfg, '--topic', 'payments', '--then', '+C3', '--then', '-nobody']],
    ['what-if, keys on stdin', ['what-if', '--config', cfg, '--topic', 'payments', '--then', '+C3'], KEYS],
    ['assignment', ['assignment', '--config', cfg, '--group', 'billing', '--then', '+m3']],
    ['bundle, names on stdin', ['bundle', '--config', cfg], 'orders\nother/ns/t\n'],
    ['analyze, keys on stdin', ['analyze', '--config', cfg], KEYS.repeat(50)],
    ['compare', ['compare', '--config', cfg, '--topic', 'payments', '--then', '+C3']],
    ['ordering', ['ordering', '--input', input('s.json', { subscription: { consistentHashing: false }, consumers: [{ name: 'C1' }], messages: [{ id: 'm0', key: 'x' }, { id: 'm1', key: 'x' }], pending: { C1: ['m0'] }, event: '+C2', steps: [{ ack: ['m0'] }] })]],
    ['split', ['split', '--algorithm', 'range_equally_divide', '--input', input('b.json', { bundle: '0x00000000_0x40000000' })]],
    ['assign-chunks, with a note on stderr', ['assign-chunks', '--input', input('c.json', { consumers: [{ consumer: 'A', availablePermits: 0 }], rounds: [{ entries: [{ id: 1 }] }] })]],
    ['import, the report on stdin', ['import', 'pulsar-stats', '-', '--topic', 't'], readFileSync(join(DATA, 'pulsar-3.0-ring.json'), 'utf8')],
    ['a usage error', ['route', '--config', '/nonexistent/settings.json', 'k']],
    ['no command', []],
  ];

  test('every command is run here', () => {
    const commands = new Set(cases.map(([, args]) => args[0]));
    for (const c of ['route', 'ranges', 'what-if', 'assignment', 'bundle', 'analyze', 'compare', 'ordering', 'split', 'assign-chunks', 'import']) assert.ok(commands.has(c), c);
  });

  for (const [what, args, stdin, options] of cases) {
    test(`${what}: the process gives what main gives in-process`, async () => {
      const real = cliProcess(args, stdin, options);
      const inProcess = await cliText(args, stdin, options);
      // analyze's output says how long it took: the one field that may differ.
      const untimed = (r: typeof real) => (args[0] === 'analyze' ? { ...r, stdout: { ...JSON.parse(r.stdout), elapsedMs: 0 } } : r);
      assert.deepEqual(untimed(real), untimed(inProcess));
      // Not two empty runs that agree.
      assert.ok(real.stdout !== '' || real.code === 2, real.stderr);
      if (real.code === 2) assert.ok(real.stderr !== '');
    });
  }

  test('without --config, the settings are found from the working folder, and relative FILE arguments are relative to it', async () => {
    const root = scratchDir('key-routing-process-cwd-');
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode/settings.json'), JSON.stringify(settings));
    mkdirSync(join(root, 'sub'));
    const found = cliProcess(['route', 'user-1'], '', { cwd: join(root, 'sub') });
    assert.equal(found.code, 0, found.stderr);
    assert.equal(found.stderr, `key-routing: using ${join(root, '.vscode/settings.json')}\n`);
    assert.deepEqual(found, await cliText(['route', 'user-1'], '', { cwd: join(root, 'sub') }));
    const relative = cliProcess(['route', '--config', '../.vscode/settings.json', 'user-1'], '', { cwd: join(root, 'sub') });
    assert.deepEqual(relative, { code: 0, stdout: found.stdout, stderr: '' });
    assert.deepEqual(relative, await cliText(['route', '--config', '../.vscode/settings.json', 'user-1'], '', { cwd: join(root, 'sub') }));
  });
});
