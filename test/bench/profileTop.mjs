// The functions of a .cpuprofile (from `node test/bench/panel.mjs --profile`) by self time, and
// by total time (self plus everything they called), for a quick look without DevTools.
//
// With `--under NAME`, only the samples with a function of that name on the stack.
//
//   node test/bench/profileTop.mjs FILE.cpuprofile [--top N] [--under NAME]
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const file = argv.find((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--')));
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const top = Number(opt('--top') ?? 25);
const under = opt('--under');
if (!file) {
  console.error('usage: node test/bench/profileTop.mjs FILE.cpuprofile [--top N]');
  process.exit(2);
}
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Time per sample: the delta that follows it.
const selfUs = new Map();
p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i + 1] ?? 0)));
const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
const self = new Map();
const total = new Map();
let all = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
  if (under) {
    let x = id;
    while (x !== undefined && byId.get(x).callFrame.functionName !== under) x = parent.get(x);
    if (x === undefined) continue;
  }
  all += us;
  self.set(label(n), (self.get(label(n)) ?? 0) + us);
  // Each function on the stack once (recursion counted once).
  const seen = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const l = label(byId.get(x));
    if (seen.has(l)) continue;
    seen.add(l);
    total.set(l, (total.get(l) ?? 0) + us);
  }
}
const show = (title, m) => {
  console.log(`\n${title}`);
  for (const [l, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${l}`);
};
console.log(`${file}: ${(all / 1000).toFixed(1)} ms busy`);
show('self', self);
show('total', total);
