/**
 * `import kafka-groups` and `import kafka-topics` on the tools' own output (data/observed, laid
 * out with ConsumerGroupCommand's and TopicCommand's format strings): the settings entries they
 * give, in the shape of CONTRACT.md sections 3 and 4, and the messages for other text.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importKafkaGroups } from '../../src/import/kafkaGroups';
import { importKafkaTopics } from '../../src/import/kafkaTopics';
import { ImportError } from '../../src/import/errors';
import { parseSettings } from '../../src/engine/settings';
import { importReport, mergeImported } from '../../src/import';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const read = (f: string) => readFileSync(join(DATA, f), 'utf8');

/** The member ids of the billing fixture, by client id. */
function billingMembers(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(consumer-billing-(\d)-[0-9a-f-]{36})/g)) out[`m${m[2]}`] = m[1];
  return out;
}

describe('import kafka-groups', () => {
  test('--describe of one group: owners per partition, topics added with highest partition + 1', () => {
    const text = read('kafka-groups-describe.txt');
    const m = billingMembers(text);
    const r = importKafkaGroups(text, { source: 'g.txt' });
    assert.deepEqual(r.groups, [
      {
        name: 'billing',
        assignor: 'range',
        topics: ['orders', 'payments'],
        // In the order the rows first name them (the tool lists members by partition count).
        members: [{ id: m.m2 }, { id: m.m1 }, { id: m.m3 }],
        observed: {
          owners: {
            orders: [m.m1, m.m1, m.m2, m.m2, m.m3, m.m3],
            payments: [m.m1, m.m2, m.m3],
          },
        },
      },
    ]);
    assert.deepEqual(r.topics, [
      { name: 'orders', system: 'kafka', partitions: 6 },
      { name: 'payments', system: 'kafka', partitions: 3 },
    ]);
    const notes = r.notes.join('\n');
    assert.match(notes, /has committed offsets on legacy-orders but no member owns any of its partitions: left out of the group's topics/);
    assert.match(notes, /orders is not in the settings: added with 6 partitions, the highest the output shows \+ 1/);
  });

  test('topics in the settings keep their count (more partitions than listed: unowned at the end)', () => {
    const base = { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 8, partitioner: 'java' }], 'keyRouting.kafkaGroups': [{ name: 'billing', assignor: 'sticky', topics: ['orders'], members: [] }] };
    const r = importKafkaGroups(read('kafka-groups-describe.txt'), { source: 'g.txt', base });
    const owners = (r.groups[0].observed as { owners: Record<string, unknown[]> }).owners;
    assert.equal(owners.orders.length, 8);
    assert.deepEqual(owners.orders.slice(6), [null, null]);
    assert.equal(r.groups[0].assignor, 'sticky', 'the settings’ assignor where neither --assignor nor --state says');
    assert.deepEqual(r.topics.map((t) => t.name), ['payments'], 'orders is unchanged');
    const grown = importKafkaGroups(read('kafka-groups-describe.txt'), { source: 'g.txt', base: { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 4, partitioner: 'java' }] } });
    assert.deepEqual(grown.topics[0], { name: 'orders', system: 'kafka', partitions: 6, partitioner: 'java' });
    assert.match(grown.notes.join('\n'), /orders: the output shows partition 5, so the topic has at least 6 partitions; the settings said 4/);
    assert.throws(() => importKafkaGroups(read('kafka-groups-describe.txt'), { source: 'g.txt', base: { 'keyRouting.topics': [{ name: 'orders', system: 'pulsar' }] } }), /lists Kafka topic orders, which the settings have as a "pulsar" topic/);
  });

  test('--all-groups: an empty group, a rebalancing one, and --assignor', () => {
    const r = importKafkaGroups(read('kafka-groups-all.txt'), { source: 'all.txt', assignor: 'cooperative-sticky' });
    assert.deepEqual(r.groups.map((g) => g.name), ['audit', 'billing', 'shipping']);
    const audit = r.groups[0];
    assert.deepEqual(audit.members, []);
    assert.deepEqual(audit.topics, ['orders']);
    assert.deepEqual((audit.observed as { owners: unknown }).owners, { orders: [null, null, null, null, null, null] });
    for (const g of r.groups) assert.equal(g.assignor, 'cooperative-sticky');
    assert.match(r.notes.join('\n'), /consumer group 'shipping' was rebalancing when described: its owners may be partial/);
    assert.deepEqual(r.topics.map((t) => [t.name, t.partitions]), [['orders', 6], ['payments', 3], ['shipments', 2]]);
  });

  test('--all-groups where a group lists fewer partitions of a topic than a later one: its owners cover them all', () => {
    // audit has no committed offset on orders-5; billing, described after it, owns orders-5. The
    // topic has 6 partitions, and audit's owners listed 5 of them: settings every command refused.
    const text = read('kafka-groups-all.txt').replace(/^audit +orders +5 .*\n/m, '');
    const r = importKafkaGroups(text, { source: 'all.txt' });
    assert.deepEqual(r.topics.map((t) => [t.name, t.partitions]), [['orders', 6], ['payments', 3], ['shipments', 2]]);
    assert.deepEqual((r.groups[0].observed as { owners: unknown }).owners, { orders: [null, null, null, null, null, null] });
    const settings = { 'keyRouting.topics': r.topics, 'keyRouting.kafkaGroups': r.groups };
    assert.deepEqual(parseSettings(settings).problems, []);
  });

  test('a partition past 199,999 is refused: its owners would be written one per partition (99,999,999 ran out of memory)', () => {
    const row = (p: number) => `GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\nbilling         orders          ${p}   5909            5914            5               c1              /10.1.0.12      consumer-billing-2\n`;
    assert.throws(() => importKafkaGroups(row(99_999_999), { source: 'g.txt' }), /g\.txt: line 2: partition 99999999 is out of range \(0-199999\)/);
    assert.throws(() => importKafkaGroups(row(200_000), { source: 'g.txt' }), /partition 200000 is out of range/);
    const r = importKafkaGroups(row(199_999), { source: 'g.txt' });
    assert.equal(r.topics[0].partitions, 200_000);
    assert.equal(((r.groups[0].observed as { owners: Record<string, unknown[]> }).owners.orders).length, 200_000);
  });

  test('130,000 listed partitions of a topic: its count is the highest + 1 (as arguments to Math.max they overflowed the stack)', () => {
    const header = 'GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\n';
    const rows = Array.from({ length: 130_000 }, (_, p) => `billing orders ${p} 5909 5914 5 c${p % 3} /10.1.0.12 consumer-billing-2\n`);
    const r = importKafkaGroups(header + rows.join(''), { source: 'g.txt' });
    assert.equal(r.topics[0].partitions, 130_000);
    const owners = (r.groups[0].observed as { owners: Record<string, string[]> }).owners.orders;
    assert.deepEqual([owners.length, owners[0], owners[129_999]], [130_000, 'c0', 'c0']);
  });

  test('settings that give the topic more than 200,000 partitions are refused: the owners would be written one per partition (2,147,483,647 ran out of memory)', () => {
    const text = `GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\nbilling         orders          3          5909            5914            5               c1              /10.1.0.12      consumer-billing-2\n`;
    const base = (partitions: number) => ({ 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions }] });
    assert.throws(() => importKafkaGroups(text, { source: 'g.txt', base: base(2_147_483_647) }), /g\.txt: orders has 2147483647 partitions in the settings: out of range \(1-200000\)/);
    assert.throws(() => importKafkaGroups(text, { source: 'g.txt', base: base(200_001) }), /orders has 200001 partitions in the settings/);
    const r = importKafkaGroups(text, { source: 'g.txt', base: base(200_000) });
    assert.equal(((r.groups[0].observed as { owners: Record<string, unknown[]> }).owners.orders).length, 200_000);
  });

  test('--members --verbose: members without partitions; Kafka 3.7-3.9 assignments without their topic', () => {
    const scala = importKafkaGroups(read('kafka-groups-members-verbose-2.x.txt'), { source: 'm.txt' });
    const ids = (scala.groups[0].members as Array<{ id: string }>).map((x) => x.id.replace(/-[0-9a-f-]{36}$/, ''));
    assert.deepEqual(ids, ['consumer-1', 'consumer-2', 'consumer-3'], 'consumer-3 has no partitions and is a member');
    const owners = (scala.groups[0].observed as { owners: Record<string, string[]> }).owners;
    assert.deepEqual(Object.keys(owners), ['orders', 'payments']);
    assert.deepEqual(owners.orders.map((x) => x.slice(0, 10)), ['consumer-1', 'consumer-1', 'consumer-1', 'consumer-2', 'consumer-2', 'consumer-2']);

    const text = read('kafka-groups-members-verbose.txt');
    assert.throws(() => importKafkaGroups(text, { source: 'm.txt' }), /the ASSIGNMENT column of group 'pricing' lists partitions without their topic \(as kafka-consumer-groups\.sh of Kafka 3\.7 to 3\.9 prints them\) and the group has no topic named elsewhere/);
    // With the offsets view of the same group in the file, the partitions are the group's one topic's.
    const offsets = '\nGROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\npricing         prices          3          10              12              2               -               -               -\n';
    const both = importKafkaGroups(text + offsets, { source: 'm.txt' });
    const members = (both.groups[0].members as Array<{ id: string }>).map((x) => x.id);
    assert.equal(members.length, 3);
    assert.deepEqual((both.groups[0].observed as { owners: Record<string, string[]> }).owners.prices, [members[0], members[1], members[0], members[1]]);
  });

  test('--state gives the assignor', () => {
    const r = importKafkaGroups(read('kafka-groups-state.txt') + read('kafka-groups-describe.txt'), { source: 's.txt' });
    assert.equal(r.groups[0].assignor, 'cooperative-sticky');
  });

  const bad: Array<[string, string, RegExp]> = [
    ['the tool’s error', read('bad-kafka-groups-error.txt'), /^x: is an error message, not a group description: "Error: Executing consumer group command failed due to org\.apache\.kafka\.common\.errors\.TimeoutException/],
    ['a group that does not exist', read('bad-kafka-groups-missing.txt'), /^x: the output says the consumer group 'biling' does not exist$/],
    ['--list output', 'billing\naudit\nshipping\n', /looks like the output of kafka-consumer-groups\.sh --list/],
    ['nothing', '\n\n', /^x: is empty/],
    ['kafka-topics output', read('kafka-topics-describe.txt'), /import it as kafka-topics$/],
    ['a pre-2.0 table without GROUP', 'TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\norders 0 1 2 1 c-1 /h c\n', /line 1: this table has no GROUP column/],
    ['a broken row', '\nGROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\nbilling         orders          x          1               2               1               c-1             /h              c\n', /^x: line 3: "billing +orders +x .*" is not a row of the table above it \(GROUP TOPIC PARTITION/],
    ['two owners', '\nGROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID\ng       t       0          1               2               1    a            /h    a\ng       t       0          1               2               1    b            /h    b\n', /t partition 0 of group 'g' is owned by a and by b/],
  ];
  for (const [what, text, message] of bad) {
    test(`refused: ${what}`, () => {
      assert.throws(() => importKafkaGroups(text, { source: 'x' }), (e: Error) => e instanceof ImportError && message.test(e.message));
    });
  }
});

