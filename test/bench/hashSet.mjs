// One key set of the hashing bench, in a process of its own (test/bench/run.mjs starts one per set).
//
// Why a process per set: the peers already get one (a fresh C and JVM process per key set,
// test/bench/peers.mjs), and the engine must be judged on the same terms. In one Node process the
// JIT carries each hash's type feedback from the sets before into the next: after the 200-byte set
// (every key down the long-key path) the non-ASCII set's JavaStringHash-cpp measured 57.9 ns a key,
// and 36.7 ns in a process that had timed nothing else. The figures of a set then depended on the
// order the sets ran in.
//
//   node test/bench/hashSet.mjs --set NAME --keys N --runs N --run-budget-ms MS --keys-module FILE --peers FILE --tmp DIR --out FILE
//   (every option is required; run.mjs passes its own)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContenders } from './contenders.mjs';
import { benchKeySet } from './hashBench.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(name);
  if (i < 0 || i + 1 >= argv.length) throw new Error(`hashSet.mjs: ${name} is required`);
  return argv[i + 1];
};

const { keySet } = require(arg('--keys-module'));
const { engine, contenders } = loadContenders(root);
const peers = JSON.parse(readFileSync(arg('--peers'), 'utf8'));
const set = keySet(arg('--set'), Number(arg('--keys')));
const rows = await benchKeySet(set.name, set.keys, engine, contenders, peers, { runs: Number(arg('--runs')), runBudgetMs: Number(arg('--run-budget-ms')), tmp: arg('--tmp') });
writeFileSync(arg('--out'), JSON.stringify({ description: set.description, rows }));
