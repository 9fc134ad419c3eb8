import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyToTopics, listChange } from '../../src/extension/panel/applyTopics';
import { applyToGroups } from '../../src/extension/panel/applyGroups';
import { parseSettings } from '../../src/engine/settings';

const topics = () => [
  { name: 'orders', system: 'kafka', partitions: 6 },
  {
    name: 'persistent://public/default/p',
    system: 'pulsar',
    partitions: 4,
    subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'STICKY', consumers: [{ name: 'E1', ranges: [[0, 100]] }] },
  },
  { name: 'persistent://public/default/q', system: 'pulsar', subscription: { consumers: ['C1', 'C2'] } },
];

describe('"Apply to settings" from the panel', () => {
  test('changes only the named entry, and never the array it was given', () => {
    const current = topics();
    const snapshot = JSON.stringify(current);
    const r = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8 });
    assert.ok(!('error' in r));
    assert.deepEqual(r.changes, ['partitions: 6 → 8']);
    assert.deepEqual(r.topics[0], { name: 'orders', system: 'kafka', partitions: 8 });
    assert.deepEqual(r.topics.slice(1), current.slice(1));
    assert.equal(JSON.stringify(current), snapshot);
  });

  test('writes the consumers in order, keeping the rest of the subscription', () => {
    const r = applyToTopics(topics(), {
      type: 'applyToSettings',
      requestId: 1,
      topic: 'persistent://public/default/p',
      consumers: [{ name: 'E1', ranges: [[0, 100]] }, { name: 'E2', ranges: [[200, 300], [400, 500]] }],
    });
    assert.ok(!('error' in r));
    const sub = (r.topics[1] as { subscription: Record<string, unknown> }).subscription;
    assert.equal(sub.keySharedMode, 'STICKY');
    assert.deepEqual(sub.consumers, [{ name: 'E1', ranges: [[0, 100]] }, { name: 'E2', ranges: [[200, 300], [400, 500]] }]);
    assert.deepEqual(r.changes, ['consumers: 1 → 2, added E2']);
    // String consumers in the settings are read as names.
    const q = applyToTopics(topics(), { type: 'applyToSettings', requestId: 2, topic: 'persistent://public/default/q', consumers: [{ name: 'C1' }] });
    assert.ok(!('error' in q));
    assert.deepEqual(q.changes, ['consumers: 2 → 1, removed C2']);
  });

  test('refuses what the settings or the broker would refuse, naming the setting', () => {
    const err = (msg: Parameters<typeof applyToTopics>[1]) => {
      const r = applyToTopics(topics(), msg);
      assert.ok('error' in r, JSON.stringify(r));
      return r.error;
    };
    assert.match(err({ type: 'applyToSettings', requestId: 1, topic: 'nope', partitions: 3 }), /no topic named "nope"/);
    assert.match(err({ type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 0 }), /keyRouting\.topics\[0\]\.partitions: must be an integer from 1/);
    assert.match(err({ type: 'applyToSettings', requestId: 1, topic: 'orders', consumers: [{ name: 'C' }] }), /no Key_Shared subscription/);
    assert.match(err({ type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 6 }), /nothing to change/);
    // An overlapping STICKY range: the broker refuses the consumer.
    assert.match(
      err({ type: 'applyToSettings', requestId: 1, topic: 'persistent://public/default/p', consumers: [{ name: 'E1', ranges: [[0, 100]] }, { name: 'E2', ranges: [[50, 60]] }] }),
      /keyRouting\.topics\[1\]\.subscription\.consumers\[1\].*Range conflict with consumer E1/,
    );
    // Ranges outside STICKY mode are a settings error.
    assert.match(err({ type: 'applyToSettings', requestId: 1, topic: 'persistent://public/default/q', consumers: [{ name: 'C1', ranges: [[0, 1]] }] }), /ranges apply only in STICKY mode/);
    const notArray = applyToTopics({ not: 'an array' }, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8 });
    assert.ok('error' in notArray && /not an array/.test(notArray.error));
  });

  test('values String cannot write (a name or a count of {"toString": 0}) are named as JSON, not thrown on', () => {
    const odd = { toString: 0 };
    const current = topics();
    (current[2].subscription as { consumers: unknown[] }).consumers = [{ name: odd }, 'C2'];
    const r = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'persistent://public/default/q', consumers: [{ name: 'C1' }] });
    assert.ok(!('error' in r), JSON.stringify(r));
    assert.deepEqual(r.changes, ['consumers: 2 → 1, added C1; removed {"toString":0}, C2']);
    const counted = [{ name: 'orders', system: 'kafka', partitions: odd }];
    const c = applyToTopics(counted, { type: 'applyToSettings', requestId: 2, topic: 'orders', partitions: 8 });
    assert.ok(!('error' in c), JSON.stringify(c));
    assert.deepEqual(c.changes, ['partitions: {"toString":0} → 8']);
  });

  test('a broker report on the topic is removed with the change it no longer describes', () => {
    const current = [
      {
        name: 't',
        system: 'pulsar',
        subscription: { consistentHashing: false, consumers: [{ name: 'C1' }], observed: { consumers: [{ name: 'C1', ranges: [[0, 65536]] }] } },
      },
    ];
    const r = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 't', consumers: [{ name: 'C1' }, { name: 'C2' }] });
    assert.ok(!('error' in r), JSON.stringify(r));
    assert.deepEqual((r.topics[0] as { subscription: Record<string, unknown> }).subscription, { consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }] });
    assert.deepEqual(r.changes, ['consumers: 1 → 2, added C2', 'observed: the broker\u2019s report no longer describes this topic (removed)']);
    assert.ok('observed' in current[0].subscription, 'the given settings are not changed');
  });

  test('a grown Kafka topic takes the stale reports of the groups on it along, and the settings it writes parse', () => {
    // Imported as kafka-consumer-groups.sh --describe showed them: two groups on orders, one on payments only.
    const current = [{ name: 'orders', system: 'kafka', partitions: 6 }, { name: 'payments', system: 'kafka', partitions: 2 }];
    const seen = (name: string, owners: Record<string, Array<string | null>>) => ({ name, assignor: 'range', topics: Object.keys(owners), members: [{ id: 'a' }, { id: 'b' }], observed: { at: '2026-12-01T10:00:00Z', owners } });
    const billingSeen = seen('billing', { orders: ['a', 'a', 'a', 'b', 'b', 'b'] });
    const auditSeen = seen('audit', { orders: ['a', 'b', 'a', 'b', 'a', 'b'], payments: ['a', 'b'] });
    const groups = [
      billingSeen,
      auditSeen,
      seen('refunds', { payments: ['b', 'a'] }),
      { name: 'fresh', assignor: 'range', topics: ['orders'], members: [{ id: 'x' }] },
    ];
    const given = JSON.stringify(groups);
    // Without the change, the settings would refuse both reports on orders: they list 6 of 8 partitions.
    const stale = parseSettings({ 'keyRouting.topics': [{ ...current[0], partitions: 8 }, current[1]], 'keyRouting.kafkaGroups': groups }).problems;
    assert.deepEqual(stale.map((p) => /^keyRouting\.kafkaGroups\[\d\]/.exec(p.path)?.[0]), ['keyRouting.kafkaGroups[0]', 'keyRouting.kafkaGroups[1]']);

    const r = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8 }, groups);
    assert.ok(!('error' in r), JSON.stringify(r));
    assert.deepEqual(r.changes, [
      'partitions: 6 → 8',
      'observed: the broker\u2019s report no longer describes group billing (removed)',
      'observed: the broker\u2019s report no longer describes group audit (removed)',
    ]);
    const { observed: _b, ...billing } = billingSeen;
    const { observed: _a, ...audit } = auditSeen;
    assert.deepEqual(r.groups, [billing, audit, groups[2], groups[3]]);
    assert.equal(r.groups![2], groups[2], 'a group reporting other topics only is kept as it is');
    assert.deepEqual(parseSettings({ 'keyRouting.topics': r.topics, 'keyRouting.kafkaGroups': r.groups }).problems, []);
    assert.equal(JSON.stringify(groups), given, 'the given settings are not changed');

    // Nothing about groups is written where the count stays, or no group reported the topic.
    const same = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'payments', partitions: 3 }, [groups[0], groups[3]]);
    assert.ok(!('error' in same) && same.groups === undefined && same.changes.length === 1, JSON.stringify(same));
    assert.equal((applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8 }) as { groups?: unknown }).groups, undefined);
  });

  test('an Apply that would break another entry is refused naming it; a problem the settings had already does not block one', () => {
    const current = [{ name: 'orders', system: 'kafka', partitions: 6 }, { name: 'typed', system: 'kafka', partitions: 12 }];
    const groups = [{ name: 'billing', assignor: 'cooperative-sticky', topics: ['orders', 'typed'], members: [{ id: 'm1' }] }];
    // cooperative-sticky is followed partition by partition up to 50,000 over the group's topics: 49,989 + 12 is past it.
    const past = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 49_989 }, groups);
    assert.ok('error' in past && past.error.startsWith('keyRouting.kafkaGroups[0].topics: its topics have 50001 partitions'), JSON.stringify(past));
    const within = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 49_988 }, groups);
    assert.ok(!('error' in within), JSON.stringify(within));
    // A broken entry elsewhere (a topic without a system) stays the user's to mend.
    const broken = [...current, { name: 'half-typed' }];
    assert.ok(parseSettings({ 'keyRouting.topics': broken }).problems.length > 0);
    const r = applyToTopics(broken, { type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8 }, groups);
    assert.ok(!('error' in r), JSON.stringify(r));
    assert.equal((r.topics[0] as { partitions: number }).partitions, 8);
  });

  test('a long list\'s change is said by its lengths and the names added and removed, not name by name', () => {
    assert.equal(listChange('consumers', [], ['a']), 'consumers: 0 → 1, added a');
    const fleet = Array.from({ length: 2000 }, (_, i) => `fleet-${i}`);
    assert.equal(listChange('consumers', fleet, [...fleet, 'extra-1']), 'consumers: 2000 → 2001, added extra-1');
    assert.equal(listChange('consumers', fleet, fleet.filter((n) => n !== 'fleet-7')), 'consumers: 2000 → 1999, removed fleet-7');
    // A name twice: the second is an addition.
    assert.equal(listChange('consumers', fleet, [...fleet, 'fleet-3', 'x']), 'consumers: 2000 → 2002, added fleet-3, x');
    // Several: each one.
    assert.equal(listChange('consumers', fleet.slice(3), [...fleet.slice(5), 'new-0', 'new-1']), 'consumers: 1997 → 1997, added new-0, new-1; removed fleet-3, fleet-4');
    // The same names: a leave and a join of one consumer (now last), or other ranges.
    assert.equal(listChange('consumers', fleet, [...fleet.slice(1), fleet[0]]), 'consumers: 2000 → 2000, the same names, otherwise changed');
  });

  test('Apply on a subscription of 2,000 consumers and on a group of 500 members: the change in a line, the whole list written', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `fleet-${i}`);
    const current = [{ name: 't', system: 'pulsar', partitions: 0, subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consumers: names.map((name) => ({ name })) } }];
    const r = applyToTopics(current, { type: 'applyToSettings', requestId: 1, topic: 't', consumers: [...names, 'extra-1'].map((name) => ({ name })) });
    assert.ok(!('error' in r), JSON.stringify(r).slice(0, 300));
    assert.deepEqual(r.changes, ['consumers: 2000 → 2001, added extra-1']);
    const written = (r.topics[0] as { subscription: { consumers: Array<{ name: string }> } }).subscription.consumers;
    assert.deepEqual(written.map((c) => c.name), [...names, 'extra-1']);

    const ids = Array.from({ length: 500 }, (_, i) => `consumer-${i}`);
    const topics = [{ name: 'events', system: 'kafka', partitions: 10000 }];
    const groups = [{ name: 'g', assignor: 'range', topics: ['events'], members: ids.map((id) => ({ id })) }];
    const g = applyToGroups(groups, topics, { type: 'applyGroupToSettings', requestId: 2, group: 'g', members: ids.filter((id) => id !== 'consumer-9').map((id) => ({ id })) });
    assert.ok(!('error' in g), JSON.stringify(g).slice(0, 300));
    assert.deepEqual(g.changes, ['group g members: 500 → 499, removed consumer-9']);
    assert.equal((g.groups[0] as { members: unknown[] }).members.length, 499);
  });
});
