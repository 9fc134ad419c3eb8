// The end-to-end figure of `key-routing analyze`: a generated key file, three topics, the CLI as a
// user runs it (a child process), keys per second and peak memory (the child's maxRSS, read by a
// preloaded hook as the process exits).
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';

export const ANALYZE_SETTINGS = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 12 },
    {
      name: 'persistent://public/default/payments',
      system: 'pulsar',
      partitions: 8,
      brokerVersion: '4.0',
      subscription: { consistentHashing: true, consumers: Array.from({ length: 10 }, (_, i) => `payments-${i}`) },
    },
    {
      name: 'persistent://public/default/legacy',
      system: 'pulsar',
      partitions: 4,
      brokerVersion: '3.0',
      subscription: { consistentHashing: false, consumers: Array.from({ length: 10 }, (_, i) => `legacy-${i}`) },
    },
  ],
  'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 16 }],
};

/**
 * Writes `lines` keys: the key set's keys in order (suffixed `/round` after the first pass over
 * them, so a 10-million-line file still has mostly distinct keys), with every 20th line one of 7
 * hot keys so that the heavy-key figures have something to find.
 */
export async function writeKeyFile(path, keys, lines) {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let buf = '';
  for (let i = 0; i < lines; i++) {
    const round = Math.floor(i / keys.length);
    const k = keys[i % keys.length];
    buf += (i % 20 === 0 ? `hot-${i % 7}` : round === 0 ? k : `${k}/${round}`) + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

export function writeConfig(dir) {
  const p = join(dir, 'analyze-settings.json');
  writeFileSync(p, JSON.stringify(ANALYZE_SETTINGS));
  return p;
}

/** Runs `node dist/cli.js analyze` on the file; wall time, peak RSS and the parsed result. */
export async function runAnalyze(root, config, file) {
  const hook = join(root, 'test/bench/maxrss-hook.cjs');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--require', hook, join(root, 'dist/cli.js'), 'analyze', '--config', config, '--input', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const [code] = await once(child, 'close');
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) throw new Error(`key-routing analyze exited ${code}: ${stderr}`);
  const m = /KEY_ROUTING_BENCH_MAXRSS_KB (\d+)/.exec(stderr);
  const result = JSON.parse(stdout);
  return { wallMs, maxRssKb: m ? Number(m[1]) : null, result };
}
