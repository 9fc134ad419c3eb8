/**
 * The host's frames: the view the panel makes from a frame equals the view it would work out with
 * its own topology (every selector kind, both broker generations, Kafka); the layouts a frame
 * carries equal the layouts made in the page; a frame survives a structured clone (as VS Code
 * passes it), without the segments of a ring (rebuilt from its points); a frame that does not route a key, or does not hold together, is not used; and a
 * topic of 2,147,483,647 partitions makes a frame and a view without any per-partition work.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { KafkaTopicState, PulsarTopicState, Topology } from '../../src/engine/topology';
import type { ConsistentHashing4Selector } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import { ColorMap, OwnerTable, PALETTE_SIZE } from '../../src/shared/view/owners';
import { buildFrames, FRAME_ROW_BUDGET, groupOfFrame, viewOfFrame, type TopicFrame } from '../../src/shared/view/frame';
import { Models } from '../../src/webview/model';
import { buildGroupView, groupsOf } from '../../src/shared/view/groupView';
import { binsOf, layoutOf, packBins, packRuns, unpackBins, unpackRuns } from '../../src/shared/view/layoutCache';
import { binPoints, buildRingColumns, RING_COLUMNS, ringModelOf } from '../../src/shared/view/ring';
import { fullWindow, layoutSegments, zoomWindow } from '../../src/shared/view/segments';
import { toShownKey } from '../../src/shared/view/shownKeys';
import { buildTopicView, layoutPartitions } from '../../src/shared/view/topicView';
import { clonedObjects, plainModel, ringPoints, settingsOf } from './helpers';
import { KEYS_OF_EVERY_KIND, plainGroup, TOPICS_OF_EVERY_KIND } from './viewFixtures';

const TOPICS = TOPICS_OF_EVERY_KIND;
const KEYS = KEYS_OF_EVERY_KIND;

describe('frames: the view the panel makes from the host frame', () => {
  const settings = settingsOf({ 'keyRouting.topics': TOPICS });
  const topology = new Topology(settings, []);
  const entries = KEYS.map(toShownKey);
  const shown = entries.flatMap((e) => (e.shown ? [e.shown] : []));
  const frames = buildFrames(topology, KEYS, 1164);

  for (const t of TOPICS) {
    test(`${t.name}: equals the one built from the panel's own topology, also after a structured clone`, () => {
      const own = buildTopicView(new Topology(settings, []).topic(t.name)!, shown);
      const frame = frames.find((f) => f.name === t.name)!;
      // As plain data (functions dropped, typed arrays as arrays): frames carry no 4.x queues.
      assert.deepEqual(plainModel(viewOfFrame(frame, entries)!), plainModel(own));
      assert.deepEqual(plainModel(viewOfFrame(structuredClone(frame), entries)!), plainModel(own));
    });
  }

  test("a colour map seeded with a frame view's owners colours them as the frame does; a consumer coloured before the seed keeps its colour", () => {
    const owners = viewOfFrame(frames.find((f) => f.name === 'split4')!, entries)!.selector!.segments.owners;
    const singles = owners.filter((o) => o.ids.length === 1 && o.color >= 0);
    const early = singles.find((o) => o.color !== 0)!;
    assert.ok(singles.length > 10 && early);
    const map = new ColorMap();
    assert.equal(map.colorOf(early.ids[0]), 0);
    map.seed(owners);
    for (const o of singles) assert.equal(map.colorOf(o.ids[0]), o === early ? 0 : o.color, o.label);
    // A consumer the frame does not know comes after the seeded ones, as when seeding took them in at once.
    const seeded = new Set(singles.map((o) => o.ids[0]));
    assert.equal(map.colorOf('not-in-the-frame'), seeded.size % PALETTE_SIZE);
  });

  test('a key the frame does not route, or columns that do not hold together: no view from the frame', () => {
    const frame = frames.find((f) => f.name === 'ring4')!;
    assert.equal(viewOfFrame(frame, [...entries, toShownKey({ format: 'utf8', value: 'added later' })]), undefined);
    const noRing = structuredClone(frame);
    noRing.selector!.ring!.owner = new Int32Array(3);
    assert.equal(viewOfFrame(noRing, entries), undefined);
    const split = structuredClone(frames.find((f) => f.name === 'split4')!);
    split.selector!.ends = split.selector!.ends!.subarray(1);
    assert.equal(viewOfFrame(split, entries), undefined);
    const short = structuredClone(frames.find((f) => f.name === 'split4')!);
    short.selector!.ends![short.selector!.ends!.length - 1] = 100;
    assert.equal(viewOfFrame(short, entries), undefined, 'segments that do not reach the end of the space');
    const colours = structuredClone(frame);
    colours.selector!.ownerColors = new Int16Array(1);
    assert.equal(viewOfFrame(colours, entries), undefined);
    assert.equal(viewOfFrame({ ...frame, keys: 'x' } as unknown as TopicFrame, entries), undefined);
    for (const names of ['[[], [', '{}', '[[], []]', '[[], "a", []]']) assert.equal(viewOfFrame({ ...frame, selector: { ...frame.selector!, names } }, entries), undefined, names);
  });

  test('4.x queues: gathered into columns or read from the selector when asked, the same consumers', () => {
    const topic = new Topology(settings, []).topic('ring4')! as PulsarTopicState;
    const sel = topic.subscription!.selector as ConsistentHashing4Selector;
    const table = new OwnerTable(new ColorMap());
    table.addConsumers(topic.subscription!.consumers);
    const columns = ringModelOf(buildRingColumns(sel, table, true), table.owners);
    const lazy = ringModelOf(buildRingColumns(sel, table, false), table.owners);
    let queued = 0;
    for (let i = 0; i < columns.points.length; i++) {
      assert.deepEqual(lazy.queued(i), columns.queued(i));
      if (columns.queued(i).length) queued++;
    }
    assert.ok(queued > 100, `points with a queue: ${queued}`);
    // And as the selector itself holds them.
    const points = ringPoints(sel);
    assert.deepEqual(points.slice(0, 500).map(([, , q]) => q.map((c) => c.id)), Array.from({ length: 500 }, (_, i) => columns.queued(i)));
  });

  test('a ring frame carries its points and its segment ends; other selectors their segment ends', () => {
    for (const f of frames) {
      const s = f.selector;
      if (!s) continue;
      assert.ok(s.ends instanceof Int32Array && s.owner instanceof Int32Array, f.name);
      if (s.ring) assert.ok(s.ring.points instanceof Int32Array && s.ring.points.length > 0, f.name);
    }
  });

  test("a selector's names go as one string: its part of the message does not grow with its consumers", () => {
    // A message is cloned an object and a string at a time (see SelectorFrame.names).
    for (const f of frames) if (f.selector) assert.ok(clonedObjects(f.selector) <= 12, `${f.name}: ${clonedObjects(f.selector)} objects and strings`);
  });

  test('ring segment bounds are int32 columns, as the engine builds them and as the panel reads a frame', () => {
    // Half a double's memory: a 100,000-point ring's table is made again on every what-if step, and
    // a frame's model on every first picture, where fresh memory costs more to touch than to fill.
    for (const name of ['ring3', 'ring4']) {
      const own = buildTopicView(new Topology(settings, []).topic(name)!, shown).selector!.segments;
      assert.ok(own.starts instanceof Int32Array && own.ends instanceof Int32Array, `${name}: own topology`);
    }
    for (const f of frames) {
      if (!f.selector) continue;
      const m = viewOfFrame(structuredClone(f), entries)!.selector!.segments;
      assert.ok(m.starts instanceof Int32Array && m.ends instanceof Int32Array, `${f.name}: from the frame`);
    }
  });

  test("a frame's model makes its segment starts when they are first read, the same as the topology's own", () => {
    // The first picture draws from the frame's layouts; the starts' loop runs cold there.
    for (const f of frames) {
      if (!f.selector) continue;
      const m = viewOfFrame(structuredClone(f), entries)!.selector!.segments;
      const made = () => (m as unknown as { startsColumn?: Int32Array }).startsColumn;
      assert.equal(made(), undefined, `${f.name}: starts made before they were read`);
      const own = buildTopicView(new Topology(settings, []).topic(f.name)!, shown).selector!.segments;
      assert.deepEqual([...m.starts], [...own.starts], f.name);
      assert.equal(m.starts, m.starts, `${f.name}: made once`);
      assert.equal(made(), m.starts, `${f.name}: kept as a column`);
    }
  });

  test("reading a frame's starts leaves the model's shape as it was", () => {
    // The charts' code is optimised for the shapes of the models it has drawn; a model whose own
    // properties change when first read (an accessor replaced by the column, as it once was) makes
    // V8 deoptimise it, which the panel bench traced in the first what-if steps.
    for (const f of frames) {
      if (!f.selector) continue;
      const m = viewOfFrame(structuredClone(f), entries)!.selector!.segments;
      const shape = () => Object.getOwnPropertyNames(m).map((k) => [k, Object.keys(Object.getOwnPropertyDescriptor(m, k)!).sort().join()]);
      const before = JSON.stringify(shape());
      assert.ok(m.starts.length > 0);
      assert.equal(JSON.stringify(shape()), before, f.name);
    }
  });

  test('the layouts a frame carries are the layouts of its model, and they seed the layout cache', () => {
    for (const t of TOPICS) {
      // The shown topic's frame (the first) is the one laid out.
      const [f] = buildFrames(new Topology(settings, []), KEYS, 1164, { shown: t.name });
      assert.equal(f.name, t.name);
      if (!f.selector) {
        assert.equal(f.layouts, undefined);
        continue;
      }
      const v = viewOfFrame(f, entries)!;
      const m = v.selector!.segments;
      const full = fullWindow(m.space);
      assert.deepEqual(unpackRuns(f.layouts!.bar, m), layoutSegments(m, full, 1164), f.name);
      // Seeded: the cache hands out the frame's runs (the same objects each time).
      assert.equal(layoutOf(m, full, 1164), layoutOf(m, full, 1164));
      assert.deepEqual(layoutOf(m, full, 1164), layoutSegments(m, full, 1164));
      const ring = v.selector!.ring;
      if (ring) {
        assert.deepEqual(unpackRuns(f.layouts!.band!, m), layoutSegments(m, full, RING_COLUMNS));
        assert.deepEqual(unpackBins(f.layouts!.bandBins!, m.owners.length, ring.points.length), binPoints(ring, full, RING_COLUMNS));
        assert.deepEqual(binsOf(ring, full, 1164), binPoints(ring, full, 1164));
      } else assert.equal(f.layouts!.band, null);
    }
  });

  test("only the shown topic's frame is laid out; the others' views lay themselves out alike", () => {
    const [first, ...others] = buildFrames(new Topology(settings, []), KEYS, 1164, { shown: 'ring3' });
    assert.equal(first.name, 'ring3');
    assert.ok(first.layouts);
    assert.ok(others.some((f) => f.selector?.ring), 'another ring is framed');
    for (const f of others) {
      assert.equal(f.layouts, undefined, f.name);
      const m = viewOfFrame(f, entries)?.selector?.segments;
      if (m) assert.deepEqual(layoutOf(m, fullWindow(m.space), 1164), layoutSegments(m, fullWindow(m.space), 1164), f.name);
    }
  });

  test('the full-space layouts stay cached through any number of zoom windows (the picture "0" returns to)', () => {
    const f = frames.find((x) => x.name === 'ring3')!;
    const v = viewOfFrame(f, entries)!;
    const m = v.selector!.segments;
    const ring = v.selector!.ring!;
    const full = fullWindow(m.space);
    const runs = layoutOf(m, full, 1164);
    const bins = binsOf(ring, full, 1164);
    let w = full;
    for (let i = 0; i < 30; i++) {
      w = zoomWindow(w, m.space, i < 15 ? 0.5 : 2, w.from + (w.to - w.from) * 0.4);
      layoutOf(m, w, 1164);
      binsOf(ring, w, 1164);
    }
    // The same objects: not laid out again.
    assert.equal(layoutOf(m, full, 1164), runs);
    assert.equal(binsOf(ring, full, 1164), bins);
    // A zoom window is kept among the last few only.
    const first = zoomWindow(full, m.space, 0.5, m.space[0] + 10);
    const firstRuns = layoutOf(m, first, 1164);
    for (let i = 0; i < 20; i++) layoutOf(m, { from: m.space[0] + i, to: m.space[0] + 1000 + i }, 1164);
    assert.notEqual(layoutOf(m, first, 1164), firstRuns);
    assert.deepEqual(layoutOf(m, first, 1164), firstRuns);
  });

  test('packed runs and bins that point outside the model are refused', () => {
    const f = frames.find((x) => x.name === 'ring3')!;
    const m = viewOfFrame(f, entries)!.selector!.segments;
    const runs = layoutSegments(m, fullWindow(m.space), 300);
    assert.deepEqual(unpackRuns(packRuns(runs), m), runs);
    const bad = packRuns(runs);
    bad[2] = m.owners.length;
    assert.equal(unpackRuns(bad, m), undefined);
    assert.equal(unpackRuns(new Int32Array(7), m), undefined);
    const bins = binPoints(viewOfFrame(f, entries)!.selector!.ring!, fullWindow(m.space), 200);
    const packed = packBins(bins);
    assert.deepEqual(unpackBins(packed, m.owners.length, 1e9), bins);
    packed[4] = -1;
    assert.equal(unpackBins(packed, m.owners.length, 1e9), undefined);
  });
});

describe('a Kafka topic of 2,147,483,647 partitions', () => {
  // Built past the settings' own limit (the contract allows int32 counts): nothing in the frame, the
  // view or the partition row's layout is per partition.
  const settings: Settings = { topics: [{ name: 'huge', system: 'kafka', partitions: 2147483647, partitioner: 'java', path: 'keyRouting.topics[0]' } as never], namespaces: [] };

  test('makes a frame, a view with every key in its partition, and a row of at most width / 4 cells', () => {
    const [frame] = buildFrames(new Topology(settings, []), KEYS, 1164);
    const v = viewOfFrame(structuredClone(frame), KEYS.map(toShownKey))!;
    assert.equal(v.partitions!.count, 2147483647);
    for (const m of v.markers) assert.ok(Number.isInteger(m.route.partition) && m.route.partition! >= 0 && m.route.partition! < 2147483647);
    const cells = layoutPartitions(2147483647, 1164, 4);
    assert.equal(cells.length, 291);
    assert.equal(cells[0].first, 0);
    assert.equal(cells[cells.length - 1].last, 2147483646);
    for (let i = 1; i < cells.length; i++) assert.equal(cells[i].first, cells[i - 1].last + 1);
    assert.ok(JSON.stringify(frame).length < 20_000, 'the frame is small');
  });
});

describe('a Kafka topic\'s consumer groups in its frame', () => {
  const { settings, problems } = parseSettings({
    'keyRouting.topics': [
      { name: 'orders', system: 'kafka', partitions: 40 },
      { name: 'payments', system: 'kafka', partitions: 7 },
      { name: 'alone', system: 'kafka', partitions: 5 },
    ],
    'keyRouting.kafkaGroups': [
      { name: 'billing', assignor: 'range', topics: ['orders'], members: [{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }] },
      { name: 'audit', assignor: 'cooperative-sticky', topics: ['orders', 'payments'], members: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }] },
    ],
  });
  assert.deepEqual(problems, []);
  const topology = new Topology(settings, []);
  const entries = KEYS.map(toShownKey);

  test('each group made from the frame (after a structured clone) equals the one the panel builds from its own topology', () => {
    const frames = structuredClone(buildFrames(topology, KEYS, 1164));
    const own = new Topology(settings, []);
    let compared = 0;
    for (const f of frames) {
      const v = viewOfFrame(f, entries)!;
      const groups = groupsOf(own, f.name);
      assert.deepEqual((f.groups ?? []).map((g) => g.view.group), groups.map((g) => g.name), f.name);
      for (const g of groups) {
        const expected = buildGroupView(g, own.topic(f.name) as KafkaTopicState, v.markers);
        const got = groupOfFrame(f, g.name, v.markers)!;
        assert.deepEqual(plainGroup(got), plainGroup(expected), `${f.name} / ${g.name}`);
        assert.ok(got.members.some((m) => m.keys > 0), 'the keys are counted per member');
        compared++;
      }
    }
    assert.equal(compared, 3);
  });

  test('past the host\'s budget of partition owners, later topics carry no groups (the panel asks its topology)', () => {
    // orders: 40 partitions x 2 groups; payments: 7 x 1; alone: no group (costs nothing).
    const within = buildFrames(topology, KEYS, 1164, { groupBudget: 87 });
    assert.deepEqual(within.map((f) => f.groups?.length), [2, 1, 0]);
    const past = buildFrames(topology, KEYS, 1164, { groupBudget: 86 });
    assert.deepEqual(past.map((f) => f.groups?.length), [2, undefined, 0]);
  });

  test('a frame without the partition of a key, or with a short owner column, is not used', () => {
    const [f] = structuredClone(buildFrames(topology, KEYS, 1164));
    const v = viewOfFrame(f, entries)!;
    const missing = structuredClone(f);
    missing.groups![0].keyMembers = missing.groups![0].keyMembers.slice(1);
    assert.equal(groupOfFrame(missing, 'billing', v.markers), undefined);
    const short = structuredClone(f);
    short.groups![0].view.owner = short.groups![0].view.owner!.slice(1);
    assert.equal(groupOfFrame(short, 'billing', v.markers), undefined);
    assert.equal(groupOfFrame(f, 'nobody', v.markers), undefined);
  });
});

describe('a workspace of many topics: the shown topic\'s frame first, the others while a message holds them', () => {
  // 30 topics of 6 partitions under one group of 40 members: a frame costs 10 key routes and 40
  // member rows.
  const topics = Array.from({ length: 30 }, (_, i) => ({ name: `t${i}`, system: 'kafka', partitions: 6 }));
  const settings = settingsOf({
    'keyRouting.topics': topics,
    'keyRouting.kafkaGroups': [{ name: 'all', assignor: 'range', topics: topics.map((t) => t.name), members: Array.from({ length: 40 }, (_, i) => ({ id: `m${i}` })) }],
  });
  const topology = new Topology(settings, []);
  const keys = Array.from({ length: 10 }, (_, i) => ({ format: 'utf8' as const, value: `order-${i}` }));
  const names = (fs: TopicFrame[]) => fs.map((f) => f.name);

  test('the shown topic comes first and goes whatever it costs; the others in order while they fit', () => {
    assert.deepEqual(names(buildFrames(topology, keys, 1164, { shown: 't29', rowBudget: 120 })), ['t29', 't0', 't1']);
    assert.deepEqual(names(buildFrames(topology, keys, 1164, { rowBudget: 120 })), ['t0', 't1', 't2']);
    assert.deepEqual(names(buildFrames(topology, keys, 1164, { shown: 't29', rowBudget: 10 })), ['t29']);
    // A topic the settings no longer hold: the topology's order.
    assert.deepEqual(names(buildFrames(topology, keys, 1164, { shown: 'gone', rowBudget: 120 })), ['t0', 't1', 't2']);
    assert.equal(buildFrames(topology, keys, 1164).length, 30, 'the default budget holds all of these');
  });

  test('the panel draws a topic without a frame from its own topology, as it would with one', () => {
    const frames = structuredClone(buildFrames(topology, keys, 1164, { shown: 't29', rowBudget: 120 }));
    const framed = new Models();
    framed.setSettings(settings, frames);
    framed.setKeys(keys);
    const own = new Models();
    own.setSettings(settings);
    own.setKeys(keys);
    assert.equal(framed.engineReady, false);
    // t29 from its frame, without the panel's own topology; t5 from that topology.
    assert.deepEqual(plainModel(framed.view('t29')!), plainModel(own.view('t29')!));
    assert.deepEqual(plainGroup(framed.group('t29', 'all')!), plainGroup(own.group('t29', 'all')!));
    assert.equal(framed.engineReady, false, 'the shown topic needs no topology of its own');
    assert.deepEqual(plainModel(framed.view('t5')!), plainModel(own.view('t5')!));
    assert.deepEqual(plainGroup(framed.group('t5', 'all')!), plainGroup(own.group('t5', 'all')!));
  });

  test('200 topics of 50 partitions under a 500-member group: at most FRAME_ROW_BUDGET rows besides the shown topic\'s', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ name: `topic-${i}`, system: 'kafka', partitions: 50 }));
    const big = new Topology(
      settingsOf({
        'keyRouting.topics': many,
        'keyRouting.kafkaGroups': [{ name: 'g', assignor: 'range', topics: many.map((t) => t.name), members: Array.from({ length: 500 }, (_, i) => ({ id: `consumer-${i}` })) }],
      }),
      [],
    );
    const hundred = Array.from({ length: 100 }, (_, i) => ({ format: 'utf8' as const, value: `order-${i}` }));
    const frames = buildFrames(big, hundred, 1164, { shown: 'topic-150' });
    assert.equal(frames[0].name, 'topic-150');
    const rows = frames.slice(1).reduce((n, f) => n + f.keys.length + (f.groups ?? []).reduce((m, g) => m + g.view.members.length, 0), 0);
    assert.ok(rows <= FRAME_ROW_BUDGET && rows > FRAME_ROW_BUDGET - 600, `${rows} rows in ${frames.length} frames`);
  });
});
