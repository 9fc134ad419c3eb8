import { test } from 'node:test';
import assert from 'node:assert/strict';
import murmurLib from 'murmurhash3js-revisited';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import type { Consumer } from '../../src/engine/pulsar/keyShared/selector';
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

/**
 * The code of each point of a 3.x ring's columns stands for its consumer list: points whose lists
 * hold the same consumers in the same order have one code, and other lists other codes (views
 * intern a code once: 500 names used twice are 50,000 lists of 500 contents).
 */
function assertOneCodePerList(s: ConsistentHashing3Selector, what: string): void {
  const cols = s.pointColumns();
  const codeOf = new Map<string, number>();
  for (let i = 0; i < cols.points.length; i++) {
    const h = cols.holder[i];
    const code = h >= 0 ? h : cols.sharedCode[~h];
    const list = cols.holders(i);
    assert.deepEqual(cols.lists[code], list, `${what}: point ${cols.points[i]}'s code`);
    const key = list.map((c) => c.id).join('\n');
    const known = codeOf.get(key);
    if (known === undefined) codeOf.set(key, code);
    else assert.equal(code, known, `${what}: points of ${key.replace(/\n/g, ' + ')} have two codes`);
  }
  assert.equal(new Set(codeOf.values()).size, codeOf.size, `${what}: two lists share a code`);
}

test('3.x point columns: one code for the points of one consumer list, through joins, leaves and clones', () => {
  const r = rng(25);
  for (let round = 0; round < 20; round++) {
    const points = randInt(r, 1, 60);
    const names = Array.from({ length: randInt(r, 1, 8) }, (_, k) => `n${k}`);
    const s = new ConsistentHashing3Selector(points);
    const joined: Consumer[] = [];
    const join = (sel: ConsistentHashing3Selector) => {
      const c = { id: `c${joined.length}`, name: names[randInt(r, 0, names.length - 1)] };
      joined.push(c);
      sel.addConsumer(c);
    };
    for (let k = randInt(r, 1, 12); k > 0; k--) join(s);
    assertOneCodePerList(s, `round ${round}`);
    // Clones share the ring's lists and append to them apart.
    const a = s.clone();
    const b = s.clone();
    join(a);
    join(b);
    join(a);
    assertOneCodePerList(a, `round ${round}, clone a`);
    assertOneCodePerList(b, `round ${round}, clone b`);
    const ofA = joined.filter((_, i) => i !== joined.length - 2); // all but b's
    const leaving = ofA[randInt(r, 0, ofA.length - 1)];
    a.removeConsumer(leaving);
    assertOneCodePerList(a, `round ${round}, clone a without ${leaving.id}`);
    assertOneCodePerList(s, `round ${round}, after its clones changed`);
  }
});
