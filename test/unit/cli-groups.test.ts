import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliText, configFile } from './cliRun';
import { kafkaPartition } from '../../src/engine/kafka/partitioner';

const settings = (groups: unknown[], extraTopics: unknown[] = []) => ({
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6, topicId: '3NHVvglWJqhiTMpQ344zdg' },
    { name: 'payments', system: 'kafka', partitions: 4, topicId: 'GgSK5_X1Pp6B_v5u4SBqxg' },
    { name: 'persistent://public/default/p', system: 'pulsar', subscription: { consistentHashing: false, consumers: [{ name: 'C1' }] } },
    ...extraTopics,
  ],
  'keyRouting.kafkaGroups': groups,
});
const billing = { name: 'billing', assignor: 'range', topics: ['orders', 'payments'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }] };
const keys = 'user-1\nuser-2\nuser-3\nuser-4\nuser-5\nuser-6\n';

describe('key-routing route: Kafka lines name the member of each group', () => {
  const cfg = configFile(settings([billing, { name: 'audit', assignor: 'roundrobin', topics: ['orders'], members: [{ id: 'a1' }, { id: 'a2' }] }]));

  test('"groups": {"billing": ..., "audit": ...} after the Kafka fields; Pulsar lines unchanged', async () => {
    const r = await cli(['route', '--config', cfg], keys);
    assert.equal(r.code, 0, r.stderr);
    for (const l of r.lines.filter((x) => x.system === 'kafka')) {
      assert.deepEqual(Object.keys(l), ['key', 'topic', 'system', 'partition', 'hash', 'groups']);
      const p = kafkaPartition(l.key, l.topic === 'orders' ? 6 : 4);
      assert.equal(l.partition, p);
      // Range: orders 0-1 m1, 2-3 m2, 4-5 m3; payments 0-1 m1, 2 m2, 3 m3. Round robin: a1 even, a2 odd.
      const range = l.topic === 'orders' ? ['m1', 'm1', 'm2', 'm2', 'm3', 'm3'][p] : ['m1', 'm1', 'm2', 'm3'][p];
      assert.deepEqual(l.groups, l.topic === 'orders' ? { billing: range, audit: p % 2 === 0 ? 'a1' : 'a2' } : { billing: range });
    }
    const pulsar = r.lines.find((x) => x.system === 'pulsar');
    assert.equal(pulsar.groups, undefined);
  });

  test('--then events move the groups: +m4 joins, -a1 leaves; a member nobody has is reported', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'orders', '--then', '+m4', '--then', '-a1', '--then', '-zz'], 'user-1\n');
    assert.equal(r.code, 0, r.stderr);
    // user-1 is on orders-2. Range over m1..m4 (6 partitions): m1 0-1, m2 2-3, m3 4, m4 5. Audit: a2 alone (and m4 joined it too).
    assert.deepEqual(r.lines[0].groups, { billing: 'm2', audit: 'a2' });
    assert.match(r.stderr, /--then -zz: no group of orders has a member zz \(groups: billing, audit\)/);
    assert.doesNotMatch(r.stderr, /Key_Shared/);
  });

  test('observed owners: the member from the report, and "observed": true', async () => {
    const observed = { owners: { orders: ['m3', 'm3', 'm3', 'm3', 'm3', 'm3'], payments: ['m1', 'm1', null, 'm2'] } };
    const c = configFile(settings([{ ...billing, assignor: 'sticky', observed }]));
    const r = await cli(['route', '--config', c], 'user-1\n');
    const p = kafkaPartition('user-1', 4);
    assert.deepEqual(r.lines.map((l) => [l.topic, l.groups?.billing, l.observed]), [
      ['orders', 'm3', true],
      ['payments', observed.owners.payments[p], true],
      ['persistent://public/default/p', undefined, undefined],
    ]);
  });
});

