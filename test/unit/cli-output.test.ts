import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { CLI, cli, cliEnv, cliPty, cliText, configFile } from './cliRun';
import { scratchDir } from './scratch';

const settings = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    {
      name: 'persistent://public/default/payments',
      system: 'pulsar',
      partitions: 4,
      brokerVersion: '3.0',
      subscription: { consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] },
    },
    { name: 'persistent://public/default/shipments', system: 'pulsar', subscription: { consumers: [{ name: 'W' }, { name: 'W' }, { name: 'A' }] } },
    { name: 'persistent://public/default/audit', system: 'pulsar' },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
};
const KEYS = ['user-1', 'user-2', 'Order-3459134', 'ключ-7', 'k'];

/**
 * Reads a table by its header: a left-aligned column's cell starts where its header starts, a
 * right-aligned one's ends where its header ends (cells here hold no blanks).
 */
function readTable(text: string, columns: Array<[header: string, right?: boolean]>): Array<Record<string, string>> {
  const [head, ...rows] = text.trimEnd().split('\n');
  const at = columns.map(([h, right]) => {
    const i = head.indexOf(h);
    assert.ok(i >= 0, `no column ${h} in ${head}`);
    return right ? { h, end: i + h.length } : { h, start: i };
  });
  return rows.map((row) => {
    const out: Record<string, string> = {};
    // A row ends after its last non-empty cell.
    const padded = row.padEnd(head.length);
    for (const c of at) out[c.h] = c.end !== undefined ? /\S*$/.exec(padded.slice(0, c.end))![0] : /^\S*/.exec(padded.slice(c.start))![0];
    return out;
  });
}

