// Property: settings are data, and no value in them crashes the engine. A user edits settings.json by
// hand (and `import` writes it), so any field may hold anything JSON can: each run takes a full
// settings object (every topic kind, client option, consumer group and observed block the contract
// names), changes one to three places in it (a value replaced by an arbitrary JSON value or by one
// at a boundary, a key dropped, an array entry repeated), and then does what the extension and the
// command line do with settings: parse them, build the topology, route keys on every topic, build
// the panel's frames and views (topics, groups, bundles, reports), and run a what-if on every topic
// and group. Nothing may throw; every problem names its path and what is wrong. (FC_SEED=N replays
// a run.)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSettings, type Problem } from '../../src/engine/settings';
import { KafkaTopicState, PulsarTopicState, Topology } from '../../src/engine/topology';
import { stringKey, bytesKey } from '../../src/engine/key';
import { runWhatIf } from '../../src/engine/whatIf';
import { parseEvent } from '../../src/engine/events';
import { runGroupWhatIf } from '../../src/engine/kafka/groupWhatIf';
import { buildFrames } from '../../src/shared/view/frame';
import { buildWhatIf } from '../../src/shared/view/whatIfView';
import { orderingNote } from '../../src/shared/view/orderingNote';
import { buildGroupView, groupsOf, groupWhatIf } from '../../src/shared/view/groupView';
import { buildNamespaceView } from '../../src/shared/view/namespaceView';
import { panelReports } from '../../src/shared/view/observedPanel';
import { buildModel, EMPTY_PREVIOUS, routeKeys } from '../../src/extension/settingsModel';
import { routeTable } from '../../src/extension/routeFormat';
import { applyToTopics } from '../../src/extension/panel/applyTopics';
import { applyToGroups } from '../../src/extension/panel/applyGroups';
import { fullSettings } from './fixtures/fullSettings';
import { mutate, mutationArb } from './jsonMutation';
import { propertyRuns } from './helpers';

const KEYS = [stringKey(''), stringKey('user-1'), stringKey('客户-😀'), bytesKey(new Uint8Array([0, 255, 128]))];

const TOPICS = 'keyRouting.topics';
const NAMESPACES = 'keyRouting.pulsarNamespaces';
const GROUPS = 'keyRouting.kafkaGroups';

/** The extension's model of the settings before the edit: its topics are the "last good" ones. */
const full = fullSettings();
const lastGood = buildModel(full[TOPICS], full[NAMESPACES], EMPTY_PREVIOUS, full[GROUPS]);

/** What the extension and the command line do with settings, every step of it. */
function useSettings(raw: Record<string, unknown>): Problem[] {
  // The extension: its model (a broken topic routes with its last good settings), the route
  // table of a hover, and each finding's fix.
  const model = buildModel(raw[TOPICS], raw[NAMESPACES], lastGood, raw[GROUPS]);
  const labelled = KEYS.map((key, i) => ({ label: `k${i}`, key }));
  routeTable(routeKeys(model, labelled));
  buildFrames(model.topology, [{ format: 'utf8', value: 'user-1' }]);
  for (const f of model.findings) assert.ok(f.path !== '' && /\S/.test(f.message) && typeof f.fix === 'string', JSON.stringify(f));
  // The command line and the engine.
  const { settings, problems } = parseSettings(raw);
  const topology = new Topology(settings, problems);
  for (const t of topology.topics) for (const k of KEYS) t.route(k);
  buildFrames(topology, [{ format: 'utf8', value: 'user-1' }, { format: 'hex', value: '00ff' }]);
  const keys = KEYS.map((key, i) => ({ shown: `k${i}`, key }));
  // What-ifs change the topic they run on: a topology of their own.
  for (const t of new Topology(settings, []).topics) {
    const first = t instanceof PulsarTopicState ? t.subscription?.consumers[0]?.id : undefined;
    const events = t instanceof PulsarTopicState && t.subscription ? ['+fz', ...(first ? [`-${first}`] : []), 'partitions=7'] : ['partitions=9'];
    runWhatIf(t, events.map((e) => parseEvent(e)), keys);
    // The panel's what-if (the webview runs it on the settings it was sent) and its ordering note.
    const parsed = events.map((e) => parseEvent(e)).filter((e) => e.kind !== 'partitions');
    const w = buildWhatIf(settings, t.name, parsed, labelled);
    if (w) orderingNote(settings, t.name, parsed, labelled, w);
  }
  // The panel's views of groups (members, owners, a rebalance what-if on copies), bundles and
  // reports, which leave the topology as it is.
  panelReports(topology);
  for (const t of topology.topics) {
    if (t instanceof KafkaTopicState) {
      const routes = KEYS.map((key, i) => ({ n: i + 1, label: `k${i}`, route: t.route(key) }));
      for (const g of groupsOf(topology, t.name)) {
        buildGroupView(g, t, routes);
        groupWhatIf(topology, g, t.name, ['+fz', `-${g.config.members[0]?.id ?? 'fz'}`, `partitions=${t.partitions + 1}`], keys);
      }
    } else buildNamespaceView(settings, t.name, t.partitions, KEYS.map((key) => t.route(key).partition), [0x10000000, 0x20000000]);
  }
  // Last, as it changes the groups and topics it runs on.
  for (const g of topology.groups) {
    const topics = new Map<string, KafkaTopicState>();
    for (const name of g.config.topics) topics.set(name, topology.topic(name) as KafkaTopicState);
    runGroupWhatIf(g, topics, ['+fz', `-${g.config.members[0]?.id ?? 'fz'}`, `partitions=${g.config.topics.length + 20}`], keys, g.config.topics[0]);
  }
  return problems;
}

