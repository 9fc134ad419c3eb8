import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from '../../src/engine/settings';
import { Topology, type KafkaTopicState } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { kafkaPartition } from '../../src/engine/kafka/partitioner';
import { ASSIGNOR_NAMES, ConsumerGroupState, diffOwners, formatGroupEvent, MAX_LISTED_PARTITIONS, MAX_SIMULATED_PARTITIONS, movedPartitions, parseGroupEvent, partitionsByMember, type GroupEvent, type OwnerChange, type Owners } from '../../src/engine/kafka/consumerGroup';
import { applyGroupEvent, groupRouteFields } from '../../src/engine/kafka/groupTopology';
import { runGroupWhatIf } from '../../src/engine/kafka/groupWhatIf';
import { explainRebalance } from '../../src/engine/kafka/rebalanceExplain';
import { rangeShares } from '../../src/engine/kafka/assignors/rangeAssignor';
import fc from 'fast-check';
import { propertyRuns } from './helpers';

const ORDERS_ID = '3NHVvglWJqhiTMpQ344zdg';
const PAYMENTS_ID = 'GgSK5_X1Pp6B_v5u4SBqxg';

const topics = (extra: Record<string, unknown> = {}) => [
  { name: 'orders', system: 'kafka', partitions: 6, topicId: ORDERS_ID, ...extra },
  { name: 'payments', system: 'kafka', partitions: 4, topicId: PAYMENTS_ID },
  { name: 'persistent://public/default/p', system: 'pulsar' },
];

function parse(groups: unknown, t: unknown[] = topics()) {
  return parseSettings({ 'keyRouting.topics': t, 'keyRouting.kafkaGroups': groups });
}

function topology(groups: unknown[], t: unknown[] = topics()): Topology {
  const { settings, problems } = parse(groups, t);
  assert.deepEqual(problems, []);
  const refused: { path: string; message: string }[] = [];
  const topo = new Topology(settings, refused);
  assert.deepEqual(refused, []);
  return topo;
}

const billing = (extra: Record<string, unknown> = {}) => ({ name: 'billing', assignor: 'cooperative-sticky', topics: ['orders', 'payments'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }], ...extra });

