/**
 * `key-routing import` as a user runs it: the settings object it prints (the --config settings
 * with the imported entries in place of same-named ones), notes on stderr, exit 2 with one line
 * for a bad report or usage, and the printed settings fed to route / ranges / what-if.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { cli, cliText, configFile } from './cliRun';
import { scratchDir } from './scratch';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const file = (f: string) => join(DATA, f);

async function runImport(args: string[], stdin = '') {
  const r = await cliText(['import', ...args], stdin, { cwd: process.cwd() });
  return { ...r, settings: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

describe('key-routing import', () => {
  test('pulsar-stats into --config: the same-named topic replaced in place, the rest kept', async () => {
    const base = {
      'keyRouting.topics': [
        { name: 'orders', system: 'kafka', partitions: 6 },
        { name: 'persistent://public/default/payments', system: 'pulsar', hashingScheme: 'Murmur3_32Hash', partitions: 2 },
        { name: 'clicks', system: 'kafka', partitions: 3 },
      ],
      'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
      'editor.fontSize': 13,
    };
    const r = await runImport(['pulsar-stats', file('pulsar-4.0-partitioned.json'), '--config', configFile(base)]);
    assert.equal(r.code, 0, r.stderr);
    const topics = r.settings['keyRouting.topics'];
    assert.deepEqual(topics.map((t: { name: string }) => t.name), ['orders', 'persistent://public/default/payments', 'clicks']);
    assert.equal(topics[1].partitions, 3, 'the report has 3 partitions');
    assert.equal(topics[1].hashingScheme, 'Murmur3_32Hash');
    assert.equal(topics[1].subscription.observedPartitions.length, 3);
    assert.deepEqual(r.settings['keyRouting.pulsarNamespaces'], base['keyRouting.pulsarNamespaces']);
    assert.equal(r.settings['editor.fontSize'], 13);
    assert.match(r.stderr, /^key-routing: note: hashingScheme Murmur3_32Hash kept from the settings/m);
  });

  test('kafka-topics that grow a topic: a group of the settings reporting its old count loses the report, with a note, and the printed settings route', async () => {
    const base = {
      'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 3 }],
      'keyRouting.kafkaGroups': [{ name: 'seen', assignor: 'range', topics: ['orders'], members: [{ id: 'r1' }, { id: 'r2' }], observed: { owners: { orders: ['r1', 'r1', 'r2'] } } }],
    };
    const r = await runImport(['kafka-topics', file('kafka-topics-describe.txt'), '--config', configFile(base)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^key-routing: note: observed: the broker\u2019s report no longer describes group seen \(removed\)$/m);
    assert.deepEqual(r.settings['keyRouting.kafkaGroups'], [{ name: 'seen', assignor: 'range', topics: ['orders'], members: [{ id: 'r1' }, { id: 'r2' }] }]);
    // The range assignor over orders's 6 partitions: user-1 is on partition 2, r1's.
    const route = await cli(['route', '--config', configFile(r.stdout), '--topic', 'orders'], 'user-1\n');
    assert.equal(route.code, 0, route.stderr);
    assert.deepEqual(route.lines[0].groups, { seen: 'r1' });
  });

  test('the printed settings route, list and what-if from the report', async () => {
    const r = await runImport(['pulsar-stats', file('pulsar-4.0-auto-split-draining.json'), '--topic', 'persistent://public/default/orders']);
    assert.equal(r.code, 0, r.stderr);
    const config = configFile(r.stdout);
    const route = await cli(['route', '--config', config], 'order-0\norder-2\n');
    assert.equal(route.code, 0, route.stderr);
    assert.deepEqual(route.lines[0], {
      key: 'order-0',
      topic: 'persistent://public/default/orders',
      system: 'pulsar',
      partition: null,
      stickyKeyHash: 17872,
      consumer: 'C4',
      range: [16385, 40960],
      observed: true,
      draining: { consumer: 'C1', unackMsgs: 2 },
    });
    assert.equal(route.lines[1].draining, undefined);
    const ranges = await cli(['ranges', '--config', config, '--topic', 'persistent://public/default/orders']);
    assert.deepEqual(ranges.lines[0], {
      topic: 'persistent://public/default/orders',
      keyHashRange: [0, 65535],
      assignments: [
        { start: 0, end: 16384, consumers: ['C3'] },
        { start: 16385, end: 40960, consumers: ['C4'] },
        { start: 40961, end: 65535, consumers: ['C1'] },
      ],
      observed: true,
    });
    // C3 leaving: its range merges into the consumer above it, C4 (not into the top).
    const w = await cli(['what-if', '--config', config, '--topic', 'persistent://public/default/orders', '--then', '-C3'], 'order-0\n');
    assert.equal(w.code, 0, w.stderr);
    assert.deepEqual(w.lines[0].steps[0].lost, { C3: [[0, 16384]] });
    assert.deepEqual(w.lines[0].steps[0].gained, { C4: [[0, 16384]] });
    assert.equal(w.lines[0].keys[0].before.observed, true);
    assert.equal(w.lines[0].keys[0].after.observed, undefined);
    const after = await cli(['ranges', '--config', config, '--topic', 'persistent://public/default/orders', '--then', '+C5']);
    assert.equal(after.lines[0].observed, undefined);
  });

  test('a cooperative-sticky group of 60,000 partitions: its report routes keys, its rebalances are refused with the reason', async () => {
    // The settings it printed were refused whole (the assignor is followed up to 50,000 partitions):
    // route exited 2 and no key got its member.
    const rows = Array.from({ length: 60_000 }, (_, p) => `billing  orders  ${p}  10  10  0  m${(p % 3) + 1}-7f3a  /10.0.0.1  c`);
    const text = `\nGROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID\n${rows.join('\n')}\n`;
    const r = await runImport(['kafka-groups', '-', '--assignor', 'cooperative-sticky'], text);
    assert.equal(r.code, 0, r.stderr);
    const config = configFile(r.stdout);
    const route = await cli(['route', '--config', config], 'user-1\n');
    assert.equal(route.code, 0, route.stderr);
    // murmur2: user-1 is on partition 2828 of 60,000, which the report gives m3.
    assert.deepEqual(route.lines[0], { key: 'user-1', topic: 'orders', system: 'kafka', partition: 2828, hash: 1404122828, groups: { billing: 'm3-7f3a' }, observed: true });
    const w = await cli(['what-if', '--config', config, '--group', 'billing', '--then', '+m4']);
    assert.equal(w.code, 0, w.stderr);
    assert.equal(w.lines[0].steps[0].error, 'with 60000 partitions over the group\'s topics: the cooperative-sticky assignor is followed partition by partition up to 50000');
  });

  test('ranges --partition: each partition of a per-partition report as the broker reported it', async () => {
    // Partition 1 reported C2 up to 40960, partitions 0 and 2 up to 32768 (pulsar-4.0-partitioned.json).
    const r = await runImport(['pulsar-stats', file('pulsar-4.0-partitioned.json')]);
    assert.equal(r.code, 0, r.stderr);
    const config = configFile(r.stdout);
    const ranges = async (...more: string[]) => cli(['ranges', '--config', config, '--topic', 'payments', ...more]);
    const c2 = (line: { assignments: Array<{ start: number; end: number; consumers: string[] }> }) => line.assignments.find((a) => a.consumers[0] === 'C2');
    const [p0, p1, p2] = await Promise.all([ranges('--partition', '0'), ranges('--partition', '1'), ranges('--partition', '2')]);
    assert.deepEqual([p0.lines[0].partition, p1.lines[0].partition, p2.lines[0].partition], [0, 1, 2]);
    assert.deepEqual([c2(p0.lines[0]), c2(p1.lines[0]), c2(p2.lines[0])].map((a) => [a!.start, a!.end]), [[16385, 32768], [16385, 40960], [16385, 32768]]);
    assert.ok(p1.lines[0].observed);
    // Each equals the report's own ranges for that partition.
    const reported = JSON.parse(r.stdout)['keyRouting.topics'][0].subscription.observedPartitions[1].consumers.find((c: { name: string }) => c.name === 'C2').ranges;
    assert.deepEqual(reported, [[16385, 40960]]);
    // Without --partition: partition 0, and no "partition" field (the contract's shape).
    const plain = await ranges();
    assert.deepEqual(plain.lines[0], (({ partition: _p, ...rest }) => rest)(p0.lines[0]));
    // A partition a partitions=N event added starts fresh, not observed; a consumer event ends the report.
    const added = await ranges('--then', 'partitions=4', '--partition', '3');
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.lines[0].observed, undefined);
    assert.equal((await ranges('--then', '+C9', '--partition', '1')).lines[0].observed, undefined);
    const table = await cliText(['ranges', '--config', config, '--topic', 'payments', '--partition', '1', '--format', 'table']);
    assert.match(table.stdout, /^persistent:\/\/public\/default\/payments partition 1: key hash range 0-65535, 3 segments\n/);
    for (const [args, re] of [
      [['--partition', '3'], /--partition must be a partition of persistent:\/\/public\/default\/payments, 0 to 2 \(got "3"\)/],
      [['--partition', '-1'], /0 to 2 \(got "-1"\)/],
      [['--partition', '1.5'], /0 to 2 \(got "1\.5"\)/],
    ] as const) {
      const bad = await ranges(...args);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, re);
    }
    const unpartitioned = configFile({ 'keyRouting.topics': [{ name: 'persistent://public/default/t', system: 'pulsar', subscription: { consumers: [{ name: 'C1' }] } }] });
    const none = await cli(['ranges', '--config', unpartitioned, '--topic', 't', '--partition', '0']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--partition: persistent:\/\/public\/default\/t is not partitioned; leave --partition out/);
  });

  test('a 4.x ring with a single consumer: the note says what the rebuild assumes', async () => {
    const stats = JSON.parse(require('node:fs').readFileSync(file('pulsar-4.0-ring.json'), 'utf8'));
    const consumers = stats.subscriptions.sub.consumers;
    stats.subscriptions.sub.consumers = [{ ...consumers[0], keyHashRangeArrays: [[1, 65535]] }];
    const r = await runImport(['pulsar-stats', '-', '--topic', 't'], JSON.stringify(stats));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /key-routing: note: the report does not show c0's name index \(none of its ranges ends at one of its points\); the rebuilt ring gives it 0/);
    const w = await cli(['what-if', '--config', configFile(r.stdout), '--topic', 't', '--then', '+d']);
    assert.match(w.lines[0].note, /What-if steps start from the rebuilt ring/);
  });

  const bad: Array<[string[], RegExp]> = [
    [['pulsar-stats', file('bad-pulsar-truncated.json'), '--topic', 't'], /^key-routing: .*bad-pulsar-truncated\.json: is truncated: /],
    [['pulsar-stats', file('bad-pulsar-no-key-shared.json'), '--topic', 't'], /^key-routing: .*bad-pulsar-no-key-shared\.json: has no Key_Shared subscription/],
    [['pulsar-stats', file('bad-pulsar-two-key-shared.json'), '--topic', 't'], /pick one with --subscription$/],
    [['pulsar-stats', file('pulsar-3.0-sticky.json')], /^key-routing: --topic is required: /],
    [['kafka-groups', file('bad-kafka-groups-error.txt')], /^key-routing: .*bad-kafka-groups-error\.txt: is an error message, not a group description: "Error: Executing consumer group command failed due to/],
    [['kafka-groups', file('kafka-topics-describe.txt')], /is the output of kafka-topics\.sh --describe, not of kafka-consumer-groups\.sh --describe; import it as kafka-topics$/],
    [['kafka-topics', file('kafka-groups-describe.txt')], /is the output of kafka-consumer-groups\.sh, not of kafka-topics\.sh --describe; import it as kafka-groups$/],
    [['kafka-topics', file('bad-kafka-topics-error.txt')], /is an error message, not a topic description: "Error while executing topic command : Topic 'order' does not exist as expected"$/],
    [['kafka-groups', file('kafka-groups-describe.txt'), '--assignor', 'fair'], /^key-routing: --assignor: must be one of range, roundrobin, sticky, cooperative-sticky, uniform, server-range \(got "fair"\)$/],
    [['pulsar', 'x.json'], /^key-routing: import: KIND must be one of pulsar-stats, kafka-groups, kafka-topics \(got "pulsar"\)$/],
    [['kafka-topics'], /^key-routing: import kafka-topics: give the FILE to import/],
    [['kafka-topics', file('no-such-file.txt')], /no-such-file\.txt: cannot read it \(ENOENT\)$/],
    [['kafka-topics', file('kafka-topics-describe.txt'), '--group', 'g'], /^key-routing: import: unknown option --group/],
  ];
  for (const [args, message] of bad) {
    test(`exit 2: ${args.map((a) => a.replace(DATA + '/', '')).join(' ')}`, async () => {
      const r = await runImport(args);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '', 'nothing printed from a report that failed');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], message);
    });
  }
});

/**
 * Issue 12's "Bad reports", one case each, as `key-routing import` meets them: exit 2, one line
 * that names the file and says what is wrong, nothing on stdout, and the --config settings file
 * as it was (the command never writes a file; the extension writes only what stdout would carry).
 */
