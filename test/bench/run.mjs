// `npm run bench` (after `node esbuild.js`): the engine against the JavaScript libraries a user
// would otherwise reach for, against C and the JVM, in one run, on fixed key sets
// (test/bench/keys.ts, seeded: short `user-123456`, 36-char UUIDs, 200-byte keys, 10% non-ASCII;
// 1,000,000 keys each):
//
//   Kafka, string key -> partition: engine kafkaPartition, kafkajs 2.x DefaultPartitioner (and its
//     murmur2 alone), murmur2-partitioner
//   Pulsar, string key -> Murmur3_32 hash: engine pulsarMurmur3Hash, murmurhash3js-revisited called
//     naively (x86.hash32 on fresh UTF-8 bytes per key)
//   String key -> JavaStringHash, and -> CRC-32 (the broker's bundle hash, librdkafka's default)
//   Every other client hash, string key -> partition: Sarama's FNV-1a (kafka-go's and librdkafka's
//     fnv1a share the hash), kafkajs 1.x's murmur2, the Pulsar C++ client's JavaStringHash and
//     BoostHash 1.80 / 1.81 / 1.82 (engine partitionOfString / pulsarPartition)
//   The first four hashes: a plain JavaScript loop over bytes encoded beforehand (test/bench/plainLoops.mjs)
//   Every hash: C (test/bench/peers/hashpeer.c, gcc -O3, bytes in) and the JVM (peers/HashPeer.java:
//     getBytes + hash, the same functions in Java), the peers built at bench time; where gcc or java
//     is missing the run goes on with a note, and its goals say "peer unavailable"
//   The engine's full Pulsar Key_Shared route (no peer)
//
// Every contender and peer is checked against the engine on every key before it is timed (a
// disagreement ends the run with exit 1). Timing: each key set in a Node process of its own, as
// each gets its own peer processes (test/bench/hashSet.mjs); warm-up, then the best of several
// interleaved rounds (test/bench/hashBench.mjs), wall clock and CPU time; the goals (engine <= 3x C, 6x on short
// keys; engine <= JVM) are judged on CPU time. Then the end-to-end `key-routing analyze` on a
// generated 1,000,000-line file with three topics (and a 10,000,000-line one to show that memory
// stays flat), the panel bench (test/bench/panel.mjs) where present, and the extension's activation
// cost (test/bench/activation.mjs). Prints tables and writes the figures to test-artifacts/bench.json.
// Asserts no timing.
//
//   node test/bench/run.mjs [--keys N] [--runs N] [--sets short,uuid,...] [--no-peers] [--no-big] [--no-analyze] [--no-panel] [--no-activation]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashGoals, printGoals, printHashTable } from './hashBench.mjs';
import { buildPeers } from './peers.mjs';
import { runAnalyze, writeConfig, writeKeyFile } from './analyzeBench.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const KEYS = opt('--keys', 1_000_000);
const RUNS = opt('--runs', 5);
const ONLY_SETS = argv.includes('--sets') ? argv[argv.indexOf('--sets') + 1].split(',') : null;
/** A contender whose warm-up says a full run would take longer than this is timed on fewer keys. */
const RUN_BUDGET_MS = 8000;

if (!existsSync(join(root, 'dist/engine.js')) || !existsSync(join(root, 'dist/cli.js'))) {
  console.error('dist/engine.js or dist/cli.js is missing: run `node esbuild.js` first (npm run bench does).');
  process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'key-routing-bench-'));
