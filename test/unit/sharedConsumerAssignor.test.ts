import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SharedConsumerAssignor, type ChunkEntry, type EntryId } from '../../src/engine/pulsar/sharedConsumerAssignor';
import { randInt, rng } from './helpers';

const plain = (id: EntryId): ChunkEntry => ({ id });
const chunk = (id: EntryId, uuid: string, chunkId: number, numChunks: number): ChunkEntry => ({ id, uuid, chunkId, numChunks });
const obj = <V>(m: Map<string, V>): Record<string, V> => Object.fromEntries(m);

/**
 * The entries of the broker's own SharedConsumerAssignorTest:
 * | id  | uuid | chunk | of |
 * | 0:0 |      |       |    |
 * | 0:1 | A-1  | 0     | 3  |
 * | 0:2 | A-1  | 1     | 3  |
 * | 0:3 |      |       |    |
 * | 0:4 | B-1  | 0     | 2  |
 * | 0:5 | A-1  | 2     | 3  |
 * | 0:6 | B-1  | 1     | 2  |
 */
const upstream: ChunkEntry[] = [
  plain('0:0'),
  chunk('0:1', 'A-1', 0, 3),
  chunk('0:2', 'A-1', 1, 3),
  plain('0:3'),
  chunk('0:4', 'B-1', 0, 2),
  chunk('0:5', 'A-1', 2, 3),
  chunk('0:6', 'B-1', 1, 2),
];

describe('SharedConsumerAssignor: the broker test\'s answers', () => {
  test('one consumer with 5 permits: the first five entries, the rest replayed, pins kept until each last chunk', () => {
    const a = new SharedConsumerAssignor([{ consumer: 'A', availablePermits: 5 }]);
    let r = a.assign(upstream);
    assert.deepEqual(obj(r.assigned), { A: ['0:0', '0:1', '0:2', '0:3', '0:4'] });
    assert.deepEqual(r.unassigned, ['0:5', '0:6']);
    assert.deepEqual(obj(r.uuidToConsumer), { 'A-1': 'A', 'B-1': 'A' });
    r = a.assign(upstream.slice(5, 6));
    assert.deepEqual(obj(r.assigned), { A: ['0:5'] });
    assert.deepEqual(obj(r.uuidToConsumer), { 'B-1': 'A' });
    r = a.assign(upstream.slice(6, 7));
    assert.deepEqual(obj(r.assigned), { A: ['0:6'] });
    assert.deepEqual(obj(r.uuidToConsumer), {});
  });

  test('A with 3 permits, B with 4: a chunked message never splits across consumers; its last chunk waits for A', () => {
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 3 },
      { consumer: 'B', availablePermits: 4 },
    ]);
    let r = a.assign(upstream);
    assert.deepEqual(obj(r.assigned), { A: ['0:0', '0:1', '0:2'], B: ['0:3', '0:4', '0:6'] });
    assert.deepEqual(r.unassigned, ['0:5']);
    assert.deepEqual(obj(r.uuidToConsumer), { 'A-1': 'A' });
    // Replayed next round: B is next in the round-robin, but the pin sends the chunk to A.
    r = a.assign([upstream[5]]);
    assert.deepEqual(obj(r.assigned), { A: ['0:5'] });
    assert.deepEqual(r.unassigned, []);
    assert.deepEqual(obj(r.uuidToConsumer), {});
  });
});

