import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  ASSIGNOR_NAMES,
  ConsumerGroupState,
  movedPartitions,
  parseGroupEvent,
  type AssignorName,
  type GroupTopic,
  type KafkaGroupConfig,
  type Owners,
} from '../../src/engine/kafka/consumerGroup';
import { parseUuid, type Uuid } from '../../src/engine/kafka/uuid';
import { JavaHashMap, STRING } from '../../src/engine/kafka/javaHashMap';
import { RangeAssignor } from '../../src/engine/kafka/assignors/rangeAssignor';
import { TopicPartitions, type ClassicSubscription } from '../../src/engine/kafka/assignors/types';
import vectors from './data/kafka-assignors.json';
import jdk25 from './data/kafka-assignors-jdk25.json';
import mixed from './data/kafka-assignors-mixed.json';
import { randInt, rng } from './helpers';

interface Vector {
  assignor: AssignorName;
  /** The broker's Java version the vector was produced on (KIP-848 assignors); absent: 17. */
  brokerJava?: number;
  name?: string;
  topics: Array<{ name: string; partitions: number; topicId: string }>;
  members: Array<{ id: string; topics: string[] }>;
  observed?: Record<string, Array<string | null>>;
  events: string[][];
  expected: Array<Array<Record<string, string>>>;
  ids: string[];
}

const topicsOf = (v: Pick<Vector, 'topics'>): GroupTopic[] => v.topics.map((t) => ({ name: t.name, partitions: t.partitions, topicId: parseUuid(t.topicId) as Uuid }));

function group(v: Vector, brokerJava = v.brokerJava): ConsumerGroupState {
  const config: KafkaGroupConfig = { name: 'g', assignor: v.assignor, topics: v.topics.map((t) => t.name), members: v.members.map((m) => ({ id: m.id, topics: m.topics })), brokerJava };
  if (v.observed) config.observed = { owners: v.observed };
  return new ConsumerGroupState(config, topicsOf(v));
}

/** Owners in the vectors' encoding: per topic, member indexes into `ids` ("-" for none). */
function encode(o: Owners, ids: string[]): Record<string, string> {
  const idx = (m: string | null): string => {
    if (m === null) return '-';
    let k = ids.indexOf(m);
    if (k < 0) k = ids.push(m) - 1;
    return String(k);
  };
  return Object.fromEntries([...o].map(([t, list]) => [t, list.map(idx).join(' ')]));
}