describe('key-routing assignment', () => {
  test('{"group", "assignor", "owners"} after the events', async () => {
    const cfg = configFile(settings([{ ...billing, assignor: 'cooperative-sticky' }]));
    const r = await cli(['assignment', '--config', cfg, '--group', 'billing', '--then', '+m4']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, [
      { group: 'billing', assignor: 'cooperative-sticky', owners: { orders: ['m1', 'm2', 'm3', 'm1', 'm2', 'm4'], payments: ['m1', 'm2', 'm3', 'm4'] } },
    ]);
  });
  test('partitions=N with --topic; a refused event is one line on stderr and the run goes on', async () => {
    const cfg = configFile(settings([billing]));
    const r = await cli(['assignment', '--config', cfg, '--group', 'billing', '--topic', 'payments', '--then', 'partitions=6', '--then', '-nobody', '--then', '+m4:payments']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^key-routing: --then -nobody: group billing: group billing has no member nobody\n$/);
    assert.deepEqual(r.lines[0].owners, { orders: ['m1', 'm1', 'm2', 'm2', 'm3', 'm3'], payments: ['m1', 'm1', 'm2', 'm2', 'm3', 'm4'] });
  });
  test('without events, the observed owners, marked observed', async () => {
    const owners = { orders: ['m2', 'm2', 'm2', 'm1', null, 'm3'], payments: ['m1', 'm1', 'm1', 'm1'] };
    const r = await cli(['assignment', '--config', configFile(settings([{ ...billing, observed: { at: 'now', owners } }])), '--group', 'billing']);
    assert.deepEqual(r.lines, [{ group: 'billing', assignor: 'range', owners, observed: true }]);
  });
  test('uniform without topic ids: a note', async () => {
    const c = configFile({ ...settings([]), 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 3 }], 'keyRouting.kafkaGroups': [{ name: 'g', assignor: 'uniform', topics: ['orders'], members: ['m1'] }] });
    const r = await cli(['assignment', '--config', c, '--group', 'g']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines[0].owners, { orders: ['m1', 'm1', 'm1'] });
    assert.match(r.lines[0].note, /depends on topic ids, which the settings do not give for orders/);
  });
  test('usage errors exit 2 with one line', async () => {
    const cfg = configFile(settings([billing]));
    for (const [args, msg] of [
      [['assignment', '--config', cfg], /--group is required/],
      [['assignment', '--config', cfg, '--group', 'nope'], /--group: no group named "nope" in .* \(groups: billing\)/],
      [['assignment', '--config', cfg, '--group', 'billing', '--then', 'partitions=9'], /--then: event "partitions=9": partitions=N needs the topic it changes \(give it with --topic\)/],
      [['assignment', '--config', cfg, '--group', 'billing', '--topic', 'persistent://public/default/p'], /--topic: group billing does not subscribe to/],
      [['assignment', '--config', configFile(settings([{ ...billing, assignor: 'bogus' }])), '--group', 'billing'], /keyRouting\.kafkaGroups\[0\]\.assignor: must be one of/],
    ] as const) {
      const r = await cli([...args]);
      assert.equal(r.code, 2, String(args));
      assert.match(r.stderr, msg);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });
  test('a range group too large to list: exit 2, while route still names the member', async () => {
    const big = { 'keyRouting.topics': [{ name: 'a', system: 'kafka', partitions: 160000 }, { name: 'b', system: 'kafka', partitions: 60000 }], 'keyRouting.kafkaGroups': [{ name: 'g', topics: ['a', 'b'], members: ['m1', 'm2'] }] };
    const cfg = configFile(big);
    const r = await cli(['assignment', '--config', cfg, '--group', 'g']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /assignment: group g has 220000 partitions over its topics; listing every owner stops at 200000 \(route a key to see its member\)/);
    const route = await cli(['route', '--config', cfg, '--topic', 'a'], 'user-1\n');
    const p = kafkaPartition('user-1', 160000);
    assert.deepEqual(route.lines[0].groups, { g: p < 80000 ? 'm1' : 'm2' });
  });
  test('a range group computed from its shares (past 50,000 partitions) is listed up to 200,000', async () => {
    const cfg = configFile({ 'keyRouting.topics': [{ name: 'a', system: 'kafka', partitions: 120000 }], 'keyRouting.kafkaGroups': [{ name: 'g', topics: ['a'], members: ['m2', 'm1', 'm3'] }] });
    const r = await cli(['assignment', '--config', cfg, '--group', 'g']);
    assert.equal(r.code, 0, r.stderr);
    const owners: string[] = r.lines[0].owners.a;
    assert.equal(owners.length, 120000);
    // Range: the members sorted, 40,000 consecutive partitions each.
    assert.deepEqual([owners[0], owners[39999], owners[40000], owners[79999], owners[80000], owners[119999]], ['m1', 'm1', 'm2', 'm2', 'm3', 'm3']);
  });
});

