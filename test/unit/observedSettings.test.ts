/**
 * The settings' `observed` / `observedPartitions` blocks: problems reported at their setting path
 * (and the topic kept, routing from its configured consumers), and a ring whose rebuild differs
 * from the report said so in a note, while routes keep reading the report.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Problem } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { parseEvent } from '../../src/engine/events';
import { runWhatIf } from '../../src/engine/whatIf';
import { replay, reportedRanges } from './brokerReports';
import { randInt, rng } from './helpers';

const P = 'keyRouting.topics[0].subscription';

function topicWith(subscription: Record<string, unknown>, extra: Record<string, unknown> = {}): { problems: Problem[]; state: PulsarTopicState | undefined } {
  const { settings, problems } = parseSettings({ 'keyRouting.topics': [{ name: 't', system: 'pulsar', ...extra, subscription }] });
  const state = new Topology(settings, []).topics[0] as PulsarTopicState | undefined;
  return { problems, state };
}

const autoSplit = (observed: unknown, consumers = ['C1', 'C2', 'C3']) => ({ consistentHashing: false, consumers: consumers.map((name) => ({ name })), observed });

describe('observed blocks: problems at their setting paths', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string, RegExp]> = [
    [
      'an AUTO_SPLIT overlap',
      autoSplit({ consumers: [{ name: 'C1', ranges: [[32769, 65536]] }, { name: 'C2', ranges: [[16384, 32768]] }, { name: 'C3', ranges: [[0, 16384]] }] }),
      {},
      `${P}.observed.consumers[1].ranges[0]`,
      /^\[16384, 32768\] overlaps \[0, 16384\] of consumer C3 \(2\), but an AUTO_SPLIT hash-range selector always covers 0\.\.65536 once$/,
    ],
    [
      'an AUTO_SPLIT top short of the bookkeeping key',
      autoSplit({ consumers: [{ name: 'C1', ranges: [[32769, 65535]] }, { name: 'C2', ranges: [[16385, 32768]] }, { name: 'C3', ranges: [[0, 16384]] }] }),
      {},
      `${P}.observed.consumers[0].ranges[0]`,
      /^the ranges stop at 65535, leaving \[65536, 65536\] to nobody/,
    ],
    [
      'names out of order',
      autoSplit({ consumers: [{ name: 'C2', ranges: [[0, 65536]] }] }, ['C1']),
      {},
      `${P}.observed.consumers`,
      /^must name the subscription's consumers in the same order \(consumers\[0\] is "C1", observed\.consumers\[0\] is "C2"\)/,
    ],
    [
      'draining hashes from a 3.x broker',
      autoSplit({ consumers: [{ name: 'C1', ranges: [[0, 65536]], drainingHashes: [{ hash: 5, unackMsgs: 1, blockedAttempts: 0 }] }] }, ['C1']),
      { brokerVersion: '3.0' },
      `${P}.observed.consumers[0].drainingHashes[0]`,
      /^draining hashes come only from 4\.x brokers/,
    ],
    [
      'one hash draining at two consumers',
      autoSplit(
        {
          consumers: [
            { name: 'C1', ranges: [[32769, 65536]], drainingHashes: [{ hash: 7, unackMsgs: 1 }] },
            { name: 'C2', ranges: [[0, 32768]], drainingHashes: [{ hash: 7, unackMsgs: 2 }] },
          ],
        },
        ['C1', 'C2'],
      ),
      {},
      `${P}.observed.consumers[1].drainingHashes[0]`,
      /^hash 7 is also draining at consumer C1 \(0\); the broker keeps one consumer per draining hash$/,
    ],
    ['a bad time', autoSplit({ at: 'yesterday', consumers: [{ name: 'C1', ranges: [[0, 65536]] }] }, ['C1']), {}, `${P}.observed.at`, /^must be a date and time/],
    [
      'both blocks',
      { ...autoSplit({ consumers: [] }, []), observedPartitions: [] },
      { partitions: 2 },
      P,
      /^give "observed" .* or "observedPartitions" .*, not both$/,
    ],
    ['a partition short', { ...autoSplit(undefined, []), observedPartitions: [{ consumers: [] }] }, { partitions: 2 }, `${P}.observedPartitions`, /^has 1 entries; the topic has 2 partitions/],
    [
      'a 4.x ring with a hole',
      { consumers: [{ name: 'a' }, { name: 'b' }], observed: { consumers: [{ name: 'a', ranges: [[1, 100]] }, { name: 'b', ranges: [[102, 65535]] }] } },
      {},
      `${P}.observed.consumers[1].ranges[0]`,
      /^leaves \[101, 101\] to nobody before \[102, 65535\], but a 4\.x ring gives every hash from 1 to 65535 to a consumer$/,
    ],
    [
      'STICKY ranges that overlap',
      { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 10]] }, { name: 'E2', ranges: [[5, 20]] }], observed: { consumers: [{ name: 'E1', ranges: [[0, 10]] }, { name: 'E2', ranges: [[5, 20]] }] } },
      {},
      `${P}.observed.consumers[1].ranges[0]`,
      /^\[5, 20\] overlaps \[0, 10\] of consumer E1 \(0\); the broker refuses a STICKY consumer whose ranges overlap another's, so no broker reported this$/,
    ],
    [
      // Partitions reporting alike are checked once, but only where the layout had no problem.
      'the same hole in the second of two partitions reporting alike',
      { consumers: [{ name: 'a' }, { name: 'b' }], observedPartitions: [0, 1].map(() => ({ consumers: [{ name: 'a', ranges: [[1, 100]] }, { name: 'b', ranges: [[102, 65535]] }] })) },
      { partitions: 2 },
      `${P}.observedPartitions[1].consumers[1].ranges[0]`,
      /^leaves \[101, 101\] to nobody before \[102, 65535\]/,
    ],
    [
      'the ranges of the partition before, a hash draining at two consumers',
      {
        ...autoSplit(undefined, ['C1', 'C2']),
        observedPartitions: [
          { consumers: [{ name: 'C1', ranges: [[32769, 65536]] }, { name: 'C2', ranges: [[0, 32768]] }] },
          { consumers: [{ name: 'C1', ranges: [[32769, 65536]], drainingHashes: [{ hash: 7, unackMsgs: 1 }] }, { name: 'C2', ranges: [[0, 32768]], drainingHashes: [{ hash: 7, unackMsgs: 2 }] }] },
        ],
      },
      { partitions: 2 },
      `${P}.observedPartitions[1].consumers[1].drainingHashes[0]`,
      /^hash 7 is also draining at consumer C1 \(0\)/,
    ],
  ];
  for (const [what, sub, extra, path, message] of cases) {
    test(what, () => {
      const { problems, state } = topicWith(sub, extra);
      const p = problems.find((x) => x.path === path);
      assert.ok(p, `no problem at ${path}: ${JSON.stringify(problems)}`);
      assert.match(p.message, message);
      // The entry is invalid, as with any other problem (the extension keeps its last good one).
      assert.equal(state, undefined);
    });
  }
});

describe('observed rings', () => {
  test('a 4.x report with more points than replicaPoints says: the rebuilt ring differs, and where', () => {
    const history = replay({ brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 100, hashRangeSize: 65536 }, ['+a', '+b', '+c']);
    const ranges = reportedRanges(history.selector, history.consumers);
    const observed = { consumers: history.consumers.map((c) => ({ name: c.name, ranges: ranges.get(c) })) };
    const { problems, state: s } = topicWith({ replicaPoints: 50, consumers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], observed });
    assert.deepEqual(problems, []);
    const state = s!;
    const note = state.observed!.note()!;
    assert.match(note, /the ranges of a do not end at the points of any name index with replicaPoints 50/);
    assert.match(note, /the ring rebuilt from the observed consumers \(a, b, c, in connectedSince order\) differs from the reported one at \d+ runs \(/);
    assert.match(note, /replicaPoints \(50 here\) matching the broker's subscriptionKeySharedConsistentHashingReplicaPoints/);
    // Routes read the report, whatever the rebuild says.
    const r = rng(5);
    for (let i = 0; i < 500; i++) {
      const h = randInt(r, 1, 65535);
      assert.equal(state.selectorFor(null).select(h)!.id, history.selector.select(h)!.id);
    }
    // The what-if carries the note.
    const w = runWhatIf(state.clone(), [parseEvent('-b')], []);
    assert.equal(w.note, note);
    // Each listed difference is one the two layouts really have.
    const model = state.subscription!.selector;
    for (const d of state.observed!.groups.get(0)!.modelComparison.differences) {
      assert.deepEqual(d.reported, [history.selector.select(d.start)!.id]);
      assert.deepEqual(d.other, [model.select(d.start)!.id]);
    }
  });

  test('a report per partition is restored a partition at a time, and a change or a clone first restores every one from its report', () => {
    const cfg = { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 20, hashRangeSize: 65536 } as const;
    // Each partition's report: the ranges its own connection history left (a, b, c live in all).
    const histories = [['+a', '+b', '+c'], ['+c', '+a', '+b'], ['+b', '+x', '+a', '+c', '-x']];
    const observedPartitions = histories.map((h) => {
      const sub = replay(cfg, h);
      const ranges = reportedRanges(sub.selector, sub.consumers);
      return { consumers: ['a', 'b', 'c'].map((name) => ({ name, ranges: ranges.get(sub.consumers.find((c) => c.name === name)!) })) };
    });
    const fresh = () => {
      const { problems, state } = topicWith({ replicaPoints: 20, consumers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], observedPartitions }, { partitions: 3 });
      assert.deepEqual(problems, []);
      return state!;
    };
    const layouts = (s: PulsarTopicState) => [0, 1, 2].map((g) => s.subscription!.selectorAt(g).segments().map((x) => [x.start, x.end, x.consumers.map((c) => c.id).join()]));
    const eager = fresh();
    let parts = 0;
    while (eager.observed!.groups.restoreNext()) parts++;
    assert.equal(parts, 6, 'a model, then the rest, of each partition');
    let restored = 0;
    while (eager.subscription!.restoreNext()) restored++;
    assert.equal(restored, 3, 'a selector per partition');
    const before = layouts(eager);
    assert.deepEqual(
      before.map((l) => l.length),
      histories.map((h) => replay(cfg, h).selector.segments().length),
    );
    assert.ok(eager.apply(parseEvent('+d')).ok);
    const after = layouts(eager);
    assert.notDeepEqual(after, before);
    // A join before any partition was read restores them all from their reports first.
    const joinedFirst = fresh();
    assert.ok(joinedFirst.apply(parseEvent('+d')).ok);
    assert.equal(joinedFirst.subscription!.restoreNext(), false);
    assert.deepEqual(layouts(joinedFirst), after);
    // The last partition read first; a clone of one none was read of, changed: the original
    // keeps the reports.
    const lastFirst = fresh();
    assert.deepEqual(lastFirst.subscription!.selectorAt(2).segments().length, before[2].length);
    assert.deepEqual(layouts(lastFirst), before);
    const unread = fresh();
    const copy = unread.clone();
    assert.ok(copy.apply(parseEvent('+d')).ok);
    assert.deepEqual(layouts(copy), after);
    assert.deepEqual(layouts(unread), before);
    // Until a change, each partition routes by its own report, whichever is read first.
    const reports = fresh();
    for (const p of [2, 0, 1]) {
      const real = replay(cfg, histories[p]).selector;
      for (let h = 1; h <= 65535; h += 97) assert.equal(reports.selectorFor(p).select(h)!.id, real.select(h)!.id, `partition ${p}, hash ${h}`);
    }
  });

  test("a join between a partition's model and the rest of its restore leaves the report compared with the restored model", () => {
    // Reported with 20 points a consumer, configured with 10: the rebuilt ring differs, and the
    // note says where, against the model before any event.
    const cfg = { brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 20, hashRangeSize: 65536 } as const;
    const observedPartitions = [['+a', '+b', '+c'], ['+c', '+b', '+a']].map((h) => {
      const sub = replay(cfg, h);
      const ranges = reportedRanges(sub.selector, sub.consumers);
      return { consumers: ['a', 'b', 'c'].map((name) => ({ name, ranges: ranges.get(sub.consumers.find((c) => c.name === name)!) })) };
    });
    const fresh = () => topicWith({ replicaPoints: 10, consumers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], observedPartitions }, { partitions: 2 }).state!;
    const note = fresh().observed!.note();
    assert.match(note ?? '', /partition 0: the ring rebuilt from the observed consumers .* differs from the reported one at .*partition 1: /);
    for (let done = 1; done <= 3; done++) {
      const t = fresh();
      for (let i = 0; i < done; i++) assert.ok(t.observed!.groups.restoreNext());
      assert.ok(t.apply(parseEvent('+d')).ok);
      assert.equal(t.observed!.note(), note, `after ${done} parts`);
    }
  });

  test('routes after an event are predictions: no observed mark, the draining mark kept while its consumer stays', () => {
    const { state: s } = topicWith(
      autoSplit(
        {
          at: '2026-12-01T10:00:00Z',
          consumers: [
            { name: 'C1', ranges: [[32769, 65536]], drainingHashes: [{ hash: 100, unackMsgs: 4, blockedAttempts: 2 }] },
            { name: 'C2', ranges: [[0, 32768]] },
          ],
        },
        ['C1', 'C2'],
      ),
    );
    const state = s!;
    const info = state.observed!.info();
    assert.equal(info[0].at, '2026-12-01T10:00:00Z');
    assert.deepEqual(info[0].partitions, null);
    // A key whose 4.x hash is 100 (found by search): C2's now, draining at C1.
    let key = '';
    for (let i = 0; ; i++) {
      key = `k${i}`;
      if (state.route(stringKey(key)).stickyKeyHash === 100) break;
    }
    assert.deepEqual(state.route(stringKey(key)), {
      topic: 't',
      system: 'pulsar',
      partition: null,
      stickyKeyHash: 100,
      consumer: 'C2',
      range: [0, 32768],
      observed: true,
      draining: { consumer: 'C1', unackMsgs: 4 },
    });
    // C3 splits C2's range (measured from 0 it is the biggest) and takes [0, 16384]: a prediction,
    // and C1 still holds the hash's messages.
    assert.ok(state.apply(parseEvent('+C3')).ok);
    assert.equal(state.observed!.current, false);
    const after = state.route(stringKey(key));
    assert.equal(after.consumer, 'C3');
    assert.equal(after.observed, undefined);
    assert.deepEqual(after.draining, { consumer: 'C1', unackMsgs: 4 });
    assert.ok(state.apply(parseEvent('-C1')).ok);
    assert.equal(state.route(stringKey(key)).draining, undefined);
  });
});