describe('properties: settings as data', () => {
  test('the full settings object parses without a problem, and every step runs on it', () => {
    assert.deepEqual(useSettings(fullSettings()), []);
    assert.deepEqual(lastGood.findings, []);
    assert.equal(lastGood.topology.topics.length, 7);
    assert.equal(lastGood.topology.groups.length, 3);
  });

  test('any one to three changes anywhere in it: nothing throws, and every problem names its path and what is wrong', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (mutations) => {
        const raw = fullSettings();
        for (const m of mutations) mutate(raw, m);
        const before = JSON.stringify(raw);
        const problems = useSettings(raw);
        for (const p of problems) {
          assert.match(p.path, /^(\(settings\)$|keyRouting\.\w)/, JSON.stringify(p));
          assert.match(p.message, /\S/, JSON.stringify(p));
        }
        // Settings are read, never written: the user's value is as it was.
        assert.equal(JSON.stringify(raw), before);
      }),
      propertyRuns(250),
    );
  });

  // "Apply to settings" from the panel, on settings the user may have broken since: the request is
  // well formed (the webview's messages are validated before this), the settings anything.
  const applyArb = fc.record({
    mutations: fc.array(mutationArb, { maxLength: 3 }),
    topic: fc.nat(),
    partitions: fc.option(fc.integer({ min: 0, max: 2147483647 })),
    consumers: fc.option(fc.array(fc.record({ name: fc.constantFrom('x', 'y', 'C1', 'E1', 'new'), ranges: fc.option(fc.array(fc.tuple(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 65535 })), { maxLength: 2 })) }), { maxLength: 4 })),
    group: fc.nat(),
    members: fc.array(fc.record({ id: fc.constantFrom('m1', 'm2', 'u1', 'r1', 'fz'), topics: fc.option(fc.subarray(['orders', 'typed', 'bytes', 'nope'])) }), { maxLength: 4 }),
  });

  /**
   * What Apply writes must not break another entry: every problem of the written settings (parsed,
   * then built, as the extension does) was a problem of the settings before. (It did: a grown topic
   * left another group's report of the old count, refused until the user removed it by hand.)
   */
  function noNewProblems(before: Record<string, unknown>, written: Record<string, unknown>, changes: string[]): void {
    const problemsOf = (raw: Record<string, unknown>) => {
      const { settings, problems } = parseSettings(raw);
      new Topology(settings, problems);
      return problems.map((p) => `${p.path}: ${p.message}`);
    };
    const had = new Set(problemsOf(before));
    const added = problemsOf(written).filter((p) => !had.has(p));
    assert.deepEqual(added, [], `after ${JSON.stringify(changes)}`);
  }

  /**
   * The name a request gives for an entry of the mutated settings: its own where it is a string,
   * else one no entry has. (`String` of a mutated name threw: `{"toString": 0}` has no primitive.)
   */
  const nameOf = (entry: unknown): string => {
    const name = entry && typeof entry === 'object' && 'name' in entry ? entry.name : undefined;
    return typeof name === 'string' ? name : 'none';
  };

  test('Apply to settings on any settings: an error, or settings that parse with no problem they did not have, and the current settings left as they were', () => {
    fc.assert(
      fc.property(applyArb, ({ mutations, topic, partitions, consumers, group, members }) => {
        const raw = fullSettings();
        for (const m of mutations) mutate(raw, m);
        const before = JSON.stringify(raw);
        const topics = raw[TOPICS];
        const names = Array.isArray(topics) ? topics.map(nameOf) : ['none'];
        const r = applyToTopics(topics, {
          type: 'applyToSettings',
          requestId: 1,
          topic: names[topic % Math.max(1, names.length)] ?? 'none',
          ...(partitions !== null ? { partitions } : {}),
          ...(consumers !== null ? { consumers: consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number]) } : { name: c.name })) } : {}),
        }, raw[GROUPS]);
        if ('error' in r) assert.match(r.error, /\S/);
        else noNewProblems(raw, { ...raw, [TOPICS]: r.topics, ...(r.groups ? { [GROUPS]: r.groups } : {}) }, r.changes);
        const groups = raw[GROUPS];
        const groupNames = Array.isArray(groups) ? groups.map(nameOf) : ['none'];
        const g = applyToGroups(groups, topics, {
          type: 'applyGroupToSettings',
          requestId: 2,
          group: groupNames[group % Math.max(1, groupNames.length)] ?? 'none',
          members: members.map((m) => (m.topics ? { id: m.id, topics: m.topics } : { id: m.id })),
          ...(partitions !== null ? { topic: 'orders', partitions: Math.max(1, partitions) } : {}),
        });
        if ('error' in g) assert.match(g.error, /\S/);
        else noNewProblems(raw, { ...raw, [GROUPS]: g.groups, ...(g.topics ? { [TOPICS]: g.topics } : {}) }, g.changes);
        assert.equal(JSON.stringify(raw), before, 'the current settings are not changed in place');
      }),
      propertyRuns(300),
    );
  });
});
