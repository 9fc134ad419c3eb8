import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { cli, configFile } from './cliRun';

const MB = 1024 * 1024;
const hex8 = (v: number) => '0x' + v.toString(16).padStart(8, '0');

describe('key-routing bundle', () => {
  const cfg = configFile({
    'keyRouting.pulsarNamespaces': [
      { name: 'public/default', bundles: 4 },
      { name: 'tenant/ns', boundaries: ['0x00000000', '0x40000000', '0xffffffff'] },
      { name: 'tenant/three', bundles: 3 },
    ],
  });

  test('full and short names: the CRC-32 of the resolved full name and its bundle', async () => {
    const names = ['persistent://public/default/orders', 'orders', 'orders-partition-3', 'tenant/three/x', 'non-persistent://tenant/ns/y'];
    const r = await cli(['bundle', '--config', cfg], names.join('\n') + '\n');
    assert.equal(r.code, 0, r.stderr);
    const full = [
      'persistent://public/default/orders',
      'persistent://public/default/orders',
      'persistent://public/default/orders-partition-3',
      'persistent://tenant/three/x',
      'non-persistent://tenant/ns/y',
    ];
    assert.deepEqual(r.lines.map((l) => l.topic), full);
    assert.deepEqual(r.lines.map((l) => l.namespace), ['public/default', 'public/default', 'public/default', 'tenant/three', 'tenant/ns']);
    for (const [i, l] of r.lines.entries()) {
      assert.deepEqual(Object.keys(l), ['topic', 'namespace', 'hash', 'bundle']);
      assert.equal(l.hash, zlibCrc32(full[i]));
    }
    const quarter = (h: number) => Math.floor(h / 0x40000000);
    for (const l of r.lines.slice(0, 3)) assert.equal(l.bundle, `${hex8(quarter(l.hash) * 0x40000000)}_${hex8(quarter(l.hash) === 3 ? 0xffffffff : (quarter(l.hash) + 1) * 0x40000000)}`);
    const third = [0, 0x55555555, 0xaaaaaaaa, 0xffffffff];
    const t = r.lines[3].hash;
    const k = t < 0x55555555 ? 0 : t < 0xaaaaaaaa ? 1 : 2;
    assert.equal(r.lines[3].bundle, `${hex8(third[k])}_${hex8(third[k + 1])}`);
    assert.equal(r.lines[4].bundle, r.lines[4].hash < 0x40000000 ? '0x00000000_0x40000000' : '0x40000000_0xffffffff');
  });

  test('an unconfigured namespace or a bad name gives an error line and the run goes on', async () => {
    const r = await cli(['bundle', '--config', cfg], 'other/ns/t\na/b\norders\n');
    assert.equal(r.code, 0);
    assert.equal(r.lines.length, 3);
    assert.deepEqual(Object.keys(r.lines[0]), ['topic', 'namespace', 'error']);
    assert.equal(r.lines[0].namespace, 'other/ns');
    assert.match(r.lines[0].error, /"other\/ns" is not configured in keyRouting\.pulsarNamespaces \(configured: public\/default, tenant\/ns, tenant\/three\)/);
    assert.equal(r.lines[1].topic, 'a/b');
    assert.match(r.lines[1].error, /invalid short topic name/);
    assert.equal(r.lines[2].hash, zlibCrc32('persistent://public/default/orders'));
  });

  test('a bad namespace setting exits 2 with one line naming the setting path', async () => {
    for (const [ns, path] of [
      [{ name: 'public/default', bundles: 0 }, 'keyRouting.pulsarNamespaces[0].bundles'],
      [{ name: 'x/y', boundaries: ['0x00000000', '0x7fffffff'] }, 'keyRouting.pulsarNamespaces[0].boundaries'],
      [{ name: 'x' }, 'keyRouting.pulsarNamespaces[0].name'],
    ] as const) {
      const r = await cli(['bundle', '--config', configFile({ 'keyRouting.pulsarNamespaces': [ns] })], 'orders\n');
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.ok(r.stderr.startsWith(`key-routing: ${path}: `), r.stderr);
    }
  });
});

