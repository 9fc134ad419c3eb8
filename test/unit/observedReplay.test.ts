/**
 * Import + what-if against continuing the history: for random connection histories on every
 * broker generation and selector, the broker's report of the resulting state is imported
 * (`key-routing import pulsar-stats`), and then
 * - every key routes to the consumer the replayed selector picks (ids matched by connection order),
 * - every later join or leave gives the same layout and the same lost/gained ranges as the same
 *   event on the replayed history,
 * except for a 4.x ring rebuilt differently from the report, where the note must name exactly the
 * runs where the rebuilt ring and the real one differ.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { importPulsarStats } from '../../src/import/pulsarStats';
import { parseSettings } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { parseEvent } from '../../src/engine/events';
import { diffOwnership } from '../../src/engine/whatIf';
import type { Consumer, HashRange, Segment } from '../../src/engine/pulsar/keyShared/selector';
import { createSelector, type KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { replay, reportedRanges, statsOf, type StatsFormat } from './brokerReports';
import { restoreObserved } from '../../src/engine/observed/restore';
import { compareTables } from '../../src/engine/observed/compare';
import { randInt, rng } from './helpers';

const TOPIC = 'persistent://public/default/orders';

type Kind = 'autoSplit' | 'ring' | 'sticky';

function config(format: StatsFormat, kind: Kind, replicaPoints = 100): SelectorConfig {
  return {
    brokerVersion: format === '3.0' ? '3.0' : '4.0',
    keySharedMode: kind === 'sticky' ? 'STICKY' : 'AUTO_SPLIT',
    consistentHashing: kind === 'ring',
    replicaPoints,
    hashRangeSize: 65536,
  };
}

/** Free slots of a STICKY layout: a random range inside the biggest free gap, or undefined. */
function freeRange(r: () => number, taken: HashRange[]): HashRange | undefined {
  const sorted = [...taken].sort((a, b) => a[0] - b[0]);
  let best: HashRange | undefined;
  let prev = -1;
  for (const [s, e] of [...sorted, [65536, 65536] as HashRange]) {
    if (s - prev - 1 > 0 && (!best || s - prev - 1 > best[1] - best[0] + 1)) best = [prev + 1, s - 1];
    prev = Math.max(prev, e);
  }
  if (!best) return undefined;
  const a = randInt(r, best[0], best[1]);
  const b = randInt(r, a, Math.min(best[1], a + randInt(r, 0, 20000)));
  return [a, b];
}

/** A random event for the subscription: a join (a new name, or a name in use) or a leave. */
function randomEvent(r: () => number, sub: KeySharedSubscription, kind: Kind, n: { next: number }): string {
  const live = sub.consumers;
  if (live.length > 1 && r() < 0.4) return `-${live[randInt(r, 0, live.length - 1)].id}`;
  const name = live.length > 0 && r() < 0.25 ? live[randInt(r, 0, live.length - 1)].name : `c${n.next++}`;
  if (kind !== 'sticky') return `+${name}`;
  const taken = live.flatMap((c) => c.ranges ?? []);
  const first = freeRange(r, taken);
  if (!first) return `-${live[0].id}`;
  const second = r() < 0.3 ? freeRange(r, [...taken, first]) : undefined;
  return `+${name}:${[first, ...(second ? [second] : [])].map((x) => `${x[0]}-${x[1]}`).join(',')}`;
}

function history(r: () => number, cfg: SelectorConfig, kind: Kind, steps: number): { events: string[]; sub: KeySharedSubscription; n: { next: number } } {
  const n = { next: 0 };
  const events: string[] = [];
  let sub = replay(cfg, []);
  for (let i = 0; i < steps; i++) {
    const e = randomEvent(r, sub, kind, n);
    const next = replay(cfg, [...events, e]);
    events.push(e);
    sub = next;
  }
  return { events, sub, n };
}

