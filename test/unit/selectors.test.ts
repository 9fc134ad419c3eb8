import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AutoSplitHashRangeSelector } from '../../src/engine/pulsar/keyShared/autoSplitHashRange';
import { ConsistentHashing3Selector, ringPointHash3 } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { ExclusiveHashRangeSelector } from '../../src/engine/pulsar/keyShared/exclusiveHashRange';
import { ConsumerAssignError, segmentAt, type Consumer, type HashRange, type Segment, type StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { murmur3Masked } from '../../src/engine/pulsar/murmur3';
import { utf8 } from '../../src/engine/bytes';
import { randInt, ringPoints, rng } from './helpers';

const consumer = (id: string, name = id, ranges?: HashRange[]): Consumer => ({ id, name, ranges });
const layout = (segs: Segment[]) => segs.map((s) => [s.start, s.end, s.consumers.map((c) => c.id).join('+')]);

describe('AUTO_SPLIT hash ranges', () => {
  for (const gen of ['3.0', '4.0'] as const) {
    test(`the documented C1..C4 scenario, broker ${gen}`, () => {
      const s = new AutoSplitHashRangeSelector(gen);
      const [c1, c2, c3, c4] = ['C1', 'C2', 'C3', 'C4'].map((n) => consumer(n));
      s.addConsumer(c1);
      assert.deepEqual(layout(s.snapshot()), [[0, 65536, 'C1']]);
      s.addConsumer(c2);
      assert.deepEqual(layout(s.snapshot()), [[0, 32768, 'C2'], [32769, 65536, 'C1']]);
      s.addConsumer(c3);
      assert.deepEqual(layout(s.snapshot()), [[0, 16384, 'C3'], [16385, 32768, 'C2'], [32769, 65536, 'C1']]);
      s.addConsumer(c4);
      assert.deepEqual(layout(s.snapshot()), [[0, 16384, 'C3'], [16385, 32768, 'C2'], [32769, 49152, 'C4'], [49153, 65536, 'C1']]);
      s.removeConsumer(c4);
      assert.deepEqual(layout(s.snapshot()), [[0, 16384, 'C3'], [16385, 32768, 'C2'], [32769, 65536, 'C1']]);
      s.removeConsumer(c1);
      assert.deepEqual(layout(s.snapshot()), [[0, 16384, 'C3'], [16385, 65536, 'C2']]);
      // Selection stops at the last real slot; the top key is bookkeeping only.
      assert.deepEqual(layout(s.segments()), [[0, 16384, 'C3'], [16385, 65535, 'C2']]);
    });
  }

  test('3.x selects at hash % 65536, 4.x at the already reduced hash', () => {
    const h = murmur3Masked(utf8('Order-3459134'));
    const s3 = new AutoSplitHashRangeSelector('3.0');
    const s4 = new AutoSplitHashRangeSelector('4.0');
    for (const s of [s3, s4]) {
      s.addConsumer(consumer('C1'));
      s.addConsumer(consumer('C2'));
      s.addConsumer(consumer('C3'));
    }
    assert.equal(s3.makeStickyKeyHash(utf8('Order-3459134')), h);
    assert.equal(s3.select(h)!.id, 'C3'); // slot 6067 is in [0, 16384]
    assert.equal(s4.makeStickyKeyHash(utf8('Order-3459134')), 6067);
    assert.equal(s4.select(6067)!.id, 'C3');
    assert.equal(s4.select(16385)!.id, 'C2');
    assert.equal(s4.select(65535)!.id, 'C1');
  });

  test('a tiny range runs out: the broker refuses the next consumer with its message', () => {
    const s = new AutoSplitHashRangeSelector('3.0', 4);
    for (const n of ['C1', 'C2', 'C3', 'C4']) s.addConsumer(consumer(n));
    assert.deepEqual(layout(s.snapshot()), [[0, 1, 'C3'], [2, 2, 'C2'], [3, 3, 'C4'], [4, 4, 'C1']]);
    // C1 keeps only the top key, which no hash reaches: selection gives it nothing.
    assert.deepEqual(layout(s.segments()), [[0, 1, 'C3'], [2, 2, 'C2'], [3, 3, 'C4']]);
    assert.equal(s.select(3)!.id, 'C4');
    assert.throws(() => s.addConsumer(consumer('C5')), (e: Error) => e instanceof ConsumerAssignError && e.message === 'No more range can assigned to new consumer, assigned consumers 4');
    assert.deepEqual(layout(s.snapshot()), [[0, 1, 'C3'], [2, 2, 'C2'], [3, 3, 'C4'], [4, 4, 'C1']]);
  });

  test('the range size must be a power of two of at least 2', () => {
    assert.throws(() => new AutoSplitHashRangeSelector('3.0', 1000), /nth power with 2/);
    assert.throws(() => new AutoSplitHashRangeSelector('3.0', 1), /greater than 2/);
  });

  test('each new consumer takes the lower half of the first largest range', () => {
    const r = rng(11);
    const s = new AutoSplitHashRangeSelector('4.0');
    s.addConsumer(consumer('c0'));
    for (let i = 1; i < 300; i++) {
      const before = s.snapshot();
      // The first range counts from 0, the others from the previous key: widths as the broker measures them.
      const widths = before.map((seg, j) => seg.end - (j === 0 ? 0 : before[j - 1].end));
      const max = Math.max(...widths);
      const j = widths.indexOf(max);
      const c = consumer(`c${i}`);
      s.addConsumer(c);
      const seg = s.snapshot().find((x) => x.consumers[0] === c)!;
      const lower = j === 0 ? 0 : before[j - 1].end;
      assert.equal(seg.end, before[j].end - ((before[j].end - lower) >> 1));
      assert.equal(seg.start, j === 0 ? 0 : before[j - 1].end + 1);
      if (r() < 0.2) {
        // Removing the one that just joined restores the layout exactly.
        s.removeConsumer(c);
        assert.deepEqual(layout(s.snapshot()), layout(before));
        s.addConsumer(c);
      }
    }
  });
});

describe('consistent hashing, 3.x', () => {
  test('ring points are Murmur3_32 of name + i', () => {
    const s = new ConsistentHashing3Selector(5);
    s.addConsumer(consumer('C1'));
    assert.deepEqual(
      ringPoints(s).map(([p]) => p),
      [0, 1, 2, 3, 4].map((i) => murmur3Masked(utf8(`C1${i}`))).sort((a, b) => a - b),
    );
  });

  test('same-named consumers share every point and split keys by hash % 2', () => {
    const s = new ConsistentHashing3Selector(100);
    const a = consumer('w'), b = consumer('w#2', 'w');
    s.addConsumer(a);
    s.addConsumer(b);
    assert.equal(ringPoints(s).length, 100);
    for (const seg of s.segments()) assert.deepEqual(seg.consumers, [a, b]);
    const r = rng(12);
    for (let i = 0; i < 1000; i++) {
      const h = randInt(r, 0, 0x7fffffff);
      assert.equal(s.select(h), h % 2 === 0 ? a : b);
    }
  });

  test('"consumer-1"+"10" and "consumer-11"+"0" collide and share a point, sorted by name', () => {
    const s = new ConsistentHashing3Selector(100);
    const cs = Array.from({ length: 20 }, (_, i) => consumer(`consumer-${i}`));
    for (const c of cs) s.addConsumer(c);
    const p = ringPointHash3('consumer-1', 10);
    assert.equal(p, ringPointHash3('consumer-11', 0));
    const shared = ringPoints(s).find(([h]) => h === p)!;
    assert.deepEqual(shared[1].map((c) => c.id), ['consumer-1', 'consumer-11']);
  });

  test('keys above the last point wrap to the first point', () => {
    const s = new ConsistentHashing3Selector(3);
    s.addConsumer(consumer('A'));
    s.addConsumer(consumer('B'));
    const pts = ringPoints(s);
    const last = pts[pts.length - 1][0];
    const segs = s.segments();
    assert.equal(segs[segs.length - 1].end, 0x7fffffff);
    if (last < 0x7fffffff) assert.equal(s.select(last + 1), pts[0][1][0]);
  });
});

describe('consistent hashing, 4.x (PIP-379)', () => {
  test('points are makeStickyKeyHash(name \\0 nameIndex \\0 i) in [1, 65535]', () => {
    const s = new ConsistentHashing4Selector(4);
    s.addConsumer(consumer('C1'));
    const expected = [0, 1, 2, 3].map((i) => (murmur3Masked(utf8(`C1\u00000\u0000${i}`)) % 65535) + 1).sort((a, b) => a - b);
    assert.deepEqual(ringPoints(s).map(([p]) => p), [...new Set(expected)]);
  });

  test('same-named consumers get distinct name indexes; a freed index is reused, so a rejoining consumer gets its points back', () => {
    const s = new ConsistentHashing4Selector(100);
    const w1 = consumer('w'), w2 = consumer('w#2', 'w'), w3 = consumer('w#3', 'w');
    s.addConsumer(w1);
    const alone = layout(s.segments());
    s.addConsumer(w2);
    assert.equal(s.nameIndexOf(w1), 0);
    assert.equal(s.nameIndexOf(w2), 1);
    const both = layout(s.segments());
    s.removeConsumer(w1);
    s.addConsumer(w3);
    assert.equal(s.nameIndexOf(w3), 0);
    // w3 holds w1's points: the layout equals `both` with w1 renamed w3.
    assert.deepEqual(layout(s.segments()), both.map(([a, b, c]) => [a, b, c === 'w' ? 'w#3' : c]));
    s.removeConsumer(w2);
    assert.deepEqual(layout(s.segments()), alone.map(([a, b]) => [a, b, 'w#3']));
  });

  test('the first consumer at a point keeps it; colliding ones queue and are promoted in order', () => {
    // 60 consumers x 100 points on 65,535 slots collide often.
    const s = new ConsistentHashing4Selector(100);
    const cs = Array.from({ length: 60 }, (_, i) => consumer(`c${i}`));
    for (const c of cs) s.addConsumer(c);
    const contested = ringPoints(s).filter(([, , q]) => q.length > 0);
    assert.ok(contested.length > 0, 'expected collisions');
    for (const [p, holder, queue] of contested) {
      // The holder connected before everyone queued behind it.
      assert.ok(cs.indexOf(holder) <= cs.indexOf(queue[0]));
      const next = queue[0];
      const t = new ConsistentHashing4Selector(100);
      for (const c of cs) t.addConsumer(c);
      t.removeConsumer(holder);
      const after = ringPoints(t).find(([q]) => q === p);
      assert.ok(after);
      assert.equal(after[1], next);
      break;
    }
  });

  test('selection equals a linear scan of the points (ceiling, wrapping to the first)', () => {
    const s = new ConsistentHashing4Selector(20);
    for (let i = 0; i < 7; i++) s.addConsumer(consumer(`k${i}`));
    const pts = ringPoints(s);
    for (let h = 1; h <= 65535; h += 7) {
      const owner = (pts.find(([p]) => p >= h) ?? pts[0])[1];
      assert.equal(s.select(h), owner);
    }
  });
});

describe('STICKY (exclusive hash ranges)', () => {
  const cfg = (gen: '3.0' | '4.0') => new ExclusiveHashRangeSelector(gen);

  test("the broker's validation errors", () => {
    const s = cfg('3.0');
    const e1 = consumer('E1', 'E1', [[0, 16383], [32768, 49151]]);
    s.addConsumer(e1);
    assert.throws(() => s.addConsumer(consumer('X', 'X', [])), /^Error: Ranges for KeyShared policy must not be empty\.$|Ranges for KeyShared policy must not be empty\./);
    assert.throws(() => s.addConsumer(consumer('X', 'X', [[10, 5]])), /Fixed hash range start > end/);
    assert.throws(() => s.addConsumer(consumer('X', 'X', [[16000, 17000]])), /Range conflict with consumer E1/);
    assert.throws(() => s.addConsumer(consumer('X', 'X', [[100, 200]])), /Range conflict with consumer E1/);
    assert.throws(() => s.addConsumer(consumer('X', 'X', [[20000, 40000]])), /Range conflict with consumer E1/);
    // Inside E1's span but between its ranges: no overlap, accepted.
    s.addConsumer(consumer('E2', 'E2', [[16384, 32767]]));
    assert.equal(s.select(20000)!.id, 'E2');
  });

  test('3.x: a gap between two ranges of one consumer is that consumer\'s; between different consumers, nobody\'s', () => {
    const s = cfg('3.0');
    const e4 = consumer('E4', 'E4', [[49152, 60000], [60002, 65535]]);
    const e1 = consumer('E1', 'E1', [[0, 100]]);
    s.addConsumer(e1);
    s.addConsumer(e4);
    assert.equal(s.select(60001), e4);
    assert.equal(s.select(200), null);
    assert.deepEqual(layout(s.segments()), [[0, 100, 'E1'], [101, 49151, ''], [49152, 65535, 'E4']]);
    // A one-slot range inside E4's gap is accepted and owns its slot.
    const e7 = consumer('E7', 'E7', [[60001, 60001]]);
    s.addConsumer(e7);
    assert.equal(s.select(60001), e7);
    assert.equal(s.select(60000), e4);
    assert.deepEqual(layout(s.segments()), [[0, 100, 'E1'], [101, 49151, ''], [49152, 60000, 'E4'], [60001, 60001, 'E7'], [60002, 65535, 'E4']]);
    s.removeConsumer(e7);
    assert.equal(s.select(60001), e4);
  });

  test('4.x (apache/pulsar#24730, 4.0.7 on): a slot is a consumer\'s only inside one of its ranges', () => {
    // The pull request's own case: one consumer, three ranges with gaps between them.
    const ranges: Array<[number, number]> = [[0, 9999], [20000, 29999], [40000, 49999]];
    const s3 = cfg('3.0');
    const s4 = cfg('4.0');
    const c3 = consumer('C', 'C', ranges);
    const c4 = consumer('C', 'C', ranges);
    s3.addConsumer(c3);
    s4.addConsumer(c4);
    assert.equal(s3.select(15000), c3, '3.x: the gap between two of its ranges is its own');
    assert.equal(s4.select(15000), null);
    for (const slot of [1, 9999, 20000, 25000, 29999, 40000, 49999]) assert.equal(s4.select(slot), c4, `slot ${slot}`);
    for (const slot of [10000, 19999, 30000, 39999, 50000, 65535]) assert.equal(s4.select(slot), null, `slot ${slot}`);
    assert.deepEqual(layout(s4.segments()), [[0, 9999, 'C'], [10000, 19999, ''], [20000, 29999, 'C'], [30000, 39999, ''], [40000, 49999, 'C'], [50000, 65535, '']]);
    // A consumer may still take a slot in that gap.
    const d = consumer('D', 'D', [[15000, 15000]]);
    s4.addConsumer(d);
    assert.equal(s4.select(15000), d);
    assert.equal(s4.select(14999), null);
  });

  test("4.x refuses a consumer whose own ranges overlap, and words its checks as the 4.x broker does", () => {
    const s3 = cfg('3.0');
    const s4 = cfg('4.0');
    // Checked in start order: the message names them sorted.
    s3.addConsumer(consumer('X', 'X', [[5, 15], [0, 10]]));
    assert.throws(() => s4.addConsumer(consumer('X', 'X', [[5, 15], [0, 10]])), /^Error: Consumer's own ranges conflict: \[0,10\] overlaps with \[5,15\]$/);
    assert.throws(() => s4.addConsumer(consumer('X', 'X', [[10, 5]])), /^Error: Fixed hash range start > end for range: \[10,5\]$/);
    // A reversed range is not an overlap: its own start > end is what is reported.
    assert.throws(() => s4.addConsumer(consumer('X', 'X', [[0, 10], [5, 3]])), /^Error: Fixed hash range start > end for range: \[5,3\]$/);
    // Touching ranges do not overlap.
    s4.addConsumer(consumer('Y', 'Y', [[100, 200], [201, 300]]));
    // Against other consumers 4.x names the range holding the new start, else the first one that
    // starts inside the new range; 3.x the last key inside it.
    for (const s of [s3, s4]) {
      s.addConsumer(consumer('A', 'A', [[1000, 1010]]));
      s.addConsumer(consumer('B', 'B', [[1020, 1030]]));
    }
    assert.throws(() => s4.addConsumer(consumer('Z', 'Z', [[990, 1100]])), /^Error: Range conflict with consumer A$/);
    assert.throws(() => s3.addConsumer(consumer('Z', 'Z', [[990, 1100]])), /^Error: Range conflict with consumer B$/);
    assert.throws(() => s4.addConsumer(consumer('Z', 'Z', [[1025, 1100]])), /^Error: Range conflict with consumer B$/);
    assert.throws(() => s4.addConsumer(consumer('Z', 'Z', [[1003, 1004]])), /^Error: Range conflict with consumer A$/);
    s4.addConsumer(consumer('Z', 'Z', [[1011, 1019]]));
  });

  test('3.x looks up hash % 65536; 4.x reduces the hash and turns 0 into 1', () => {
    const s3 = cfg('3.0'), s4 = cfg('4.0');
    for (const s of [s3, s4]) s.addConsumer(consumer('E', 'E', [[0, 0]]));
    assert.equal(s3.select(65536 * 5), s3.select(0));
    assert.equal(s3.select(0)!.id, 'E');
    assert.equal(s4.makeStickyKeyHash(new Uint8Array(0)), 1);
    assert.equal(s4.select(1), null);
  });
});

// Property tests over random histories for every selector kind and generation.
const kinds: Array<[string, SelectorConfig]> = [
  ['auto-split 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['auto-split 4.0', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['auto-split 4.0, range 64', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints: 100, hashRangeSize: 64 }],
  ['ring 3.0', { brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 20, hashRangeSize: 65536 }],
  ['ring 4.0', { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, hashRangeSize: 65536 }],
  ['sticky 3.0', { brokerVersion: '3.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
  ['sticky 4.0', { brokerVersion: '4.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 }],
];

function checkCover(s: StickyKeyConsumerSelector, segs: Segment[]): void {
  if (segs.length === 0) return;
  assert.equal(segs[0].start, s.keyHashRange[0]);
  assert.equal(segs[segs.length - 1].end, s.keyHashRange[1]);
  for (let i = 1; i < segs.length; i++) {
    assert.equal(segs[i].start, segs[i - 1].end + 1, 'contiguous, no overlap');
  }
}

function checkSelect(s: StickyKeyConsumerSelector, segs: Segment[], r: () => number): void {
  for (let i = 0; i < 300; i++) {
    const raw = randInt(r, 0, 0x7fffffff);
    const h = s.brokerVersion === '4.0' ? s.makeStickyKeyHash(new Uint8Array([raw & 255, (raw >> 8) & 255, (raw >> 16) & 255])) : raw;
    const seg = segmentAt(segs, s.slotOf(h));
    const picked = s.select(h);
    if (!seg || seg.consumers.length === 0) assert.equal(picked, null);
    else if (seg.consumers.length === 1) assert.equal(picked, seg.consumers[0]);
    else assert.equal(picked, seg.consumers[h % seg.consumers.length]);
  }
}

for (const [label, config] of kinds) {
  test(`${label}: random histories keep the space covered, selection consistent, and an undone join restores the layout`, () => {
    const r = rng(label.length * 7919);
    const sub = new KeySharedSubscription(config);
    const names = ['a', 'b', 'c', 'consumer-1', 'consumer-11', 'd'];
    for (let step = 0; step < 60; step++) {
      const s = sub.selector;
      const before = layout(s.segments());
      if (sub.consumers.length > 0 && r() < 0.3) {
        const victim = sub.consumers[randInt(r, 0, sub.consumers.length - 1)];
        assert.ok(sub.disconnect(victim.id).ok);
      } else {
        const name = names[randInt(r, 0, names.length - 1)];
        let ranges: HashRange[] | undefined;
        if (config.keySharedMode === 'STICKY') {
          const a = randInt(r, 0, 65535);
          ranges = [[a, Math.min(65535, a + randInt(r, 0, 3000))]];
        }
        const res = sub.connect(name, ranges);
        if (res.ok && r() < 0.5) {
          // The real selectors all restore the earlier layout when the consumer that just joined leaves.
          assert.ok(sub.disconnect(res.value.id).ok);
          assert.deepEqual(layout(s.segments()), before);
          continue;
        }
        if (!res.ok) assert.deepEqual(layout(s.segments()), before, 'a refused consumer changes nothing');
      }
      const segs = s.segments();
      if (config.keySharedMode === 'STICKY' || sub.consumers.length > 0) checkCover(s, segs);
      checkSelect(s, segs, r);
    }
  });
}

test('consumer ids: name, then name#k counting every consumer of that name that connected, not refused ones', () => {
  const sub = new KeySharedSubscription({ brokerVersion: '3.0', keySharedMode: 'STICKY', consistentHashing: false, replicaPoints: 100, hashRangeSize: 65536 });
  const ok = (r: ReturnType<typeof sub.connect>) => (r.ok ? r.value.id : `refused: ${r.error}`);
  assert.equal(ok(sub.connect('C', [[0, 9]])), 'C');
  assert.equal(ok(sub.connect('C', [[5, 20]])), 'refused: Range conflict with consumer C');
  assert.equal(ok(sub.connect('C', [[10, 19]])), 'C#2');
  assert.ok(sub.disconnect('C').ok);
  assert.equal(ok(sub.connect('C', [[0, 9]])), 'C#3');
  assert.equal(sub.disconnect('C').ok, false);
  assert.deepEqual(sub.consumers.map((c) => c.id), ['C#2', 'C#3']);
});
