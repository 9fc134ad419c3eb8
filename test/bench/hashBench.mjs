// The hashing part of `npm run bench`: per key set, every contender (test/bench/contenders.mjs: the
// engine, the JavaScript libraries, plain loops) and the C and JVM peers (test/bench/peers.mjs) are
// checked against the engine on every key, then timed in interleaved rounds: each round runs every
// contender once, the peers included (each peer process times its own pass and reports it), and
// each one's best round counts. So the ratios to C and to the JVM come from the same run, under
// the same load.
//
// Two clocks: wall time, and CPU time, the timing thread's. The peers read their thread's clock.
// Node 20 has none for a thread (Linux's /proc/thread-self/schedstat lags by up to a scheduler
// tick, 4 ms here, on passes of 20-400 ms), and both clocks it has are at least the main thread's
// CPU time: the wall clock also counts the time the thread waits for a core on a machine shared
// with other work, and the process's CPU time also counts V8's other threads, whose background
// collection of the garbage the contender timed just before could outweigh the hash (in one run
// the engine's Java hashCode on 11-byte keys took 19.8 ns a key by the wall clock and 26.0 by the
// process's CPU time). So a round's CPU time for JavaScript is the lesser of the two: never below
// the main thread's, as the peers' is theirs, and the goals are judged on it.
import { join } from 'node:path';
import { PARTITIONS, check, referenceOf } from './contenders.mjs';
import { PeerProcess, writePeerKeyFile } from './peers.mjs';

/** The peers' name for each family's hash. */
const PEER_HASH = {
  kafka: 'murmur2',
  murmur3: 'murmur3',
  javaStringHash: 'javaStringHash',
  crc32: 'crc32',
  fnv1a: 'fnv1a',
  kafkajsLegacy: 'kafkajsLegacy',
  javaStringHashCpp: 'javaStringHashCpp',
  boost180: 'boost180',
  boost181: 'boost181',
  boost182: 'boost182',
};
/** How the goals and the tables name a family. */
export const FAMILY_LABEL = {
  kafka: 'murmur2 -> partition',
  murmur3: 'Murmur3_32',
  javaStringHash: 'JavaStringHash',
  crc32: 'CRC-32',
  fnv1a: 'FNV-1a (Sarama) -> p',
  kafkajsLegacy: 'kafkajs 1.x -> p',
  javaStringHashCpp: 'JavaStringHash-cpp -> p',
  boost180: 'BoostHash-1.80 -> p',
  boost181: 'BoostHash-1.81 -> p',
  boost182: 'BoostHash-1.82 -> p',
  read: 'read the key only',
};

/** The goals: engine CPU time at most this many times C's on a key set, and at most the JVM's. */
const C_GOAL = { short: 6, uuid: 3, bytes200: 3, nonAscii10: 3 };

/**
 * Checks and times every contender and peer on one key set. Returns the table rows. `peers` are
 * built peers (buildPeers); `opts` holds runs, runBudgetMs and tmp.
 */