describe('import kafka-topics', () => {
  test('a PartitionCount outside Kafka\'s int32 counts is refused, not written as settings every command refuses', () => {
    const text = read('kafka-topics-describe.txt');
    for (const count of ['0', '2147483648', '99999999999']) {
      const changed = text.replace(/PartitionCount:\s*\d+/, `PartitionCount: ${count}`);
      assert.throws(() => importKafkaTopics(changed, { source: 't.txt' }), new RegExp(`has PartitionCount ${count}; a Kafka topic has 1 to 2147483647 partitions`));
    }
    const max = importKafkaTopics(text.replace(/PartitionCount:\s*\d+/, 'PartitionCount: 2147483647'), { source: 't.txt' });
    assert.equal(max.topics[0].partitions, 2147483647);
    assert.deepEqual(parseSettings({ 'keyRouting.topics': max.topics }).problems, []);
  });

  test('partition counts and topic ids (Kafka 3.x / 4.0)', () => {
    const r = importKafkaTopics(read('kafka-topics-describe.txt'), { source: 't.txt' });
    assert.deepEqual(r.topics, [
      { name: 'orders', system: 'kafka', partitions: 6, topicId: 'GgSK5_X1Pp6B_v5u4SBqxg' },
      { name: 'payments', system: 'kafka', partitions: 3, topicId: 'Xl0Q2iLvSaW2Ni3s_ejN4A' },
    ]);
    assert.deepEqual(r.notes, []);
  });

  test('Kafka 2.2 (no TopicId, no space after the colons); the settings’ other fields kept', () => {
    const r = importKafkaTopics(read('kafka-topics-describe-2.2.txt'), { source: 't.txt', base: { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 3, partitioner: 'java', topicId: 'GgSK5_X1Pp6B_v5u4SBqxg' }] } });
    assert.deepEqual(r.topics, [{ name: 'orders', system: 'kafka', partitions: 6, partitioner: 'java', topicId: 'GgSK5_X1Pp6B_v5u4SBqxg' }]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['only partition lines', '\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n', /lists partitions but no topic line.*--under-replicated-partitions/],
    ['a bad topic id', 'Topic: orders\tTopicId: nope\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n', /line 1: TopicId "nope" is not a Kafka topic id/],
    ['a partition past the count', 'Topic: orders\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n\tTopic: orders\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\n', /orders has PartitionCount 1 but a line for partition 1/],
    ['something else', 'hello world\n', /line 1: "hello world" is not a line of kafka-topics\.sh --describe/],
  ];
  for (const [what, text, message] of bad) {
    test(`refused: ${what}`, () => {
      assert.throws(() => importKafkaTopics(text, { source: 'x' }), (e: Error) => e instanceof ImportError && message.test(e.message));
    });
  }
});

