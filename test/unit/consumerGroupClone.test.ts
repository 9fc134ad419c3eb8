// ConsumerGroupState.clone() copies a classic group's state (members, the members' HashMap order,
// each sticky assignor's state) instead of forming the group again and replaying its events. On
// random histories, for every assignor, with and without a broker's report: the copy must answer
// every later event exactly as the group formed again with the history replayed, and as the group
// it was copied from; and events on the copy must leave that group as it was.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsumerGroupState, parseGroupEvent, type GroupEvent } from '../../src/engine/kafka/consumerGroup';
import { parseSettings } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { randInt, rng } from './helpers';

const TOPICS = [
  { name: 'orders', system: 'kafka', partitions: 7 },
  { name: 'payments', system: 'kafka', partitions: 4 },
];

function formed(group: Record<string, unknown>): ConsumerGroupState {
  const { settings, problems } = parseSettings({ 'keyRouting.topics': TOPICS, 'keyRouting.kafkaGroups': [{ name: 'g', topics: ['orders', 'payments'], ...group }] });
  assert.deepEqual(problems, []);
  return new Topology(settings, []).group('g')!;
}

/**
 * Member ids: "Aa" and "BB" have the same Java hashCode, and so have the ids made of them: they
 * share a bucket of the members' HashMap, where the order of puts and removes decides the order
 * the group iterates its members in (the leader, the assignors' ties). More than 12 members grow
 * the map's table from 16 buckets to 32, which it keeps when they leave again.
 */
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'Aa', 'BB', 'AaAa', 'BBBB', 'AaBB', 'BBAa'];

/** A join (some with their own topics), a leave (some of members not there) or partition growth. */
function randomEvent(r: () => number, partitions: { orders: number }): GroupEvent {
  const id = IDS[randInt(r, 0, IDS.length - 1)];
  const x = r();
  const text = x < 0.4 ? `+${id}` : x < 0.5 ? `+${id}:payments` : x < 0.58 ? `+${id}:orders,payments` : x < 0.92 ? `-${id}` : `partitions=${(partitions.orders += randInt(r, 1, 3))}`;
  return parseGroupEvent(text, 'orders') as GroupEvent;
}

/** What a later event shows of a state: its outcome, then the owners and the history after it. */
function answer(g: ConsumerGroupState, e: GroupEvent) {
  const outcome = g.apply(e);
  return { outcome, owners: g.owners(), events: g.events.slice(), members: [...g.members] };
}

const ASSIGNORS = ['range', 'roundrobin', 'sticky', 'cooperative-sticky', 'uniform', 'server-range'];

describe('a copy of a consumer group', () => {
  for (const assignor of ASSIGNORS) {
    for (const reported of [false, true]) {
      test(`${assignor}${reported ? ', from a broker\u2019s report' : ''}: answers every later event as the group formed again with its history`, () => {
        const r = rng(0xc10e + assignor.length * 7 + (reported ? 1 : 0));
        const config = {
          assignor,
          members: [{ id: 'a' }, { id: 'BB', topics: ['orders'] }, { id: 'Aa' }, { id: 'c' }],
          ...(reported ? { observed: { owners: { orders: ['a', 'a', 'BB', null, 'c', 'Aa', 'BB'], payments: ['c', 'a', null, 'Aa'] } } } : {}),
        };
        let compared = 0;
        for (let trial = 0; trial < 25; trial++) {
          const partitions = { orders: 7 };
          const g = formed(config);
          const before = Array.from({ length: randInt(r, 0, 30) }, () => randomEvent(r, partitions));
          for (const e of before) g.apply(e);
          const copy = g.clone();
          const again = formed(config);
          for (const e of g.events) again.apply(e);
          const after = Array.from({ length: randInt(r, 1, 6) }, () => randomEvent(r, partitions));
          for (const e of after) {
            const want = answer(again, e);
            assert.deepEqual(answer(copy, e), want, `${before.map((x) => JSON.stringify(x)).join(' ')} | ${JSON.stringify(e)}`);
            assert.deepEqual(answer(g, e), want);
            compared++;
          }
          // The copy moves on alone.
          const owners = JSON.stringify([...(g.owners() as Map<string, unknown>)]);
          copy.apply({ kind: 'plus', id: 'z' });
          copy.apply({ kind: 'leave', id: 'Aa' });
          assert.equal(JSON.stringify([...(g.owners() as Map<string, unknown>)]), owners);
        }
        assert.ok(compared > 50);
      });
    }
  }

  test('a range group past the simulation limit (computed from its shares) is copied too', () => {
    const g = formed({ assignor: 'range', members: [{ id: 'a' }, { id: 'b' }] });
    const big = parseGroupEvent('partitions=300000', 'orders') as GroupEvent;
    g.apply(big);
    const copy = g.clone();
    copy.apply({ kind: 'plus', id: 'c' });
    g.apply({ kind: 'plus', id: 'd' });
    assert.equal(copy.ownerOf('orders', 299_999), 'c');
    assert.equal(g.ownerOf('orders', 299_999), 'd');
    assert.deepEqual(copy.events.map((e) => e.kind), ['partitions', 'plus']);
  });
});