try {
  await main();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

async function main() {
  const keysModule = join(tmp, 'keys.cjs');
  await build({ entryPoints: [join(root, 'test/bench/keys.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: keysModule, logLevel: 'warning' });
  const { keySet, KEY_SET_NAMES } = require(keysModule);
  const machine = { node: process.version, cpu: cpus()[0]?.model ?? '?', cores: cpus().length, loadAverage: loadavg().map((x) => +x.toFixed(2)) };
  console.log(`Node ${machine.node}, ${machine.cores} x ${machine.cpu}, load average ${machine.loadAverage.join(' ')}`);
  console.log(`${KEYS.toLocaleString('en')} keys per set; best of ${RUNS} runs after a warm-up\n`);

  const { peers, notes } = argv.includes('--no-peers') ? { peers: [], notes: ['--no-peers: C and JVM peers skipped'] } : buildPeers(root, tmp);
  for (const note of notes) console.log(`note: ${note}`);
  if (peers.length > 0) console.log(`peers: ${peers.map((p) => p.name).join(', ')}\n`);

  // Each key set in a process of its own, as each gets fresh peer processes (test/bench/hashSet.mjs).
  const rows = [];
  const sets = {};
  const peersFile = join(tmp, 'peers.json');
  writeFileSync(peersFile, JSON.stringify(peers));
  for (const name of KEY_SET_NAMES) {
    if (ONLY_SETS && !ONLY_SETS.includes(name)) continue;
    const out = join(tmp, `rows-${name}.json`);
    const args = ['--set', name, '--keys', KEYS, '--runs', RUNS, '--run-budget-ms', RUN_BUDGET_MS, '--keys-module', keysModule, '--peers', peersFile, '--tmp', tmp, '--out', out];
    const child = spawnSync(process.execPath, [join(root, 'test/bench/hashSet.mjs'), ...args.map(String)], { stdio: 'inherit', cwd: root });
    if (child.status !== 0) throw new Error(`the ${name} key set's bench exited ${child.status ?? child.signal}`);
    const done = JSON.parse(readFileSync(out, 'utf8'));
    sets[name] = done.description;
    rows.push(...done.rows);
  }
  printHashTable(rows);
  const goals = hashGoals(rows);
  printGoals(goals);

  // End-to-end analyse.
  const analyze = [];
  const config = writeConfig(tmp);
  const mixed = keySet('nonAscii10', Math.min(KEYS, 1_000_000)).keys;
  const sizes = argv.includes('--no-analyze') ? [] : [1_000_000, ...(argv.includes('--no-big') ? [] : [10_000_000])];
  for (const lines of sizes) {
    const file = join(tmp, `keys-${lines}.txt`);
    process.stdout.write(`\nanalyze: writing ${lines.toLocaleString('en')} lines...`);
    await writeKeyFile(file, mixed, lines);
    process.stdout.write(' running');
    const best = [];
    for (let i = 0; i < (lines > 1_000_000 ? 1 : 3); i++) {
      best.push(await runAnalyze(root, config, file));
      process.stdout.write('.');
    }
    rmSync(file, { force: true });
    const r = best.sort((a, b) => a.wallMs - b.wallMs)[0];
    if (r.result.input.keys !== lines) throw new Error(`analyze counted ${r.result.input.keys} keys, expected ${lines}`);
    analyze.push({
      lines,
      topics: r.result.topics.map((t) => t.topic),
      wallMs: Math.round(r.wallMs),
      analyserMs: r.result.elapsedMs,
      keysPerSecond: Math.round(lines / (r.wallMs / 1000)),
      maxRssMB: r.maxRssKb === null ? null : +(r.maxRssKb / 1024).toFixed(1),
      heavyKeys: r.result.heavyKeys.keys.slice(0, 3).map((k) => `${k.key}: ${k.count}${k.exact ? '' : '+'}`),
      heavyKeysMethod: r.result.heavyKeys.method,
    });
  }
  console.log('\n');
  if (analyze.length > 0) printAnalyzeTable(analyze);

  const targets = targetsOf(rows);
  console.log('\nTargets');
  for (const t of targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);

  const out = { date: new Date().toISOString(), machine, keysPerSet: KEYS, runs: RUNS, keySets: sets, peers: peers.map((p) => p.name), peerNotes: notes, hashes: rows, goals, analyze, targets };
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  writeFileSync(join(root, 'test-artifacts/bench.json'), JSON.stringify(out, null, 2) + '\n');
  console.log('\nwritten: test-artifacts/bench.json');

  if (!argv.includes('--no-panel') && existsSync(join(root, 'test/bench/panel.mjs'))) {
    console.log('\n== routing panel (test/bench/panel.mjs)');
    // Side by side with the panel as it was before the scale work: main at 78d6a83 (its webview
    // bundle built from that revision's sources by panel.mjs).
    const panel = spawnSync(process.execPath, [join(root, 'test/bench/panel.mjs'), '--baseline', '78d6a83'], { stdio: 'inherit', cwd: root });
    if (panel.status !== 0) console.log(`test/bench/panel.mjs exited ${panel.status}; the figures above stand`);
  }

  if (!argv.includes('--no-activation')) {
    console.log('\n== activation (test/bench/activation.mjs)');
    const activation = spawnSync(process.execPath, [join(root, 'test/bench/activation.mjs')], { stdio: 'inherit', cwd: root });
    if (activation.status !== 0) console.log(`test/bench/activation.mjs exited ${activation.status}; the figures above stand`);
  }
}

function pad(s, n, right = false) {
  s = String(s);
  return right ? s.padStart(n) : s.padEnd(n);
}

function printAnalyzeTable(rows) {
  console.log('key-routing analyze --input FILE (3 topics: Kafka 12 partitions; Pulsar 4.0 consistent hashing, 8 partitions x 10 consumers; Pulsar 3.0 auto-split, 4 partitions x 10 consumers)');
  const head = `${pad('lines', 12, true)} ${pad('wall ms', 9, true)} ${pad('keys/s', 11, true)} ${pad('max RSS MB', 11, true)}  heaviest keys (${rows[0]?.heavyKeysMethod ?? ''})`;
  console.log(head);
  console.log('-'.repeat(head.length + 10));
  for (const r of rows) {
    console.log(`${pad(r.lines.toLocaleString('en'), 12, true)} ${pad(r.wallMs, 9, true)} ${pad(r.keysPerSecond.toLocaleString('en'), 11, true)} ${pad(r.maxRssMB ?? '?', 11, true)}  ${r.heavyKeys.join(', ')}`);
  }
}

function targetsOf(rows) {
  const peers = rows.filter((r) => r.kind === 'js');
  const behind = peers.filter((r) => r.engineSpeedup <= 1);
  const kafkajs = rows.filter((r) => r.contender === 'kafkajs DefaultPartitioner');
  const minKafkajs = Math.min(...kafkajs.map((r) => r.engineSpeedup));
  return [
    {
      target: 'engine ahead of every JavaScript library on every key set',
      met: behind.length === 0,
      value: behind.length === 0 ? `yes (smallest lead ${Math.min(...peers.map((r) => r.engineSpeedup))}x)` : behind.map((r) => `${r.contender} on ${r.keySet}: ${r.engineSpeedup}x`).join('; '),
    },
    {
      target: 'at least 50x faster than kafkajs DefaultPartitioner on strings',
      met: minKafkajs >= 50,
      value: kafkajs.map((r) => `${r.keySet} ${r.engineSpeedup}x`).join(', '),
    },
  ];
}