function imported(stats: Record<string, unknown>): PulsarTopicState {
  const out = importPulsarStats(JSON.stringify(stats, null, 2), { source: 'stats.json', topic: TOPIC });
  const { settings, problems } = parseSettings({ 'keyRouting.topics': out.topics });
  assert.deepEqual(problems, []);
  const t = new Topology(settings, []).topics[0];
  assert.ok(t instanceof PulsarTopicState);
  return t;
}

/** Segments with each consumer written as the replay's id. */
function mapped(segments: readonly Segment[], id: (c: Consumer) => string): Array<[number, number, string[]]> {
  return segments.map((s) => [s.start, s.end, s.consumers.map(id)]);
}

const FORMATS: StatsFormat[] = ['3.0', '4.0', '4.0-classic'];

describe('import + what-if equals continuing the history', () => {
  for (const format of FORMATS) {
    for (const kind of ['autoSplit', 'ring', 'sticky'] as Kind[]) {
      test(`${format} ${kind}: routes, layouts and lost/gained after every later event`, () => {
        const r = rng(FORMATS.indexOf(format) * 10 + ['autoSplit', 'ring', 'sticky'].indexOf(kind) + 1);
        const cfg = config(format, kind, kind === 'ring' ? randInt(r, 1, 3) * 20 : 100);
        let rebuiltDiffered = 0;
        for (let round = 0; round < (kind === 'ring' ? 12 : 25); round++) {
          const { sub, n } = history(r, cfg, kind, randInt(r, 1, 12));
          const stats = statsOf(format, sub);
          const state = (() => {
            const out = importPulsarStats(JSON.stringify(stats, null, 2), { source: 'stats.json', topic: TOPIC, base: { 'keyRouting.topics': [{ name: TOPIC, system: 'pulsar', subscription: { replicaPoints: cfg.replicaPoints } }] } });
            const { settings, problems } = parseSettings({ 'keyRouting.topics': out.topics });
            assert.deepEqual(problems, []);
            return new Topology(settings, []).topics[0] as PulsarTopicState;
          })();
          // Imported consumers are the replay's live ones in connection order.
          const toReplay = new Map<string, string>();
          const importedLive = state.subscription!.consumers;
          assert.equal(importedLive.length, sub.consumers.length);
          importedLive.forEach((c, i) => {
            assert.equal(c.name, sub.consumers[i].name);
            toReplay.set(c.id, sub.consumers[i].id);
          });
          const id = (c: Consumer) => toReplay.get(c.id) ?? `?${c.id}`;
          // Routes read the report: the consumer the real selector picks, for any key.
          for (let k = 0; k < 300; k++) {
            const key = `key-${round}-${k}-${randInt(r, 0, 1e9)}`;
            const route = state.route(stringKey(key));
            const real = sub.selector.select(sub.selector.makeStickyKeyHash(stringKey(key).bytes));
            assert.equal(route.observed, true);
            assert.equal(route.consumer === null ? null : toReplay.get(route.consumer!), real?.id ?? null, `key ${key}`);
          }
          assert.deepEqual(mapped(state.selectorFor(null).segments(), id), mapped(sub.selector.segments(), (c) => c.id));
          const model = state.subscription!.selector;
          const note = state.observed!.note();
          if (note !== undefined) {
            // Only a 4.x ring can be rebuilt differently, or with a name index the report does
            // not show; the note names exactly where they differ.
            assert.equal(kind, 'ring');
            assert.notEqual(format, '3.0');
            rebuiltDiffered++;
            const g = state.observed!.groups.get(0)!;
            assert.ok(g.assumptions.length > 0 || !g.modelComparison.equal, note);
            const real = mapped(sub.selector.segments(), (c) => c.id);
            const rebuilt = mapped(model.segments(), id);
            const comparison = state.observed!.groups.get(0)!.modelComparison;
            for (const d of comparison.differences) {
              for (const at of [d.start, d.end]) {
                assert.deepEqual(d.reported.map((x) => toReplay.get(x)), real.find((s) => s[0] <= at && at <= s[1])![2]);
                assert.deepEqual(d.other.map((x) => toReplay.get(x)), rebuilt.find((s) => s[0] <= at && at <= s[1])![2]);
              }
            }
            continue;
          }
          // Later events on both: the same layouts and the same lost/gained, step by step.
          for (let step = 0; step < 6; step++) {
            const e = randomEvent(r, sub, kind, n);
            const ev = parseEvent(e);
            const before = sub.selector.snapshotTable();
            const modelBefore = state.subscription!.selector.snapshotTable();
            const translated = ev.kind === 'disconnect' ? { kind: 'disconnect' as const, id: [...toReplay].find(([, v]) => v === ev.id)![0] } : ev;
            const a = ev.kind === 'connect' ? sub.connect(ev.name, ev.ranges) : sub.disconnect((ev as { id: string }).id);
            const b = state.apply(translated);
            assert.equal(b.ok, a.ok, `${e}: ${a.ok ? '' : a.error} / ${b.ok ? '' : b.error}`);
            if (!a.ok) continue;
            if (ev.kind === 'connect') {
              const newest = state.subscription!.consumers[state.subscription!.consumers.length - 1];
              toReplay.set(newest.id, (a as { value: Consumer }).value.id);
            }
            assert.deepEqual(mapped(state.selectorFor(null).segments(), id), mapped(sub.selector.segments(), (c) => c.id), `after ${e}`);
            const dReal = diffOwnership(before, sub.selector.snapshotTable(), sub.selector.keyValues);
            const dModel = diffOwnership(modelBefore, state.subscription!.selector.snapshotTable(), state.subscription!.selector.keyValues);
            const byId = (m: Map<Consumer, Array<[number, number]>>, f: (c: Consumer) => string) => Object.fromEntries([...m].map(([c, rs]) => [f(c), rs]).sort());
            assert.deepEqual(byId(dModel.lost, id), byId(dReal.lost, (c) => c.id), `lost after ${e}`);
            assert.deepEqual(byId(dModel.gained, id), byId(dReal.gained, (c) => c.id), `gained after ${e}`);
            assert.equal(dModel.movedSize, dReal.movedSize);
            assert.equal(state.route(stringKey('after')).observed, undefined, 'routes after an event are predictions');
          }
        }
        if (kind === "ring" && format !== "3.0") assert.ok(rebuiltDiffered < 12, "most 4.x rings rebuild exactly");
      });
    }
  }
});