describe('--format table and JSON', () => {
  const cfg = configFile(settings);

  test('route: the table holds the JSON lines’ values in aligned columns', async () => {
    const json = await cli(['route', '--config', cfg, ...KEYS]);
    const table = await cliText(['route', '--config', cfg, '--format', 'table', ...KEYS]);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(json.lines.length, KEYS.length * 4);
    const rows = readTable(table.stdout, [['KEY'], ['TOPIC'], ['PARTITION', true], ['HASH', true], ['STICKY HASH', true], ['CONSUMER'], ['RANGE']]);
    assert.equal(rows.length, json.lines.length);
    json.lines.forEach((l, i) => {
      const cell = (v: unknown) => (v === undefined ? '' : v === null ? '-' : Array.isArray(v) ? v.join('-') : String(v));
      assert.deepEqual(rows[i], {
        KEY: l.key,
        TOPIC: l.topic,
        PARTITION: cell(l.partition),
        HASH: cell(l.hash),
        'STICKY HASH': cell(l.stickyKeyHash),
        CONSUMER: cell(l.consumer),
        RANGE: cell(l.range),
      });
    });
    // JSON stays the default into a pipe, and --format json forces it.
    assert.deepEqual((await cli(['route', '--config', cfg, '--format', 'json', ...KEYS])).lines, json.lines);
  });

  test('route: a column nobody fills is left out; errors get their own column', async () => {
    const r = await cliText(['route', '--config', cfg, '--topic', 'orders', '--key-format', 'hex', '6b', 'zz', '--format', 'table']);
    const head = r.stdout.split('\n')[0];
    assert.deepEqual(head.split(/ {2,}/), ['KEY', 'TOPIC', 'PARTITION', 'HASH', 'ERROR']);
    const [ok, bad] = readTable(r.stdout, [['KEY'], ['PARTITION', true], ['ERROR']]);
    assert.deepEqual([ok.KEY, ok.PARTITION, ok.ERROR], ['6b', String((await cli(['route', '--config', cfg, '--topic', 'orders', 'k'])).lines[0].partition), '']);
    assert.equal(bad.KEY, 'zz');
    assert.ok(bad.ERROR.length > 0);
  });

  test('ranges: one row per assignment with its size and share of the key hash range', async () => {
    const [json] = (await cli(['ranges', '--config', cfg, '--topic', 'payments', '--then', '+C4'])).lines;
    const t = await cliText(['ranges', '--config', cfg, '--topic', 'payments', '--then', '+C4', '--format', 'table']);
    const [title, ...rest] = t.stdout.split('\n');
    assert.equal(title, `persistent://public/default/payments: key hash range ${json.keyHashRange[0]}-${json.keyHashRange[1]}, ${json.assignments.length} segments`);
    const rows = readTable(rest.join('\n'), [['START', true], ['END', true], ['SIZE', true], ['SHARE', true], ['CONSUMERS']]);
    const space = json.keyHashRange[1] - json.keyHashRange[0] + 1;
    assert.deepEqual(
      rows,
      json.assignments.map((a: { start: number; end: number; consumers: string[] }) => ({
        START: String(a.start),
        END: String(a.end),
        SIZE: String(a.end - a.start + 1),
        SHARE: `${((100 * (a.end - a.start + 1)) / space).toFixed(2)}%`,
        CONSUMERS: a.consumers.join(', '),
      })),
    );
  });

  test('what-if: each step’s moved share and every consumer’s lost and gained hashes, then the keys', async () => {
    const args = ['what-if', '--config', cfg, '--topic', 'payments', '--then', '+C4', '--then', '-C1', ...KEYS];
    const [json] = (await cli(args)).lines;
    const t = (await cliText([...args, '--format', 'table'])).stdout;
    const size = (rs: number[][]) => rs.reduce((n, [s, e]) => n + e - s + 1, 0);
    for (const step of json.steps) {
      assert.ok(t.includes(`${step.event}: ${(100 * step.movedFraction).toFixed(2)}% moved\n`), step.event);
      const block = t.split(`${step.event}: `)[1].split('\n\n')[0].split('\n').slice(1).join('\n');
      const rows = readTable(block, [['CONSUMER'], ['CHANGE'], ['HASHES', true]]);
      const expected = [
        ...Object.entries(step.lost as Record<string, number[][]>).map(([id, rs]) => ({ CONSUMER: id, CHANGE: 'lost', HASHES: String(size(rs)) })),
        ...Object.entries(step.gained as Record<string, number[][]>).map(([id, rs]) => ({ CONSUMER: id, CHANGE: 'gained', HASHES: String(size(rs)) })),
      ];
      assert.deepEqual(rows, expected);
    }
    const keys = readTable(t.slice(t.lastIndexOf('KEY ')), [['KEY'], ['MOVED']]);
    assert.deepEqual(
      keys.map((k) => [k.KEY, k.MOVED]),
      json.keys.map((k: { key: string; moved: boolean }) => [k.key, k.moved ? 'yes' : 'no']),
    );
  });

  test('bundle: the hash in hex beside the bundle', async () => {
    const names = ['persistent://public/default/orders', 'persistent://public/default/t2'];
    const json = (await cli(['bundle', '--config', cfg, ...names])).lines;
    const rows = readTable((await cliText(['bundle', '--config', cfg, '--format', 'table', ...names])).stdout, [['TOPIC'], ['HASH', true], ['BUNDLE']]);
    assert.deepEqual(
      rows,
      json.map((l) => ({ TOPIC: l.topic, HASH: `0x${l.hash.toString(16).padStart(8, '0')}`, BUNDLE: l.bundle })),
    );
  });

  test('analyze: per topic a table of keys per unit, and the heaviest keys', async () => {
    const input = ['a', 'b', 'a', 'c', 'a', 'b'].join('\n') + '\n';
    const [json] = (await cli(['analyze', '--config', cfg, '--topic', 'shipments'], input)).lines;
    const t = (await cliText(['analyze', '--config', cfg, '--topic', 'shipments', '--format', 'table'], input)).stdout;
    assert.ok(t.startsWith('6 keys from 6 lines (12 bytes)\n'), t);
    const consumers = readTable(t.slice(t.indexOf('CONSUMER')).split('\n\n')[0].replace(/\nskew.*$/, ''), [['CONSUMER'], ['KEYS', true]]);
    assert.deepEqual(
      consumers,
      json.topics[0].consumers.map((c: { id: string; keys: number }) => ({ CONSUMER: c.id, KEYS: String(c.keys) })),
    );
    const heavy = readTable(t.slice(t.indexOf('KEY ', t.indexOf('heaviest keys'))), [['KEY'], ['COUNT', true]]);
    assert.deepEqual(
      heavy,
      json.heavyKeys.keys.map((k: { key: string; count: number }) => ({ KEY: k.key, COUNT: String(k.count) })),
    );
  });

  test('no colour into a pipe, even for a table; FORCE_COLOR colours it, NO_COLOR wins', async () => {
    const args = ['route', '--config', cfg, '--format', 'table', 'user-1'];
    assert.ok(!(await cliText(args)).stdout.includes('\x1b'));
    assert.ok((await cliText(args, '', { env: { FORCE_COLOR: '1' } })).stdout.startsWith('\x1b[1mKEY\x1b[22m'));
    assert.ok(!(await cliText(args, '', { env: { FORCE_COLOR: '0' } })).stdout.includes('\x1b'));
    assert.ok(!(await cliText(args, '', { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout.includes('\x1b'));
    // JSON is never coloured.
    assert.ok(!(await cliText(['route', '--config', cfg, 'user-1'], '', { env: { FORCE_COLOR: '1' } })).stdout.includes('\x1b'));
  });

  test('a key holding control characters cannot reach the terminal raw', async () => {
    const key = 'evil\x1b[2J\x07';
    const t = (await cliText(['route', '--config', cfg, '--topic', 'orders', '--format', 'table', key])).stdout;
    assert.ok(!/[\x00-\x09\x0b-\x1f\x7f]/.test(t), JSON.stringify(t));
    assert.ok(t.includes('evil\\u001b[2J\\u0007'));
  });
});

describe('on a terminal (a pseudo-terminal from util-linux script)', () => {
  const cfg = configFile(settings);
  const hasScript = spawnSync('script', ['--version']).status === 0;

  test('a table by default, in colour; NO_COLOR and TERM=dumb turn colour off; --format json gives JSON', { skip: !hasScript && 'util-linux script is not installed' }, async () => {
    const args = ['route', '--config', cfg, '--topic', 'orders', 'user-1', 'user-2'];
    const json = (await cli(args)).lines;
    const colour = cliPty(args);
    assert.equal(colour.code, 0);
    assert.ok(colour.output.startsWith('\x1b[1mKEY\x1b[22m'), JSON.stringify(colour.output));
    const plain = cliPty(args, { env: { NO_COLOR: '1' } });
    assert.ok(!plain.output.includes('\x1b'), JSON.stringify(plain.output));
    assert.deepEqual(
      readTable(plain.output, [['KEY'], ['PARTITION', true], ['HASH', true]]),
      json.map((l) => ({ KEY: l.key, PARTITION: String(l.partition), HASH: String(l.hash) })),
    );
    assert.equal(colour.output.replace(/\x1b\[\d+m/g, ''), plain.output);
    assert.ok(!cliPty(args, { env: { TERM: 'dumb' } }).output.includes('\x1b'));
    const forced = cliPty([...args, '--format', 'json']);
    assert.deepEqual(forced.output.trim().split('\n').map((l) => JSON.parse(l)), json);
  });

  test('a long analyze shows progress on stderr and erases it before the result', { skip: !hasScript && 'util-linux script is not installed', timeout: 120_000 }, async () => {
    const dir = scratchDir('key-routing-fifo-');
    const fifo = join(dir, 'keys');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const command = [process.execPath, CLI, 'analyze', '--config', cfg, '--topic', 'orders', '--input', fifo, '--format', 'json'].map((s) => `'${s}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'], env: cliEnv() });
    let shown = '';
    child.stdout.on('data', (d) => (shown += d));
    // Keys keep arriving until the progress line is up: the run is "long" by construction.
    const keys = createWriteStream(fifo);
    let n = 0;
    await new Promise<void>((resolve) => {
      const feed = (): void => {
        if (shown.includes('key-routing: analysing')) return resolve();
        keys.write(`user-${n++}\n`, () => setImmediate(feed));
      };
      feed();
    });
    keys.end();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    const last = shown.lastIndexOf('key-routing: analysing');
    const erase = shown.indexOf('\r\x1b[K', last);
    assert.ok(erase > last, JSON.stringify(shown.slice(last)));
    const result = JSON.parse(shown.slice(erase + 4).trim());
    assert.equal(result.input.keys, n);
    // Into a pipe there is no progress at all.
    const piped = await cli(['analyze', '--config', cfg, '--topic', 'orders'], 'a\n'.repeat(1000));
    assert.equal(piped.stderr, '');
  });
});

describe('a reader that stops early', () => {
  const cfg = configFile(settings);

  /** The command line run with `args`, or with `shared`, in a shell with stderr on stdout's pipe (`2>&1`). */
  function spawnCli(args: string[], shared: boolean): ChildProcessWithoutNullStreams {
    const command = shared ? ['sh', ['-c', `'${process.execPath}' '${CLI}' ${args.map((a) => `'${a}'`).join(' ')} 2>&1`]] : [process.execPath, [CLI, ...args]];
    return spawn(command[0] as string, command[1] as string[], { stdio: ['pipe', 'pipe', 'pipe'], env: cliEnv() });
  }

  /** Reads the first line of `child`'s output, then closes the pipe as `head -1` does, and waits for the exit. */
  async function firstLineThenExit(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: string | null; first: string }> {
    const first = await new Promise<string>((resolve) => {
      let buf = '';
      const onData = (d: Buffer): void => {
        buf += d;
        if (!buf.includes('\n')) return;
        child.stdout.off('data', onData);
        resolve(buf.slice(0, buf.indexOf('\n')));
      };
      child.stdout.on('data', onData);
    });
    child.stdout.destroy();
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    return { code, signal, first };
  }

  /**
   * Feeds endless keys to `route`, reads the first line of output, then closes the pipe as
   * `head -1` does. The run must end by itself (its input never does), quietly, with exit 0.
   */
  async function closeAfterFirstLine(args: string[], shell = false): Promise<{ code: number | null; signal: string | null; stderr: string; first: string }> {
    const child = spawnCli(args, shell);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const block = Array.from({ length: 1000 }, (_, i) => `user-${i}`).join('\n') + '\n';
    let feeding = true;
    child.stdin.on('error', () => (feeding = false));
    const feed = (): void => {
      while (feeding && child.stdin.write(block));
      if (feeding) child.stdin.once('drain', feed);
    };
    feed();
    const r = await firstLineThenExit(child);
    feeding = false;
    child.stdin.destroy();
    return { ...r, stderr };
  }

  test('route | head -1: exit 0, nothing on stderr, input no longer read', { timeout: 120_000 }, async () => {
    const r = await closeAfterFirstLine(['route', '--config', cfg]);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.equal(JSON.parse(r.first).key, 'user-0');
  });

  test('the same with stderr on the same pipe (2>&1 |)', { timeout: 120_000 }, async () => {
    const r = await closeAfterFirstLine(['route', '--config', cfg], true);
    assert.equal(r.code, 0, `exit signal ${r.signal}`);
    assert.equal(JSON.parse(r.first).key, 'user-0');
  });

  test('2>&1 into a reader that has not read yet: route waits for it, and stops reading its input', { timeout: 120_000 }, async () => {
    // Sharing its pipe with stderr makes stdout non-blocking: a full pipe answers EAGAIN. The
    // command must wait there as on a blocking pipe. It once handed the rest to an async stream
    // that a synchronous run never flushed: it read on, queued every line in memory (on endless
    // input until V8 ran out of heap, which killed the shell of the test above by SIGPIPE).
    const keys = 300_000;
    const child = spawnCli(['route', '--config', cfg], true);
    let allTaken = false;
    child.stdin.on('error', () => {});
    // 'finish' only where the command took every byte (an end callback also runs on the EPIPE).
    child.stdin.on('finish', () => (allTaken = true));
    // In blocks, so that what is still queued here shrinks as the command reads.
    for (let i = 0; i < keys; i += 1000) child.stdin.write(Array.from({ length: 1000 }, (_, j) => `user-${i + j}\n`).join(''));
    child.stdin.end();
    // Nothing read until the command has stopped taking input (its output pipe full), or has
    // taken all of it (what the old stream did): the input's bytes accepted stay the same.
    let last = -1;
    for (;;) {
      await new Promise((res) => setTimeout(res, 100));
      const now = child.stdin.writableLength;
      if (allTaken || now === last) break;
      last = now;
    }
    const { code, signal, first } = await firstLineThenExit(child);
    assert.equal(code, 0, `exit signal ${signal}`);
    assert.equal(JSON.parse(first).key, 'user-0');
    assert.equal(allTaken, false, `route read all ${keys} keys while its first line was still in the pipe`);
  });
});
