import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readStdinLines } from '../../src/cli/io';
import type { CliStdin } from '../../src/cli/cliIo';
import { cli, configFile } from './cliRun';
import { murmur2Reference, propertyRuns } from './helpers';
import { scratchDir } from './scratch';

const settings = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'persistent://public/default/payments', system: 'pulsar', partitions: 4, subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } },
    { name: 'persistent://tenant/ns/payments', system: 'pulsar' },
    { name: 'persistent://public/default/shipments', system: 'pulsar', subscription: { consumers: [{ name: 'W1' }, { name: 'W2' }] } },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
};

const enc = (s: string) => new TextEncoder().encode(s);

describe('keys and names as arguments', () => {
  const cfg = configFile(settings);

  test('route: keys as arguments give the lines stdin gives; with arguments stdin is not read', async () => {
    const keys = ['user-1', 'Order-3459134', 'ключ', ''];
    const fromStdin = await cli(['route', '--config', cfg], keys.join('\n') + '\n');
    const fromArgs = await cli(['route', '--config', cfg, ...keys], 'not-a-key\n');
    assert.equal(fromArgs.code, 0, fromArgs.stderr);
    assert.equal(fromArgs.lines.length, keys.length * 4);
    assert.deepEqual(fromArgs.lines, fromStdin.lines);
    assert.ok(!fromArgs.stdout.includes('not-a-key'));
    const orders = fromArgs.lines.filter((l) => l.topic === 'orders');
    assert.deepEqual(orders.map((l) => l.partition), keys.map((k) => (murmur2Reference(enc(k)) & 0x7fffffff) % 6));
  });

  test('keys that start with - go after --; options may follow keys', async () => {
    const r = await cli(['route', 'a', '--topic', 'orders', '--config', cfg, '--', '-1', '--topic']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines.map((l) => l.key), ['a', '-1', '--topic']);
    assert.deepEqual(r.lines, (await cli(['route', '--config', cfg, '--topic', 'orders'], 'a\n-1\n--topic\n')).lines);
  });

  test('hex keys as arguments, bad hex an error line', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'orders', '--key-format', 'hex', '757365722d31', 'zz']);
    assert.equal(r.code, 0, r.stderr);
    // The key shows as given (its hex); where it goes is where `user-1` goes.
    assert.deepEqual(r.lines[0], { ...(await cli(['route', '--config', cfg, '--topic', 'orders'], 'user-1\n')).lines[0], key: '757365722d31' });
    assert.equal(r.lines[1].key, 'zz');
    assert.ok(r.lines[1].error);
  });

  test('what-if follows argument keys as it follows stdin keys', async () => {
    const args = ['what-if', '--config', cfg, '--topic', 'orders', '--then', 'partitions=7'];
    const a = await cli([...args, 'a', 'b', 'c']);
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(a.lines, (await cli(args, 'a\nb\nc\n')).lines);
    assert.deepEqual(a.lines[0].keys.map((k: { key: string }) => k.key), ['a', 'b', 'c']);
  });

  test('bundle takes topic names as arguments', async () => {
    const names = ['persistent://public/default/orders', 'other/ns/t'];
    const r = await cli(['bundle', '--config', cfg, ...names]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, (await cli(['bundle', '--config', cfg], names.join('\n') + '\n')).lines);
    assert.equal(r.lines.length, 2);
  });

  test('stdin is read as it arrives: a key’s route comes out before stdin ends', { timeout: 60_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('./cliRun');
    const child = spawn(process.execPath, [CLI, 'route', '--config', cfg, '--topic', 'orders'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.write('user-1\n');
    // The line arrives while stdin is still open; a CLI that read all of stdin first would wait forever.
    const line = await new Promise<string>((resolve) => {
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n')));
      });
    });
    assert.equal(JSON.parse(line).partition, (murmur2Reference(enc('user-1')) & 0x7fffffff) % 6);
    child.stdin.end('user-2');
    const [code] = await new Promise<[number | null]>((resolve) => child.on('exit', (c) => resolve([c])));
    assert.equal(code, 0);
  });
});

