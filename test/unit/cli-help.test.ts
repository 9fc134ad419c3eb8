import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cliText } from './cliRun';

/** Every command the CLI has; help must list exactly these. */
const COMMANDS = ['route', 'ranges', 'what-if', 'assignment', 'bundle', 'analyze', 'compare', 'ordering', 'split', 'assign-chunks', 'import'];

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string };

describe('key-routing help and version', () => {
  test('--version and -V print the package version', async () => {
    for (const args of [['--version'], ['-V'], ['route', '--version']]) {
      const r = await cliText(args);
      assert.equal(r.code, 0, args.join(' '));
      assert.equal(r.stdout, `key-routing ${pkg.version}\n`);
      assert.equal(r.stderr, '');
    }
  });

  test('--help lists every command with its summary; no command at all prints it on stderr and exits 2', async () => {
    const h = await cliText(['--help']);
    assert.equal(h.code, 0);
    assert.match(h.stdout, /^key-routing \d+\.\d+\.\d+: /);
    const listed = h.stdout
      .split('commands:\n')[1]
      .split('\n\n')[0]
      .split('\n')
      .filter((l) => /^  \S/.test(l))
      .map((l) => l.trim().split(/\s+/)[0]);
    assert.deepEqual(listed, COMMANDS);
    assert.deepEqual((await cliText(['-h'])).stdout, h.stdout);
    assert.deepEqual((await cliText(['help'])).stdout, h.stdout);
    const bare = await cliText([]);
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.equal(bare.stderr, h.stdout);
  });

  for (const name of COMMANDS) {
    test(`${name}: help COMMAND, COMMAND --help and COMMAND -h agree; usage, every option described, examples`, async () => {
      const r = await cliText(['help', name]);
      assert.equal(r.code, 0);
      assert.equal((await cliText([name, '--help'])).stdout, r.stdout);
      assert.equal((await cliText([name, '-h'])).stdout, r.stdout);
      // --help wins over anything else on the line, even missing required options.
      assert.equal((await cliText([name, '--config', '/nonexistent', '--help'])).stdout, r.stdout);
      const text = r.stdout;
      assert.ok(text.startsWith(`key-routing ${name}: `), text);
      const usage = /usage: (key-routing [^]*?)\n\n/.exec(text)?.[1].replace(/\n +/g, ' ');
      assert.ok(usage?.startsWith(`key-routing ${name}`), text);
      const options = text.split('\noptions:\n')[1].split('\n\n')[0];
      // Each option in the usage line has a described entry (a description follows its name).
      for (const [, opt] of usage!.matchAll(/--([a-z-]+)/g)) {
        assert.match(options, new RegExp(`^  --${opt}\\b.*\\S.*\\w`, 'm'), `${name}: --${opt} has no description`);
      }
      assert.match(options, /^  --help +Show this help\.$/m);
      const examples = text.split('\nexamples:\n')[1].trim().split('\n');
      assert.ok(examples.length >= 1);
      for (const e of examples) assert.match(e.trim(), new RegExp(`(^|\\| )key-routing ${name}\\b`));
      for (const line of text.split('\n')) assert.ok(line.length <= 80, `${name}: line longer than 80 columns: ${line}`);
    });
  }

  test('the commands --help says print tables are the ones that take --format', async () => {
    // It said every command's output is a table on a terminal; compare, ordering, split,
    // assign-chunks and import print JSON and refuse --format.
    const help = (await cliText(['--help'])).stdout.replace(/\s+/g, ' ');
    const said = /JSON otherwise \(--format table\|json\) for ([^;]+);/.exec(help)?.[1].split(/, | and /);
    const withFormat: string[] = [];
    for (const c of COMMANDS) if ((await cliText([c, '--help'])).stdout.includes('--format table|json')) withFormat.push(c);
    assert.deepEqual(said, withFormat);
  });
  test('an unknown command or option exits 2 with one line and a suggestion', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['rotue'], /^key-routing: unknown command "rotue"; did you mean route\? \(commands: route, ranges, /],
      [['help', 'whatif'], /^key-routing: unknown command "whatif"; did you mean what-if\?/],
      [['frobnicate'], /^key-routing: unknown command "frobnicate" \(commands: /],
      [['route', '--topics', 'x'], /^key-routing: route: unknown option --topics; did you mean --topic\? \(key-routing route --help lists its options\)/],
      [['ranges', '--cofnig', 'x'], /did you mean --config\?/],
      [['split', '--topic', 'x'], /^key-routing: split: unknown option --topic \(key-routing split --help/],
      [['route', '-x'], /^key-routing: route: unknown option -x \(put -- before an argument that starts with -\)/],
      [['ranges', 'extra'], /^key-routing: ranges takes no arguments \(got "extra"\)/],
      [['route', '--topic'], /^key-routing: --topic needs a value \(NAME\)/],
      [['what-if', '--explain=yes'], /^key-routing: --explain takes no value/],
      [['route', '--format', 'yaml', 'k', '--config', '/dev/null'], /^key-routing: --format must be table or json \(got "yaml"\)/],
    ];
    for (const [args, re] of cases) {
      const r = await cliText(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.equal(r.stdout, '');
    }
  });

  test('options may come before the command', async () => {
    const r = await cliText(['--topic', 'x', 'ranges', '--nope']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^key-routing: ranges: unknown option --nope/);
    // --format's value is not taken for the command.
    const f = await cliText(['--format', 'json', 'route', '--nope']);
    assert.match(f.stderr, /^key-routing: route: unknown option --nope/);
  });
});
