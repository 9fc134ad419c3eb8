import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CLI, cli, configFile } from './cliRun';
import { analyzeBytes, type AnalysisResult } from '../../src/analyze/index';
import type { FromWorker } from '../../src/analyze/protocol';
import { parseEvent } from '../../src/engine/events';
import { parseSettings } from '../../src/engine/settings';
import { randInt, rng } from './helpers';
import { scratchDir } from './scratch';

const RAW = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'payments', system: 'pulsar', partitions: 4, subscription: { consumers: ['C1', 'C2', 'C3'] } },
    { name: 'legacy', system: 'pulsar', brokerVersion: '3.0', subscription: { consistentHashing: false, consumers: ['A', 'B'] } },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
};
const SETTINGS = parseSettings(RAW).settings;
const cfg = configFile(RAW);

function tempFile(name: string, content: string): string {
  const dir = scratchDir('key-routing-analyze-');
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

function keysText(seed: number, n: number): string {
  const r = rng(seed);
  let s = '';
  for (let i = 0; i < n; i++) s += (r() < 0.2 ? `hot-${randInt(r, 1, 5)}` : `user-${randInt(r, 1, 1e6)}`) + '\n';
  return s;
}

const noTime = (r: AnalysisResult) => ({ ...r, elapsedMs: 0 });

describe('key-routing analyze', () => {
  const text = keysText(1, 5000);

  test('--input FILE: one JSON object, the figures of the library (with the exact heavy-key pass)', async () => {
    const file = tempFile('keys.txt', text);
    const r = await cli(['analyze', '--config', cfg, '--input', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.length, 1);
    const got = r.lines[0] as AnalysisResult;
    assert.deepEqual(noTime(got), noTime(analyzeBytes(text, { settings: SETTINGS })));
    assert.equal(got.input.keys, 5000);
    assert.deepEqual(got.topics.map((t) => t.topic), ['orders', 'payments', 'legacy']);
  });

  test('keys on stdin (a pipe): the same figures; heavy keys from one pass', async () => {
    const r = await cli(['analyze', '--config', cfg, '--topic', 'payments'], text);
    assert.equal(r.code, 0, r.stderr);
    const got = r.lines[0] as AnalysisResult;
    const lib = analyzeBytes(text, { settings: SETTINGS, topic: 'payments' });
    assert.deepEqual(got.topics, lib.topics);
    assert.equal(got.heavyKeys.method, 'misra-gries');
    // Five hot keys among 5,000 fit the summary: their counts are exact even in one pass.
    assert.deepEqual(got.heavyKeys.keys.slice(0, 5), lib.heavyKeys.keys.slice(0, 5));
  });

  test('stdin redirected from a file is read again for the exact pass', async () => {
    // More distinct keys than the summary holds, so that one pass alone would leave bounds.
    const big = keysText(4, 30000);
    const file = tempFile('keys.txt', big);
    const fd = openSync(file, 'r');
    try {
      const r = spawnSync(process.execPath, [CLI, 'analyze', '--config', cfg], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const got = JSON.parse(r.stdout) as AnalysisResult;
      assert.equal(got.heavyKeys.method, 'misra-gries+exact-pass');
      assert.ok(got.heavyKeys.exact && got.heavyKeys.complete);
      assert.deepEqual(noTime(got), noTime(analyzeBytes(big, { settings: SETTINGS })));
      // From a pipe the same input gets one pass: the counts it marks exact agree.
      const piped = (await cli(['analyze', '--config', cfg], big)).lines[0] as AnalysisResult;
      assert.equal(piped.heavyKeys.method, 'misra-gries');
      for (const k of piped.heavyKeys.keys.filter((x) => x.exact && x.key.startsWith('hot-'))) assert.equal(k.count, got.heavyKeys.keys.find((x) => x.key === k.key)?.count ?? -1);
    } finally {
      closeSync(fd);
    }
  });

  test('--then: figures after the events; a refused event is reported on stderr and in the output', async () => {
    const r = await cli(['analyze', '--config', cfg, '--then', '+C4', '--then', '-B', '--then', '-nobody'], text);
    assert.equal(r.code, 0, r.stderr);
    const got = r.lines[0] as AnalysisResult;
    const lib = analyzeBytes(text, { settings: SETTINGS, events: ['+C4', '-B', '-nobody'].map(parseEvent) });
    assert.deepEqual(got.topics, lib.topics);
    assert.ok(got.topics[1].after!.consumers!.some((c) => c.id === 'C4'));
    assert.match(r.stderr, /--then -B: payments: no connected consumer has the id "B"/);
    assert.match(r.stderr, /--then -nobody: legacy: /);
    assert.ok(got.whatIf!.events.some((e) => e.event === '-B' && e.topic === 'legacy' && e.error === undefined));
  });

  test('--column: a CSV column by number or header name; TSV by its extension; bad lines listed with numbers', async () => {
    const csv = 'id,user\n1,alice\n2,"bob, jr"\n3,bad"q\n4\n5,alice\n';
    const file = tempFile('k.csv', csv);
    for (const column of ['2', 'user']) {
      const r = await cli(['analyze', '--config', cfg, '--topic', 'orders', '--input', file, '--column', column]);
      assert.equal(r.code, 0, r.stderr);
      const got = r.lines[0] as AnalysisResult;
      assert.equal(got.input.keys, column === '2' ? 4 : 3);
      assert.deepEqual(got.problems.first.map((p) => p.line), [4, 5]);
      assert.equal(got.heavyKeys.keys[0].key, 'alice');
      assert.equal(got.heavyKeys.keys[0].count, 2);
    }
    const tsv = tempFile('k.tsv', 'a,b\tc\nx,y\tz\n');
    const t = await cli(['analyze', '--config', cfg, '--topic', 'orders', '--input', tsv, '--column', '1']);
    assert.deepEqual((t.lines[0] as AnalysisResult).heavyKeys.keys.map((k) => k.key).sort(), ['a,b', 'x,y']);
    assert.equal((t.lines[0] as AnalysisResult).input.delimiter, '\t');
  });

  test('--field: a JSON Lines field; --key-format hex for binary keys', async () => {
    const r = await cli(['analyze', '--config', cfg, '--topic', 'orders', '--field', 'k'], '{"k":"a"}\n{"x":1}\n{"k":"a"}\n');
    assert.equal(r.code, 0, r.stderr);
    const got = r.lines[0] as AnalysisResult;
    assert.equal(got.input.keys, 2);
    assert.deepEqual(got.problems.first, [{ line: 2, message: 'no field "k"' }]);
    const h = await cli(['analyze', '--config', cfg, '--topic', 'orders', '--key-format', 'hex'], '00ff\nxyz\n00FF\n');
    const gh = h.lines[0] as AnalysisResult;
    assert.deepEqual(gh.heavyKeys.keys.map((k) => [k.key, k.format, k.count]), [['00ff', 'hex', 2]]);
    assert.equal(gh.problems.first[0].line, 2);
  });

  test('usage errors exit 2 with one line naming the option', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['analyze', '--config', cfg, '--column', '0'], /--column counts from 1/],
      [['analyze', '--config', cfg, '--column', '1', '--field', 'k'], /--column .* or --field .*, not both/],
      [['analyze', '--config', cfg, '--topic', 'nope'], /--topic: no topic named "nope"/],
      [['analyze', '--config', cfg, '--input', '/nonexistent/keys.txt'], /--input \/nonexistent\/keys.txt: cannot read it \(ENOENT\)/],
      [['analyze', '--config', cfg, '--then', 'partitions=9'], /--then partitions=N needs --topic/],
      [['analyze', '--config', cfg, '--key-format', 'base64'], /--key-format must be utf8 or hex/],
      [['analyze'], /--config: not given, and no \.vscode\/settings\.json with keyRouting settings in .* or a folder above it; pass the settings file with --config FILE/],
    ];
    for (const [args, re] of cases) {
      const r = await cli(args, 'k\n');
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, re);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    const noHeader = await cli(['analyze', '--config', cfg, '--column', 'user'], 'a,b\n');
    assert.equal(noHeader.code, 2);
    assert.match(noHeader.stderr, /--column "user": no such column in the header on line 1/);
  });
});