describe('stdin as lines', () => {
  /** A stdin that hands out `bytes` in reads of the given sizes (then of any size), as a pipe may. */
  const stdinOf = (bytes: Uint8Array, sizes: number[]): CliStdin => {
    let at = 0;
    let k = 0;
    return {
      isTTY: false,
      read: (buf) => {
        const n = Math.min(buf.length, bytes.length - at, sizes.length > 0 ? sizes[k++ % sizes.length] : buf.length);
        buf.set(bytes.subarray(at, at + n));
        at += n;
        return n;
      },
      text: () => assert.fail('not read as text'),
      source: () => assert.fail('not read as a source'),
    };
  };
  const expected = (bytes: Uint8Array): string[] => {
    const text = Buffer.from(bytes).toString('latin1');
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.map((l) => l.replace(/\r$/, ''));
  };
  const got = (stdin: CliStdin): string[] => [...readStdinLines(stdin)].map((l) => Buffer.from(l).toString('latin1'));

  test('any bytes, read in pieces of any sizes, give the lines of the whole: LF splits, a CR before it goes', () => {
    const byte = fc.oneof(fc.constantFrom(0x0a, 0x0d, 0x61), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), fc.array(byte, { maxLength: 200 }), (a, sizes, b) => {
        const bytes = Uint8Array.from([...a, ...b]);
        assert.deepEqual(got(stdinOf(bytes, sizes)), expected(bytes));
      }),
      propertyRuns(500),
    );
  });

  test('a line of 3 MB over 48 reads of 64 KB, with a CR split from its LF by a read, and lines after it', () => {
    const long = 'k'.repeat(3 * 1024 * 1024 - 1);
    const bytes = enc(`first\r\n${long}\r\nafter\nlast`);
    // The reads end between the long line's CR and its LF.
    const crAt = 7 + long.length;
    const lines = got(stdinOf(bytes, [7, ...Array.from({ length: 47 }, () => 65_536), crAt + 1 - 7 - 47 * 65_536]));
    assert.deepEqual(lines.map((l) => l.length), [5, long.length, 5, 4]);
    assert.equal(lines[1], long);
  });
});

