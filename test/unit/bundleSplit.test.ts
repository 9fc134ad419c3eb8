import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import {
  flowOrQpsEquallyDivide,
  rangeEquallyDivide,
  specifiedPositionsDivide,
  splitBoundaries,
  splitRefusal,
  SplitError,
  topicCountEquallyDivide,
  type TopicLoad,
} from '../../src/engine/pulsar/bundleSplit';
import { randInt, rng } from './helpers';

const MB = 1024 * 1024;
const load = (hash: number, rate: number, mbytes: number, inShare = 1): TopicLoad => ({
  hash,
  msgRateIn: rate * inShare,
  msgRateOut: rate * (1 - inShare),
  msgThroughputIn: mbytes * MB * inShare,
  msgThroughputOut: mbytes * MB * (1 - inShare),
});

/** PIP-169's example: t1..t6 at 10..110, rates 100..600 msg/s, throughputs 10..60 MB/s. */
const pip169 = (inShare = 1): TopicLoad[] =>
  [10, 20, 80, 90, 100, 110].map((h, i) => load(h, 100 * (i + 1), 10 * (i + 1), inShare));
const pip169Limits = { loadBalancerNamespaceBundleMaxMsgRate: 1100, loadBalancerNamespaceBundleMaxBandwidthMbytes: 110, flowOrQpsDifferenceThresholdPercentage: 10 };

describe('range_equally_divide', () => {
  test('lower + (upper - lower) / 2, truncated', () => {
    assert.deepEqual(rangeEquallyDivide({ lower: 0, upper: 0x40000000 }), [0x20000000]);
    assert.deepEqual(rangeEquallyDivide({ lower: 0xc0000000, upper: 0xffffffff }), [0xdfffffff]);
    assert.deepEqual(rangeEquallyDivide({ lower: 10, upper: 13 }), [11]);
    assert.deepEqual(rangeEquallyDivide({ lower: 0, upper: 0xffffffff }), [0x7fffffff]);
  });

  test('property: strictly inside any bundle at least two hashes wide', () => {
    const r = rng(5);
    for (let i = 0; i < 2000; i++) {
      const lower = randInt(r, 0, 0xfffffffd);
      const upper = randInt(r, lower + 2, 0xffffffff);
      const [p] = rangeEquallyDivide({ lower, upper });
      assert.ok(p > lower && p < upper, `${lower}_${upper} -> ${p}`);
    }
  });
});

describe('topic_count_equally_divide', () => {
  test('known answers: the midpoint between the two middle hashes', () => {
    assert.deepEqual(topicCountEquallyDivide([110, 10, 90, 20, 100, 80]), [85]);
    assert.deepEqual(topicCountEquallyDivide([10, 20]), [15]);
    // Odd count: start = h[n/2 - 1], end = h[n/2].
    assert.deepEqual(topicCountEquallyDivide([5, 1, 4, 2, 3]), [2]);
    assert.deepEqual(topicCountEquallyDivide([0xfffffff0, 0xffffffff]), [0xfffffff7]);
  });

  test('no split with at most one owned topic', () => {
    assert.equal(topicCountEquallyDivide([]), null);
    assert.equal(topicCountEquallyDivide([42]), null);
  });

  test('property: with distinct middle hashes, exactly n/2 topics hash at or below the split', () => {
    const r = rng(9);
    for (let i = 0; i < 1000; i++) {
      const hashes = Array.from({ length: randInt(r, 2, 40) }, () => randInt(r, 0, 0xffffffff));
      const sorted = [...hashes].sort((a, b) => a - b);
      const half = Math.floor(sorted.length / 2);
      const [p] = topicCountEquallyDivide(hashes)!;
      assert.ok(p >= sorted[half - 1] && p <= sorted[half]);
      if (sorted[half - 1] < sorted[half]) assert.equal(sorted.filter((h) => h <= p).length, half);
    }
  });
});