describe('SharedConsumerAssignor: quirks of the 3.0 broker', () => {
  test('a non-first chunk whose uuid was never pinned stays unassigned, and pins nothing', () => {
    const a = new SharedConsumerAssignor([{ consumer: 'A', availablePermits: 10 }]);
    const r = a.assign([chunk('x1', 'X', 1, 3), plain('p'), chunk('x2', 'X', 2, 3)]);
    assert.deepEqual(obj(r.assigned), { A: ['p'] });
    assert.deepEqual(r.unassigned, ['x1', 'x2']);
    assert.deepEqual(obj(r.uuidToConsumer), {});
  });

  test('an entry missing any of uuid, chunkId, numChunks is plain', () => {
    const a = new SharedConsumerAssignor([{ consumer: 'A', availablePermits: 10 }]);
    const r = a.assign([{ id: 1, uuid: 'U', chunkId: 1 }, { id: 2, chunkId: 1, numChunks: 2 }]);
    assert.deepEqual(obj(r.assigned), { A: [1, 2] });
    assert.deepEqual(obj(r.uuidToConsumer), {});
  });

  test('a pinned chunk sets its consumer\'s permits from the current consumer\'s count minus 1', () => {
    // Round 1 pins X to A (A has 1 permit). Round 2: B is the default with 5; X's chunks go to A,
    // and A's table entry becomes B's running count - 1 instead of A's own 1 - 1, so A takes both.
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 1 },
      { consumer: 'B', availablePermits: 5 },
    ]);
    let r = a.assign([chunk('x0', 'X', 0, 3)]);
    assert.deepEqual(obj(r.assigned), { A: ['x0'] });
    r = a.assign([plain('p1'), chunk('x1', 'X', 1, 3), chunk('x2', 'X', 2, 3)]);
    assert.deepEqual(obj(r.assigned), { B: ['p1'], A: ['x1', 'x2'] });
    assert.deepEqual(r.unassigned, []);
    assert.deepEqual(obj(r.uuidToConsumer), {});
  });

  test('a chunk given to a pinned consumer still uses up the current consumer\'s count', () => {
    // B (2 permits) is the default; x1 goes to A, yet B's count drops to 0 and A's entry is set from
    // B's count (1 - 1 = 0). No consumer has table permits left, so x2 waits although B got only
    // one entry for its two permits.
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 1 },
      { consumer: 'B', availablePermits: 2 },
    ]);
    a.assign([chunk('x0', 'X', 0, 3)]);
    const r = a.assign([plain('p1'), chunk('x1', 'X', 1, 3), chunk('x2', 'X', 2, 3)]);
    assert.deepEqual(obj(r.assigned), { B: ['p1'], A: ['x1'] });
    assert.deepEqual(r.unassigned, ['x2']);
    assert.deepEqual(obj(r.uuidToConsumer), { X: 'A' });
  });

  test('no consumer with permits: every entry is released, none assigned or queued, pins untouched', () => {
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 0 },
      { consumer: 'B', availablePermits: -3 },
    ]);
    const r = a.assign(upstream);
    assert.equal(r.assigned.size, 0);
    assert.deepEqual(r.unassigned, []);
    assert.deepEqual(r.released, upstream.map((e) => e.id));
    assert.deepEqual(obj(r.uuidToConsumer), {});
    const none = new SharedConsumerAssignor([]).assign([plain(1)]);
    assert.deepEqual(none.released, [1]);
  });
});

describe('SharedConsumerAssignor: the dispatcher\'s round-robin selector', () => {
  test('the round-robin position carries across rounds', () => {
    const a = new SharedConsumerAssignor(['A', 'B', 'C'].map((consumer) => ({ consumer, availablePermits: 1 })));
    const got = [1, 2, 3, 4, 5].map((i) => [...a.assign([plain(i)]).assigned.keys()]);
    assert.deepEqual(got, [['A'], ['B'], ['C'], ['A'], ['B']]);
  });

  test('the selector skips consumers without permits and resumes just past the last one it returned', () => {
    // Round 1: A takes 2, B (no permits) is skipped, C takes 2; the search for a third consumer
    // returns A, C, A (all exhausted in this round), leaving the index just past A.
    // Round 2 therefore starts at B, skips it, and picks C, not A.
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 2 },
      { consumer: 'B', availablePermits: 0 },
      { consumer: 'C', availablePermits: 2 },
    ]);
    const r1 = a.assign([1, 2, 3, 4, 5, 6].map(plain));
    assert.deepEqual(obj(r1.assigned), { A: [1, 2], C: [3, 4] });
    assert.deepEqual(r1.unassigned, [5, 6]);
    assert.equal(r1.roundRobinIndex, 1);
    const r2 = a.assign([plain(7)]);
    assert.deepEqual(obj(r2.assigned), { C: [7] });
  });

  test('a first chunk is pinned to whichever consumer is current when it arrives', () => {
    const a = new SharedConsumerAssignor([
      { consumer: 'A', availablePermits: 1 },
      { consumer: 'B', availablePermits: 3 },
    ]);
    const r = a.assign([plain('p'), chunk('y0', 'Y', 0, 2), chunk('y1', 'Y', 1, 2)]);
    assert.deepEqual(obj(r.assigned), { A: ['p'], B: ['y0', 'y1'] });
  });
});