describe('--topic by the end of its name', () => {
  const cfg = configFile(settings);

  test('a unique last segment (or more of the path) selects the topic in every command', async () => {
    assert.deepEqual((await cli(['route', '--config', cfg, '--topic', 'shipments', 'k'])).lines.map((l) => l.topic), ['persistent://public/default/shipments']);
    assert.deepEqual((await cli(['route', '--config', cfg, '--topic', 'default/payments', 'k'])).lines.map((l) => l.topic), ['persistent://public/default/payments']);
    assert.equal((await cli(['ranges', '--config', cfg, '--topic', 'shipments'])).lines[0].topic, 'persistent://public/default/shipments');
    assert.deepEqual(
      (await cli(['what-if', '--config', cfg, '--topic', 'shipments', '--then', '+W3'])).lines,
      (await cli(['what-if', '--config', cfg, '--topic', 'persistent://public/default/shipments', '--then', '+W3'])).lines,
    );
    assert.equal((await cli(['compare', '--config', cfg, '--topic', 'shipments', '--then', '+W3'])).lines[0].topic, 'persistent://public/default/shipments');
    const a = await cli(['analyze', '--config', cfg, '--topic', 'shipments'], 'k\n');
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(a.lines[0].topics.map((t: { topic: string }) => t.topic), ['persistent://public/default/shipments']);
  });

  test('an ambiguous end exits 2 naming the candidates', async () => {
    for (const cmd of [['route', 'k'], ['ranges'], ['analyze']]) {
      const r = await cli([cmd[0], '--config', cfg, '--topic', 'payments', ...cmd.slice(1)], 'k\n');
      assert.equal(r.code, 2, cmd[0]);
      assert.equal(
        r.stderr,
        `key-routing: --topic payments is ambiguous in ${cfg}: "persistent://public/default/payments", "persistent://tenant/ns/payments"; give the full name\n`,
      );
      assert.equal(r.stdout, '');
    }
  });

  test('an exact name wins over an end that matches another topic; a near miss gets a suggestion', async () => {
    const both = configFile({ 'keyRouting.topics': [{ name: 'persistent://public/default/invoices', system: 'pulsar' }, { name: 'invoices', system: 'kafka', partitions: 3 }] });
    assert.deepEqual((await cli(['route', '--config', both, '--topic', 'invoices', 'k'])).lines.map((l) => l.system), ['kafka']);
    const typo = await cli(['route', '--config', cfg, '--topic', 'shipmetns', 'k']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^key-routing: --topic: no topic named "shipmetns" in .*; did you mean "shipments"\? \(topics: "orders", /);
  });
});

/** A folder tree for settings discovery; returns its root. */
function tree(files: Record<string, string>): string {
  const root = scratchDir('key-routing-ws-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, 'src/deep/er'), { recursive: true });
  return root;
}

/** settings.json as people write it: comments and trailing commas. */
const COMMENTED = `{
  // the demo topics
  "editor.tabSize": 2,
  "keyRouting.topics": [
    { "name": "orders", "system": "kafka", "partitions": 6, }, // six partitions
    /* a Pulsar topic */
    { "name": "persistent://public/default/payments", "system": "pulsar", "partitions": 4, "subscription": { "consumers": [{ "name": "C1" }, { "name": "C2" },] } },
  ],
}
`;

describe('settings: --config defaults to the nearest .vscode/settings.json', () => {
  const plain = configFile({
    'keyRouting.topics': [
      { name: 'orders', system: 'kafka', partitions: 6 },
      { name: 'persistent://public/default/payments', system: 'pulsar', partitions: 4, subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }] } },
    ],
  });

  test('found from a nested folder, read with its comments and trailing commas, and named on stderr', async () => {
    const root = tree({ '.vscode/settings.json': COMMENTED });
    const r = await cli(['route', 'user-1', 'user-2'], '', { cwd: join(root, 'src/deep/er') });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `key-routing: using ${join(root, '.vscode/settings.json')}\n`);
    assert.deepEqual(r.lines, (await cli(['route', '--config', plain, 'user-1', 'user-2'])).lines);
    assert.equal(r.lines.length, 4);
  });

  test('the same file given with --config reads the same, and is not announced', async () => {
    const root = tree({ '.vscode/settings.json': COMMENTED });
    const r = await cli(['route', '--config', join(root, '.vscode/settings.json'), 'user-1']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(r.lines, (await cli(['route', '--config', plain, 'user-1'])).lines);
  });

  test('a nearer settings.json without keyRouting settings is passed over; a nearer one with them wins', async () => {
    const root = tree({ '.vscode/settings.json': COMMENTED, 'src/.vscode/settings.json': '{ "editor.tabSize": 4, }' });
    const r = await cli(['route', '--topic', 'orders', 'k'], '', { cwd: join(root, 'src/deep') });
    assert.equal(r.stderr, `key-routing: using ${join(root, '.vscode/settings.json')}\n`);
    const near = tree({
      '.vscode/settings.json': COMMENTED,
      'src/deep/.vscode/settings.json': JSON.stringify({ 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 2 }] }),
    });
    const n = await cli(['route', '--topic', 'orders', 'user-1'], '', { cwd: join(near, 'src/deep/er') });
    assert.equal(n.stderr, `key-routing: using ${join(near, 'src/deep/.vscode/settings.json')}\n`);
    assert.equal(n.lines[0].partition, (murmur2Reference(enc('user-1')) & 0x7fffffff) % 2);
  });

  test("a .code-workspace file's settings, found or given", async () => {
    const ws = JSON.stringify({ folders: [{ path: '.' }], settings: { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 3 }] } });
    const root = tree({ 'demo.code-workspace': ws, 'src/.vscode/settings.json': '{}' });
    const r = await cli(['route', 'user-1'], '', { cwd: join(root, 'src/deep') });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `key-routing: using ${join(root, 'demo.code-workspace')}\n`);
    assert.equal(r.lines[0].partition, (murmur2Reference(enc('user-1')) & 0x7fffffff) % 3);
    assert.deepEqual((await cli(['route', '--config', join(root, 'demo.code-workspace'), 'user-1'])).lines, r.lines);
    const two = tree({ 'a.code-workspace': ws, 'b.code-workspace': ws });
    const t = await cli(['route', 'k'], '', { cwd: two });
    assert.equal(t.code, 2);
    assert.match(t.stderr, /^key-routing: --config: several workspace files with keyRouting settings in .* \(.*a\.code-workspace, .*b\.code-workspace\); pass one with --config FILE\n$/);
  });

  test('none found: exit 2 with one line saying how to pass --config', async () => {
    const root = tree({ '.vscode/settings.json': '{ "editor.tabSize": 2 }' });
    const r = await cli(['route', 'k'], '', { cwd: join(root, 'src') });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `key-routing: --config: not given, and no .vscode/settings.json with keyRouting settings in ${join(root, 'src')} or a folder above it (${join(root, '.vscode/settings.json')}: no keyRouting settings); pass the settings file with --config FILE\n`,
    );
    for (const cmd of [['ranges', '--topic', 'x'], ['what-if', '--topic', 'x', '--then', '+A'], ['bundle', 'x'], ['analyze'], ['compare', '--topic', 'x', '--then', '+A']]) {
      const c = await cli(cmd, 'k\n', { cwd: join(root, 'src') });
      assert.equal(c.code, 2, cmd[0]);
      assert.match(c.stderr, /^key-routing: --config: not given/);
    }
  });

  test('a property the settings parser ignores is a warning on stderr, in every command that reads the settings; the answer is the one without it', async () => {
    const typo = {
      'keyRouting.topics': [
        { name: 'orders', system: 'kafka', partitions: 6, hashingScheme: 'Murmur3_32Hash' },
        { name: 'persistent://public/default/ring', system: 'pulsar', subscription: { consistentHashing: true, replicaPoint: 5, consumers: [{ name: 'C1' }, { name: 'C2' }] } },
      ],
    };
    const clean = structuredClone(typo) as any;
    delete clean['keyRouting.topics'][0].hashingScheme;
    delete clean['keyRouting.topics'][1].subscription.replicaPoint;
    const warnings = [
      'key-routing: warning: keyRouting.topics[0].hashingScheme: applies to Pulsar topics only; a Kafka topic ignores it (remove it, or set "system": "pulsar")',
      'key-routing: warning: keyRouting.topics[1].subscription.replicaPoint: unknown property "replicaPoint"; it is ignored (did you mean "replicaPoints"?)',
    ];
    for (const cmd of [['route', 'user-1'], ['ranges', '--topic', 'ring'], ['what-if', '--topic', 'ring', '--then', '-C1', 'user-1']]) {
      const given = await cli([...cmd, '--config', configFile(typo)]);
      assert.equal(given.code, 0, given.stderr);
      assert.deepEqual(given.stderr.trim().split('\n'), warnings, cmd[0]);
      // The default is used: the same output as the settings without the typo, which warn of nothing.
      const without = await cli([...cmd, '--config', configFile(clean)]);
      assert.equal(without.stderr, '', cmd[0]);
      assert.deepEqual(given.lines, without.lines, cmd[0]);
    }
  });

  test('a syntax error names the file, line and column', async () => {
    const text = '{\n  // fine\n  "keyRouting.topics": [\n    { "name": "x" "system": "kafka" }\n  ]\n}\n';
    const line = 4;
    const column = text.split('\n')[line - 1].indexOf('"system"') + 1;
    const given = configFile(text);
    const r = await cli(['route', '--config', given, 'k']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `key-routing: --config ${given}: not valid JSON at line ${line}, column ${column}: comma expected (comments and trailing commas are fine)\n`);
    const root = tree({ '.vscode/settings.json': text });
    const d = await cli(['route', 'k'], '', { cwd: root });
    assert.equal(d.code, 2);
    assert.equal(d.stderr, `key-routing: ${join(root, '.vscode/settings.json')}: not valid JSON at line ${line}, column ${column}: comma expected (comments and trailing commas are fine)\n`);
  });

  test('a byte order mark and an empty file read as VS Code reads them', async () => {
    const bom = configFile('\ufeff' + JSON.stringify({ 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }] }));
    assert.deepEqual((await cli(['route', '--config', bom, 'k'])).lines, (await cli(['route', '--config', plain, '--topic', 'orders', 'k'])).lines);
    const empty = await cli(['route', '--config', configFile(''), 'k']);
    assert.equal(empty.code, 0, empty.stderr);
    assert.deepEqual(empty.lines, []);
  });
});

