/**
 * The what-if before its first step, as the panel draws it from the host's frame without building
 * its own topology (`noStepsWhatIf`): everything it shows equals what the engine's `buildWhatIf`
 * of no steps gives (both sides, the markers, the moved shares and ranges, the editor's consumers
 * and partition count), on every selector kind, both broker generations, a broker's report, a
 * topic without a subscription, Kafka, duplicate names and keys the host cannot route (bad hex).
 * The same for a Kafka consumer group's what-if (`noStepsResult`), on every assignor.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../../src/engine/settings';
import { KafkaTopicState, Topology } from '../../src/engine/topology';
import { importPulsarStats } from '../../src/import/pulsarStats';
import { mergeImported } from '../../src/import/merge';
import { buildFrames, groupOfFrame, viewOfFrame } from '../../src/shared/view/frame';
import { buildGroupView, groupsOf, groupWhatIf, noStepsResult } from '../../src/shared/view/groupView';
import { toShownKey } from '../../src/shared/view/shownKeys';
import { buildWhatIf, noStepsWhatIf, type WhatIfViewModel } from '../../src/shared/view/whatIfView';
import { ColorMap } from '../../src/shared/view/owners';
import type { ShownKey } from '../../src/shared/view/topicView';
import { settingsOf } from './helpers';
import { KEYS_OF_EVERY_KIND, plainGroup, TOPICS_OF_EVERY_KIND } from './viewFixtures';

const TOPICS = TOPICS_OF_EVERY_KIND;
const KEYS = KEYS_OF_EVERY_KIND;

/** What the What-if view shows of a model (the charts' own data compared where they are drawn from). */
function shown(w: WhatIfViewModel) {
  const side = (v: WhatIfViewModel['before']) => ({
    system: v.system,
    partitions: v.partitions,
    consumers: v.selector?.consumers ?? null,
    segments: v.selector ? Array.from({ length: v.selector.segments.count }, (_, i) => {
      const s = v.selector!.segments;
      return [s.starts[i], s.ends[i], s.owners[s.owner[i]].ids.join('+')];
    }) : null,
    markers: v.markers.map((m) => ({ n: m.n, label: m.label, route: m.route, slot: m.slot })),
  });
  return {
    topic: w.topic,
    steps: w.steps,
    before: side(w.before),
    after: side(w.after),
    movedRanges: w.movedRanges,
    movedFraction: w.movedFraction,
    movedKeyFraction: w.movedKeyFraction,
    keys: w.keys,
    partitions: w.apply.partitions,
  };
}

function check(settings: Settings, names: string[]): void {
  const topology = new Topology(settings, []);
  const entries = KEYS.map(toShownKey);
  const shownKeys: ShownKey[] = entries.flatMap((e) => (e.shown ? [e.shown] : []));
  const frames = buildFrames(topology, KEYS);
  for (const name of names) {
    const view = viewOfFrame(frames.find((f) => f.name === name)!, entries);
    assert.ok(view, `${name}: the frame makes a view`);
    const fromView = noStepsWhatIf(view);
    const engine = buildWhatIf(settings, name, [], shownKeys, new ColorMap())!;
    assert.deepEqual(shown(fromView), shown(engine), name);
    // Nothing to apply before a step (the Apply button is disabled, and its sentence left out).
    assert.equal(fromView.apply.consumers, null);
    assert.ok(!fromView.applyDiffers);
  }
}

describe('noStepsWhatIf: the what-if of no steps from the view', () => {
  test('equals the engine on every selector kind, both generations, Kafka and a topic without a subscription', () => {
    check(settingsOf({ 'keyRouting.topics': TOPICS }), TOPICS.map((t) => t.name));
  });

  test("equals the engine on a broker's report (the reported layout, not the rebuilt ring)", () => {
    const DATA = join(__dirname, '../../../test/unit/data/observed');
    const TOPIC = 'persistent://public/default/orders';
    const raw = mergeImported(undefined, importPulsarStats(readFileSync(join(DATA, 'pulsar-4.0-auto-split-draining.json'), 'utf8'), { source: 's.json', topic: TOPIC }));
    check(settingsOf(raw), [TOPIC]);
  });

  test('a view without keys, and one whose keys all route', () => {
    const settings = settingsOf({ 'keyRouting.topics': TOPICS.slice(0, 1) });
    const frames = buildFrames(new Topology(settings, []), []);
    const w = noStepsWhatIf(viewOfFrame(frames[0], [])!);
    assert.equal(w.movedKeyFraction, null);
    assert.deepEqual(w.keys, []);
    assert.equal(w.movedFraction, 0);
  });
});

describe("noStepsResult: a consumer group's what-if of no steps from the group's view", () => {
  const ASSIGNORS = ['range', 'roundrobin', 'sticky', 'cooperative-sticky', 'uniform', 'server-range'];
  const settings = settingsOf({
    'keyRouting.topics': [
      { name: 'orders', system: 'kafka', partitions: 40 },
      { name: 'payments', system: 'kafka', partitions: 7 },
    ],
    // Two topics each (a key moves on either), and `uniform` without topic ids: the engine's note.
    'keyRouting.kafkaGroups': ASSIGNORS.map((assignor, i) => ({
      name: `g-${assignor}`,
      assignor,
      topics: ['orders', 'payments'],
      members: Array.from({ length: 3 + i }, (_, j) => ({ id: `m${j}` })),
    })),
  });

  test('equals the engine: no steps, no key moved, the notes, and the group after it as it is', () => {
    const topology = new Topology(settings, []);
    const entries = KEYS.map(toShownKey);
    const keys = entries.flatMap((e) => (e.shown ? [{ shown: e.shown.label, key: e.shown.key }] : []));
    const frames = buildFrames(topology, KEYS);
    let notes = 0;
    for (const f of frames) {
      const view = viewOfFrame(f, entries)!;
      for (const g of groupsOf(topology, f.name)) {
        const base = groupOfFrame(f, g.name, view.markers)!;
        assert.ok(base, `${f.name} / ${g.name}: the frame carries the group`);
        const got = noStepsResult(base);
        const run = groupWhatIf(topology, g, f.name, [], keys);
        const { keys: all, ...rest } = run.result;
        assert.deepEqual({ ...got, keys: undefined }, { ...rest, keys: undefined }, `${f.name} / ${g.name}`);
        assert.deepEqual(got.keys, all.filter((k) => k.moved));
        assert.ok(all.length > 0, 'the engine lists the keys: the comparison above means something');
        assert.deepEqual(plainGroup(base), plainGroup(buildGroupView(run.run.group, run.run.topics.get(f.name) as KafkaTopicState, view.markers)));
        notes += got.notes?.length ?? 0;
      }
    }
    assert.equal(notes, 2, "uniform's topic-id note, on both topics");
  });
});