describe('key-routing split', () => {
  const pip169 = {
    bundle: '0x00000000_0x40000000',
    topics: [10, 20, 80, 90, 100, 110].map((hash, i) => ({
      name: `persistent://public/default/t${i + 1}`,
      hash,
      msgRateIn: 60 * (i + 1),
      msgRateOut: 40 * (i + 1),
      msgThroughputIn: 5 * (i + 1) * MB,
      msgThroughputOut: 5 * (i + 1) * MB,
    })),
    loadBalancerNamespaceBundleMaxMsgRate: 1100,
    loadBalancerNamespaceBundleMaxBandwidthMbytes: 110,
  };

  const split = (algorithm: string, input: unknown) => cli(['split', '--algorithm', algorithm, '--input', configFile(input)]);

  test('the PIP-169 example splits at 96', async () => {
    const r = await split('flow_or_qps_equally_divide', pip169);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, [{ splitPositions: [96] }]);
  });

  test('the other algorithms on the same bundle', async () => {
    assert.deepEqual((await split('range_equally_divide', pip169)).lines, [{ splitPositions: [0x20000000] }]);
    assert.deepEqual((await split('topic_count_equally_divide', pip169)).lines, [{ splitPositions: [85] }]);
    assert.deepEqual((await split('specified_positions_divide', { ...pip169, positions: [50, '0x40000000', 15] })).lines, [{ splitPositions: [15, 50] }]);
    // At the broker's default limits (30000 msg/s, 100 MB/s) only throughput counts: cuts after 100 MB/s and 50 + 60 MB/s.
    assert.deepEqual((await split('flow_or_qps_equally_divide', { bundle: pip169.bundle, topics: pip169.topics })).lines, [{ splitPositions: [96, 106] }]);
    const cool = pip169.topics.map((t) => ({ ...t, msgThroughputIn: 0, msgThroughputOut: MB }));
    assert.deepEqual((await split('flow_or_qps_equally_divide', { bundle: pip169.bundle, topics: cool })).lines, [{ splitPositions: null }]);
  });

  test('a topic without a hash is hashed by its name, as the broker hashes it', async () => {
    const names = ['persistent://public/default/a', 'b', 'persistent://public/default/c'];
    const r = await split('topic_count_equally_divide', { topics: names.map((name) => ({ name })) });
    const hashes = names.map((n) => zlibCrc32(n.includes('://') ? n : `persistent://public/default/${n}`)).sort((x, y) => x - y);
    assert.deepEqual(r.lines, [{ splitPositions: [hashes[0] + Math.floor((hashes[1] - hashes[0]) / 2)] }]);
  });

  test('no split: one topic, or no position inside the bundle', async () => {
    assert.deepEqual((await split('topic_count_equally_divide', { topics: [{ hash: 5 }] })).lines, [{ splitPositions: null }]);
    assert.deepEqual((await split('specified_positions_divide', { ...pip169, positions: [0x50000000] })).lines, [{ splitPositions: null }]);
  });

  test('where the broker throws (no positions) it exits 2 with the broker\'s reason', async () => {
    for (const positions of [undefined, []]) {
      const r = await split('specified_positions_divide', { ...pip169, positions });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^key-routing: specified_positions_divide: SplitBoundaries can't be empty/);
    }
  });

  test('bad input exits 2 with one line naming the field', async () => {
    const bad = structuredClone(pip169) as { topics: Record<string, unknown>[] };
    bad.topics[2].msgRateIn = 'fast';
    let r = await split('flow_or_qps_equally_divide', bad);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'key-routing: topics[2].msgRateIn: must be a number (got "fast")\n');
    delete bad.topics[2].msgRateIn;
    assert.match((await split('flow_or_qps_equally_divide', bad)).stderr, /^key-routing: topics\[2\]\.msgRateIn: must be a number/);
    r = await split('range_equally_divide', { bundle: '0x40000000_0x00000000' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^key-routing: bundle: /);
    assert.match((await split('range_equally_divide', {})).stderr, /^key-routing: bundle: is required/);
    assert.match((await split('topic_count_equally_divide', { topics: [{ hash: -1 }, { hash: 2 }] })).stderr, /^key-routing: topics\[0\]\.hash: /);
    assert.match((await split('topic_count_equally_divide', { topics: [{}, { hash: 2 }] })).stderr, /^key-routing: topics\[0\]: needs a "name"/);
    assert.match((await split('topic_count_equally_divide', { topics: [{ name: 'a/b' }] })).stderr, /^key-routing: topics\[0\]\.name: invalid short topic name/);
    assert.match((await split('flow_or_qps_equally_divide', { ...pip169, flowOrQpsDifferenceThresholdPercentage: 1.5 })).stderr, /^key-routing: flowOrQpsDifferenceThresholdPercentage: must be an integer/);
    assert.match((await split('specified_positions_divide', { ...pip169, positions: [1.5] })).stderr, /^key-routing: positions\[0\]: must be an integer/);
    assert.match((await cli(['split', '--algorithm', 'halve', '--input', configFile(pip169)])).stderr, /--algorithm must be one of range_equally_divide, /);
  });

  test('a split the factory would refuse is noted on stderr', async () => {
    const r = await split('range_equally_divide', { bundle: '0x00000010_0x00000011' });
    assert.equal(r.code, 0);
    assert.deepEqual(r.lines, [{ splitPositions: [16] }]);
    assert.match(r.stderr, /can't be split further/);
  });
});