describe('analyze --input from a pipe', () => {
  test('a FIFO (or <(zcat keys.gz)) is read once: the heavy keys come without the exact second pass', { timeout: 60_000 }, async () => {
    const { spawnSync } = await import('node:child_process');
    const { createWriteStream } = await import('node:fs');
    const fifo = join(scratchDir('key-routing-fifo-'), 'keys');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const cfg = configFile(settings);
    const run = cli(['analyze', '--config', cfg, '--topic', 'orders', '--input', fifo]);
    createWriteStream(fifo).end('a\nb\na\n');
    const { code, stderr, lines } = await run;
    assert.equal(code, 0, stderr);
    const r = lines[0];
    assert.equal(r.input.keys, 3);
    assert.equal(r.heavyKeys.method, 'misra-gries');
    assert.deepEqual(r.heavyKeys.keys.map((k: { key: string; count: number }) => [k.key, k.count]), [['a', 2], ['b', 1]]);
  });
});

describe('input files that are not what the command reads', () => {
  const cfg = configFile(settings);
  const dir = scratchDir('key-routing-input-');
  const keys = join(dir, 'keys.txt');
  writeFileSync(keys, 'user-1\nuser-2\n');

  test('analyze --input a folder: exit 2 naming it (it was an internal error, EISDIR, once the run read it)', async () => {
    const r = await cli(['analyze', '--config', cfg, '--input', dir]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `key-routing: --input ${dir}: is a folder; give a file of keys\n`);
  });

  test('a message that quotes the input keeps to one line: its line breaks are shown as \\n', async () => {
    // JSON.parse cites the text around the error, line break included.
    const r = await cli(['ordering', '--input', keys]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    assert.match(r.stderr, /^key-routing: --input .*keys\.txt: not valid JSON \(.*user-1\\nuse.*\)\n$/);
  });
});
