// The bench's peers outside JavaScript: test/bench/peers/hashpeer.c (gcc -O3, bytes in) and
// test/bench/peers/HashPeer.java (the JVM's encode + hash), compiled into a temporary directory at
// bench time and driven over stdin/stdout (one request per line; see hashpeer.c). A peer whose
// compiler or runtime is missing is skipped with a note saying so; the bench goes on without it.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The hashes both peers compute, by the name they take on a request line. */
export const PEER_HASHES = ['murmur2', 'murmur3', 'javaStringHash', 'crc32', 'fnv1a', 'kafkajsLegacy', 'javaStringHashCpp', 'boost180', 'boost181', 'boost182'];

function found(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.error === undefined && r.status === 0;
}

/**
 * Compiles the peers into `dir`. Returns the ones that built ({ name, command, args }) and a note
 * for each one that did not.
 */
export function buildPeers(root, dir) {
  const peers = [];
  const notes = [];
  const src = join(root, 'test/bench/peers');
  if (!found('gcc', ['--version'])) {
    notes.push('gcc not found: the C peer is skipped');
  } else {
    const exe = join(dir, 'hashpeer');
    const r = spawnSync('gcc', ['-O3', '-o', exe, join(src, 'hashpeer.c')], { encoding: 'utf8' });
    if (r.status === 0) peers.push({ name: 'C (gcc -O3, bytes in)', short: 'C', command: exe, args: [] });
    else notes.push(`gcc could not build the C peer: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]}`);
  }
  if (!found('javac', ['-version']) || !found('java', ['-version'])) {
    notes.push('javac/java not found: the JVM peer is skipped');
  } else {
    const r = spawnSync('javac', ['-d', dir, join(src, 'HashPeer.java')], { encoding: 'utf8' });
    const version = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr.split('\n')[0].replace(/^\S+ version /, '').replace(/"/g, '');
    if (r.status === 0) peers.push({ name: `JVM ${version} (getBytes + hash)`, short: 'JVM', command: 'java', args: ['-Xmx2g', '-cp', dir, 'HashPeer'] });
    else notes.push(`javac could not build the JVM peer: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]}`);
  }
  return { peers, notes };
}

/** The key file the peers read: u32 count, then per key u32 byte length and the bytes (little-endian). */
export function writePeerKeyFile(path, keys, utf8) {
  const encoded = keys.map((k) => utf8(k));
  const size = 4 + encoded.reduce((n, b) => n + 4 + b.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, keys.length, true);
  let o = 4;
  for (const b of encoded) {
    view.setUint32(o, b.length, true);
    out.set(b, o + 4);
    o += 4 + b.length;
  }
  writeFileSync(path, out);
}

/** A running peer process with one key set loaded. */
export class PeerProcess {
  static async start(peer, keyFile) {
    const p = new PeerProcess(peer, keyFile);
    const ready = await p.reply();
    if (!ready.startsWith('ready ')) throw new Error(`${peer.name} did not start: ${ready}`);
    p.count = Number(ready.slice(6));
    return p;
  }

  constructor(peer, keyFile) {
    this.peer = peer;
    this.child = spawn(peer.command, [...peer.args, keyFile], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.waiting = null;
    this.stderr = '';
    let buf = '';
    this.child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf('\n')) >= 0; ) {
        this.lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      this.wake();
    });
    this.child.stderr.setEncoding('utf8').on('data', (d) => (this.stderr += d));
    this.exited = null;
    this.child.on('close', (code) => {
      this.exited = code;
      this.wake();
    });
  }

  wake() {
    const w = this.waiting;
    if (w === null) return;
    if (this.lines.length > 0) {
      this.waiting = null;
      w.resolve(this.lines.shift());
    } else if (this.exited !== null) {
      this.waiting = null;
      w.reject(new Error(`${this.peer.name} exited (${this.exited}): ${this.stderr.trim()}`));
    }
  }

  reply() {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.wake();
    });
  }

  async request(line) {
    this.child.stdin.write(line + '\n');
    const r = await this.reply();
    if (r.startsWith('error')) throw new Error(`${this.peer.name}: ${r} (request: ${line})`);
    return r;
  }

  /** Every key's result as the peer computes it. */
  async results(hash, partitions, outFile) {
    await this.request(`check ${hash} ${partitions} ${outFile}`);
    const b = readFileSync(outFile);
    return new Int32Array(b.buffer, b.byteOffset, b.length / 4);
  }

  /** One timed pass over every key: ns per key, wall clock and the timing thread's CPU time. */
  async time(hash, partitions) {
    const [wall, cpu] = (await this.request(`time ${hash} ${partitions}`)).split(' ').map(Number);
    return { wallNs: wall / this.count, cpuNs: cpu / this.count };
  }

  async close() {
    if (this.exited === null) {
      this.child.stdin.end('quit\n');
      await new Promise((resolve) => (this.exited !== null ? resolve() : this.child.on('close', resolve)));
    }
  }
}