describe('specified_positions_divide', () => {
  const bundle = { lower: 0x40000000, upper: 0x80000000 };

  test('throws the broker\'s error for no positions, before looking at topics', () => {
    for (const positions of [[], null, undefined]) {
      assert.throws(() => specifiedPositionsDivide(bundle, 0, positions), (e: unknown) => e instanceof SplitError && (e as Error).message === "SplitBoundaries can't be empty");
    }
  });

  test('sorted, kept strictly inside the bundle, duplicates kept; null when none is inside or <= 1 topic', () => {
    assert.deepEqual(specifiedPositionsDivide(bundle, 2, [0x70000000, 0x50000000, 0x40000000, 0x80000000, 0x50000000, 5]), [0x50000000, 0x50000000, 0x70000000]);
    assert.equal(specifiedPositionsDivide(bundle, 2, [0x40000000, 0x80000000]), null);
    assert.equal(specifiedPositionsDivide(bundle, 1, [0x50000000]), null);
    // The last bundle's upper end is inclusive for topics, but a split there is still refused.
    assert.equal(specifiedPositionsDivide({ lower: 0xc0000000, upper: 0xffffffff }, 3, [0xffffffff]), null);
  });

  test('property: every position returned lies strictly inside the bundle, ascending, from the input', () => {
    const r = rng(13);
    for (let i = 0; i < 1000; i++) {
      const lower = randInt(r, 0, 0xfffffff0);
      const upper = randInt(r, lower + 1, 0xffffffff);
      const positions = Array.from({ length: randInt(r, 1, 10) }, () => randInt(r, Math.max(0, lower - 100), Math.min(0xffffffff, upper + 100)));
      const out = specifiedPositionsDivide({ lower, upper }, 2, positions);
      const inside = positions.filter((p) => p > lower && p < upper);
      if (inside.length === 0) {
        assert.equal(out, null);
        continue;
      }
      assert.ok(out);
      assert.equal(out.length, inside.length);
      for (let k = 0; k < out.length; k++) {
        assert.ok(out[k] > lower && out[k] < upper);
        if (k > 0) assert.ok(out[k] >= out[k - 1]);
      }
      assert.deepEqual([...out].sort((a, b) => a - b), [...inside].sort((a, b) => a - b));
      assert.equal(splitRefusal({ lower, upper }, out), null);
    }
  });
});

describe('flow_or_qps_equally_divide (PIP-169)', () => {
  test('the PIP-169 example splits at 96 (90 + 5 + 1), not at 95 as the proposal says', () => {
    assert.deepEqual(flowOrQpsEquallyDivide(pip169(), pip169Limits), [96]);
    // In and out are summed: the same figures split between in and out give the same answer.
    assert.deepEqual(flowOrQpsEquallyDivide(pip169(0.5), pip169Limits), [96]);
    assert.deepEqual(flowOrQpsEquallyDivide(pip169(0), pip169Limits), [96]);
  });

  test('throughput alone triggers a split where rates are low', () => {
    const topics = [10, 20, 80, 90, 100, 110].map((h, i) => load(h, 1, 10 * (i + 1)));
    assert.deepEqual(flowOrQpsEquallyDivide(topics, pip169Limits), [96]);
  });

  test('no split below the threshold: the bundle must exceed max * (1 + p/100) in rate or throughput', () => {
    // Rates sum to 1200 < 1100 * 1.1 = 1210 and throughput to 120 MB < 121 MB.
    const topics = [load(10, 600, 60), load(20, 600, 60)];
    assert.equal(flowOrQpsEquallyDivide(topics, pip169Limits), null);
    // With threshold 0 the same load splits, between the two topics.
    assert.deepEqual(flowOrQpsEquallyDivide(topics, { ...pip169Limits, flowOrQpsDifferenceThresholdPercentage: 0 }), [16]);
  });

  test('no split with fewer than two loaded topics; idle topics are skipped', () => {
    assert.equal(flowOrQpsEquallyDivide([load(10, 5000, 500)], pip169Limits), null);
    assert.equal(flowOrQpsEquallyDivide([load(10, 5000, 500), load(20, 0, 0)], pip169Limits), null);
    // An idle topic between two busy ones takes no part in the walk.
    assert.deepEqual(flowOrQpsEquallyDivide([load(10, 1000, 1), load(50, 0, 0), load(90, 1000, 1)], pip169Limits), [51]);
  });

  test('quirk: topics sharing a hash share the later topic\'s figures', () => {
    // The bundle sums every topic (1250 msg/s >= 1210), but both entries at hash 20 walk with the
    // later topic's 1100 msg/s: 100 + 1100 > 1100 splits at 10 + 5 + 1, then 1100 + 1100 at 20 + 0 + 1.
    // With each topic's own figures it would be 100 + 50, then + 1100: one split, at 21.
    const topics = [load(10, 100, 1), load(20, 50, 1), load(20, 1100, 1)];
    assert.deepEqual(flowOrQpsEquallyDivide(topics, pip169Limits), [16, 21]);
  });

  test('the upstream test\'s shape: 241 partitions, every part stays under the limits', () => {
    const topics: TopicLoad[] = [];
    for (let i = 1; i < 13; i++) {
      for (let j = 0; j < 20; j++) {
        const name = `persistent://test-tenant1/test-namespace1/test${i}-partition-${j}`;
        topics.push({ hash: zlibCrc32(name), msgRateIn: i < 6 ? 24.5 : 25.5, msgRateOut: 25, msgThroughputIn: 1000, msgThroughputOut: 1000 });
      }
    }
    topics.push({ hash: zlibCrc32('persistent://test-tenant1/test-namespace1/test695-partition-0'), msgRateIn: 25, msgRateOut: 35, msgThroughputIn: 1000, msgThroughputOut: 1000 });
    const limits = { loadBalancerNamespaceBundleMaxMsgRate: 1010, loadBalancerNamespaceBundleMaxBandwidthMbytes: 100, flowOrQpsDifferenceThresholdPercentage: 10 };
    const positions = flowOrQpsEquallyDivide(topics, limits)!;
    assert.ok(positions.length > 5);
    const hashes = topics.map((t) => t.hash).sort((a, b) => a - b);
    const rate = new Map(topics.map((t) => [t.hash, t.msgRateIn + t.msgRateOut]));
    let i = 0;
    for (const p of positions) {
      let sum = 0;
      while (hashes[i] < p) sum += rate.get(hashes[i++])!;
      assert.ok(sum < 1010, `part ending at ${p} has ${sum} msg/s`);
    }
  });

  test('property: parts are maximal runs within the limits, cut between neighbouring hashes', () => {
    const r = rng(21);
    for (let iter = 0; iter < 300; iter++) {
      const n = randInt(r, 2, 30);
      const hs = new Set<number>();
      while (hs.size < n) hs.add(randInt(r, 0, 0xffffffff));
      const topics = [...hs].map((h) => load(h, randInt(r, 1, 500), randInt(r, 0, 50)));
      const limits = { loadBalancerNamespaceBundleMaxMsgRate: randInt(r, 200, 2000), loadBalancerNamespaceBundleMaxBandwidthMbytes: randInt(r, 20, 200), flowOrQpsDifferenceThresholdPercentage: randInt(r, 0, 30) };
      const out = flowOrQpsEquallyDivide(topics, limits);
      const totalRate = topics.reduce((s, t) => s + t.msgRateIn, 0);
      const totalBytes = topics.reduce((s, t) => s + t.msgThroughputIn, 0);
      const p = limits.flowOrQpsDifferenceThresholdPercentage / 100;
      const over = totalRate >= limits.loadBalancerNamespaceBundleMaxMsgRate * (1 + p) || totalBytes >= limits.loadBalancerNamespaceBundleMaxBandwidthMbytes * MB * (1 + p);
      assert.equal(out !== null, over);
      if (!out) continue;
      const sorted = [...topics].sort((a, b) => a.hash - b.hash);
      // Cut the sorted topics at the positions: each cut lies in (prev, next] of two neighbours.
      const parts: TopicLoad[][] = [[]];
      let k = 0;
      for (let i = 0; i < sorted.length; i++) {
        if (k < out.length && sorted[i].hash >= out[k]) {
          assert.ok(i > 0 && out[k] > sorted[i - 1].hash && out[k] <= sorted[i].hash);
          parts.push([]);
          k++;
        }
        parts[parts.length - 1].push(sorted[i]);
      }
      assert.equal(k, out.length);
      const maxRate = limits.loadBalancerNamespaceBundleMaxMsgRate;
      const maxBytes = limits.loadBalancerNamespaceBundleMaxBandwidthMbytes * MB;
      for (let j = 0; j < parts.length; j++) {
        const rate = parts[j].reduce((s, t) => s + t.msgRateIn, 0);
        const bytes = parts[j].reduce((s, t) => s + t.msgThroughputIn, 0);
        if (parts[j].length > 1) assert.ok(rate <= maxRate && bytes <= maxBytes);
        if (j + 1 < parts.length) {
          const next = parts[j + 1][0];
          assert.ok(rate + next.msgRateIn > maxRate || bytes + next.msgThroughputIn > maxBytes);
        }
      }
    }
  });
});

