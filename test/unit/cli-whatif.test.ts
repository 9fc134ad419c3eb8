import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cli, cliText, configFile } from './cliRun';
import { murmur2Reference } from './helpers';

const settings = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    { name: 'split4', system: 'pulsar', brokerVersion: '4.0', subscription: { consistentHashing: false, consumers: [{ name: 'C1' }] } },
    { name: 'split3', system: 'pulsar', partitions: 3, brokerVersion: '3.0', subscription: { consistentHashing: false, consumers: [{ name: 'C1' }] } },
    { name: 'ring3', system: 'pulsar', brokerVersion: '3.0', subscription: { consumers: [{ name: 'C1' }, { name: 'C1' }] } },
    { name: 'ring4', system: 'pulsar', subscription: { consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] } },
    {
      name: 'sticky',
      system: 'pulsar',
      brokerVersion: '3.0',
      subscription: { keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 16383]] }] },
    },
  ],
};

describe('key-routing what-if', () => {
  const cfg = configFile(settings);

  for (const [topic, v] of [['split4', '4.0'], ['split3', '3.0']] as const) {
    test(`auto-split ${v}: the C1..C4 scenario as CONTRACT.md prints it`, async () => {
      const r = await cli(['what-if', '--config', cfg, '--topic', topic, '--then', '+C2', '--then', '+C3', '--then', '+C4', '--then', '-C4', '--then', '-C1']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.lines.length, 1, 'one JSON object');
      const out = r.lines[0];
      assert.deepEqual(Object.keys(out), ['steps', 'keys']);
      assert.deepEqual(out.keys, []);
      for (const s of out.steps) assert.deepEqual(Object.keys(s), ['event', 'lost', 'gained', 'movedFraction']);
      const size = v === '4.0' ? 65535 : 65536;
      assert.deepEqual(out.steps, [
        { event: '+C2', lost: { C1: [[0, 32768]] }, gained: { C2: [[0, 32768]] }, movedFraction: (v === '4.0' ? 32768 : 32769) / size },
        { event: '+C3', lost: { C2: [[0, 16384]] }, gained: { C3: [[0, 16384]] }, movedFraction: (v === '4.0' ? 16384 : 16385) / size },
        { event: '+C4', lost: { C1: [[32769, 49152]] }, gained: { C4: [[32769, 49152]] }, movedFraction: 16384 / size },
        { event: '-C4', lost: { C4: [[32769, 49152]] }, gained: { C1: [[32769, 49152]] }, movedFraction: 16384 / size },
        { event: '-C1', lost: { C1: [[32769, 65536]] }, gained: { C2: [[32769, 65536]] }, movedFraction: 32767 / size },
      ]);
    });
  }

  test('Kafka 6 -> 7: the keys whose murmur2 % 7 differs from % 6 move', async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `user-${i}`);
    const r = await cli(['what-if', '--config', cfg, '--topic', 'orders', '--then', 'partitions=7'], keys.join('\n') + '\n');
    assert.equal(r.code, 0, r.stderr);
    const out = r.lines[0];
    let moved = 0;
    out.keys.forEach((k: { key: string; before: { partition: number; hash: number }; after: { partition: number }; moved: boolean }, i: number) => {
      const h = murmur2Reference(new TextEncoder().encode(keys[i]));
      assert.equal(k.key, keys[i]);
      assert.equal(k.before.hash, h);
      assert.deepEqual([k.before.partition, k.after.partition], [(h & 0x7fffffff) % 6, (h & 0x7fffffff) % 7]);
      assert.equal(k.moved, (h & 0x7fffffff) % 7 !== (h & 0x7fffffff) % 6);
      if (k.moved) moved++;
    });
    assert.deepEqual(out.steps, [{ event: 'partitions=7', lost: {}, gained: {}, movedFraction: moved / keys.length }]);
  });

  test('a STICKY range in an event ends at 65536 at most, as in the settings; past it is a usage error', async () => {
    const ok = await cli(['what-if', '--config', cfg, '--topic', 'sticky', '--then', '+E2:64001-65536']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(ok.lines[0].steps[0].gained, { E2: [[64001, 65535]] });
    const past = await cli(['what-if', '--config', cfg, '--topic', 'sticky', '--then', '+E2:64001-99999999999']);
    assert.equal(past.code, 2);
    assert.match(past.stderr, /"\+E2:64001-99999999999": a range ends at 65536 at most/);
  });

  test('hex keys, a rejected event in its step, and a Pulsar partition change', async () => {
    const hex = (s: string) => Buffer.from(s).toString('hex');
    const r = await cli(['what-if', '--config', cfg, '--topic', 'split3', '--key-format', 'hex', '--then', 'partitions=2', '--then', '-nobody', '--then', 'partitions=5'], `${hex('a')}\n${hex('b')}\nzz\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /zz/, 'the bad hex line is reported and skipped');
    const out = r.lines[0];
    assert.equal(out.steps[0].error, 'Number of new partitions must be greater than existing number of partitions');
    assert.match(out.steps[1].error, /nobody/);
    assert.equal(out.steps[2].error, undefined);
    assert.deepEqual(out.keys.map((k: { key: string }) => k.key), [hex('a'), hex('b')]);
    for (const k of out.keys) assert.equal(k.after.consumer, 'C1');
  });

  test('3.0 ring: a same-named consumer rejoining gains every shared point', async () => {
    const r = await cli(['what-if', '--config', cfg, '--topic', 'ring3', '--then', '-C1#2', '--then', '+C1']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines[0].steps[1], { event: '+C1', lost: {}, gained: { 'C1#3': [[0, 2147483647]] }, movedFraction: 1 });
  });

  test('--explain adds moves, notes and the ordering assumption, and changes no contract field', async () => {
    const args = ['what-if', '--config', cfg, '--topic', 'ring4', '--then', '+C4', '--then', '-C1'];
    const keys = 'user-1\nuser-2\nuser-3\nuser-4\n';
    const plain = (await cli(args, keys)).lines[0];
    const r = await cli([...args, '--explain'], keys);
    assert.equal(r.code, 0, r.stderr);
    const ex = r.lines[0];
    assert.deepEqual(Object.keys(ex), ['steps', 'keys', 'orderingGeneration', 'orderingAssumption']);
    assert.equal(ex.orderingGeneration, '4.0');
    assert.match(ex.orderingAssumption, /stands for one unacknowledged message/);
    const stripped = ex.steps.map(({ moves, explain, ...rest }: { moves: unknown; explain: unknown }) => {
      assert.ok(Array.isArray(moves) && Array.isArray(explain));
      return rest;
    });
    assert.deepEqual({ steps: stripped, keys: ex.keys }, plain);
    // The moves cover exactly the lost and gained ranges.
    const fromMoves: Record<string, Array<[number, number]>> = {};
    for (const m of ex.steps[0].moves) for (const f of m.from) (fromMoves[f] ??= []).push(...m.ranges);
    for (const [c, ranges] of Object.entries(fromMoves)) {
      const size = (x: Array<[number, number]>) => x.reduce((a, [s, e]) => a + e - s + 1, 0);
      assert.equal(size(ranges), size(ex.steps[0].lost[c]));
    }
    assert.ok(ex.steps[1].explain.some((l: string) => l.startsWith('C1 leaves') || l.includes('move from C1')));
    const kafka = (await cli(['what-if', '--config', cfg, '--topic', 'orders', '--then', 'partitions=12', '--explain'], 'a\nb\n')).lines[0];
    assert.equal(kafka.steps[0].explain[0], 'The partition count becomes 12.');
    assert.equal(kafka.orderingGeneration, undefined);
  });

  test('usage errors exit 2 with one line naming the option', async () => {
    for (const [args, re] of [
      [['what-if', '--config', cfg, '--topic', 'orders'], /--then is required/],
      [['what-if', '--config', cfg, '--then', '+C'], /--topic is required/],
      [['what-if', '--config', cfg, '--topic', 'nope', '--then', '+C'], /--topic: no topic named "nope"/],
      [['what-if', '--config', cfg, '--topic', 'orders', '--then', 'x=1'], /--then: event "x=1"/],
    ] as const) {
      const r = await cli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal(r.stdout, '');
    }
  });
});

describe('key-routing compare', () => {
  const cfg = configFile(settings);

  test('one change under the four strategies', async () => {
    const r = await cli(['compare', '--config', cfg, '--topic', 'split4', '--then', '+C2']);
    assert.equal(r.code, 0, r.stderr);
    const out = r.lines[0];
    assert.equal(out.topic, 'split4');
    assert.equal(out.event, '+C2');
    assert.deepEqual(out.strategies.map((s: { strategy: string }) => s.strategy), ['autoSplit', 'consistentHashing3', 'consistentHashing4', 'sticky']);
    const a = out.strategies[0];
    assert.deepEqual([a.lost, a.gained, a.movedFraction, a.consumersLosing], [{ C1: [[0, 32768]] }, { C2: [[0, 32768]] }, 32768 / 65535, 1]);
    assert.match(out.strategies[3].note, /manual/);
  });

  test('--format table: a row per strategy with the JSON\'s figures, the refusals grouped by reason', async () => {
    const json = (await cli(['compare', '--config', cfg, '--topic', 'split4', '--then', '+C2'])).lines[0];
    const t = await cliText(['compare', '--config', cfg, '--topic', 'split4', '--then', '+C2', '--format', 'table']);
    assert.equal(t.code, 0, t.stderr);
    const lines = t.stdout.split('\n');
    assert.equal(lines[0], 'split4: +C2 under each strategy');
    assert.deepEqual(lines[1].split(/ {2,}/), ['STRATEGY', 'MOVED', 'LOSING', 'MAX/MEAN BEFORE', 'AFTER', 'UNOWNED BEFORE', 'AFTER', 'ERROR']);
    json.strategies.forEach((s: { label: string; movedFraction: number; consumersLosing: number; before: { maxOverMean: number | null; unowned: number }; after: { maxOverMean: number | null; unowned: number }; error?: string }, i: number) => {
      const cells = lines[2 + i].trim().split(/ {2,}/);
      const ratio = (v: number | null) => (v === null ? '-' : v.toFixed(3));
      const moved = s.error === undefined ? [`${(s.movedFraction * 100).toFixed(2)}%`, String(s.consumersLosing)] : ['-', '-'];
      assert.deepEqual(cells, [s.label, ...moved, ratio(s.before.maxOverMean), ratio(s.after.maxOverMean), `${(s.before.unowned * 100).toFixed(2)}%`, `${(s.after.unowned * 100).toFixed(2)}%`, ...(s.error === undefined ? [] : [s.error])], s.label);
    });
    // STICKY refuses C2 joining without ranges: the row says so instead of a share.
    assert.match(json.strategies[3].error, /Must specify key shared meta/);
    // STICKY without ranges refuses the configured consumers: one line for the reason.
    const sticky = json.strategies[3];
    const refusedLines = lines.filter((l) => l.includes(' refused: '));
    assert.equal(refusedLines.length, new Set(sticky.refused.map((r: { error: string }) => r.error)).size);
    assert.ok(refusedLines[0].includes(sticky.refused.map((r: { name: string }) => r.name).join(', ')));
    assert.ok(lines.some((l) => l.includes(sticky.note)));
  });

  test('exactly one consumer event, on a topic with a subscription', async () => {
    for (const [args, re] of [
      [['--topic', 'split4', '--then', '+C2', '--then', '+C3'], /exactly one event/],
      [['--topic', 'split4', '--then', 'partitions=3'], /not partitions=N/],
      [['--topic', 'orders', '--then', '+C2'], /needs a Pulsar topic with a Key_Shared subscription/],
    ] as const) {
      const r = await cli(['compare', '--config', cfg, ...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, re);
    }
  });

  test('rings past 4,000,000 points are refused, where the subscription itself is no ring (10,000 x 10,000 ran for minutes and 6 GB)', async () => {
    const subscription = (replicaPoints: number) => ({ keySharedMode: 'AUTO_SPLIT', consistentHashing: false, replicaPoints, consumers: Array.from({ length: 10_000 }, (_, i) => ({ name: `c${i}` })) });
    const big = configFile({ 'keyRouting.topics': [{ name: 'persistent://public/default/a', system: 'pulsar', subscription: subscription(10_000) }] });
    const join = await cli(['compare', '--config', big, '--topic', 'a', '--then', '+new']);
    assert.equal(join.code, 2);
    assert.match(join.stderr, /--topic persistent:\/\/public\/default\/a: the consistent-hashing strategies would put 100010000 points on a ring \(replicaPoints 10000 for each of 10001 consumers\); at most 4000000 are supported: lower replicaPoints\n$/);
    const leave = await cli(['compare', '--config', big, '--topic', 'a', '--then', '-c1']);
    assert.match(leave.stderr, /would put 100000000 points .* each of 10000 consumers/);
    // 10,000 consumers of 400 points are 4,000,000: the one joining is counted too.
    const edge = configFile({ 'keyRouting.topics': [{ name: 'persistent://public/default/a', system: 'pulsar', subscription: subscription(400) }] });
    assert.match((await cli(['compare', '--config', edge, '--topic', 'a', '--then', '+new'])).stderr, /would put 4000400 points on a ring/);
  });
});

describe('key-routing ordering', () => {
  const dir = dirname(configFile({}));
  const write = (name: string, v: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, JSON.stringify(v));
    return p;
  };
  const scenario = {
    subscription: { consistentHashing: false },
    consumers: [{ name: 'C1' }],
    messages: [
      { id: 'm0', key: 'x' },
      { id: 'm1', key: 'x' },
    ],
    pending: { C1: ['m0'] },
    event: '+C2',
    steps: [{ ack: ['m0'] }],
  };

  test('every generation without one given; one with --generation', async () => {
    const all = await cli(['ordering', '--input', write('s.json', scenario)]);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(Object.keys(all.lines[0]), ['3.0', '3.1', '4.0']);
    for (const g of ['3.0', '3.1', '4.0']) {
      assert.deepEqual(Object.keys(all.lines[0][g]), ['initial', 'steps']);
      assert.equal(all.lines[0][g].initial.generation, g);
      assert.equal(all.lines[0][g].steps.length, 1);
    }
    const one = await cli(['ordering', '--input', write('s.json', scenario), '--generation', '3.1']);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(one.lines[0].initial.generation, '3.1');
    assert.ok(one.lines[0].initial.explanation.length > 0);
  });

  test('a bad scenario names the field', async () => {
    const r = await cli(['ordering', '--input', write('bad.json', { ...scenario, pending: { C7: ['m0'] } })]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /pending\.C7: no connected consumer has that id/);
    const g = await cli(['ordering', '--input', write('s.json', scenario), '--generation', '2.0']);
    assert.equal(g.code, 2);
    assert.match(g.stderr, /--generation must be one of 3\.0, 3\.1, 4\.0/);
    const missing = await cli(['ordering', '--input', join(dir, 'nope.json')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--input .*nope\.json: cannot read it/);
  });
});