describe('SharedConsumerAssignor: properties over random rounds with replay', () => {
  test('every entry is accounted for once; a message\'s chunks all go to one consumer; plain entries stay within permits', () => {
    const r = rng(17);
    for (let iter = 0; iter < 300; iter++) {
      const n = randInt(r, 1, 5);
      const consumers = Array.from({ length: n }, (_, i) => ({ consumer: `c${i}`, availablePermits: randInt(r, -1, 6) }));
      const a = new SharedConsumerAssignor(consumers);
      // A stream of messages, some chunked, interleaved; each chunk 0 appears once.
      const stream: ChunkEntry[] = [];
      const open: { uuid: string; next: number; of: number }[] = [];
      let seq = 0;
      for (let k = 0; k < 40; k++) {
        if (open.length > 0 && r() < 0.5) {
          const m = open[randInt(r, 0, open.length - 1)];
          stream.push(chunk(seq++, m.uuid, m.next, m.of));
          if (++m.next === m.of) open.splice(open.indexOf(m), 1);
        } else if (r() < 0.5) {
          const m = { uuid: `u${seq}`, next: 0, of: randInt(r, 1, 4) };
          stream.push(chunk(seq++, m.uuid, m.next, m.of));
          if (++m.next < m.of) open.push(m);
        } else stream.push(plain(seq++));
      }
      const byId = new Map(stream.map((e) => [e.id, e]));
      const owner = new Map<string, string>();
      const firstAssigned = new Set<string>();
      let replay: ChunkEntry[] = [];
      let pos = 0;
      for (let round = 0; round < 25 && (pos < stream.length || replay.length > 0); round++) {
        const take = randInt(r, 1, 8);
        const batch = [...replay, ...stream.slice(pos, pos + take)];
        pos += take;
        const res = a.assign(batch);
        const seen = [...[...res.assigned.values()].flat(), ...res.unassigned, ...res.released];
        assert.deepEqual([...seen].sort((x, y) => Number(x) - Number(y)), batch.map((e) => e.id).sort((x, y) => Number(x) - Number(y)));
        for (const [c, ids] of res.assigned) {
          const permits = consumers.find((x) => x.consumer === c)!.availablePermits;
          assert.ok(permits > 0, `${c} has no permits but got ${ids}`);
          assert.ok(ids.filter((id) => byId.get(id)!.uuid === undefined).length <= permits);
          for (const id of ids) {
            const e = byId.get(id)!;
            if (e.uuid === undefined) continue;
            if (e.chunkId !== 0) assert.ok(firstAssigned.has(e.uuid), `chunk ${e.chunkId} of ${e.uuid} assigned without its first chunk`);
            else firstAssigned.add(e.uuid);
            const o = owner.get(e.uuid);
            if (o === undefined) owner.set(e.uuid, c);
            else assert.equal(c, o, `${e.uuid} split across ${o} and ${c}`);
          }
        }
        for (const [uuid, c] of res.uuidToConsumer) assert.equal(owner.get(uuid), c);
        replay = res.unassigned.map((id) => byId.get(id)!);
      }
    }
  });
});
