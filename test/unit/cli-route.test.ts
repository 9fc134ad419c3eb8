import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import murmurLib from 'murmurhash3js-revisited';
import { cli, configFile } from './cliRun';
import { murmur2Reference, javaHashCodeReference } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

const settings = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 6 },
    {
      name: 'persistent://public/default/payments',
      system: 'pulsar',
      partitions: 4,
      brokerVersion: '3.0',
      subscription: { consistentHashing: false, consumers: [{ name: 'C1' }, { name: 'C2' }, { name: 'C3' }] },
    },
    {
      name: 'ring4',
      system: 'pulsar',
      subscription: { consumers: [{ name: 'w' }, { name: 'w' }] },
    },
    {
      name: 'sticky',
      system: 'pulsar',
      brokerVersion: '3.0',
      subscription: {
        keySharedMode: 'STICKY',
        consumers: [
          { name: 'E1', ranges: [[0, 16383]] },
          { name: 'E2', ranges: [[100, 200]] },
          { name: 'E3', ranges: [[32768, 65535]] },
        ],
      },
    },
  ],
};

describe('key-routing route', () => {
  const cfg = configFile(settings);

  test('Kafka: user-1..6 on 6 partitions, with the signed murmur2 hash', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'orders'], 'user-1\nuser-2\nuser-3\nuser-4\nuser-5\nuser-6\n');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines.map((l) => l.partition), [2, 2, 5, 1, 4, 5]);
    for (const l of r.lines) {
      assert.deepEqual(Object.keys(l), ['key', 'topic', 'system', 'partition', 'hash']);
      assert.equal(l.hash, murmur2Reference(enc(l.key)));
    }
  });

  test('one line per key per topic, topics in settings order; the refused STICKY consumer is reported on stderr', async () => {
    const r = await cli(['route', '--config', cfg], 'Order-3459134\n');
    assert.equal(r.code, 0);
    assert.deepEqual(r.lines.map((l) => l.topic), ['orders', 'persistent://public/default/payments', 'ring4', 'sticky']);
    assert.match(r.stderr, /keyRouting\.topics\[3\]\.subscription\.consumers\[1\]: .*Range conflict with consumer E1/);
    const [, pay, ring, sticky] = r.lines;
    assert.equal(pay.stickyKeyHash, 964695987);
    assert.equal(pay.partition, (javaHashCodeReference('Order-3459134') & 0x7fffffff) % 4);
    assert.equal(pay.consumer, 'C3');
    assert.deepEqual(pay.range, [0, 16384]);
    assert.equal(ring.partition, null);
    assert.equal(ring.stickyKeyHash, (964695987 % 65535) + 1);
    assert.ok(['w', 'w#2'].includes(ring.consumer));
    assert.equal(sticky.consumer, 'E1');
    assert.deepEqual(sticky.range, [0, 16383]);
  });

  test('an unowned STICKY hash routes to nobody', async () => {
    // Find a key whose slot falls in the gap [16384, 32767].
    let key = '';
    for (let i = 0; ; i++) {
      const slot = (murmurLib.x86.hash32(enc(`k${i}`)) & 0x7fffffff) % 65536;
      if (slot >= 16384 && slot <= 32767) {
        key = `k${i}`;
        break;
      }
    }
    const r = await cli(['route', '--config', cfg, '--topic', 'sticky'], key + '\n');
    assert.equal(r.lines[0].consumer, null);
    assert.equal(r.lines[0].range, null);
  });

  test('hex keys: UTF-8 text routes as that string, other bytes as a byte key; bad hex is an error line and the run goes on', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'persistent://public/default/payments', '--key-format', 'hex'], `${hex('user-1')}\nff00\nzz\n\n`);
    assert.equal(r.code, 0);
    const [text, bytes, bad, empty] = r.lines;
    const plain = (await cli(['route', '--config', cfg, '--topic', 'persistent://public/default/payments'], 'user-1\n')).lines[0];
    assert.deepEqual({ ...text, key: 'user-1' }, plain);
    // The Java client routes a byte key on its base64 text; the broker hashes the raw bytes.
    assert.equal(bytes.partition, (javaHashCodeReference(Buffer.from([0xff, 0]).toString('base64')) & 0x7fffffff) % 4);
    assert.equal(bytes.stickyKeyHash, murmurLib.x86.hash32(new Uint8Array([0xff, 0])) & 0x7fffffff);
    assert.equal(bad.key, 'zz');
    assert.match(bad.error, /invalid hex/);
    assert.equal(empty.key, '');
    assert.equal(empty.stickyKeyHash, 0);
  });

  test('Kafka hex keys hash the raw bytes, empty key included', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'orders', '--key-format', 'hex'], 'c328\n\n');
    assert.equal(r.lines[0].hash, murmur2Reference(new Uint8Array([0xc3, 0x28])));
    assert.equal(r.lines[1].hash, 275646681);
  });

  test('--then events change the consumers before routing; a refused event is reported and skipped', async () => {
    const r = await cli(['route', '--config', cfg, '--topic', 'persistent://public/default/payments', '--then', '-C3', '--then', '-nobody'], 'Order-3459134\n');
    assert.equal(r.code, 0);
    // Without C3, its range [0, 16384] merges into C2 above it.
    assert.equal(r.lines[0].consumer, 'C2');
    assert.deepEqual(r.lines[0].range, [0, 32768]);
    assert.match(r.stderr, /--then -nobody: .*no connected consumer/);
  });

  test('partitions=N: more partitions move keys; fewer are refused as Kafka refuses them', async () => {
    const keys = Array.from({ length: 200 }, (_, i) => `key-${i}`);
    const r = await cli(['route', '--config', cfg, '--topic', 'orders', '--then', 'partitions=7'], keys.join('\n'));
    assert.deepEqual(r.lines.map((l) => l.partition), keys.map((k) => (murmur2Reference(enc(k)) & 0x7fffffff) % 7));
    const down = await cli(['route', '--config', cfg, '--topic', 'orders', '--then', 'partitions=3'], 'a\n');
    assert.equal(down.lines[0].partition, (murmur2Reference(enc('a')) & 0x7fffffff) % 6);
    assert.match(down.stderr, /Topic currently has 6 partitions, which is higher than the requested 3\./);
  });

  test('configuration errors exit 2 with one line naming the setting path', async () => {
    const bad = configFile({ 'keyRouting.topics': [{ name: 'x', system: 'kafka', partitions: 0 }] });
    const r = await cli(['route', '--config', bad], 'a\n');
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /keyRouting\.topics\[0\]\.partitions: must be an integer from 1/);
    const notJson = await cli(['route', '--config', configFile('{ nope')], 'a\n');
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /--config .*not valid JSON/);
    assert.equal((await cli(['route', '--config', cfg, '--topic', 'nope'], 'a\n')).code, 2);
    assert.equal((await cli(['route', '--config', cfg, '--then', 'partitions=9'], 'a\n')).code, 2);
    assert.equal((await cli(['route', '--config', cfg, '--key-format', 'base64'], 'a\n')).code, 2);
    assert.equal((await cli(['route', '--config', cfg, '--bogus'], 'a\n')).code, 2);
    assert.equal((await cli(['route'], 'a\n')).code, 2);
  });
});