describe('key-routing import: bad reports name the file and write nothing', () => {
  const sticky4 = JSON.parse(readFileSync(file('pulsar-4.0-sticky.json'), 'utf8'));
  const stickyOverlap = (() => {
    const s = structuredClone(sticky4);
    const cs = (Object.values(s.subscriptions)[0] as { consumers: Array<{ keyHashRangeArrays: number[][] }> }).consumers;
    cs[1].keyHashRangeArrays = [[cs[0].keyHashRangeArrays[0][1], cs[0].keyHashRangeArrays[0][1] + 10]];
    return s;
  })();
  const written = (name: string, text: string) => {
    const dir = scratchDir('bad-report-');
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const cases: Array<[string, string, string, RegExp]> = [
    ['truncated JSON', 'pulsar-stats', file('bad-pulsar-truncated.json'), /is truncated: the JSON stops at line \d+, column \d+/],
    ['no Key_Shared subscription', 'pulsar-stats', file('bad-pulsar-no-key-shared.json'), /has no Key_Shared subscription \(subscriptions: audit \(Shared\), archive \(Exclusive\)\)$/],
    ['several Key_Shared subscriptions without --subscription', 'pulsar-stats', file('bad-pulsar-two-key-shared.json'), /has 2 Key_Shared subscriptions \(orders-sub, billing-sub\): pick one with --subscription$/],
    ['AUTO_SPLIT ranges that overlap', 'pulsar-stats', file('bad-pulsar-overlap.json'), /consumers\[1\] \("C2"\)\.keyHashRangeArrays\[0\]: \[16385, 32768\] overlaps \[0, 16400\] of .*\("C3"\), but an AUTO_SPLIT hash-range selector always covers 0\.\.65536 once$/],
    ['AUTO_SPLIT ranges that leave a gap', 'pulsar-stats', file('bad-pulsar-gap.json'), /consumers\[1\] \("C2"\)\.keyHashRangeArrays\[0\]: leaves \[16385, 16389\] to nobody before \[16390, 32768\]/],
    ['STICKY ranges of two consumers that overlap', 'pulsar-stats', written('sticky-overlap.json', JSON.stringify(stickyOverlap)), /consumers\[1\] \(".*"\)\.keyHashRangeArrays\[0\]: .* overlaps .*the broker refuses a STICKY consumer whose ranges overlap another's, so no broker reported this$/],
    ['the broker\'s error answer', 'pulsar-stats', file('bad-pulsar-error.json'), /is an error answer from the broker, not pulsar-admin topics stats.*Topic persistent:\/\/public\/default\/orders not found$/],
    ['a Kafka table given as Pulsar stats', 'pulsar-stats', file('kafka-groups-describe.txt'), /is not JSON: it begins "GROUP/],
    ['kafka-consumer-groups.sh\'s error message', 'kafka-groups', file('bad-kafka-groups-error.txt'), /is an error message, not a group description: "Error: Executing consumer group command failed/],
    ['a group that does not exist', 'kafka-groups', file('bad-kafka-groups-missing.txt'), /the output says the consumer group 'biling' does not exist$/],
    ['kafka-topics.sh output given as groups', 'kafka-groups', file('kafka-topics-describe.txt'), /is the output of kafka-topics\.sh --describe, not of kafka-consumer-groups\.sh --describe; import it as kafka-topics$/],
    ['Pulsar stats given as groups', 'kafka-groups', file('pulsar-4.0-sticky.json'), /has no kafka-consumer-groups\.sh --describe table \(a header line GROUP TOPIC PARTITION/],
    ['kafka-topics.sh\'s error message', 'kafka-topics', file('bad-kafka-topics-error.txt'), /is an error message, not a topic description: "Error while executing topic command : Topic 'order' does not exist as expected"$/],
    ['kafka-consumer-groups.sh output given as topics', 'kafka-topics', file('kafka-groups-describe.txt'), /is the output of kafka-consumer-groups\.sh, not of kafka-topics\.sh --describe; import it as kafka-groups$/],
  ];
  const base = { 'keyRouting.topics': [{ name: 'orders', system: 'kafka', partitions: 6 }] };
  for (const [what, kind, path, message] of cases) {
    test(`${kind}: ${what}`, async () => {
      const config = configFile(base);
      const before = readFileSync(config, 'utf8');
      const topic = kind === 'pulsar-stats' ? ['--topic', 'persistent://public/default/orders'] : [];
      const r = await runImport([kind, path, ...topic, '--config', config]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '', 'no settings printed from a report that failed');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].startsWith(`key-routing: ${path}: `), `the message names the file: ${lines[0]}`);
      assert.match(lines[0], message);
      assert.equal(readFileSync(config, 'utf8'), before, 'the settings file is as it was');
    });
  }
});