export async function benchKeySet(name, keys, engine, contenders, peers, opts) {
  process.stdout.write(`${name}: checking every key`);
  for (const c of contenders) {
    check(engine, c, keys);
    process.stdout.write('.');
  }
  const encoded = encodeSet(keys, engine);
  const running = [];
  try {
    if (peers.length > 0) {
      const keyFile = join(opts.tmp, `keys-${name}.bin`);
      writePeerKeyFile(keyFile, keys, engine.utf8);
      for (const peer of peers) {
        const p = await PeerProcess.start(peer, keyFile);
        running.push(p);
        for (const [family, hash] of Object.entries(PEER_HASH)) {
          await checkPeer(p, family, hash, keys, engine, join(opts.tmp, 'results.bin'));
          process.stdout.write('.');
        }
      }
    }
    process.stdout.write(' timing');
    const peerContenders = running.flatMap((p) =>
      Object.entries(PEER_HASH).map(([family, hash]) => ({ name: p.peer.name, short: p.peer.short, family, peerProcess: p, hash })),
    );
    const rows = await timeInterleaved([...contenders, ...peerContenders], keys, encoded, opts);
    process.stdout.write('\n');
    // Each family together: the engine, the libraries, the plain loop, C, the JVM.
    const families = [...new Set(rows.map((r) => r.family))];
    const kinds = ['engine', 'js', 'plain', 'floor', 'C', 'JVM'];
    rows.sort((a, b) => families.indexOf(a.family) - families.indexOf(b.family) || kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
    return rows.map((r) => ({ keySet: name, ...r }));
  } finally {
    for (const p of running) await p.close();
  }
}

/** Every key's bytes in one buffer, key i at bytes[offsets[i] .. offsets[i + 1]), for the plain loops. */
function encodeSet(keys, engine) {
  const offsets = new Int32Array(keys.length + 1);
  const parts = keys.map((k) => engine.utf8(k));
  for (let i = 0; i < keys.length; i++) offsets[i + 1] = offsets[i] + parts[i].length;
  const bytes = new Uint8Array(offsets[keys.length]);
  for (let i = 0; i < keys.length; i++) bytes.set(parts[i], offsets[i]);
  return { bytes, offsets };
}

async function checkPeer(p, family, hash, keys, engine, outFile) {
  const got = await p.results(hash, PARTITIONS, outFile);
  const ref = referenceOf(engine, family);
  if (got.length !== keys.length) throw new Error(`${p.peer.name} returned ${got.length} results for ${keys.length} keys (${hash})`);
  for (let i = 0; i < keys.length; i++) {
    // The peers write int32s; CRC-32 is unsigned.
    const want = ref(keys[i]);
    const g = family === 'crc32' ? got[i] >>> 0 : got[i];
    if (g !== want) throw new Error(`${p.peer.name} disagrees with the engine on ${hash} of key #${i} ${JSON.stringify(keys[i])}: ${g} vs ${want}`);
  }
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/**
 * A warm-up run each (two for a peer, whose JIT takes longer), then `opts.runs` rounds in which
 * every contender runs once, keeping each one's best: interleaving gives every contender the same
 * chances at a quiet moment on a shared machine, so the ratios do not drift with the load. Slow
 * JavaScript contenders are timed on the first 100,000 keys, and the engine on them too.
 */
async function timeInterleaved(contenders, keys, encoded, opts) {
  const sample = keys.slice(0, Math.min(keys.length, 100_000));
  const plans = [];
  for (const c of contenders) {
    if (c.peerProcess) {
      for (let i = 0; i < 2; i++) await c.peerProcess.time(c.hash, PARTITIONS);
      plans.push({ c, timed: keys, best: Infinity, bestCpu: Infinity, reference: false });
      continue;
    }
    const t = process.hrtime.bigint();
    c.run(sample, encoded);
    const warmNs = Number(process.hrtime.bigint() - t) / sample.length;
    // The engine is always timed on every key: the C and JVM peers it is judged against are.
    const slow = warmNs * keys.length > opts.runBudgetMs * 1e6 && !c.name.startsWith('engine');
    plans.push({ c, timed: slow ? sample : keys, best: Infinity, bestCpu: Infinity, reference: false });
  }
  // A peer timed on the sample is compared with the engine timed on the same keys (a sample
  // stays in cache where a million keys do not), so the engine is timed on it too.
  for (const p of [...plans]) {
    if (p.timed !== sample || p.c.name.startsWith('engine')) continue;
    const eng = plans.find((q) => q.c.family === p.c.family && q.c.name.startsWith('engine') && q.timed === sample);
    if (!eng) plans.push({ c: contenders.find((c) => c.family === p.c.family && c.name.startsWith('engine')), timed: sample, best: Infinity, bestCpu: Infinity, reference: true });
  }
  let sink = 0;
  for (let i = 0; i < opts.runs; i++) {
    for (const p of plans) {
      if (p.c.peerProcess) {
        const t = await p.c.peerProcess.time(p.c.hash, PARTITIONS);
        p.best = Math.min(p.best, t.wallNs);
        p.bestCpu = Math.min(p.bestCpu, t.cpuNs);
        continue;
      }
      const cpu0 = cpuNow();
      const t0 = process.hrtime.bigint();
      sink += p.c.run(p.timed, encoded);
      const ns = Number(process.hrtime.bigint() - t0);
      // Both bound the main thread's CPU time from above (see the top of this file).
      const cpu = Math.min(cpuNow() - cpu0, ns);
      p.best = Math.min(p.best, ns / p.timed.length);
      p.bestCpu = Math.min(p.bestCpu, cpu / p.timed.length);
    }
    process.stdout.write('.');
  }
  if (!Number.isFinite(sink)) throw new Error('unreachable');
  const rows = plans
    .filter((p) => !p.reference)
    .map((p) => ({
      contender: p.c.name,
      family: p.c.family,
      kind: p.c.peerProcess ? p.c.short : p.c.plain ? 'plain' : p.c.floor ? 'floor' : p.c.name.startsWith('engine') ? 'engine' : p.c.family === 'route' ? 'engine' : 'js',
      nsPerKey: +p.best.toFixed(1),
      cpuNsPerKey: +p.bestCpu.toFixed(1),
      timedKeys: p.timed.length,
    }));
  // Each contender against the engine on the same keys: how many times faster the engine is.
  for (const r of rows) {
    const eng = plans.find((q) => q.c.family === r.family && q.c.name.startsWith('engine') && q.timed.length === r.timedKeys);
    const self = r.kind === 'engine' || !eng; // a floor has no engine to compare with
    r.engineSpeedup = self ? null : +(r.nsPerKey / eng.best).toFixed(2);
    r.engineSpeedupCpu = self ? null : +(r.cpuNsPerKey / eng.bestCpu).toFixed(2);
    if (!self && r.timedKeys !== keys.length) r.engineNsSameKeys = +eng.best.toFixed(1);
  }
  return rows;
}

function pad(s, n, right = false) {
  s = String(s);
  return right ? s.padStart(n) : s.padEnd(n);
}

const times = (x) => (x === null || x === undefined ? '' : x >= 10 ? `${x.toFixed(0)}x` : `${x.toFixed(2)}x`);

export function printHashTable(rows) {
  console.log('\nString key -> partition / hash: ns per key, best round; "engine x" = how many times faster the engine is on the same keys (below 1: slower)');
  const head = `${pad('key set', 11)} ${pad('hash', 20)} ${pad('contender', 42)} ${pad('ns/key', 8, true)} ${pad('engine x', 9, true)} ${pad('cpu ns', 8, true)} ${pad('cpu x', 7, true)}  timed on`;
  console.log(head);
  console.log('-'.repeat(head.length + 4));
  for (const r of rows) {
    console.log(
      `${pad(r.keySet, 11)} ${pad(FAMILY_LABEL[r.family] ?? r.family, 20)} ${pad(r.contender, 42)} ${pad(r.nsPerKey.toFixed(1), 8, true)} ${pad(times(r.engineSpeedup), 9, true)} ${pad(r.cpuNsPerKey.toFixed(1), 8, true)} ${pad(times(r.engineSpeedupCpu), 7, true)}  ${r.timedKeys.toLocaleString('en')}`,
    );
  }
}

/**
 * The goals per hash and key set, on CPU time: engine <= 3x C (6x on the short set, where a
 * call's fixed cost dominates) and engine <= the JVM. A goal whose peer did not run is "peer unavailable".
 */
export function hashGoals(rows) {
  const goals = [];
  for (const family of Object.keys(PEER_HASH)) {
    for (const keySet of [...new Set(rows.map((r) => r.keySet))]) {
      const of = (kind) => rows.find((r) => r.keySet === keySet && r.family === family && r.kind === kind);
      const engine = of('engine');
      if (!engine) continue;
      const c = of('C');
      const jvm = of('JVM');
      const plain = of('plain');
      const floor = Math.min(...rows.filter((r) => r.keySet === keySet && r.kind === 'floor').map((r) => r.cpuNsPerKey));
      const readNs = Number.isFinite(floor) ? floor : null;
      const cGoal = C_GOAL[keySet] ?? 3;
      const toC = c ? engine.cpuNsPerKey / c.cpuNsPerKey : null;
      const toJvm = jvm ? engine.cpuNsPerKey / jvm.cpuNsPerKey : null;
      goals.push({
        hash: FAMILY_LABEL[family],
        keySet,
        engineNs: engine.cpuNsPerKey,
        cNs: c?.cpuNsPerKey ?? null,
        jvmNs: jvm?.cpuNsPerKey ?? null,
        plainNs: plain?.cpuNsPerKey ?? null,
        toC: toC === null ? null : +toC.toFixed(2),
        cGoal,
        cMet: toC === null ? null : toC <= cGoal,
        toJvm: toJvm === null ? null : +toJvm.toFixed(2),
        jvmMet: toJvm === null ? null : toJvm <= 1,
        readNs,
        // The goal's time is less than reading the key takes: no hash reading it in JavaScript meets it.
        cBelowRead: c && readNs !== null ? cGoal * c.cpuNsPerKey < readNs : null,
        jvmBelowRead: jvm && readNs !== null ? jvm.cpuNsPerKey < readNs : null,
        // The JVM beats C hashing the bytes already in memory: the goal asks more than compiled C does.
        jvmBeyondC: jvm && c ? jvm.cpuNsPerKey < c.cpuNsPerKey : null,
      });
    }
  }
  return goals;
}

export function printGoals(goals) {
  console.log('\nGoals, on CPU ns per key (best round; for JavaScript the lesser of its wall clock and the process\'s CPU time, each at least the main thread\'s): engine <= 3x C (6x on short keys) and engine <= JVM; "read": reading the key alone (the faster floor)');
  const head = `${pad('hash', 20)} ${pad('key set', 11)} ${pad('engine', 7, true)} ${pad('C', 7, true)} ${pad('JVM', 7, true)} ${pad('plain', 7, true)} ${pad('read', 7, true)}   ${pad('engine/C', 9, true)} ${pad('goal', 15)} ${pad('engine/JVM', 10, true)} goal`;
  console.log(head);
  console.log('-'.repeat(head.length + 10));
  const mark = (met, goal, belowRead, beyondC = false) => (met === null ? 'peer unavailable' : `${met ? 'met' : 'NOT MET'} (<=${goal}x)${!met && belowRead ? '*' : ''}${!met && beyondC ? '†' : ''}`);
  for (const g of goals) {
    const n = (x) => (x === null ? '-' : x.toFixed(1));
    console.log(
      `${pad(g.hash, 20)} ${pad(g.keySet, 11)} ${pad(n(g.engineNs), 7, true)} ${pad(n(g.cNs), 7, true)} ${pad(n(g.jvmNs), 7, true)} ${pad(n(g.plainNs), 7, true)} ${pad(n(g.readNs), 7, true)}   ${pad(g.toC === null ? '-' : g.toC.toFixed(2) + 'x', 9, true)} ${pad(mark(g.cMet, g.cGoal, g.cBelowRead), 15)} ${pad(g.toJvm === null ? '-' : g.toJvm.toFixed(2) + 'x', 10, true)} ${mark(g.jvmMet, 1, g.jvmBelowRead, g.jvmBeyondC)}`,
    );
  }
  const missed = goals.flatMap((g) => [g.cMet === false ? g.cBelowRead : null, g.jvmMet === false ? g.jvmBelowRead : null]).filter((x) => x !== null);
  if (missed.length) {
    console.log(
      `* the goal's time (its multiple of C, or the JVM's) is less than this process takes to read the key's characters without hashing them (the faster of a charCodeAt loop and TextEncoder.encodeInto): out of reach of any hash that reads the key in JavaScript. ${missed.filter(Boolean).length} of the ${missed.length} goals missed are.`,
    );
    const beyondC = goals.filter((g) => g.jvmMet === false && g.jvmBeyondC);
    if (beyondC.length) {
      console.log(
        `† the JVM takes less than the C peer hashing the same bytes already in memory (gcc -O3): the goal asks JavaScript, which also has to read the string, to beat compiled C. ${beyondC.length} of the ${missed.length} goals missed are (${beyondC.filter((g) => g.jvmBelowRead).length} of them also *).`,
      );
    }
  }
}