function applyText(g: ConsumerGroupState, e: string[]) {
  const ev = parseGroupEvent(e[0], e[1]);
  assert.notEqual(typeof ev, 'string', String(ev));
  const r = g.apply(ev as Exclude<typeof ev, string>);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

/** Every step's rounds, encoded as the vectors are (a fresh id table: the order ids first appear). */
function replay(v: Vector, brokerJava = v.brokerJava): Array<Array<Record<string, string>>> {
  const ids = v.members.map((m) => m.id);
  const g = group(v, brokerJava);
  const steps: Array<Array<Record<string, string>>> = [];
  if (!v.observed) steps.push([encode(g.owners() as Owners, ids)]);
  for (const e of v.events) steps.push(applyText(g, e).rounds.map((r) => encode(r, ids)));
  return steps;
}

/** The vector's expected steps; step 0 (formation) keeps only the final round. */
const expectedSteps = (v: Vector) => v.expected.map((rounds, k) => (k === 0 && !v.observed ? rounds.slice(-1) : rounds));

/** One test per assignor: every history of `vectors` replayed, each round's owners as Java's. */
function againstJava(vectors: Vector[]): void {
  for (const assignor of ASSIGNOR_NAMES) {
    const mine = vectors.filter((v) => v.assignor === assignor);
    test(`${assignor}: ${mine.length} histories, ${mine.reduce((n, v) => n + v.expected.length, 0)} steps, every round's owners as Java's`, () => {
      for (const [i, v] of mine.entries()) assert.deepEqual(replay(v), expectedSteps(v), `${assignor} history ${i}${v.name ? ` (${v.name})` : ''}`);
    });
  }
}

describe('assignors against the real Kafka classes (test/unit/data/kafka-assignors.json)', () => againstJava(vectors.scenarios as Vector[]));

describe('numeric-looking member ids with unequal subscriptions, every assignor (test/unit/data/kafka-assignors-mixed.json)', () => {
  againstJava(mixed.scenarios as Vector[]);

  const numeric = (id: string) => /^[-+]?(\d|0x)/.test(id);
  const unequal = (v: Vector) => new Set(v.members.map((m) => [...m.topics].sort().join())).size > 1;
  test('each assignor has histories whose members have numeric-looking ids and unequal subscriptions', () => {
    for (const assignor of ASSIGNOR_NAMES) {
      const both = [...(vectors.scenarios as Vector[]), ...(mixed.scenarios as Vector[])].filter((v) => v.assignor === assignor && unequal(v) && v.ids.some(numeric));
      assert.ok(both.length >= 5, `${assignor}: ${both.length}`);
    }
  });
  test('ids are ordered as text, not as numbers: range puts orders\' subscribers in the order "-1" < "10" < "9"', () => {
    // RangeAssignor sorts a topic's members by member id (String.compareTo), so 10 comes before 9.
    const v = (mixed.scenarios as Vector[]).find((x) => x.assignor === 'range' && x.name === 'numeric-ids-unequal-subscriptions')!;
    const o = group(v).owners() as Owners;
    assert.deepEqual(o.get('orders'), ['-1', '-1', '10', '10', '9', '9']);
  });
});
/**
 * KAFKA-ASSIGNORS.md's tables: partitions that changed owner per step ("from leaver": the
 * previous owner left; ", 2 rounds": cooperative-sticky needed its follow-up round).
 */
const DOC: Record<string, { events: string[]; counts: Record<AssignorName, string[]> }> = {
  'one-topic-join-leave': {
    events: ['+m2', '+m3', '+m4', '-m2', '+m5'],
    counts: {
      range: ['0', '3', '3', '1', '3 (2 from leaver)', '1'],
      roundrobin: ['0', '3', '4', '3', '5 (2 from leaver)', '3'],
      sticky: ['0', '3', '2', '1', '2 (2 from leaver)', '1'],
      'cooperative-sticky': ['0', '3, 2 rounds', '2, 2 rounds', '1, 2 rounds', '2 (2 from leaver)', '1, 2 rounds'],
      uniform: ['0', '3', '2', '1', '2 (2 from leaver)', '1'],
      'server-range': ['0', '3', '3', '1', '3 (2 from leaver)', '1'],
    },
  },
  'two-topics': {
    events: ['+m4', '-m2'],
    counts: {
      range: ['0', '4', '4 (3 from leaver)'],
      roundrobin: ['0', '7', '9 (3 from leaver)'],
      sticky: ['0', '2', '3 (3 from leaver)'],
      'cooperative-sticky': ['0', '2, 2 rounds', '3 (3 from leaver)'],
      uniform: ['0', '2', '3 (3 from leaver)'],
      'server-range': ['0', '4', '4 (3 from leaver)'],
    },
  },
  'uneven-then-expand': {
    events: ['partitions=16'],
    counts: { range: ['0', '6'], roundrobin: ['0', '0'], sticky: ['0', '0'], 'cooperative-sticky': ['0', '0'], uniform: ['0', '0'], 'server-range': ['0', '6'] },
  },
  'string-vs-numeric-ids': {
    events: ['+m9', '+m11', '-m2'],
    counts: {
      range: ['0', '5', '3', '1 (1 from leaver)'],
      roundrobin: ['0', '5', '6', '5 (1 from leaver)'],
      sticky: ['0', '2', '1', '2 (2 from leaver)'],
      'cooperative-sticky': ['0', '2, 2 rounds', '1, 2 rounds', '2 (2 from leaver)'],
      uniform: ['0', '2', '1', '2 (2 from leaver)'],
      'server-range': ['0', '5', '3', '1 (1 from leaver)'],
    },
  },
  'unequal-subscriptions': {
    events: ['+m3:orders,payments', '-m1'],
    counts: {
      range: ['0', '5', '3 (2 from leaver)'],
      roundrobin: ['0', '6', '4 (2 from leaver)'],
      sticky: ['0', '3', '4 (4 from leaver)'],
      'cooperative-sticky': ['0', '3, 2 rounds', '4 (4 from leaver)'],
      uniform: ['0', '3', '4 (4 from leaver)'],
      'server-range': ['0', '5', '3 (2 from leaver)'],
    },
  },
  'co-partitioned': {
    events: ['+m5'],
    counts: { range: ['0', '6'], roundrobin: ['0', '8'], sticky: ['0', '2'], 'cooperative-sticky': ['0', '2, 2 rounds'], uniform: ['0', '2'], 'server-range': ['0', '6'] },
  },
};

function scenario(name: string, assignor: AssignorName): Vector {
  const v = (vectors.scenarios as Vector[]).find((s) => s.name === name && s.assignor === assignor);
  assert.ok(v, name);
  return v;
}

describe("KAFKA-ASSIGNORS.md's scenarios: move counts per step", () => {
  for (const [name, doc] of Object.entries(DOC)) {
    for (const assignor of ASSIGNOR_NAMES) {
      test(`${name}, ${assignor}: ${doc.counts[assignor].join(' | ')}`, () => {
        const v = scenario(name, assignor);
        assert.deepEqual(v.events.map((e) => e[0]), doc.events);
        const g = group(v);
        const counts = ['0'];
        for (const e of v.events) {
          const step = applyText(g, e);
          const leaver = e[0].startsWith('-') ? e[0].slice(1) : null;
          const moved = movedPartitions(step);
          const fromLeaver = moved.filter((c) => c.from === leaver).length;
          counts.push(`${moved.length}${leaver ? ` (${fromLeaver} from leaver)` : ''}${step.rounds.length > 1 ? ', 2 rounds' : ''}`);
        }
        assert.deepEqual(counts, doc.counts[assignor]);
      });
    }
  }
});

function ownersAfter(name: string, assignor: AssignorName, steps: number): Owners {
  const v = scenario(name, assignor);
  const g = group(v);
  for (const e of v.events.slice(0, steps)) applyText(g, e);
  return g.owners() as Owners;
}

const ranges = (o: Owners, member: string): string =>
  [...o]
    .map(([t, list]) => {
      const ps = list.flatMap((m, p) => (m === member ? [p] : []));
      return ps.length ? `${t} ${ps[0]}-${ps[ps.length - 1]}` : '';
    })
    .filter(Boolean)
    .join(' + ');

describe("KAFKA-ASSIGNORS.md's quoted owners", () => {
  test('uniform, two-topics step 1: m1 = orders 0-3, m2 = orders 4-5 + payments 0, m3 = payments 1-3', () => {
    const o = ownersAfter('two-topics', 'uniform', 0);
    assert.deepEqual(['m1', 'm2', 'm3'].map((m) => ranges(o, m)), ['orders 0-3', 'orders 4-5 + payments 0-0', 'payments 1-3']);
  });
  test('uniform, two-topics step 1 with payments iterating first (other topic ids): the blocks swap', () => {
    const v = scenario('two-topics', 'uniform');
    // Swapping the ids swaps the topics' places in the HashSet<Uuid>.
    const swapped = { ...v, topics: v.topics.map((t, i) => ({ ...t, topicId: v.topics[1 - i].topicId })), events: [] };
    const o = group(swapped).owners() as Owners;
    assert.deepEqual(['m1', 'm2', 'm3'].map((m) => ranges(o, m)), ['payments 0-3', 'orders 0-2', 'orders 3-5']);
  });
  test('uniform 4.0, unequal-subscriptions step 2: m1 orders 0-3, m2 orders 5 + payments 0-1, m3 orders 4 + payments 2-3', () => {
    const o = ownersAfter('unequal-subscriptions', 'uniform', 1);
    assert.deepEqual(['m1', 'm2', 'm3'].map((m) => ranges(o, m)), ['orders 0-3', 'orders 5-5 + payments 0-1', 'orders 4-4 + payments 2-3']);
  });
  test('uniform, uneven-then-expand: the 4 new partitions go to m1, m3, m4 and m5', () => {
    const o = ownersAfter('uneven-then-expand', 'uniform', 1);
    assert.deepEqual(o.get('events')!.slice(12), ['m1', 'm3', 'm4', 'm5']);
  });
  test('sticky, one-topic-join-leave step 3: m1 keeps 0 and 1, m2 keeps 3 and 4, m3 takes 2 and 5', () => {
    assert.deepEqual(ownersAfter('one-topic-join-leave', 'sticky', 2).get('events'), ['m1', 'm1', 'm3', 'm2', 'm2', 'm3']);
  });
  test('cooperative-sticky, two-topics m4 joins: round 1 revokes payments-3 from m1 and orders-5 from m3; round 2 gives both to m4', () => {
    const v = scenario('two-topics', 'cooperative-sticky');
    const g = group(v);
    const before = g.owners() as Owners;
    assert.equal(before.get('payments')![3], 'm1');
    assert.equal(before.get('orders')![5], 'm3');
    const step = applyText(g, v.events[0]);
    assert.equal(step.rounds.length, 2);
    assert.equal(step.rounds[0].get('payments')![3], null);
    assert.equal(step.rounds[0].get('orders')![5], null);
    assert.equal(step.rounds[1].get('payments')![3], 'm4');
    assert.equal(step.rounds[1].get('orders')![5], 'm4');
  });
  test('range, two-topics step 2: m1 and m2 hold 3 partitions each, m3 and m4 2 each', () => {
    const o = ownersAfter('two-topics', 'range', 1);
    const count = (m: string) => [...o.values()].flat().filter((x) => x === m).length;
    assert.deepEqual(['m1', 'm2', 'm3', 'm4'].map(count), [3, 3, 2, 2]);
  });
  test('server range gives the classic range owners, and sticky the final cooperative-sticky owners, at every step', () => {
    for (const name of Object.keys(DOC)) {
      for (const [a, b] of [['range', 'server-range'], ['sticky', 'cooperative-sticky']] as const) {
        const ga = group(scenario(name, a));
        const gb = group(scenario(name, b));
        assert.deepEqual(ga.owners(), gb.owners(), `${name} formed`);
        for (const e of scenario(name, a).events) assert.deepEqual(applyText(ga, e).after, applyText(gb, e).after, `${name} ${e[0]}`);
      }
    }
  });
});

// ---- properties over random histories (the engine alone: larger than the Java-checked ones) ----

const NAMES = ['orders', 'payments', 'events', 'a', 'b', 'Aa', 'BB', 't1', 't10'];

function randomHistory(seed: number, assignor: AssignorName) {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const nt = randInt(r, 1, 4);
  const names = NAMES.slice().sort(() => r() - 0.5).slice(0, nt);
  const topics: GroupTopic[] = names.map((name) => {
    const b = Array.from({ length: 16 }, () => randInt(r, 0, 255));
    b[0] |= 1; // never the reserved ids
    return { name, partitions: randInt(r, 1, 30), topicId: parseUuid(Buffer.from(b).toString('base64url')) as Uuid };
  });
  const equal = r() < 0.5;
  const subset = () => {
    const s = names.filter(() => r() < 0.6);
    return s.length ? s : [pick(names)];
  };
  let n = 0;
  const nextId = () => (r() < 0.5 ? `m${++n}` : `consumer-1-${(Math.floor(r() * 2 ** 32)).toString(16)}-${++n}`);
  const members = Array.from({ length: randInt(r, 1, 15) }, () => ({ id: nextId(), topics: equal ? names : subset() }));
  const config: KafkaGroupConfig = { name: 'g', assignor, topics: names, members };
  const current = members.map((m) => ({ ...m }));
  const counts = new Map(topics.map((t) => [t.name, t.partitions]));
  const events: string[][] = [];
  for (let i = randInt(r, 1, 12); i > 0; i--) {
    const x = r();
    if (x < 0.4 || current.length === 0) {
      const id = nextId();
      const ts = equal ? names : subset();
      current.push({ id, topics: ts });
      events.push([equal ? `+${id}` : `+${id}:${ts.join(',')}`]);
    } else if (x < 0.7) events.push([`-${current.splice(randInt(r, 0, current.length - 1), 1)[0].id}`]);
    else if (x < 0.85 && !equal) {
      const m = pick(current);
      m.topics = subset();
      events.push([`+${m.id}:${m.topics.join(',')}`]);
    } else {
      const t = pick(names);
      counts.set(t, counts.get(t)! + randInt(r, 1, 8));
      events.push([`partitions=${counts.get(t)}`, t]);
    }
  }
  return { config, topics, events, equal };
}

function checkOwners(g: ConsumerGroupState, equal: boolean, label: string): void {
  const owners = g.owners() as Owners;
  const subs = g.members;
  const loads = new Map([...subs.keys()].map((m) => [m, 0]));
  for (const [topic, list] of owners) {
    const subscribers = [...subs].filter(([, ts]) => ts.includes(topic));
    list.forEach((m, p) => {
      if (subscribers.length === 0) return assert.equal(m, null, `${label}: ${topic}-${p} has no subscriber`);
      assert.notEqual(m, null, `${label}: ${topic}-${p} has no owner`);
      assert.ok(subs.get(m!)?.includes(topic), `${label}: ${topic}-${p} owned by ${m}, who does not subscribe to it`);
      loads.set(m!, loads.get(m!)! + 1);
    });
  }
  // Balanced within one where the assignor guarantees it: equal subscriptions, sticky family, uniform, round robin.
  if (equal && ['sticky', 'cooperative-sticky', 'uniform', 'roundrobin'].includes(g.assignor) && loads.size > 0) {
    const l = [...loads.values()];
    assert.ok(Math.max(...l) - Math.min(...l) <= 1, `${label}: loads ${l.join(',')}`);
  }
}

describe('properties over random histories (numeric-looking and UUID-like ids, unequal subscriptions, topic growth)', () => {
  for (const assignor of ASSIGNOR_NAMES) {
    test(`${assignor}: every partition of a subscribed topic has exactly one owner who subscribes to it; balanced within 1 where guaranteed`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const h = randomHistory(seed * 7919 + assignor.length, assignor);
        const g = new ConsumerGroupState(h.config, h.topics);
        checkOwners(g, h.equal, `seed ${seed} formed`);
        h.events.forEach((e, k) => {
          applyText(g, e);
          checkOwners(g, h.equal, `seed ${seed} step ${k + 1} ${e[0]}`);
        });
      }
    });
    test(`${assignor}: a replayed history (clone) equals the original, and diverges independently`, () => {
      for (let seed = 1; seed <= 15; seed++) {
        const h = randomHistory(seed * 104729 + assignor.length, assignor);
        const g = new ConsumerGroupState(h.config, h.topics);
        for (const e of h.events) applyText(g, e);
        const c = g.clone();
        assert.deepEqual(c.owners(), g.owners());
        assert.deepEqual([...c.members], [...g.members]);
        applyText(c, ['+late-joiner']);
        assert.ok(!g.members.has('late-joiner'));
      }
    });
  }
  for (const assignor of ['range', 'roundrobin', 'server-range'] as const) {
    test(`${assignor} keeps no state: after any history the owners equal a group formed afresh with the final members`, () => {
      for (let seed = 1; seed <= 30; seed++) {
        const h = randomHistory(seed * 31337 + assignor.length, assignor);
        const g = new ConsumerGroupState(h.config, h.topics);
        for (const e of h.events) applyText(g, e);
        const finalTopics = h.topics.map((t) => ({ ...t, partitions: (g.owners() as Owners).get(t.name)!.length }));
        const fresh = new ConsumerGroupState({ ...h.config, members: [...g.members].map(([id, topics]) => ({ id, topics: [...topics] })) }, finalTopics);
        assert.deepEqual(fresh.owners(), g.owners(), `seed ${seed}`);
      }
    });
  }
});

