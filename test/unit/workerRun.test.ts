// The worker runner (src/extension/analysis/workerRun.ts) against the real worker bundles: the
// Node worker thread (dist/extension.js, which starts the worker there) and the same script as the web worker of VS Code for
// the Web (run here in a worker thread whose global scope is given the few things a dedicated web
// worker has: self, importScripts, postMessage, close, onmessage). The web bundle in a
// real browser is the web suite's business (test/e2e).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyzeBytes, memorySource, type AnalysisResult, type ChunkSource } from '../../src/analyze/index';
import type { StartMessage } from '../../src/analyze/protocol';
import type { AnalyzeProgress } from '../../src/analyze/run';
import { parseSettings } from '../../src/engine/settings';
import { AnalysisFailure } from '../../src/extension/analysis/runHandle';
import { runInWorker, type WorkerEvents, type WorkerLink } from '../../src/extension/analysis/workerRun';
import { workerThread } from '../../src/extension/analysis/workerThread';
import { randInt, rng } from './helpers';
import { scratchDir } from './scratch';

const SETTINGS = parseSettings({
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'payments', system: 'pulsar', partitions: 4, subscription: { consumers: ['C1', 'C2', 'C3'] } },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
}).settings;

const NODE_WORKER = resolve(__dirname, '../../extension.js');
const WEB_WORKER = NODE_WORKER; // one script for both hosts: it takes the web path where importScripts exists

const dir = scratchDir('key-routing-worker-');
function scriptFile(name: string, code: string): string {
  const p = join(dir, name);
  writeFileSync(p, code);
  return p;
}

/** The web bundle in a worker thread, with a dedicated worker's global scope as far as it uses it. */
const WEB_SHIM = scriptFile(
  'web-shim.js',
  `const { parentPort } = require('node:worker_threads');
globalThis.self = globalThis;
self.importScripts = () => {};
self.postMessage = (m) => parentPort.postMessage(m);
self.close = () => parentPort.close();
parentPort.on('message', (data) => self.onmessage && self.onmessage({ data }));
require(${JSON.stringify(WEB_WORKER)});
`,
);

const workers: Array<[string, (events: WorkerEvents) => WorkerLink]> = [
  ['the Node worker thread', workerThread(NODE_WORKER)],
  ['the web worker bundle', workerThread(WEB_SHIM)],
];

function keysText(seed: number, n: number): string {
  const r = rng(seed);
  let s = '';
  for (let i = 0; i < n; i++) s += (r() < 0.2 ? `hot-${randInt(r, 1, 5)}` : `user-${randInt(r, 1, 1e6)}`) + '\n';
  return s;
}

const noTime = (r: AnalysisResult) => ({ ...r, elapsedMs: 0 });

function fedStart(size: number | undefined, extra: Partial<StartMessage> = {}): StartMessage {
  return { type: 'start', fed: { size }, options: { settings: SETTINGS }, progressIntervalMs: 0, partialIntervalMs: 0, ...extra };
}

/** A source that counts its openings and the chunks it gave out. */
function counted(source: ChunkSource): ChunkSource & { opens: number; chunks: number } {
  const c = {
    rereadable: true,
    size: source.size,
    opens: 0,
    chunks: 0,
    *open() {
      c.opens++;
      for (const chunk of source.open() as Iterable<Uint8Array>) {
        c.chunks++;
        yield chunk;
      }
    },
  };
  return c;
}