describe('an import that changes a topic\'s partition count', () => {
  const seen = (name: string, topic: string, owners: string[]) => ({ name, assignor: 'range', topics: [topic], members: [{ id: 'a' }], observed: { owners: { [topic]: owners } } });
  const groupsOf = (settings: Record<string, unknown>) => settings['keyRouting.kafkaGroups'] as Array<Record<string, unknown>>;
  const note = (group: string) => `observed: the broker\u2019s report no longer describes group ${group} (removed)`;

  test('kafka-topics: the reports of the settings\' groups on that topic go, with a note; the others stay', () => {
    const base = {
      'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 3 }, { name: 'payments', system: 'kafka', partitions: 3 }],
      'keyRouting.kafkaGroups': [seen('billing', 'orders', ['a', 'a', 'a']), seen('pay', 'payments', ['a', 'a', 'a']), { name: 'plain', assignor: 'range', topics: ['orders'], members: [{ id: 'a' }] }],
    };
    const given = JSON.stringify(base);
    // orders goes from 3 to 6 partitions; payments stays at 3.
    const r = importReport('kafka-topics', read('kafka-topics-describe.txt'), { source: 't.txt', base });
    const after = mergeImported(base, r);
    assert.deepEqual(groupsOf(after), [{ name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'a' }] }, ...base['keyRouting.kafkaGroups'].slice(1)]);
    assert.deepEqual(r.notes, [note('billing')]);
    // Before the change, billing was refused: "must list the owner of each of orders's 6 partitions".
    assert.deepEqual(parseSettings(after).problems, []);
    assert.equal(JSON.stringify(base), given, 'the settings it was given are left as they were');
  });

  test('kafka-groups: a higher partition than the settings say grows the topic; the group imported again has its new report, another on the topic loses its old one', () => {
    const text = read('kafka-groups-describe.txt');
    const base = { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 4 }], 'keyRouting.kafkaGroups': [seen('billing', 'orders', ['a', 'a', 'a', 'a']), seen('other', 'orders', ['a', 'a', 'a', 'a'])] };
    const r = importReport('kafka-groups', text, { source: 'g.txt', base });
    const after = mergeImported(base, r);
    assert.deepEqual(groupsOf(after).map((g) => [g.name, (g.observed as { owners: Record<string, unknown[]> } | undefined)?.owners.orders.length]), [['billing', 6], ['other', undefined]]);
    assert.ok(r.notes.includes(note('other')) && !r.notes.includes(note('billing')), r.notes.join('\n'));
    assert.deepEqual(parseSettings(after).problems, []);
    // The same output where the settings already have its counts takes nobody's report.
    const same = { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }, { name: 'payments', system: 'kafka', partitions: 3 }], 'keyRouting.kafkaGroups': [seen('other', 'orders', ['a', 'a', 'a', 'a', 'a', 'a'])] };
    const kept = importReport('kafka-groups', text, { source: 'g.txt', base: same });
    assert.deepEqual(groupsOf(mergeImported(same, kept))[0], same['keyRouting.kafkaGroups'][0]);
    assert.ok(!kept.notes.some((n) => n.includes('no longer describes')));
  });
});
