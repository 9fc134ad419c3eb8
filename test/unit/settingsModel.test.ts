import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel, fixFor, routeKeys } from '../../src/extension/settingsModel';
import { closest, fullPulsarName } from '../../src/engine/settingsLint';
import { stringKey } from '../../src/engine/key';
import { PulsarTopicState } from '../../src/engine/topology';
import { parseSettings } from '../../src/engine/settings';

const root = join(__dirname, '../../..');
const examples = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));
const TOPICS = 'keyRouting.topics';
const NS = 'keyRouting.pulsarNamespaces';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const route = (m: ReturnType<typeof buildModel>, key: string) => routeKeys(m, [{ label: key, key: stringKey(key) }])[0].routes;

describe('settings model: last good topology', () => {
  test('the examples parse with no error or warning', () => {
    const m = buildModel(examples[TOPICS], examples[NS]);
    assert.deepEqual(m.findings.filter((f) => f.severity !== 'info'), []);
    assert.equal(m.settings.topics.length, 4);
    // ALGORITHMS.md: Kafka user-1 on 6 partitions goes to partition 2.
    assert.equal(route(m, 'user-1')[0].partition, 2);
  });

  test('a bad value shown in a problem is cut short, never inside a surrogate pair', () => {
    // JSON of the value: a quote, then emoji of two UTF-16 units each, so unit 59 is a high half.
    const { problems } = parseSettings({ 'keyRouting.topics': [{ name: 't', system: 'kafka', partitions: '🚀'.repeat(40) }] });
    const message = problems.find((p) => p.path === 'keyRouting.topics[0].partitions')?.message ?? '';
    assert.ok(message.includes(`(got "${'🚀'.repeat(29)}…)`), message);
    assert.ok(message.isWellFormed(), JSON.stringify(message));
  });

  test('an invalid entry routes with its last good settings and says so', () => {
    const good = buildModel(examples[TOPICS], examples[NS]);
    const raw = clone(examples[TOPICS]);
    raw[0].partitions = 0;
    const m = buildModel(raw, examples[NS], good);
    const err = m.findings.find((f) => f.severity === 'error');
    assert.equal(err?.path, 'keyRouting.topics[0].partitions');
    assert.match(err!.fix, /partitions/);
    assert.deepEqual([...m.stale], ['orders']);
    const r = route(m, 'user-1');
    assert.equal(r[0].partition, 2, 'still 6 partitions');
    assert.equal(r[0].stale, true);
    assert.equal(r.length, 4, 'the other topics go on');
  });

  test('a broker report that cannot be is reported at its path; the topic keeps its last good settings, the others their places', () => {
    const raw = clone(examples[TOPICS]);
    const i = raw.findIndex((t: { name: string }) => t.name === 'persistent://public/default/payments');
    raw[i].subscription.observed = {
      consumers: raw[i].subscription.consumers.map((c: { name: string }, j: number) => ({ name: c.name, ranges: [[j * 1000, j * 1000 + 999]] })),
    };
    const good = buildModel(examples[TOPICS], examples[NS]);
    const m = buildModel(raw, examples[NS], good);
    const err = m.findings.find((f) => f.severity === 'error');
    assert.match(err!.path, new RegExp(`^keyRouting\\.topics\\[${i}\\]\\.subscription\\.observed\\.consumers\\[\\d\\]\\.ranges`));
    assert.deepEqual([...m.stale], ['persistent://public/default/payments']);
    assert.deepEqual(m.settings.topics.map((t) => t.name), good.settings.topics.map((t) => t.name));
    assert.ok(!m.findings.some((f) => /unknown property "observed"/.test(f.message)));
  });

  test('an entry whose name broke is found by its index', () => {
    const good = buildModel(examples[TOPICS], examples[NS]);
    const raw = clone(examples[TOPICS]);
    raw[0].name = '';
    const m = buildModel(raw, undefined, good);
    assert.deepEqual([...m.stale], ['orders']);
    assert.equal(m.settings.topics[0].name, 'orders');
  });

  test('without a previous good entry an invalid topic is left out', () => {
    const raw = clone(examples[TOPICS]);
    raw[1].brokerVersion = '5.0';
    const m = buildModel(raw, undefined);
    assert.equal(m.stale.size, 0);
    assert.deepEqual(m.settings.topics.map((t) => t.name), ['orders', 'persistent://public/default/shipments', 'persistent://public/default/invoices']);
    assert.ok(m.findings.some((f) => f.path === 'keyRouting.topics[1].brokerVersion' && f.severity === 'error'));
  });

  test('a fixed entry replaces the last good one', () => {
    const good = buildModel(examples[TOPICS], undefined);
    const raw = clone(examples[TOPICS]);
    raw[0].partitions = 0;
    const broken = buildModel(raw, undefined, good);
    raw[0].partitions = 7;
    const fixed = buildModel(raw, undefined, broken);
    assert.equal(fixed.stale.size, 0);
    assert.equal(fixed.findings.filter((f) => f.severity === 'error').length, 0);
    assert.equal(fixed.settings.topics[0].system === 'kafka' && fixed.settings.topics[0].partitions, 7);
  });

  test('a topics value that is not a list keeps every last good topic', () => {
    const good = buildModel(examples[TOPICS], undefined);
    const m = buildModel({ oops: true }, undefined, good);
    assert.equal(m.stale.size, 4);
    assert.ok(m.findings.some((f) => f.path === TOPICS && f.severity === 'error'));
  });

  test('duplicate names: the engine reports the second, the first keeps routing', () => {
    const raw = [examples[TOPICS][0], { ...examples[TOPICS][0], partitions: 3 }];
    const m = buildModel(raw, undefined, buildModel([examples[TOPICS][0]], undefined));
    const f = m.findings.find((x) => x.path === 'keyRouting.topics[1].name');
    assert.match(f!.message, /duplicate topic name/);
    assert.match(f!.fix, /rename/);
    assert.equal(m.settings.topics.length, 1);
    assert.equal(m.stale.size, 0);
  });
});