describe('key-routing assign-chunks', () => {
  const entries = [
    { id: '0:0' },
    { id: '0:1', uuid: 'A-1', chunkId: 0, numChunks: 3 },
    { id: '0:2', uuid: 'A-1', chunkId: 1, numChunks: 3 },
    { id: '0:3' },
    { id: '0:4', uuid: 'B-1', chunkId: 0, numChunks: 2 },
    { id: '0:5', uuid: 'A-1', chunkId: 2, numChunks: 3 },
    { id: '0:6', uuid: 'B-1', chunkId: 1, numChunks: 2 },
  ];
  const run = (input: unknown) => cli(['assign-chunks', '--input', configFile(input)]);

  test('rounds carry the pins and the round-robin position', async () => {
    const r = await run({
      consumers: [
        { consumer: 'A', availablePermits: 3 },
        { consumer: 'B', availablePermits: 4 },
      ],
      rounds: [{ entries }, { entries: [entries[5], { id: 'z', uuid: 'Z', chunkId: 1, numChunks: 2 }] }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, [
      {
        rounds: [
          { assigned: { A: ['0:0', '0:1', '0:2'], B: ['0:3', '0:4', '0:6'] }, unassigned: ['0:5'], uuidToConsumer: { 'A-1': 'A' } },
          { assigned: { A: ['0:5'] }, unassigned: ['z'], uuidToConsumer: {} },
        ],
      },
    ]);
  });

  test('rounds where no consumer has permits release their entries (noted on stderr)', async () => {
    const r = await run({ consumers: [{ consumer: 'A', availablePermits: 0 }], rounds: [{ entries: [{ id: 1 }] }] });
    assert.equal(r.code, 0);
    assert.deepEqual(r.lines, [{ rounds: [{ assigned: {}, unassigned: [], uuidToConsumer: {} }] }]);
    assert.match(r.stderr, /rounds\[0\]: no consumer has permits/);
  });

  test('bad input exits 2 with one line naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ consumers: [{ consumer: 'A', availablePermits: 'many' }], rounds: [] }, /^key-routing: consumers\[0\]\.availablePermits: must be an integer/],
      [{ consumers: [{ consumer: 'A', availablePermits: 1 }, { consumer: 'A', availablePermits: 1 }], rounds: [] }, /^key-routing: consumers\[1\]\.consumer: duplicate consumer "A"/],
      [{ consumers: [], rounds: [{ entries: [{ id: 1, chunkId: 'first' }] }] }, /^key-routing: rounds\[0\]\.entries\[0\]\.chunkId: must be an integer/],
      [{ consumers: [], rounds: [{ entries: [{ uuid: 'u' }] }] }, /^key-routing: rounds\[0\]\.entries\[0\]\.id: /],
      [{ consumers: [] }, /^key-routing: rounds: must be an array/],
    ];
    for (const [input, re] of cases) {
      const r = await run(input);
      assert.equal(r.code, 2);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.match(r.stderr, re);
    }
  });
});