describe('key-routing ranges', () => {
  const cfg = configFile(settings);

  test('auto-split covers [0, 65535] ascending', async () => {
    const r = await cli(['ranges', '--config', cfg, '--topic', 'persistent://public/default/payments', '--then', '+C4']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines[0], {
      topic: 'persistent://public/default/payments',
      keyHashRange: [0, 65535],
      assignments: [
        { start: 0, end: 16384, consumers: ['C3'] },
        { start: 16385, end: 32768, consumers: ['C2'] },
        { start: 32769, end: 49152, consumers: ['C4'] },
        { start: 49153, end: 65535, consumers: ['C1'] },
      ],
    });
  });

  test('STICKY gaps are listed with no consumers; the ring covers [1, 65535] with its wrap-around', async () => {
    const s = (await cli(['ranges', '--config', cfg, '--topic', 'sticky'])).lines[0];
    assert.deepEqual(s.assignments, [
      { start: 0, end: 16383, consumers: ['E1'] },
      { start: 16384, end: 32767, consumers: [] },
      { start: 32768, end: 65535, consumers: ['E3'] },
    ]);
    const ring = (await cli(['ranges', '--config', cfg, '--topic', 'ring4'])).lines[0];
    assert.deepEqual(ring.keyHashRange, [1, 65535]);
    assert.equal(ring.assignments[0].start, 1);
    assert.equal(ring.assignments.at(-1).end, 65535);
  });

  test('needs a Pulsar topic with a subscription', async () => {
    const r = await cli(['ranges', '--config', cfg, '--topic', 'orders']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--topic orders: ranges needs a Pulsar topic/);
  });
});