describe('the uniform assignor on a JDK 19+ broker (test/unit/data/kafka-assignors-jdk25.json, run on Temurin 25)', () => {
  const scenarios = jdk25.scenarios as Vector[];
  test(`brokerJava ${scenarios[0].brokerJava}: ${scenarios.length} histories, every step as the real classes on that JDK`, () => {
    for (const [i, v] of scenarios.entries()) assert.deepEqual(replay(v), expectedSteps(v), `history ${i}`);
  });
  test('the JDK 17 model differs on some of them: new HashSet<>(collection) is sized differently', () => {
    const differ = scenarios.filter((v) => JSON.stringify(replay(v, 17)) !== JSON.stringify(expectedSteps(v)));
    assert.ok(differ.length > 0, 'no history tells the two JDKs apart');
  });
});

test('range: topics that share their subscribers share one sort, with the owners of a sort per topic', () => {
  // The assignor sorts a topic's subscribers once for a run of topics with the same ones (a group
  // on many topics); here runs of equal, reordered and different subscriber lists, against each
  // topic sorted on its own (String.compareTo, Java's order).
  const r = rng(4242);
  const IDS = ['m1', 'm10', 'm2', '-1', '9', '10', 'é', 'Z', 'a', 'aa'];
  for (let round = 0; round < 200; round++) {
    const topics = Array.from({ length: randInt(r, 1, 8) }, (_, i) => `t${i}`);
    const subscriptions = new JavaHashMap<string, ClassicSubscription>(STRING);
    for (const id of IDS.slice(0, randInt(r, 1, IDS.length))) {
      // Most members on every topic, some on a few.
      const subs = r() < 0.7 ? topics : topics.filter(() => r() < 0.5);
      subscriptions.set(id, { topics: subs, userData: null, ownedPartitions: [], generationId: -1 });
    }
    const partitionsPerTopic = new Map(topics.map((t) => [t, randInt(r, 0, 12)]));
    const got = new RangeAssignor().assign({ partitionsPerTopic, subscriptions, partitions: new TopicPartitions() });
    const want = new Map([...subscriptions.keys()].map((id) => [id, [] as string[]]));
    for (const [t, count] of partitionsPerTopic) {
      const sorted = [...subscriptions.entries()].filter(([, s]) => s.topics.includes(t)).map(([id]) => id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const quota = Math.floor(count / Math.max(1, sorted.length));
      let next = 0;
      sorted.forEach((id, i) => {
        const size = quota + (i < count % sorted.length ? 1 : 0);
        for (let p = next; p < next + size; p++) want.get(id)!.push(`${t}-${p}`);
        next += size;
      });
    }
    assert.deepEqual(new Map([...got].map(([id, tps]) => [id, tps.map((tp) => `${tp.topic}-${tp.partition}`)])), want, `round ${round}`);
  }
});