describe('import: the report itself', () => {
  test('the dispatcher may list consumers out of connection order: connectedSince decides', () => {
    const cfg = config('4.0', 'autoSplit');
    const sub = replay(cfg, ['+C1', '+C2', '+C3', '+C4']);
    const state = imported(statsOf('4.0', sub, { listOrder: [2, 0, 3, 1] }));
    assert.deepEqual(state.subscription!.consumers.map((c) => c.id), ['C1', 'C2', 'C3', 'C4']);
    assert.deepEqual(mapped(state.selectorFor(null).segments(), (c) => c.id), mapped(sub.selector.segments(), (c) => c.id));
  });
});

describe('restore: partitions that report alike', () => {
  // A partition whose report lists the same consumers with the same ranges as the partition before
  // takes that partition's restored state (its model cloned) and keeps its own draining hashes. Each
  // model must equal a selector connected afresh, each layout its own report (one with the same
  // consumers but other ranges included), and an event on one partition's model must leave the
  // others as they were.
  const cases: Array<{ kind: Kind; version: '3.0' | '4.0' }> = [
    { kind: 'ring', version: '3.0' },
    { kind: 'ring', version: '4.0' },
    { kind: 'sticky', version: '3.0' },
    { kind: 'sticky', version: '4.0' },
  ];
  for (const { kind, version } of cases) {
    test(`${kind === 'ring' ? 'consistent hashing' : 'STICKY'}, ${version}: one model per partition, equal to connecting afresh, none sharing another's changes or draining hashes`, () => {
      const cfg = config(version === '3.0' ? '3.0' : '4.0', kind, 20);
      const named = (name: string, i: number): Consumer => ({ id: name, name, ...(kind === 'sticky' ? { ranges: [[i * 100, i * 100 + 99] as HashRange] } : {}) });
      const all = ['a', 'b', 'c', 'd'].map(named);
      const fresh = (consumers: readonly Consumer[], replicaPoints = cfg.replicaPoints) => {
        const s = createSelector({ ...cfg, replicaPoints });
        for (const c of consumers) s.addConsumer(c);
        return s;
      };
      // A 4.x report may drain a hash; partition p drains its own one.
      const report = (consumers: readonly Consumer[], p: number) => {
        const ranges = kind === 'sticky' ? new Map(consumers.map((c) => [c, c.ranges!])) : reportedRanges(fresh(consumers, points[p]), consumers);
        return {
          consumers: consumers.map((c, i) => ({
            name: c.name,
            ranges: ranges.get(c)!,
            ...(version === '4.0' && i === 0 ? { drainingHashes: [{ hash: 1000 + p, unackMsgs: p + 1, blockedAttempts: 0 }] } : {}),
          })),
        };
      };
      const three = all.slice(0, 3);
      // Partitions 0 and 1 report all four alike, 3 and 4 all but d alike; partition 2 lists the
      // same consumers as 1, but on a ring its broker has 10 points a consumer (other ranges).
      const lists = [all, all, all, three, three];
      const points = [20, 20, kind === 'ring' ? 10 : 20, 20, 20];
      const { settings, problems } = parseSettings({
        'keyRouting.topics': [
          {
            name: TOPIC,
            system: 'pulsar',
            partitions: 5,
            brokerVersion: version,
            subscription: {
              keySharedMode: cfg.keySharedMode,
              consistentHashing: cfg.consistentHashing,
              replicaPoints: cfg.replicaPoints,
              consumers: all.map((c) => ({ name: c.name, ...(c.ranges ? { ranges: c.ranges } : {}) })),
              observedPartitions: lists.map(report),
            },
          },
        ],
      });
      assert.deepEqual(problems, []);
      const t = settings.topics[0];
      assert.ok(t.system === 'pulsar' && t.subscription);
      const groups = restoreObserved(cfg, t.subscription).groups.all();
      const models = groups.map((g) => g.model);
      assert.equal(new Set(models).size, 5, 'a model per partition');
      const ids = (s: { segments(): readonly Segment[] }) => mapped(s.segments(), (c) => c.id);
      const want = lists.map((cs) => ids(fresh(cs)));
      assert.deepEqual(models.map(ids), want);
      assert.deepEqual(groups.map((g) => ids(g.view ?? g.model)), lists.map((cs, p) => ids(fresh(cs, points[p]))), 'each layout is its own report');
      assert.deepEqual(
        groups.map((g) => [...g.draining].map(([hash, d]) => [hash, d.consumer.id, d.unackMsgs])),
        lists.map((_, p) => (version === '4.0' ? [[1000 + p, 'a', p + 1]] : [])),
      );
      // Each report against the configured consumers connected afresh (one layout for every
      // partition, built once), asked for after the models changed: their events change neither.
      const configured = fresh(all).segmentTable();
      const predicted = groups.map((g) => compareTables((g.view ?? g.model).segmentTable(), configured, '').differences);
      assert.ok(predicted.some((d) => d.length > 0), 'the fixture has differences: the test would prove nothing');
      // An event on partition 1's model and on partition 4's, and on no other.
      models[1].addConsumer(named('e', 5));
      models[4].addConsumer(named('e', 5));
      assert.notDeepEqual(ids(models[1]), want[1]);
      assert.notDeepEqual(ids(models[4]), want[4]);
      assert.deepEqual([0, 2, 3].map((p) => ids(models[p])), [0, 2, 3].map((p) => want[p]));
      assert.deepEqual(groups.map((g) => g.predicted().differences), predicted);
    });
  }
});