for (const [name, link] of workers) {
  describe(`a fed input in ${name}`, () => {
    test('gives the figures of analysing the bytes at once; both passes ask the host for every chunk', async () => {
      const text = keysText(7, 30_000);
      const bytes = new TextEncoder().encode(text);
      const source = counted(memorySource(bytes, 4096));
      const progress: AnalyzeProgress[] = [];
      let partials = 0;
      const run = runInWorker('w', link, fedStart(bytes.length), { onProgress: (p) => progress.push(p), onPartial: () => partials++ }, source);
      const result = await run.done;
      await run.stopped;
      assert.deepEqual(noTime(result), noTime(analyzeBytes(text, { settings: SETTINGS })));
      // The heaviest keys are counted exactly in a second pass, read from the host again.
      assert.equal(result.heavyKeys.method, 'misra-gries+exact-pass');
      assert.equal(source.opens, 2);
      assert.equal(source.chunks, 2 * Math.ceil(bytes.length / 4096));
      assert.ok(partials > 0);
      const last = progress.filter((p) => p.phase === 'count').pop()!;
      assert.deepEqual([last.bytes, last.totalBytes, last.keys], [bytes.length, bytes.length, 30_000]);
    });

    test('a size the host learns only on reading reaches the progress', async () => {
      const bytes = new TextEncoder().encode(keysText(8, 5000));
      // Like a file read whole through workspace.fs: no size until the first opening.
      const source: ChunkSource = {
        rereadable: true,
        open: () => {
          source.size = bytes.length;
          return memorySource(bytes, 1000).open();
        },
      };
      const progress: AnalyzeProgress[] = [];
      const run = runInWorker('w', link, fedStart(undefined), { onProgress: (p) => progress.push(p), onPartial: () => {} }, source);
      const result = await run.done;
      assert.equal(result.input.bytes, bytes.length);
      assert.equal(progress[progress.length - 1].totalBytes, bytes.length);
    });

    test('a cancel while the worker waits for the host ends the run with the figures so far', async () => {
      const first = new TextEncoder().encode('a\nb\nc\n');
      const source: ChunkSource = {
        rereadable: true,
        async *open() {
          yield first;
          await new Promise(() => {}); // the host never has more
        },
      };
      let cancelled = false;
      const run = runInWorker(
        'w',
        link,
        fedStart(undefined),
        {
          onProgress: () => {},
          onPartial: () => {
            if (!cancelled) (cancelled = true), run.cancel();
          },
        },
        source,
      );
      // Resolved (a 'done' from the worker), not rejected as a worker ended by force.
      const result = await run.done;
      await run.stopped;
      assert.equal(result.status, 'cancelled');
      assert.equal(result.input.keys, 3);
    });

    test('a host source that fails ends the run with its message', async () => {
      const source: ChunkSource = {
        rereadable: true,
        *open() {
          yield new TextEncoder().encode('k1\n');
          throw new Error('keys.txt was edited after Analyze Keys read it first; run Analyze Keys again');
        },
      };
      const run = runInWorker('w', link, fedStart(undefined), { onProgress: () => {}, onPartial: () => {} }, source);
      await assert.rejects(run.done, (e: unknown) => e instanceof AnalysisFailure && e.kind === 'internal' && /was edited after Analyze Keys read it first/.test(e.message));
      await run.stopped;
    });

    test('input the analyser cannot read is an input error', async () => {
      const run = runInWorker('w', link, fedStart(undefined, { options: { settings: SETTINGS, input: { kind: 'csv', column: { name: 'zz' } } } }), { onProgress: () => {}, onPartial: () => {} }, memorySource('a,b\n1,2\n'));
      await assert.rejects(run.done, (e: unknown) => e instanceof AnalysisFailure && e.kind === 'input' && /no such column/.test(e.message));
    });
  });
}

describe('the web worker bundle', () => {
  test('has no file system: a path input is refused', async () => {
    const run = runInWorker('w', workerThread(WEB_SHIM), { type: 'start', path: '/etc/hostname', options: { settings: SETTINGS } }, { onProgress: () => {}, onPartial: () => {} });
    await assert.rejects(run.done, /reads only input fed by the host/);
  });
});

describe('a worker that does not answer', () => {
  test('is ended after a cancel, and the run says it was stopped', async () => {
    const silent = scriptFile('silent.js', `require('node:worker_threads').parentPort.on('message', () => {});\n`);
    const run = runInWorker('w', workerThread(silent), fedStart(3), { onProgress: () => {}, onPartial: () => {} }, memorySource('k\n'));
    run.cancel();
    await assert.rejects(run.done, (e: unknown) => e instanceof AnalysisFailure && /stopped|ended/.test(e.message));
    await run.stopped;
  });
});