describe('key-routing what-if --group', () => {
  test('steps with the moved partitions, the moved keys and the rebalance; keys before and after', async () => {
    const cfg = configFile(settings([{ ...billing, assignor: 'cooperative-sticky' }]));
    const r = await cli(['what-if', '--config', cfg, '--group', 'billing', '--then', '+m4', '--then', '-m1'], keys);
    assert.equal(r.code, 0, r.stderr);
    const out = r.lines[0];
    assert.deepEqual(Object.keys(out), ['group', 'assignor', 'protocol', 'steps', 'keys']);
    assert.deepEqual(out.steps.map((s: any) => [s.event, s.moved.length, s.rebalance.protocol, s.rebalance.rounds.length]), [
      ['+m4', 2, 'cooperative', 2],
      ['-m1', 3, 'cooperative', 1],
    ]);
    assert.deepEqual(Object.keys(out.steps[0]), ['event', 'moved', 'added', 'movedFraction', 'rebalance', 'keys']);
    assert.equal(out.keys.length, 12, 'one per key per topic of the group');
    assert.deepEqual(Object.keys(out.keys[0]), ['key', 'topic', 'before', 'after', 'moved']);
  });
  test('a range group of 60,000 partitions (computed from its shares): m3 joins, and half the partitions change owner', async () => {
    // Before: m1 0-29999, m2 30000-59999. After: m1 0-19999, m2 20000-39999, m3 40000-59999.
    // It said "0 partitions of 0 changed owner" and "No partition changed owner" past 50,000.
    const cfg = configFile({ 'keyRouting.topics': [{ name: 'a', system: 'kafka', partitions: 60000 }], 'keyRouting.kafkaGroups': [{ name: 'g', topics: ['a'], members: ['m1', 'm2'] }] });
    const r = await cli(['what-if', '--config', cfg, '--group', 'g', '--then', '+m3']);
    assert.equal(r.code, 0, r.stderr);
    const [step] = r.lines[0].steps;
    assert.equal(step.movedFraction, 0.5);
    assert.equal(step.moved.length, 30000);
    assert.deepEqual([step.moved[0], step.moved[9999], step.moved[10000], step.moved[29999]], [
      { topic: 'a', partition: 20000, from: 'm1', to: 'm2' },
      { topic: 'a', partition: 29999, from: 'm1', to: 'm2' },
      { topic: 'a', partition: 40000, from: 'm2', to: 'm3' },
      { topic: 'a', partition: 59999, from: 'm2', to: 'm3' },
    ]);
    assert.match(step.rebalance.summary, /30000 partitions of 60000 changed owner;/);
    assert.equal(step.note, undefined);
  });
  test('a range group past 200,000 partitions: the step counts what moves, the table gives the share', async () => {
    const cfg = configFile({ 'keyRouting.topics': [{ name: 'a', system: 'kafka', partitions: 2147483647 }], 'keyRouting.kafkaGroups': [{ name: 'g', topics: ['a'], members: ['m1', 'm2'] }] });
    const r = await cli(['what-if', '--config', cfg, '--group', 'g', '--then', '+m3']);
    assert.equal(r.code, 0, r.stderr);
    const [step] = r.lines[0].steps;
    assert.deepEqual([step.moved, step.movedFraction], [[], 1073741823 / 2147483647]);
    assert.match(step.note, /listing every owner stops at 200000/);
    const table = await cliText(['what-if', '--config', cfg, '--group', 'g', '--then', '+m3', '--format', 'table']);
    assert.match(table.stdout, /^\+m3: 50\.00% of the partitions changed owner$/m);
    assert.match(table.stdout, /1073741823 partitions of 2147483647 changed owner;/);
  });
  test('--group takes no --topic but for partitions=N; what-if without --then is a usage error', async () => {
    const cfg = configFile(settings([billing]));
    const ok = await cli(['what-if', '--config', cfg, '--group', 'billing', '--topic', 'orders', '--then', 'partitions=12']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.lines[0].steps[0].added.length, 6);
    const bad = await cli(['what-if', '--config', cfg, '--group', 'billing']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--then is required/);
  });
});

