/**
 * `key-routing import` as a user runs it: the settings object it prints (the --config settings
 * with the imported entries in place of same-named ones), notes on stderr, exit 2 with one line
 * for a bad report or usage, and the printed settings fed to route / ranges / what-if.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, cli, configFile } from './cliRun';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const file = (f: string) => join(DATA, f);

function runImport(args: string[], stdin = '') {
  const r = spawnSync(process.execPath, [CLI, 'import', ...args], { input: stdin, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, settings: r.status === 0 ? JSON.parse(r.stdout) : undefined };
}

describe('key-routing import', () => {
  test('pulsar-stats into --config: the same-named topic replaced in place, the rest kept', () => {
    const base = {
      'keyRouting.topics': [
        { name: 'orders', system: 'kafka', partitions: 6 },
        { name: 'persistent://public/default/payments', system: 'pulsar', hashingScheme: 'Murmur3_32Hash', partitions: 2 },
        { name: 'clicks', system: 'kafka', partitions: 3 },
      ],
      'keyRouting.pulsarNamespaces': [{ name: 'public/default', bundles: 4 }],
      'editor.fontSize': 13,
    };
    const r = runImport(['pulsar-stats', file('pulsar-4.0-partitioned.json'), '--config', configFile(base)]);
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

  test('the printed settings route, list and what-if from the report', () => {
    const r = runImport(['pulsar-stats', file('pulsar-4.0-auto-split-draining.json'), '--topic', 'persistent://public/default/orders']);
    assert.equal(r.code, 0, r.stderr);
    const config = configFile(r.stdout);
    const route = cli(['route', '--config', config], 'order-0\norder-2\n');
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
    const ranges = cli(['ranges', '--config', config, '--topic', 'persistent://public/default/orders']);
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
    const w = cli(['what-if', '--config', config, '--topic', 'persistent://public/default/orders', '--then', '-C3'], 'order-0\n');
    assert.equal(w.code, 0, w.stderr);
    assert.deepEqual(w.lines[0].steps[0].lost, { C3: [[0, 16384]] });
    assert.deepEqual(w.lines[0].steps[0].gained, { C4: [[0, 16384]] });
    assert.equal(w.lines[0].keys[0].before.observed, true);
    assert.equal(w.lines[0].keys[0].after.observed, undefined);
    const after = cli(['ranges', '--config', config, '--topic', 'persistent://public/default/orders', '--then', '+C5']);
    assert.equal(after.lines[0].observed, undefined);
  });

  test('a 4.x ring with a single consumer: the note says what the rebuild assumes', () => {
    const stats = JSON.parse(require('node:fs').readFileSync(file('pulsar-4.0-ring.json'), 'utf8'));
    const consumers = stats.subscriptions.sub.consumers;
    stats.subscriptions.sub.consumers = [{ ...consumers[0], keyHashRangeArrays: [[1, 65535]] }];
    const r = runImport(['pulsar-stats', '-', '--topic', 't'], JSON.stringify(stats));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /key-routing: note: the report does not show c0's name index \(none of its ranges ends at one of its points\); the rebuilt ring gives it 0/);
    const w = cli(['what-if', '--config', configFile(r.stdout), '--topic', 't', '--then', '+d']);
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
    test(`exit 2: ${args.map((a) => a.replace(DATA + '/', '')).join(' ')}`, () => {
      const r = runImport(args);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '', 'nothing printed from a report that failed');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], message);
    });
  }
});
