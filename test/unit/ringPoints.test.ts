import { test } from 'node:test';
import assert from 'node:assert/strict';
import murmurLib from 'murmurhash3js-revisited';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { randInt, randomString, ringPoints, rng } from './helpers';

// Ring points recomputed with the reference library from the point strings the brokers hash, so
// any shortcut the selectors take (cached prefixes, midstates, batches) is checked against the
// plain definition: names of every length mod 4, ASCII and not, one- to four-digit suffixes.
const enc = new TextEncoder();
const masked = (s: string) => murmurLib.x86.hash32(enc.encode(s)) & 0x7fffffff;

function names(seed: number, n: number): string[] {
  const r = rng(seed);
  const out = ['', 'a', 'ab', 'abc', 'abcd', 'consumer-1', 'consumer-11', 'ключ', '😀x'];
  while (out.length < n) out.push(randomString(r, 14).replace(/[\ud800-\udfff]/g, 'x'));
  return out;
}

test('3.0 ring points are Murmur3_32(UTF-8(name + i)) for every i', () => {
  const r = rng(21);
  for (const name of names(22, 40)) {
    const points = randInt(r, 1, 1200);
    const s = new ConsistentHashing3Selector(points);
    s.addConsumer({ id: 'x', name });
    const expected = [...new Set(Array.from({ length: points }, (_, i) => masked(name + i)))].sort((a, b) => a - b);
    assert.deepEqual(ringPoints(s).map(([p]) => p), expected, `${JSON.stringify(name)} x ${points}`);
  }
});

test('4.0 ring points are Murmur3_32(UTF-8(name \\0 index \\0 i)) % 65535 + 1 for every index and i', () => {
  const r = rng(23);
  for (const name of names(24, 30)) {
    const points = randInt(r, 1, 1200);
    const copies = randInt(r, 1, 12);
    const s = new ConsistentHashing4Selector(points);
    for (let k = 0; k < copies; k++) s.addConsumer({ id: `${name}#${k}`, name });
    const expected = new Set<number>();
    for (let k = 0; k < copies; k++) for (let i = 0; i < points; i++) expected.add((masked(`${name}\0${k}\0${i}`) % 65535) + 1);
    assert.deepEqual(ringPoints(s).map(([p]) => p), [...expected].sort((a, b) => a - b), `${JSON.stringify(name)} x ${copies} x ${points}`);
  }
});
