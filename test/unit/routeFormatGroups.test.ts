import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { stringKey } from '../../src/engine/key';
import { kafkaPartition } from '../../src/engine/kafka/partitioner';
import { buildModel, routeKeys } from '../../src/extension/settingsModel';
import { routeTable, shortNames, statusText, summarize } from '../../src/extension/routeFormat';

const topics = [
  { name: 'orders', system: 'kafka', partitions: 6 },
  { name: 'persistent://public/default/payments', system: 'pulsar', subscription: { consistentHashing: false, consumers: [{ name: 'C1' }] } },
];
const groups = [{ name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }] }];

describe('key -> partition -> member in the editor\'s texts', () => {
  const model = buildModel(topics, undefined, undefined, groups);
  const names = shortNames(model.topology.topics.map((t) => t.name));
  const [k] = routeKeys(model, [{ label: 'user-1', key: stringKey('user-1') }]);
  const member = ['m1', 'm1', 'm2', 'm2', 'm3', 'm3'][kafkaPartition('user-1', 6)];

  test('the notification: user-1 → orders p2 → billing: m2', () => {
    assert.deepEqual(model.findings.filter((f) => f.severity === 'error'), []);
    assert.equal(summarize(k, names).split(' · ')[0], `user-1 → orders p2 → billing: ${member}`);
  });
  test('the status bar', () => {
    assert.match(statusText(k, names), new RegExp(`^user-1: orders p2→billing:${member} · payments`));
  });
  test('the output table gets a "group: member" column', () => {
    const table = routeTable([k]).split('\n');
    assert.match(table[0], /^key\s+topic\s+partition\s+hash\s+consumer\s+group: member\s+range$/);
    assert.match(table[2], new RegExp(`^user-1\\s+orders\\s+2\\s+-?\\d+\\s+-\\s+billing: ${member}\\s+-$`));
    assert.match(table[3], /payments .* C1 \s+-\s+\d+-\d+$/);
  });
  test('without groups the texts are as before', () => {
    const plain = buildModel(topics, undefined);
    const [p] = routeKeys(plain, [{ label: 'user-1', key: stringKey('user-1') }]);
    assert.equal(summarize(p, names).split(' · ')[0], 'user-1 → orders p2');
    assert.match(routeTable([p]).split('\n')[0], /^key\s+topic\s+partition\s+hash\s+consumer\s+range$/);
  });
  test('observed members are marked; a group problem is a finding at its path with a fix', () => {
    const observed = buildModel(topics, undefined, undefined, [{ ...groups[0], observed: { owners: { orders: ['m3', 'm3', 'm3', 'm3', 'm3', null] } } }]);
    const [o] = routeKeys(observed, [{ label: 'user-1', key: stringKey('user-1') }]);
    assert.equal(summarize(o, names).split(' · ')[0], 'user-1 → orders p2 → billing: m3 (observed)');
    const bad = buildModel(topics, undefined, undefined, [{ ...groups[0], assignor: 'sticky-ish', extra: 1 }]);
    const f = bad.findings.find((x) => x.path === 'keyRouting.kafkaGroups[0].assignor')!;
    assert.equal(f.severity, 'error');
    assert.match(f.fix, /range, roundrobin, sticky or cooperative-sticky .* uniform or server-range/);
    assert.ok(bad.findings.some((x) => x.path === 'keyRouting.kafkaGroups[0].extra' && x.severity === 'warning'));
    // The topics still route; the invalid group is left out.
    assert.equal(routeKeys(bad, [{ label: 'user-1', key: stringKey('user-1') }])[0].routes[0].groups, undefined);
  });
  test('a uniform group without topic ids: an info finding says the owners are a stand-in', () => {
    const m = buildModel(topics, undefined, undefined, [{ ...groups[0], assignor: 'uniform' }]);
    const f = m.findings.find((x) => x.path === 'keyRouting.kafkaGroups[0].assignor')!;
    assert.equal(f.severity, 'info');
    assert.match(f.message, /depends on topic ids/);
  });
  test('a client that fixes no partition: no member, said as such', () => {
    const rr = buildModel([{ ...topics[0], partitioner: 'kafka-go' }, topics[1]], undefined, undefined, groups);
    const [r] = routeKeys(rr, [{ label: 'user-1', key: stringKey('user-1') }]);
    assert.equal(summarize(r, names).split(' · ')[0], 'user-1 → orders (no fixed partition) → billing: no member');
  });
});