describe('splitBoundaries dispatch and the factory\'s refusal', () => {
  test('each algorithm by name', () => {
    const bundle = { lower: 0, upper: 0x40000000 };
    const topics = pip169();
    assert.deepEqual(splitBoundaries('range_equally_divide', { bundle, topics }), [0x20000000]);
    assert.deepEqual(splitBoundaries('topic_count_equally_divide', { bundle, topics }), [85]);
    assert.deepEqual(splitBoundaries('specified_positions_divide', { bundle, topics, positions: [7] }), [7]);
    assert.deepEqual(splitBoundaries('flow_or_qps_equally_divide', { bundle, topics, limits: pip169Limits }), [96]);
    // Broker defaults (30000 msg/s, 100 MB/s): 210 MB/s in all is hot; 10+20+30+40 = 100 MB/s is not
    // above 100, + 50 is (split at 96), and 50 + 60 is again (split at 100 + 5 + 1).
    assert.deepEqual(splitBoundaries('flow_or_qps_equally_divide', { bundle, topics }), [96, 106]);
    // Scaled down tenfold in throughput, the example is cool at the defaults.
    const cool = topics.map((t) => ({ ...t, msgThroughputIn: t.msgThroughputIn / 10 }));
    assert.equal(splitBoundaries('flow_or_qps_equally_divide', { bundle, topics: cool }), null);
  });

  test('splitBundles refuses a one-hash bundle and positions outside it', () => {
    assert.match(splitRefusal({ lower: 16, upper: 17 }, [16])!, /can't be split further/);
    assert.match(splitRefusal({ lower: 0, upper: 100 }, [0])!, /strictly inside/);
    assert.equal(splitRefusal({ lower: 0, upper: 100 }, [1, 99]), null);
  });
});