describe('settings model: checks beyond the schema', () => {
  const sticky = (consumers: unknown[]) => [{ name: 'persistent://public/default/s', system: 'pulsar', brokerVersion: '4.0', subscription: { keySharedMode: 'STICKY', consumers } }];

  test('overlapping STICKY ranges: the broker refuses the later consumer, reported at its path', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[0, 100]] }, { name: 'E2', ranges: [[50, 65535]] }]), undefined);
    const f = m.findings.find((x) => x.severity === 'warning');
    assert.equal(f?.path, 'keyRouting.topics[0].subscription.consumers[1]');
    assert.match(f!.message, /Range conflict with consumer E1/);
    assert.match(f!.fix, /disjoint/);
    const t = m.topology.topics[0];
    assert.ok(t instanceof PulsarTopicState);
    assert.deepEqual(t.subscription!.consumers.map((c) => c.id), ['E1']);
  });

  test('a STICKY range with start > end is the broker\'s refusal too', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[10, 5]] }]), undefined);
    const f = m.findings.find((x) => x.severity === 'warning');
    assert.match(f!.message, /start > end for range: \[10,5\]/);
    assert.match(f!.fix, /start <= end/);
  });

  test('a 4.x STICKY consumer whose own ranges overlap is refused, with a fix that says what to do', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[0, 100], [50, 200]] }, { name: 'E2', ranges: [[300, 400]] }]), undefined);
    const f = m.findings.find((x) => x.severity === 'warning');
    assert.equal(f?.path, 'keyRouting.topics[0].subscription.consumers[0]');
    assert.match(f!.message, /Consumer's own ranges conflict: \[0,100\] overlaps with \[50,200\]/);
    assert.match(f!.fix, /merge its overlapping ranges/);
    const t = m.topology.topics[0] as PulsarTopicState;
    assert.deepEqual(t.subscription!.consumers.map((c) => c.id), ['E2']);
  });

  test('hashes nobody owns are reported as information with the gap', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[0, 32767]] }, { name: 'E2', ranges: [[40000, 65535]] }]), undefined);
    const f = m.findings.find((x) => x.severity === 'info');
    assert.equal(f?.path, 'keyRouting.topics[0].subscription.consumers');
    assert.match(f!.message, /32768-39999/);
    assert.match(f!.fix, /\[\[32768, 39999\]\]/);
  });

  test('full coverage: no gap finding', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[0, 32767]] }, { name: 'E2', ranges: [[32768, 65535]] }]), undefined);
    assert.deepEqual(m.findings, []);
  });

  test('a subscription without consumers is reported as information', () => {
    const m = buildModel(sticky([]), undefined);
    assert.match(m.findings[0].message, /no consumer is connected/);
  });

  test('unknown and misplaced properties are warnings with a suggestion', () => {
    const m = buildModel([{ name: 'orders', system: 'kafka', partitions: 6, partiton: 7, subscription: {} }], [{ name: 'public/default', bundle: 4 }]);
    const byPath = new Map(m.findings.map((f) => [f.path, f]));
    assert.match(byPath.get('keyRouting.topics[0].partiton')!.fix, /did you mean "partitions"/);
    assert.match(byPath.get('keyRouting.topics[0].subscription')!.message, /Pulsar topics only/);
    assert.match(byPath.get('keyRouting.pulsarNamespaces[0].bundle')!.fix, /did you mean "bundles"/);
    assert.equal(m.settings.topics.length, 1, 'warnings do not drop the topic');
  });

  test('settings a mode ignores are information', () => {
    const m = buildModel(sticky([{ name: 'E1', ranges: [[0, 65535]] }]).map((t) => ({ ...t, subscription: { ...t.subscription, replicaPoints: 5 } })), undefined);
    assert.equal(m.findings[0].path, 'keyRouting.topics[0].subscription.replicaPoints');
    assert.equal(m.findings[0].severity, 'info');
  });

  test('a consistent-hashing ring past 4,000,000 points is refused at replicaPoints (7,000,000 crashed the routing panel)', () => {
    const topic = (consumers: number, replicaPoints: number, more: Record<string, unknown> = {}) => [
      {
        name: 'persistent://public/default/ring',
        system: 'pulsar',
        brokerVersion: '3.0',
        subscription: { keySharedMode: 'AUTO_SPLIT', replicaPoints, consumers: Array.from({ length: consumers }, (_, i) => ({ name: `c${i}` })), ...more },
      },
    ];
    const refused = buildModel(topic(10_000, 401), undefined);
    assert.equal(refused.settings.topics.length, 0);
    const f = refused.findings.find((x) => x.severity === 'error')!;
    assert.equal(f.path, 'keyRouting.topics[0].subscription.replicaPoints');
    assert.equal(f.message, 'gives 10000 consumers a ring of 4010000 points; at most 4000000 are supported');
    assert.match(f.fix, /give an integer from 1 to 4000000 \/ the consumers/);
    assert.match(buildModel(topic(1, 0), undefined).findings[0].fix, /from 1 to 10000$/);
    // At the bound, and where the points make no ring, the topic is kept.
    for (const ok of [topic(10_000, 400), topic(400, 10_000), topic(10_000, 10_000, { consistentHashing: false }), topic(10_000, 10_000, { keySharedMode: 'STICKY', consumers: [] })]) {
      const m = buildModel(ok, undefined);
      assert.deepEqual(m.findings.filter((x) => x.severity === 'error'), []);
      assert.equal(m.settings.topics.length, 1);
    }
  });

  test('a short Pulsar name is resolved as Pulsar resolves it', () => {
    assert.equal(fullPulsarName('orders'), 'persistent://public/default/orders');
    assert.equal(fullPulsarName('t/ns/orders'), 'persistent://t/ns/orders');
    const m = buildModel([{ name: 'orders', system: 'pulsar' }], undefined);
    assert.match(m.findings[0].fix, /persistent:\/\/public\/default\/orders/);
  });

  test('every engine problem gets a specific fix', () => {
    const raw = [
      { name: 'a', system: 'kafka', partitions: 0 },
      { name: 'b', system: 'rabbit' },
      { name: 'c', system: 'pulsar', hashingScheme: 'x', brokerVersion: 'x', subscription: { keySharedMode: 'x', hashRangeSize: 3, replicaPoints: 0, consumers: [{ name: 'E', ranges: 'x' }] } },
    ];
    const m = buildModel(raw, [{ name: 'nope' }, { name: 'a/b', bundles: 0 }, { name: 'c/d', boundaries: ['0x1'] }]);
    const generic = m.findings.filter((f) => f.fix.startsWith('see the setting'));
    assert.deepEqual(generic, []);
    assert.ok(m.findings.length >= 10);
  });

  test('closest finds near misses only', () => {
    assert.equal(closest('brokerversion', ['brokerVersion', 'name']), 'brokerVersion');
    assert.equal(closest('zzzzzz', ['name']), undefined);
    assert.match(fixFor({ path: 'x.y', message: 'something' }), /Settings/);
  });
});