describe('the analysis worker thread (dist/extension.js, which starts the worker there)', () => {
  const WORKER = resolve(__dirname, '../../extension.js');

  function run(start: object, onMessage?: (m: FromWorker, w: Worker) => void, onCreate?: (w: Worker) => void): Promise<FromWorker[]> {
    return new Promise((resolvePromise, reject) => {
      const w = new Worker(WORKER, { workerData: start });
      const seen: FromWorker[] = [];
      w.on('message', (m: FromWorker) => {
        seen.push(m);
        onMessage?.(m, w);
      });
      onCreate?.(w);
    w.on('error', reject);
      w.on('exit', () => resolvePromise(seen));
    });
  }

  test('posts progress and partial results, then the figures of the library, and exits', async () => {
    const text = keysText(2, 20000);
    const file = tempFile('keys.txt', text);
    const seen = await run({ type: 'start', path: file, options: { settings: SETTINGS }, progressIntervalMs: 0, partialIntervalMs: 0 });
    const done = seen.filter((m) => m.type === 'done');
    assert.equal(done.length, 1);
    assert.equal(seen[seen.length - 1].type, 'done');
    assert.ok(seen.some((m) => m.type === 'progress'));
    const result = (done[0] as { result: AnalysisResult }).result;
    assert.deepEqual(noTime(result), noTime(analyzeBytes(text, { settings: SETTINGS })));
  });

  test('a cancel message ends the run with the figures so far', async () => {
    const file = tempFile('big.txt', keysText(3, 1_000_000));
    // Posted at once: the worker sees it at its first wait for the file, long before the end.
    const seen = await run({ type: 'start', path: file, options: { settings: SETTINGS } }, undefined, (w) => w.postMessage({ type: 'cancel' }));
    const done = seen.find((m) => m.type === 'done') as { result: AnalysisResult } | undefined;
    assert.ok(done, JSON.stringify(seen.map((m) => m.type)));
    assert.equal(done.result.status, 'cancelled');
    assert.ok(done.result.input.keys < 1_000_000);
  });

  test('a file that cannot be read, or input that cannot be analysed, is an error message', async () => {
    const missing = await run({ type: 'start', path: '/nonexistent/k.txt', options: { settings: SETTINGS } });
    assert.deepEqual(missing.map((m) => m.type), ['error']);
    assert.match((missing[0] as { message: string }).message, /ENOENT/);
    const file = tempFile('k.csv', 'a,b\n1,2\n');
    const bad = await run({ type: 'start', path: file, options: { settings: SETTINGS, input: { kind: 'csv', column: { name: 'zz' } } } });
    const err = bad.find((m) => m.type === 'error') as { kind: string; message: string };
    assert.equal(err.kind, 'input');
    assert.match(err.message, /no such column/);
  });
});