describe('groups next to the clients: a key with no fixed partition has no member', () => {
  // kafka-go's default ignores the key; a long serializer refuses "user-1".
  const cfg = configFile({
    'keyRouting.topics': [
      { name: 'orders', system: 'kafka', partitions: 6, partitioner: 'kafka-go', producers: ['java', 'kafka-go'] },
      { name: 'ids', system: 'kafka', partitions: 6, keySerializer: 'long' },
    ],
    'keyRouting.kafkaGroups': [{ name: 'billing', assignor: 'range', topics: ['orders', 'ids'], members: [{ id: '1' }, { id: '2' }] }],
  });

  test('route: "groups": {"billing": null} with the client\'s note; a refused key is its error line only', async () => {
    const r = await cli(['route', '--config', cfg], 'user-1\n42\n');
    assert.equal(r.code, 0, r.stderr);
    const [orders1, ids1, orders42, ids42] = r.lines;
    assert.equal(orders1.partition, null);
    assert.match(orders1.note, /ignores the key/);
    assert.deepEqual(orders1.groups, { billing: null });
    assert.deepEqual(Object.keys(ids1), ['key', 'topic', 'error']);
    assert.equal(orders42.groups.billing, null);
    // 42 as a long: 000000000000002a; range over members "1", "2": partitions 0-2 and 3-5.
    assert.equal(ids42.keyHex, '000000000000002a');
    assert.deepEqual(ids42.groups, { billing: ids42.partition < 3 ? '1' : '2' });
  });

  test('what-if --group: such keys say why they have no member, before and after', async () => {
    const r = await cli(['what-if', '--config', cfg, '--group', 'billing', '--then', '+3', 'user-1'], '');
    assert.equal(r.code, 0, r.stderr);
    const [orders, ids] = r.lines[0].keys;
    assert.equal(orders.before.member, null);
    assert.match(orders.before.note, /ignores the key/);
    assert.match(ids.after.error, /is not a long/);
    assert.equal(ids.moved, false);
  });

  test('--format table: assignment lists partition owners; what-if --group its moves and keys', async () => {
    const a = await cliText(['assignment', '--config', cfg, '--group', 'billing', '--format', 'table']);
    assert.equal(a.code, 0, a.stderr);
    const rows = a.stdout.split('\n');
    assert.equal(rows[0], 'group billing (range)');
    assert.match(rows[1], /^TOPIC\s+PARTITION\s+MEMBER$/);
    assert.match(rows[2], /^orders\s+0\s+1$/);
    assert.match(rows[13], /^ids\s+5\s+2$/);
    const w = await cliText(['what-if', '--config', cfg, '--group', 'billing', '--then', '+3', '--format', 'table', '42']);
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /^group billing \(range, eager\)\n\+3: 6 partitions changed owner \(50\.00%\)\n/);
    assert.match(w.stdout, /\n42\s+orders\s+no fixed partition\s+no fixed partition\s+no\n/);
  });
});