describe('settings model: client choices', () => {
  test('client settings problems get specific fixes; misplaced ones are warned about', () => {
    const raw = [
      { name: 'a', system: 'kafka', partitions: 6, partitioner: 'x', producers: ['java', 'nope'], keySerializer: 'float' },
      { name: 'b', system: 'kafka', partitions: 6, keySerializer: 'avro-int' },
      { name: 'persistent://public/default/c', system: 'pulsar', keySerializer: 'long', schemaId: 3, producers: ['java'] },
      { name: 'd', system: 'kafka', partitions: 6, schemaId: 5 },
    ];
    const m = buildModel(raw, undefined);
    const at = (path: string) => m.findings.filter((f) => f.path === path);
    assert.match(at('keyRouting.topics[0].partitioner')[0].fix, /"librdkafka"/);
    assert.match(at('keyRouting.topics[0].producers[1]')[0].fix, /partitioner" values for a Kafka topic/);
    assert.match(at('keyRouting.topics[0].keySerializer')[0].fix, /"avro-long"/);
    assert.match(at('keyRouting.topics[1].schemaId')[0].message, /is required with "keySerializer": "avro-int"/);
    assert.match(at('keyRouting.topics[1].schemaId')[0].fix, /Schema Registry id/);
    assert.equal(at('keyRouting.topics[2].producers[0]')[0].severity, 'error');
    assert.equal(at('keyRouting.topics[2].keySerializer')[0].severity, 'warning');
    assert.equal(at('keyRouting.topics[2].schemaId')[0].severity, 'warning');
    assert.deepEqual(at('keyRouting.topics[3].schemaId').map((f) => f.severity), ['info']);
    assert.ok(!m.findings.some((f) => f.fix.startsWith('see the setting')));
  });
});