describe('keyRouting.kafkaGroups: problems named by their setting path', () => {
  const cases: Array<[string, unknown, string | RegExp, RegExp]> = [
    ['not an array', { name: 'x' }, 'keyRouting.kafkaGroups', /must be an array of groups/],
    ['a group without a name', [{ topics: ['orders'] }], 'keyRouting.kafkaGroups[0].name', /non-empty string/],
    ['an unknown assignor', [billing({ assignor: 'CooperativeStickyAssignor' })], 'keyRouting.kafkaGroups[0].assignor', /must be one of "range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "server-range".*"cooperative-sticky"/],
    ['a topic not in keyRouting.topics', [billing({ topics: ['orders', 'refunds'] })], 'keyRouting.kafkaGroups[0].topics[1]', /no Kafka topic "refunds" in keyRouting.topics \(Kafka topics: orders, payments\)/],
    ['a Pulsar topic', [billing({ topics: ['persistent://public/default/p'] })], 'keyRouting.kafkaGroups[0].topics[0]', /is a Pulsar topic; consumer groups are Kafka's/],
    ['a topic listed twice', [billing({ topics: ['orders', 'orders'] })], 'keyRouting.kafkaGroups[0].topics[1]', /lists "orders" twice/],
    ['no topics', [billing({ topics: [] })], 'keyRouting.kafkaGroups[0].topics', /must list the Kafka topics/],
    ['duplicate member ids', [billing({ members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm1' }] })], 'keyRouting.kafkaGroups[0].members[2].id', /duplicate member id "m1" \(also keyRouting.kafkaGroups\[0\].members\[0\]\)/],
    ['a member without an id', [billing({ members: [{ name: 'm1' }] })], 'keyRouting.kafkaGroups[0].members[0]', /non-empty string "id"/],
    ['a member subscribing outside the group', [billing({ members: [{ id: 'm1', topics: ['audit'] }] })], 'keyRouting.kafkaGroups[0].members[0].topics', /audit is not among the group's topics \(orders, payments\)/],
    ['duplicate group names', [billing(), billing()], 'keyRouting.kafkaGroups[1].name', /duplicate group name "billing"/],
    ['observed with the wrong partition count', [billing({ observed: { owners: { orders: ['m1'] } } })], 'keyRouting.kafkaGroups[0].observed.owners.orders', /each of orders's 6 partitions .* got 1 entries/],
    ['observed naming a stranger', [billing({ observed: { owners: { orders: [null, null, null, null, null, null], payments: ['m1', 'm9', null, 'm2'] } } })], 'keyRouting.kafkaGroups[0].observed.owners.payments[1]', /must be a member of the group \(m1, m2, m3\) or null \(got "m9"\)/],
    ['observed on a topic the member does not subscribe to', [billing({ members: [{ id: 'm1', topics: ['orders'] }, { id: 'm2' }], observed: { owners: { orders: ['m2', 'm2', 'm2', 'm2', 'm2', 'm2'], payments: ['m1', 'm2', 'm2', 'm2'] } } })], 'keyRouting.kafkaGroups[0].observed.owners.payments[0]', /m1 does not subscribe to payments/],
    ['observed on a topic outside the group', [billing({ topics: ['orders'], observed: { owners: { payments: ['m1', 'm1', 'm1', 'm1'] } } })], 'keyRouting.kafkaGroups[0].observed.owners.payments', /not one of the group's topics/],
    // A topic left out was taken as nobody's: one null per partition made from nothing, which on a
    // topic of 2,147,483,647 partitions (a range group computes any count) froze the extension host.
    ['observed leaving out one of the group\'s topics', [billing({ observed: { owners: { payments: ['m1', 'm1', 'm2', 'm2'] } } })], 'keyRouting.kafkaGroups[0].observed.owners.orders', /must list the owner of each of orders's 6 partitions \(a member id or null\); got nothing/],
  ];
  for (const [what, raw, path, message] of cases) {
    test(what, () => {
      const { settings, problems } = parse(raw);
      assert.ok(problems.length >= 1, 'a problem');
      assert.equal(problems[0].path, path);
      assert.match(problems[0].message, message);
      assert.ok(!settings.kafkaGroups!.some((g) => problems[0].path.startsWith('keyRouting.kafkaGroups[0]') && g.name === 'billing' && problems.length === 1 && g.path === 'keyRouting.kafkaGroups[0]'), 'the invalid group is left out');
    });
  }
  test('the valid groups are kept next to an invalid one', () => {
    const { settings, problems } = parse([billing({ assignor: 'nope' }), billing({ name: 'audit', assignor: 'uniform' })]);
    assert.equal(problems.length, 1);
    assert.deepEqual(settings.kafkaGroups!.map((g) => g.name), ['audit']);
  });
  test('topicId: Kafka base64 text, canonical; malformed and reserved ids refused', () => {
    const ok = parseSettings({ 'keyRouting.topics': [{ name: 'o', system: 'kafka', partitions: 1, topicId: 'GgSK5_X1Pp6B_v5u4SBqxh' }] });
    assert.deepEqual(ok.problems, []);
    assert.equal((ok.settings.topics[0] as { topicId?: string }).topicId, 'GgSK5_X1Pp6B_v5u4SBqxg');
    for (const [id, msg] of [
      ['GgSK5_X1Pp6B', /decodes to 9 bytes/],
      [42, /as kafka-topics.sh --describe prints it/],
      ['AAAAAAAAAAAAAAAAAAAAAA', /reserved/],
      ['AAAAAAAAAAAAAAAAAAAAAQ', /reserved/],
    ] as const) {
      const { problems } = parseSettings({ 'keyRouting.topics': [{ name: 'o', system: 'kafka', partitions: 1, topicId: id }] });
      assert.equal(problems[0]?.path, 'keyRouting.topics[0].topicId', String(id));
      assert.match(problems[0].message, msg);
    }
  });
  test(`past ${MAX_SIMULATED_PARTITIONS} partitions a sticky or uniform group is refused; range is computed directly`, () => {
    const big = [
      { name: 'a', system: 'kafka', partitions: 60_000 },
      { name: 'b', system: 'kafka', partitions: 60_000 },
    ];
    for (const assignor of ['sticky', 'cooperative-sticky', 'uniform', 'roundrobin']) {
      const { problems } = parse([{ name: 'g', assignor, topics: ['a', 'b'], members: [{ id: 'm1' }] }], big);
      assert.equal(problems[0]?.path, 'keyRouting.kafkaGroups[0].topics', assignor);
      assert.match(problems[0].message, /120000 partitions; the .* assignor is followed partition by partition up to 50000 \(range and server-range are computed directly for any count\)/);
    }
    for (const assignor of ['range', 'server-range']) assert.deepEqual(parse([{ name: 'g', assignor, topics: ['a', 'b'], members: [{ id: 'm1' }] }], big).problems, []);
  });
  test(`past ${MAX_SIMULATED_PARTITIONS} partitions a group of another assignor with the broker's report: routed as reported, its rebalances refused`, () => {
    // What `import kafka-groups --assignor sticky` writes for a 60,000-partition group: it was
    // refused as a whole, so no key got its member.
    const t = [{ name: 'a', system: 'kafka', partitions: 60_000 }];
    const owners = Array.from({ length: 60_000 }, (_, p) => (p === 7 ? null : `m${(p % 3) + 1}`));
    for (const assignor of ['sticky', 'cooperative-sticky', 'uniform', 'roundrobin']) {
      const topo = topology([{ name: 'g', assignor, topics: ['a'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }], observed: { owners: { a: owners } } }], t);
      const g = topo.group('g')!;
      assert.deepEqual([g.ownerOf('a', 0), g.ownerOf('a', 7), g.ownerOf('a', 59_999)], ['m1', null, 'm3'], assignor);
      assert.deepEqual(groupRouteFields(topo.groups, { topic: 'a', system: 'kafka', partition: 5 }), { groups: { g: 'm3' }, observed: true }, assignor);
      for (const event of [{ kind: 'plus', id: 'm4' }, { kind: 'leave', id: 'm1' }, { kind: 'partitions', topic: 'a', count: 60_001 }] as GroupEvent[]) {
        const r = g.apply(event);
        assert.ok(!r.ok && r.error === `with ${event.kind === 'partitions' ? 60_001 : 60_000} partitions over the group's topics: the ${assignor} assignor is followed partition by partition up to 50000`, `${assignor} ${JSON.stringify(event)}`);
      }
      assert.equal(g.observed, true, 'still the report');
    }
  });
  test('a uniform group without topic ids: no stand-in note while its owners are the broker\'s report, the note once it rebalances', () => {
    const t = topics().map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'topicId')));
    const observed = { owners: { orders: ['m1', 'm1', 'm2', 'm2', 'm3', 'm3'], payments: ['m1', 'm2', 'm3', null] } };
    const topo = topology([billing({ assignor: 'uniform', observed })], t);
    const g = topo.group('billing')!;
    // The route's member is the report's: the ids the assignor would need choose nothing here.
    assert.deepEqual(groupRouteFields(topo.groups, { topic: 'orders', system: 'kafka', partition: 4 }), { groups: { billing: 'm3' }, observed: true });
    assert.ok(g.apply({ kind: 'plus', id: 'm4' }).ok);
    assert.match(groupRouteFields(topo.groups, { topic: 'orders', system: 'kafka', partition: 4 }).note!, /^group billing: the uniform assignor's choice depends on topic ids/);
  });
  test('every assignor the schema offers is accepted, and the schema default is the engine default', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
    const schema = pkg.contributes.configuration.properties['keyRouting.kafkaGroups'].items.properties;
    for (const a of schema.assignor.enum) assert.deepEqual(parse([billing({ assignor: a })]).problems, [], a);
    assert.equal(schema.assignor.default, 'range');
    const { settings } = parse([{ name: 'g', topics: ['orders'] }]);
    assert.equal(settings.kafkaGroups![0].assignor, 'range');
    assert.equal(schema.assignor.enumDescriptions.length, schema.assignor.enum.length);
    assert.ok(pkg.contributes.configuration.properties['keyRouting.topics'].items.properties.topicId);
  });
});

describe('group events', () => {
  test('the forms and their refusals', () => {
    assert.deepEqual(parseGroupEvent('+m4'), { kind: 'plus', id: 'm4' });
    assert.deepEqual(parseGroupEvent('+m4:orders,payments'), { kind: 'plus', id: 'm4', topics: ['orders', 'payments'] });
    // The id is everything before the last colon.
    assert.deepEqual(parseGroupEvent('+host:1-abc:orders'), { kind: 'plus', id: 'host:1-abc', topics: ['orders'] });
    assert.deepEqual(parseGroupEvent('-m2'), { kind: 'leave', id: 'm2' });
    assert.deepEqual(parseGroupEvent('partitions=9', 'orders'), { kind: 'partitions', topic: 'orders', count: 9 });
    assert.match(parseGroupEvent('partitions=9') as string, /needs the topic/);
    assert.match(parseGroupEvent('+') as string, /member id is empty/);
    assert.match(parseGroupEvent('+m1:orders,') as string, /\+ID:orders,payments/);
    assert.match(parseGroupEvent('m1') as string, /expected \+ID/);
  });
  test('a group refuses what Kafka would not do, and stays as it was', () => {
    const g = topology([billing()]).group('billing')!;
    const before = g.owners();
    for (const [text, topic, why] of [
      ['+m1', undefined, /m1 is already a member of billing; \+ID:TOPIC,\.\.\. changes its subscription/],
      ['-m9', undefined, /group billing has no member m9/],
      ['+m4:refunds', undefined, /refunds is not a topic of group billing \(orders, payments\)/],
      ['partitions=6', 'orders', /orders has 6 partitions; Kafka only adds partitions/],
      ['partitions=3', 'orders', /Kafka only adds partitions/],
    ] as const) {
      const e = parseGroupEvent(text, topic);
      assert.equal(typeof e, 'object');
      const r = g.apply(e as Exclude<typeof e, string>);
      assert.ok(!r.ok && why.test(r.error), `${text}: ${r.ok ? 'accepted' : r.error}`);
    }
    assert.deepEqual(g.owners(), before);
    assert.equal(g.events.length, 0);
  });
  test('+ID:topics for a member changes its subscription (one rebalance); the dropped topic is given up', () => {
    const g = topology([billing()]).group('billing')!;
    const r = g.apply({ kind: 'plus', id: 'm2', topics: ['orders'] });
    assert.ok(r.ok);
    assert.equal(r.value.change, 'subscribe');
    assert.deepEqual(g.members.get('m2'), ['orders']);
    assert.ok(!(g.owners() as Owners).get('payments')!.includes('m2'));
  });
  test('applyGroupEvent: -ID to the groups with the member, +ID to those without, partitions to the topic\'s groups', () => {
    const topo = topology([billing(), { name: 'audit', assignor: 'range', topics: ['orders'], members: [{ id: 'a1' }, { id: 'm1' }] }]);
    assert.deepEqual(applyGroupEvent(topo.groups, '-a1').map((r) => r.group.name), ['audit']);
    assert.deepEqual(applyGroupEvent(topo.groups, '+m2').map((r) => r.group.name), ['audit']);
    assert.deepEqual(applyGroupEvent(topo.groups, '+x:payments').map((r) => r.group.name), ['billing']);
    assert.deepEqual(applyGroupEvent(topo.groups, 'partitions=8', 'payments').map((r) => r.group.name), ['billing']);
    assert.deepEqual(applyGroupEvent(topo.groups, '+C1:0-16383'), [], 'a STICKY range event is no group event');
    assert.deepEqual(applyGroupEvent(topo.groups, '+y', undefined, 'payments').map((r) => r.group.name), ['billing'], '--topic narrows to its groups');
  });
});

describe('key -> partition -> member', () => {
  test('route fields: the member of each group consuming the key\'s partition', () => {
    const topo = topology([billing(), { name: 'audit', assignor: 'range', topics: ['orders'], members: [{ id: 'a1' }, { id: 'a2' }] }]);
    const orders = topo.topic('orders')!;
    for (const key of ['user-1', 'user-2', 'user-3', 'order:42']) {
      const route = orders.route(stringKey(key));
      const p = kafkaPartition(key, 6);
      assert.equal(route.partition, p);
      const fields = groupRouteFields(topo.groups, route);
      // Range: a1 owns 0-2, a2 owns 3-5.
      assert.deepEqual(fields.groups, { billing: (topo.group('billing')!.owners() as Owners).get('orders')![p], audit: p < 3 ? 'a1' : 'a2' });
      assert.equal(fields.observed, undefined);
    }
    assert.deepEqual(groupRouteFields(topo.groups, { topic: 'persistent://public/default/p', system: 'pulsar', partition: null }), {});
  });
  test('observed owners: routes take the member from them, marked observed, until an event', () => {
    const observed = { at: '2026-12-01T10:00:00Z', owners: { orders: ['m3', 'm3', 'm3', 'm3', 'm3', 'm3'], payments: ['m1', null, 'm2', 'm2'] } };
    const topo = topology([billing({ assignor: 'sticky', observed })]);
    const g = topo.group('billing')!;
    assert.equal(g.ownerOf('payments', 1), null);
    const fields = groupRouteFields(topo.groups, { topic: 'orders', system: 'kafka', partition: 4 });
    assert.deepEqual(fields, { groups: { billing: 'm3' }, observed: true });
    assert.deepEqual(g.owners(), new Map(Object.entries(observed.owners)));
    // Sticky takes the observed owners as the previous assignment: m3 keeps what its quota allows.
    const r = g.apply({ kind: 'plus', id: 'm4' });
    assert.ok(r.ok);
    assert.equal(g.observed, false);
    const after = g.owners() as Owners;
    assert.deepEqual(after.get('orders')!.filter((m) => m === 'm3').length, 3, 'm3 kept 3 of its 6 (the quota is 10/4: 2 or 3)');
    assert.ok(after.get('orders')!.slice(0, 3).every((m) => m === 'm3'), 'the lowest partitions first');
    assert.equal(after.get('payments')![0], 'm1');
    assert.equal(groupRouteFields(topo.groups, { topic: 'orders', system: 'kafka', partition: 4 }).observed, undefined);
  });
  test('range over int32-sized topics: each key\'s member computed directly, the listing refused', () => {
    const big = [
      { name: 'a', system: 'kafka', partitions: 170_000 },
      { name: 'b', system: 'kafka', partitions: 50_000 },
    ];
    const topo = topology([{ name: 'g', assignor: 'range', topics: ['a', 'b'], members: [{ id: 'm1' }, { id: 'm10' }, { id: 'm2' }, { id: 'x', topics: ['b'] }] }], big);
    const g = topo.group('g')!;
    assert.match(g.owners() as string, /group g has 220000 partitions over its topics; listing every owner stops at 200000/);
    const shares = rangeShares(['m1', 'm10', 'm2'], 170_000);
    for (const p of [0, 56_666, 56_667, 113_333, 113_334, 169_999]) {
      const [id] = shares.find(([, [from, to]]) => p >= from && p < to)!;
      assert.equal(g.ownerOf('a', p), id, `a-${p}`);
    }
    assert.equal(g.ownerOf('b', 49_999), 'x', 'b: m1, m10, m2, x get 12500 each; x, sorted last, the top range');
    // The topic grows to Kafka's int32 limit: still computed directly.
    const r = g.apply({ kind: 'partitions', topic: 'a', count: 2147483647 });
    assert.ok(r.ok);
    assert.equal(g.ownerOf('a', 2147483646), 'm2');
    assert.equal(g.ownerOf('a', 715827882), 'm1');
    assert.equal(g.ownerOf('a', 715827883), 'm10');
    // A sticky group cannot be taken past the limit by an event either.
    const s = topology([{ name: 's', assignor: 'sticky', topics: ['orders'], members: [{ id: 'm1' }] }]).group('s')!;
    const refused = s.apply({ kind: 'partitions', topic: 'orders', count: 2147483647 });
    assert.ok(!refused.ok && /followed partition by partition up to 50000/.test(refused.error));
  });
  test('range computed directly: every partition\'s member after joins and leaves is the one Kafka\'s shares give the members then', () => {
    const g = topology([{ name: 'g', assignor: 'range', topics: ['a'], members: [{ id: 'm1' }, { id: 'm10' }, { id: 'm2' }] }], [{ name: 'a', system: 'kafka', partitions: 60_001 }]).group('g')!;
    const expect = (members: string[]) => {
      const shares = rangeShares([...members].sort(), 60_001);
      // Both ends of every share, and the partitions on either side of them.
      for (const [id, [from, to]] of shares) for (const p of [from, from + 1, to - 2, to - 1]) assert.equal(g.ownerOf('a', p), id, `a-${p} with ${members.join(' ')}`);
      assert.equal(g.ownerOf('a', 60_001), null);
    };
    expect(['m1', 'm10', 'm2']);
    for (const [event, members] of [
      ['+m0', ['m0', 'm1', 'm10', 'm2']],
      ['-m10', ['m0', 'm1', 'm2']],
      ['+zz:a', ['m0', 'm1', 'm2', 'zz']],
    ] as const) {
      assert.ok(g.apply(parseGroupEvent(event) as GroupEvent).ok, event);
      expect([...members]);
    }
  });
  test('a range group crossing the limit by an event switches to the direct computation, with the same owners', () => {
    const t = [{ name: 'a', system: 'kafka', partitions: 45_000 }];
    const g = topology([{ name: 'g', assignor: 'server-range', topics: ['a'], members: [{ id: 'b' }, { id: 'a' }, { id: 'c' }] }], t).group('g')!;
    const listed = (g.owners() as Owners).get('a')!;
    assert.deepEqual([listed[0], listed[14_999], listed[15_000], listed[44_999]], ['a', 'a', 'b', 'c']);
    assert.ok(g.apply({ kind: 'partitions', topic: 'a', count: 60_000 }).ok);
    assert.deepEqual([g.ownerOf('a', 0), g.ownerOf('a', 19_999), g.ownerOf('a', 20_000), g.ownerOf('a', 59_999)], ['a', 'a', 'b', 'c']);
    // Listed from the shares: each partition's owner as ownerOf gives it.
    const shares = (g.owners() as Owners).get('a')!;
    assert.equal(shares.length, 60_000);
    assert.deepEqual([shares[0], shares[19_999], shares[20_000], shares[59_999]], ['a', 'a', 'b', 'c']);
  });
  test('uniform without topic ids: a deterministic stand-in and a note saying so', () => {
    const t = topics().map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== "topicId")));
    const topo = topology([billing({ assignor: 'uniform' })], t);
    const g = topo.group('billing')!;
    assert.match(g.notes()[0], /the uniform assignor's choice depends on topic ids, which the settings do not give for orders, payments; a stand-in id derived from the name was used, so the real owners may differ/);
    assert.deepEqual(g.owners(), topology([billing({ assignor: 'uniform' })], t).group('billing')!.owners(), 'the same every time');
    assert.match(groupRouteFields(topo.groups, { topic: 'orders', system: 'kafka', partition: 0 }).note!, /^group billing: the uniform assignor's choice depends on topic ids/);
    assert.deepEqual(topology([billing({ assignor: 'uniform' })]).group('billing')!.notes(), [], 'with ids: no note');
    assert.deepEqual(topology([billing({ assignor: 'sticky' })], t).group('billing')!.notes(), [], 'classic assignors do not see ids');
  });
  test('per-member partition lists, for the panel', () => {
    const g = topology([billing({ assignor: 'range' })]).group('billing')!;
    const byMember = partitionsByMember(g.owners() as Owners, [...g.members.keys()]);
    assert.deepEqual(Object.fromEntries([...byMember].map(([m, t]) => [m, Object.fromEntries(t)])), {
      m1: { orders: [0, 1], payments: [0, 1] },
      m2: { orders: [2, 3], payments: [2] },
      m3: { orders: [4, 5], payments: [3] },
    });
  });
});

describe('rebalance what-if and its explanation', () => {
  const keys = ['user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6'].map((k) => ({ shown: k, key: stringKey(k) }));
  const run = (assignor: string, events: string[], partitionsTopic?: string) => {
    const topo = topology([billing({ assignor })]);
    const g = topo.group('billing')!;
    const ts = new Map(g.config.topics.map((t) => [t, topo.topic(t) as KafkaTopicState]));
    return { topo, r: runGroupWhatIf(g, ts, events, keys, partitionsTopic) };
  };

  test('cooperative-sticky, m4 joins: two rounds naming the revoked partitions; keys on them move member, not partition', () => {
    const { r } = run('cooperative-sticky', ['+m4']);
    const s = r.steps[0];
    assert.deepEqual(s.moved, [
      { topic: 'orders', partition: 5, from: 'm3', to: 'm4' },
      { topic: 'payments', partition: 3, from: 'm1', to: 'm4' },
    ]);
    assert.equal(s.movedFraction, 2 / 10);
    const e = s.rebalance!;
    assert.equal(e.protocol, 'cooperative');
    assert.deepEqual(e.paused, ['orders-5', 'payments-3']);
    assert.deepEqual(e.rounds, [
      { round: 1, revoked: { m3: ['orders-5'], m1: ['payments-3'] }, assigned: {} },
      { round: 2, revoked: {}, assigned: { m4: ['orders-5', 'payments-3'] } },
    ]);
    assert.match(e.summary, /m3 revokes orders-5; m1 revokes payments-3/);
    assert.match(e.keyOrder.join(' '), /moves whole.*keep their order.*processed again by the new owner/);
    // The keys on orders-5 or payments-3 (murmur2: user-3 and user-6 on orders-5) move to m4 on the same partitions.
    const expected = keys.flatMap((k) => [
      ...(kafkaPartition(k.shown, 6) === 5 ? [[k.shown, 'orders', 5, 'm3', 5, 'm4']] : []),
      ...(kafkaPartition(k.shown, 4) === 3 ? [[k.shown, 'payments', 3, 'm1', 3, 'm4']] : []),
    ]);
    assert.ok(expected.length >= 2);
    assert.deepEqual(s.keys.map((k) => [k.key, k.topic, k.before.partition, k.before.member, k.after.partition, k.after.member]), expected);
    assert.equal(r.keys.filter((k) => k.moved).length, expected.length);
    assert.equal(r.protocol, 'cooperative');
  });
  test('eager (sticky): every member stops; KIP-848 (uniform): per-member revoke then assign', () => {
    const eager = run('sticky', ['+m4']).r.steps[0].rebalance!;
    assert.equal(eager.protocol, 'eager');
    assert.equal(eager.paused, 'all');
    assert.match(eager.summary, /every member stops consuming and gives up all its partitions/);
    const kip = run('uniform', ['+m4']).r.steps[0].rebalance!;
    assert.equal(kip.protocol, 'consumer');
    assert.match(kip.summary, /no group-wide barrier.*first revokes .* and only then/);
    assert.deepEqual(kip.members, { m1: { revoke: ['orders-3'], assign: [] }, m3: { revoke: ['payments-3'], assign: [] }, m4: { revoke: [], assign: ['orders-3', 'payments-3'] } });
    assert.deepEqual(kip.paused, ['orders-3', 'payments-3']);
  });
  test('a leave: the departed member\'s partitions are free, not revoked; partitions=N: keys change partition', () => {
    const { r } = run('cooperative-sticky', ['-m2', 'partitions=8'], 'orders');
    const leave = r.steps[0];
    assert.ok(leave.moved.every((c) => c.from === 'm2'));
    assert.deepEqual(leave.rebalance!.rounds!.length, 1);
    assert.match(leave.rebalance!.summary, /Nothing had to move between two members, so one round does it\. The partitions of m2 \(orders-1, orders-4, payments-1\) are free and assigned in round 1/);
    const grow = r.steps[1];
    assert.deepEqual(grow.added.map((c) => c.partition), [6, 7]);
    assert.match(grow.rebalance!.keyOrder[0], /more partitions change which partition most keys go to/i);
    const moved = grow.keys.filter((k) => k.topic === 'orders' && k.before.partition !== k.after.partition);
    assert.deepEqual(moved.map((k) => k.key), keys.filter((k) => kafkaPartition(k.shown, 6) !== kafkaPartition(k.shown, 8)).map((k) => k.shown));
  });
  test('a refused step is reported and changes nothing; the topic keeps its count when the group refuses', () => {
    const { topo, r } = run('range', ['-m9', 'partitions=3'], 'orders');
    assert.match(r.steps[0].error!, /no member m9/);
    assert.match(r.steps[1].error!, /Topic currently has 6 partitions, which is higher than the requested 3/);
    assert.equal(topo.topic('orders')!.partitions, 6);
    assert.ok(r.keys.every((k) => !k.moved));
  });
  test('explainRebalance: one source for the CLI and the editor, naming the assignor', () => {
    const g = topology([billing({ assignor: 'server-range' })]).group('billing')!;
    const step = g.apply({ kind: 'plus', id: 'm4' });
    assert.ok(step.ok);
    const e = explainRebalance('server-range', step.value, new Set(g.members.keys()));
    assert.match(e.summary, /^KIP-848 rebalance \(range, group\.protocol=consumer\)/);
  });
});

describe('a group\'s state as a history', () => {
  test('clone replays the configuration and the events; the clone diverges on its own', () => {
    const g = topology([billing({ assignor: 'uniform' })]).group('billing')!;
    for (const e of ['+m4', '-m1', '+m5:orders']) assert.ok(g.apply(parseGroupEvent(e) as never).ok);
    const c = g.clone();
    assert.deepEqual(c.owners(), g.owners());
    assert.deepEqual(c.events, g.events);
    assert.ok(c.apply({ kind: 'leave', id: 'm4' }).ok);
    assert.ok(g.members.has('m4'));
    assert.ok(c instanceof ConsumerGroupState);
  });

  test('formedAgain, sticky: m3 joining m1 and m2 keeps 4 of 6 partitions; the three formed at once give 3 of them another owner', () => {
    // Kafka's constrained sticky assignment: m1 and m2 are dealt 0-5 in turn; m3 then takes the
    // partitions past each one's quota of 2 (4 and 5); m1, m2 and m3 formed at once are dealt in turn.
    const g = topology([{ name: 'g', assignor: 'sticky', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }]).group('g')!;
    assert.deepEqual(g.owners(), new Map([['orders', ['m1', 'm2', 'm1', 'm2', 'm1', 'm2']]]));
    assert.ok(g.apply({ kind: 'plus', id: 'm3' }).ok);
    assert.deepEqual(g.owners(), new Map([['orders', ['m1', 'm2', 'm1', 'm2', 'm3', 'm3']]]));
    const again = g.formedAgain();
    assert.deepEqual(again.owners(), new Map([['orders', ['m1', 'm2', 'm3', 'm1', 'm2', 'm3']]]));
    assert.equal(diffOwners(g.owners() as Owners, again.owners() as Owners).length, 3);
    assert.deepEqual(again.events, []);
    assert.equal(g.events.length, 1);
  });

  test('formedAgain: the same owners where no history matters (every assignor before an event; the range ones and roundrobin after any), and never the report', () => {
    const events = fc.array(fc.oneof(fc.constantFrom('-m1', '-m2', '-m3', '+m1', '+m2', '+m3', 'partitions=9', 'partitions=12'), fc.integer({ min: 4, max: 9 }).map((i) => `+m${i}${i % 2 ? ':orders' : ''}`)), { maxLength: 8 });
    fc.assert(
      fc.property(fc.constantFrom(...ASSIGNOR_NAMES), events, (assignor, list) => {
        const g = topology([billing({ assignor })]).group('billing')!;
        assert.deepEqual(g.formedAgain().owners(), g.owners());
        for (const e of list) g.apply(parseGroupEvent(e, 'orders') as GroupEvent);
        if (['range', 'roundrobin', 'server-range'].includes(assignor)) assert.deepEqual(g.formedAgain().owners(), g.owners());
        assert.deepEqual([...g.formedAgain().members], [...g.members]);
      }),
      propertyRuns(60),
    );
    const reported = topology([billing({ assignor: 'range', topics: ['orders'], observed: { at: '2026-12-01T11:00:00Z', owners: { orders: ['m3', 'm3', 'm2', 'm2', 'm1', 'm1'] } } })]).group('billing')!;
    const again = reported.formedAgain();
    assert.equal(again.observed, false);
    assert.deepEqual(again.owners(), new Map([['orders', ['m1', 'm1', 'm2', 'm2', 'm3', 'm3']]]));
  });
});

describe('range groups past 50,000 partitions: a rebalance counted from the shares, listed up to 200,000', () => {
  /** Every partition's owner in the group now, per topic, as `ownerOf` gives it. */
  const ownersNow = (g: ConsumerGroupState, counts: Map<string, number>) =>
    new Map([...counts].map(([t, n]) => [t, Array.from({ length: n }, (_, p) => g.ownerOf(t, p))]));

  test('each step\'s moved and added partitions, fraction and summary equal a partition-by-partition count', () => {
    const pool = ['m1', 'm10', 'm2', 'x', 'y'];
    const arb = fc.record({
      assignor: fc.constantFrom('range', 'server-range'),
      a: fc.integer({ min: 50_001, max: 120_000 }),
      b: fc.option(fc.integer({ min: 1, max: 90_000 }), { nil: undefined }),
      members: fc.uniqueArray(fc.record({ id: fc.constantFrom(...pool), only: fc.constantFrom(undefined, 'a', 'b') }), { minLength: 1, maxLength: 4, selector: (m) => m.id }),
      events: fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('plus'), id: fc.constantFrom(...pool), only: fc.constantFrom(undefined, 'a', 'b') }),
          fc.record({ kind: fc.constant('leave'), id: fc.constantFrom(...pool) }),
          fc.record({ kind: fc.constant('grow'), topic: fc.constantFrom('a', 'b'), by: fc.integer({ min: 1, max: 150_000 }) }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    });
    fc.assert(
      fc.property(arb, (c) => {
        const ts = [{ name: 'a', system: 'kafka', partitions: c.a }, ...(c.b ? [{ name: 'b', system: 'kafka', partitions: c.b }] : [])];
        const groupTopics = ts.map((t) => t.name);
        const sub = (only: string | undefined) => (only && groupTopics.includes(only) ? { topics: [only] } : {});
        const topo = topology([{ name: 'g', assignor: c.assignor, topics: groupTopics, members: c.members.map((m) => ({ id: m.id, ...sub(m.only) })) }], ts);
        const g = topo.group('g')!;
        const counts = new Map(ts.map((t) => [t.name, t.partitions]));
        for (const e of c.events) {
          const event: GroupEvent =
            e.kind === 'grow'
              ? { kind: 'partitions', topic: counts.has(e.topic!) ? e.topic! : 'a', count: counts.get(counts.has(e.topic!) ? e.topic! : 'a')! + e.by! }
              : e.kind === 'leave'
                ? { kind: 'leave', id: e.id! }
                : { kind: 'plus', id: e.id!, ...(g.members.has(e.id!) ? { topics: sub(e.only).topics ?? groupTopics } : sub(e.only)) };
          const before = ownersNow(g, counts);
          const totalBefore = g.partitions;
          const r = g.apply(event);
          if (!r.ok) continue;
          if (event.kind === 'partitions') counts.set(event.topic, event.count);
          const after = ownersNow(g, counts);
          const moved: OwnerChange[] = [];
          let added = 0;
          for (const [t, list] of after) {
            const old = before.get(t)!;
            list.forEach((to, p) => {
              const from = old[p] ?? null;
              if (from !== to && from !== null) moved.push({ topic: t, partition: p, from, to });
              else if (from !== to) added++;
            });
          }
          const s = r.value;
          const what = `${formatGroupEvent(event)} on ${JSON.stringify(c)}`;
          assert.equal(s.moved, moved.length, what);
          assert.equal(s.added, added, what);
          assert.equal(s.partitions, g.partitions, what);
          const listed = totalBefore <= MAX_LISTED_PARTITIONS && g.partitions <= MAX_LISTED_PARTITIONS;
          assert.deepEqual(movedPartitions(s), listed ? moved : [], what);
          if (g.partitions <= MAX_LISTED_PARTITIONS) assert.deepEqual(g.owners(), after, what);
          else assert.match(g.owners() as string, /listing every owner stops at 200000/);
          const x = explainRebalance(g.assignor, s, new Set(g.members.keys()));
          if (c.assignor === 'range') {
            assert.match(x.summary, new RegExp(`${moved.length} partitions? of ${g.partitions} changed owner${added ? ` and ${added} new partitions? got one` : ';'}`), what);
          }
          assert.equal(x.keyOrder.some((n) => /moves whole/.test(n)), moved.length > 0, what);
        }
      }),
      propertyRuns(12),
    );
  });

  test('every assignor, followed partition by partition: the counts are those of the listed changes', () => {
    const arb = fc.record({
      assignor: fc.constantFrom('range', 'roundrobin', 'sticky', 'cooperative-sticky', 'uniform', 'server-range'),
      a: fc.integer({ min: 1, max: 12 }),
      b: fc.integer({ min: 1, max: 12 }),
      members: fc.uniqueArray(fc.constantFrom('m1', 'm2', 'm3', 'm4'), { minLength: 1, maxLength: 4 }),
      events: fc.array(fc.constantFrom('+m1', '+m2', '+m5', '+m5:a', '-m1', '-m2', '-m5', 'partitions=14', 'partitions=20'), { minLength: 1, maxLength: 5 }),
    });
    fc.assert(
      fc.property(arb, (c) => {
        const ts = [
          { name: 'a', system: 'kafka', partitions: c.a, topicId: ORDERS_ID },
          { name: 'b', system: 'kafka', partitions: c.b, topicId: PAYMENTS_ID },
        ];
        const g = topology([{ name: 'g', assignor: c.assignor, topics: ['a', 'b'], members: c.members.map((id) => ({ id })) }], ts).group('g')!;
        for (const text of c.events) {
          const r = g.apply(parseGroupEvent(text, 'a') as GroupEvent);
          if (!r.ok) continue;
          const s = r.value;
          assert.equal(s.moved, movedPartitions(s).length, `${text} on ${JSON.stringify(c)}`);
          assert.equal(s.added, s.changed.length - s.moved, `${text} on ${JSON.stringify(c)}`);
          assert.equal(s.partitions, [...s.after.values()].reduce((n, l) => n + l.length, 0));
        }
      }),
      propertyRuns(60),
    );
  });

  test('2,147,483,647 partitions, m3 joins m1 and m2: 1,073,741,823 change owner (counted, not listed)', () => {
    const topo = topology([{ name: 'g', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }] }], [{ name: 'orders', system: 'kafka', partitions: 2147483647 }]);
    const g = topo.group('g')!;
    const run = runGroupWhatIf(g, new Map([['orders', topo.topic('orders') as KafkaTopicState]]), ['+m3'], [{ shown: 'user-1', key: stringKey('user-1') }]);
    const [s] = run.steps;
    // Before: m1 0..1073741823, m2 the rest. After: 715827883, 715827882 and 715827882 partitions.
    // m1 gives 715827883..1073741823 to m2 (357913941), m2 gives 1431655765.. to m3 (715827882).
    assert.equal(s.movedFraction, 1073741823 / 2147483647);
    assert.deepEqual(s.moved, []);
    assert.match(s.note!, /has 2147483647 partitions over its topics; listing every owner stops at 200000/);
    assert.match(s.rebalance!.summary, /1073741823 partitions of 2147483647 changed owner;/);
    assert.match(s.rebalance!.keyOrder.join(' '), /A partition moves whole/);
    assert.doesNotMatch(s.rebalance!.keyOrder.join(' '), /No partition changed owner/);
    // user-1 is on partition 1404122828: m2's before and after.
    assert.deepEqual(run.keys[0], { key: 'user-1', topic: 'orders', before: { partition: 1404122828, member: 'm2' }, after: { partition: 1404122828, member: 'm2' }, moved: false });
  });

  test('from observed owners past 50,000 partitions: the report is the step\'s before', () => {
    const owners = Array.from({ length: 60_000 }, (_, p) => (p < 59_990 ? 'm1' : null));
    const topo = topology([{ name: 'g', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }], observed: { owners: { orders: owners } } }], [{ name: 'orders', system: 'kafka', partitions: 60_000 }]);
    const r = topo.group('g')!.apply({ kind: 'plus', id: 'm3' });
    assert.ok(r.ok);
    // After: m1 0..19999, m2 20000..39999, m3 40000..59999. m1 had everything below 59990.
    assert.equal(r.value.moved, 59_990 - 20_000);
    assert.equal(r.value.added, 10);
    assert.equal(movedPartitions(r.value).length, 39_990);
  });
});
