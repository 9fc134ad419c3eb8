import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { formatEvent, type TopologyEvent } from '../../src/engine/events';
import { toShownKey } from '../../src/shared/view/shownKeys';
import { ColorMap } from '../../src/shared/view/owners';
import { buildTopicView, type ShownKey, type TopicViewModel } from '../../src/shared/view/topicView';
import { buildWhatIf, extendWhatIf, type WhatIfViewModel } from '../../src/shared/view/whatIfView';
import { extendOrderingNote, orderingNote, type OrderingNote } from '../../src/shared/view/orderingNote';
import { Models } from '../../src/webview/model';
import { buildFrames } from '../../src/shared/view/frame';
import { diffOwnership, measureSize } from '../../src/engine/whatIf';
import { mergeRanges } from '../../src/engine/pulsar/keyShared/selector';
import { randInt, rng } from './helpers';

// The panel takes a what-if one step further (`extendWhatIf`, `extendOrderingNote`) instead of
// running every step again. Here random join/leave histories (duplicate names, refused leaves,
// partition changes) on both ring generations and AUTO_SPLIT compare, after every step, the
// model and ordering note taken further step by step with the ones built afresh for the same
// events, field by field, and the moved share and ranges with a diff of the whole hash space.

const TOPIC = 'persistent://public/default/t';

interface Case {
  label: string;
  brokerVersion: '3.0' | '4.0';
  consistentHashing: boolean;
  points: number;
  partitions: number;
}

const CASES: Case[] = [
  { label: '3.0 ring', brokerVersion: '3.0', consistentHashing: true, points: 12, partitions: 0 },
  { label: '4.0 ring', brokerVersion: '4.0', consistentHashing: true, points: 12, partitions: 0 },
  { label: '3.0 ring, partitioned', brokerVersion: '3.0', consistentHashing: true, points: 5, partitions: 2 },
  { label: '4.0 ring, partitioned', brokerVersion: '4.0', consistentHashing: true, points: 5, partitions: 2 },
  { label: '4.0 AUTO_SPLIT', brokerVersion: '4.0', consistentHashing: false, points: 100, partitions: 0 },
];

/** Names drawn for joins: few, so that names repeat (`dup`, `dup#2`, ...), with a prefix pair whose 3.0 point strings meet. */
const NAMES = ['dup', 'dup', 'dup', 'c-1', 'c-11', 'c-2', 'é', ''];

function settingsOf(c: Case, consumers: string[]): Settings {
  const { settings, problems } = parseSettings({
    'keyRouting.topics': [
      {
        name: TOPIC,
        system: 'pulsar',
        partitions: c.partitions,
        brokerVersion: c.brokerVersion,
        subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'AUTO_SPLIT', consistentHashing: c.consistentHashing, replicaPoints: c.points, consumers: consumers.map((name) => ({ name })) },
      },
    ],
  });
  assert.deepEqual(problems, []);
  return settings;
}

/** Text keys, and one byte key that is not UTF-8 (left out of the ordering notes). */
function keysOf(r: () => number): ShownKey[] {
  const inputs = Array.from({ length: randInt(r, 0, 14) }, (_, i) => ({ format: 'utf8' as const, value: `key-${i}-${randInt(r, 0, 1e6)}` }));
  if (r() < 0.5) inputs.push({ format: 'hex' as const, value: 'ff00fe' } as never);
  return inputs.map((k) => toShownKey(k).shown!);
}

/** The next event of a history: mostly joins and leaves of live consumers, some refused leaves and partition changes. */
function nextEvent(r: () => number, live: readonly string[], c: Case, partitions: number): TopologyEvent {
  const x = r();
  if (x < 0.5 || live.length === 0) return { kind: 'connect', name: NAMES[randInt(r, 0, NAMES.length - 1)] };
  if (x < 0.85) return { kind: 'disconnect', id: live[randInt(r, 0, live.length - 1)] };
  if (x < 0.92 || c.partitions === 0) return { kind: 'disconnect', id: 'nobody-has-this-id' };
  // Growing (or, refused, shrinking) the partitions adds selector groups.
  return { kind: 'partitions', count: Math.max(1, partitions + randInt(r, -1, 2)) };
}

/** A view with its 4.x queues read out, so that views compare as plain data. */
function plainView(v: TopicViewModel): unknown {
  const ring = v.selector?.ring;
  if (!ring) return v;
  const queues = Array.from(ring.points, (_, i) => ring.queued(i));
  return { ...v, selector: { ...v.selector, ring: { space: ring.space, points: ring.points, owner: ring.owner, queues } } };
}

function assertSameModel(got: WhatIfViewModel, want: WhatIfViewModel, at: string): void {
  assert.equal(got.topic, want.topic, `${at}: topic`);
  assert.deepEqual(got.steps, want.steps, `${at}: steps`);
  assert.deepEqual(plainView(got.before), plainView(want.before), `${at}: before`);
  assert.deepEqual(plainView(got.after), plainView(want.after), `${at}: after`);
  assert.deepEqual(got.movedRanges, want.movedRanges, `${at}: movedRanges`);
  assert.equal(got.movedFraction, want.movedFraction, `${at}: movedFraction`);
  assert.equal(got.movedKeyFraction, want.movedKeyFraction, `${at}: movedKeyFraction`);
  assert.deepEqual(got.keys, want.keys, `${at}: keys`);
  assert.deepEqual(got.apply, want.apply, `${at}: apply`);
  assert.equal(got.applyDiffers, want.applyDiffers, `${at}: applyDiffers`);
}

for (const c of CASES) {
  test(`what-if taken further step by step equals the what-if built afresh, with its ordering note (${c.label}, random histories)`, () => {
    const r = rng(c.label.length * 7919 + c.points);
    for (let history = 0; history < 6; history++) {
      const initial = Array.from({ length: randInt(r, 0, 6) }, () => NAMES[randInt(r, 0, NAMES.length - 1)]);
      const settings = settingsOf(c, initial);
      const base = new Topology(settings, []).topic(TOPIC) as PulsarTopicState;
      const baseIds = base.subscription!.consumers.map((x) => x.id);
      const baseTable = base.subscription!.selector.segmentTable();
      const keys = keysOf(r);
      // Each side with its own colours, driven through the same views in the same order.
      const freshColors = new ColorMap();
      const stepColors = new ColorMap();
      const freshBefore = buildTopicView(base, keys, freshColors);
      const stepBefore = buildTopicView(base, keys, stepColors);
      const events: TopologyEvent[] = [];
      let model: WhatIfViewModel | undefined;
      let note: OrderingNote | null | undefined;
      const length = randInt(r, 1, 14);
      for (let k = 0; k < length; k++) {
        const live = model ? model.after.selector!.consumers : baseIds;
        events.push(nextEvent(r, live, c, model ? model.apply.partitions : c.partitions));
        const at = `${c.label}, history ${history} (${initial.join(',')}), after ${events.map(formatEvent).join(' ')}`;
        const fresh = buildWhatIf(settings, TOPIC, events, keys, freshColors, freshBefore, base);
        const freshNote = orderingNote(settings, TOPIC, events, keys, fresh!, base);
        const next = model ? extendWhatIf(model, settings, TOPIC, events, keys, stepColors) : buildWhatIf(settings, TOPIC, events, keys, stepColors, stepBefore, base);
        assert.ok(next, `${at}: taken further`);
        const nextNote = note ? extendOrderingNote(note, settings, TOPIC, events, keys, next) : orderingNote(settings, TOPIC, events, keys, next, base);
        assert.ok(nextNote, `${at}: note taken further`);
        assertSameModel(next, fresh!, at);
        assert.deepEqual(nextNote, freshNote, `${at}: ordering note`);
        // Both sweep only where the steps changed owners: against a sweep of the whole hash space.
        const after = next.afterStates![events.length - 1]!.selector;
        const whole = diffOwnership(base.subscription!.selector.snapshotTable(), after.snapshotTable(), after.keyValues);
        assert.deepEqual(next.movedRanges, mergeRanges(whole.changed, after.keyHashRange), `${at}: movedRanges of the whole diff`);
        assert.equal(next.movedFraction, whole.movedSize / measureSize(after.keyValues), `${at}: movedFraction of the whole diff`);
        model = next;
        note = nextNote;
      }
      // The topic the what-ifs started from is as it was.
      assert.deepEqual(base.subscription!.consumers.map((x) => x.id), baseIds);
      assert.equal(base.subscription!.selector.segmentTable(), baseTable);
    }
  });
}

test('a what-if and its note are taken further only by events that start with theirs, for the same settings and keys', () => {
  const c = CASES[1];
  const settings = settingsOf(c, ['a', 'b', 'c']);
  const base = new Topology(settings, []).topic(TOPIC)!;
  const keys = ['k1', 'k2'].map((value) => toShownKey({ format: 'utf8', value }).shown!);
  const colors = new ColorMap();
  const events: TopologyEvent[] = [{ kind: 'connect', name: 'd' }];
  const w = buildWhatIf(settings, TOPIC, events, keys, colors, undefined, base)!;
  const n = orderingNote(settings, TOPIC, events, keys, w, base)!;
  const join: TopologyEvent = { kind: 'connect', name: 'e' };
  // Another first step, the same events, other keys, other settings: built afresh instead.
  assert.equal(extendWhatIf(w, settings, TOPIC, [{ kind: 'connect', name: 'x' }, join], keys, colors), undefined);
  assert.equal(extendWhatIf(w, settings, TOPIC, events, keys, colors), undefined);
  assert.equal(extendWhatIf(w, settings, TOPIC, [...events, join], keys.slice(1), colors), undefined);
  assert.equal(extendWhatIf(w, settingsOf(c, ['a', 'b', 'c']), TOPIC, [...events, join], keys, colors), undefined);
  assert.equal(extendOrderingNote(n, settings, TOPIC, [{ kind: 'connect', name: 'x' }, join], keys, w), undefined);
  const w2 = extendWhatIf(w, settings, TOPIC, [...events, join], keys, colors)!;
  assert.ok(extendOrderingNote(n, settings, TOPIC, [...events, join], keys, w2));
  // A note goes on from where its simulation stands: taken further once.
  assert.equal(extendOrderingNote(n, settings, TOPIC, [...events, join], keys, w2), undefined);
});

test('the panel’s models give, step by step and after an undo, what building afresh gives', () => {
  const c = CASES[0];
  const settings = settingsOf(c, ['a', 'b', 'dup', 'dup']);
  const models = new Models();
  models.setSettings(settings);
  models.setKeys(['k1', 'k2', 'k3'].map((value) => ({ format: 'utf8' as const, value })));
  const base = models.topic(TOPIC)!;
  const history: TopologyEvent[] = [{ kind: 'connect', name: 'dup' }, { kind: 'disconnect', id: 'dup#2' }, { kind: 'connect', name: 'dup' }, { kind: 'disconnect', id: 'a' }];
  const lengths = [1, 2, 3, 4, 3, 4];
  for (const n of lengths) {
    const events = history.slice(0, n);
    const got = models.whatIf(TOPIC, events)!;
    const note = models.orderingNote(TOPIC, events, true);
    const fresh = buildWhatIf(settings, TOPIC, events, models.shownKeys, new ColorMap(), undefined, base)!;
    // The panel shows each step's moved share, not what each consumer lost and gained: its steps
    // leave those out (a thousand consumers sharing each 3.x point made listing them most of a step).
    assert.deepEqual(got.steps, fresh.steps.map((s) => ({ ...s, lost: {}, gained: {} })), `${n} steps`);
    assert.ok(fresh.steps.some((s) => Object.keys({ ...s.lost, ...s.gained }).length > 0), `${n} steps: some consumer lost or gained a range`);
    assert.deepEqual(got.movedRanges, fresh.movedRanges, `${n} steps`);
    assert.deepEqual(got.keys, fresh.keys, `${n} steps`);
    assert.deepEqual(got.apply, fresh.apply, `${n} steps`);
    assert.deepEqual(note, orderingNote(settings, TOPIC, events, models.shownKeys, fresh, base), `${n} steps`);
  }
});

test('a step’s ordering note goes into the step’s own frame only once a step’s note on that topic has been timed, again after new settings', () => {
  const settings = settingsOf(CASES[1], ['a', 'b']);
  const models = new Models();
  models.setSettings(settings);
  models.setKeys([{ format: 'utf8' as const, value: 'k1' }]);
  // Nothing timed yet: the cost is unknown, so the note waits until after the picture.
  assert.equal(models.noteFitsStep(TOPIC), false);
  // A note of no steps is nothing to simulate: it says nothing of a step's note, and is not timed.
  assert.equal(models.orderingNote(TOPIC, [], true), null);
  assert.equal(models.noteFitsStep(TOPIC), false, 'a note of no steps is not timed');
  assert.equal(models.orderingNote(TOPIC, [{ kind: 'connect', name: 'c' }]), undefined, 'asked without compute, nothing is worked out');
  assert.equal(models.noteFitsStep(TOPIC), false);
  assert.ok(models.orderingNote(TOPIC, [{ kind: 'connect', name: 'c' }], true));
  // Timed now (whether it fits is the machine's): the other topics stay untimed, and new settings forget it.
  assert.equal(models.noteFitsStep('persistent://public/default/other'), false);
  models.setSettings(settings);
  assert.equal(models.noteFitsStep(TOPIC), false);
});

test('the idle warm-up takes throwaway joins and, every third round, a leave of the first consumer, on copies, and changes nothing', () => {
  // A removal ran cold on a ring of 100,000 points (its points taken out: code no join runs), so
  // the warm-up takes one every third round; the real topic and what-ifs must not see them.
  for (const c of CASES) {
    const settings = settingsOf(c, ['a', 'b', 'c']);
    const keys = ['k1', 'k2', 'é'].map((value) => ({ format: 'utf8' as const, value }));
    const models = new Models();
    models.setSettings(settings);
    models.setKeys(keys);
    const applied: string[] = [];
    const apply = PulsarTopicState.prototype.apply;
    PulsarTopicState.prototype.apply = function (this: PulsarTopicState, e: TopologyEvent) {
      applied.push(formatEvent(e));
      return apply.call(this, e);
    };
    try {
      for (let round = 0; round < 7; round++) models.warmUp(TOPIC, round);
    } finally {
      PulsarTopicState.prototype.apply = apply;
    }
    assert.deepEqual(applied, ['+\u0000warm-up-1', '+\u0000warm-up-2', '-a', '+\u0000warm-up-4', '+\u0000warm-up-5', '-a'], c.label);
    // What the What-if tab reads to know whether the first step's code has run yet.
    assert.deepEqual([...models.stepsWarmed], [[TOPIC, 6]], c.label);
    const cold = new Models();
    cold.setSettings(settings);
    cold.setKeys(keys);
    // As data (the view holds closures, which differ by reference).
    assert.equal(JSON.stringify(models.view(TOPIC)), JSON.stringify(cold.view(TOPIC)), c.label);
    for (const events of [[{ kind: 'disconnect', id: 'a' }], [{ kind: 'connect', name: 'd' }]] as TopologyEvent[][]) {
      const [got, want] = [models.whatIf(TOPIC, events)!, cold.whatIf(TOPIC, events)!];
      assert.deepEqual([got.steps, got.movedRanges, got.keys, got.apply], [want.steps, want.movedRanges, want.keys, want.apply], `${c.label} ${formatEvent(events[0])}`);
    }
    models.setSettings(settings);
    assert.equal(models.stepsWarmed.size, 0, `${c.label}: new settings, a new topology to warm up`);
  }
});

test('on a STICKY subscription the warm-up joins with a hash value nobody owns, so the broker takes them; where none is free, they are refused', () => {
  // Without ranges the broker refuses a STICKY join at once ("Must specify key shared meta"), so
  // the warm-up's joins ran none of the code a user's join runs. The first free value here is 0
  // on the first subscription, 501 on the second (0-500 taken), none on the third (all taken).
  const cases: Array<{ ranges: Array<[number, number][]>; want: Array<string | undefined> }> = [
    { ranges: [[[10, 500]], [[501, 65535]]], want: ['+\u0000warm-up-1:0-0', '+\u0000warm-up-2:0-0'] },
    { ranges: [[[0, 500]], [[1000, 2000], [3000, 3000]]], want: ['+\u0000warm-up-1:501-501', '+\u0000warm-up-2:501-501'] },
    { ranges: [[[0, 30000]], [[30001, 65535]]], want: [undefined, undefined] },
  ];
  for (const version of ['3.0', '4.0'] as const) {
    for (const c of cases) {
      const { settings, problems } = parseSettings({
        'keyRouting.topics': [
          { name: TOPIC, system: 'pulsar', brokerVersion: version, subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'STICKY', consumers: c.ranges.map((ranges, i) => ({ name: `c${i}`, ranges })) } },
        ],
      });
      assert.deepEqual(problems, []);
      const models = new Models();
      models.setSettings(settings);
      const before = JSON.stringify(models.view(TOPIC));
      const steps: Array<{ event: string; error?: string }> = [];
      const apply = PulsarTopicState.prototype.apply;
      PulsarTopicState.prototype.apply = function (this: PulsarTopicState, e: TopologyEvent) {
        const r = apply.call(this, e);
        steps.push({ event: formatEvent(e), ...(r.ok ? {} : { error: r.error }) });
        return r;
      };
      try {
        for (let round = 0; round < 3; round++) models.warmUp(TOPIC, round);
      } finally {
        PulsarTopicState.prototype.apply = apply;
      }
      const label = `${version} ${JSON.stringify(c.ranges)}`;
      assert.equal(steps.length, 2, label);
      c.want.forEach((want, i) => {
        if (want === undefined) assert.match(steps[i].error ?? '', /Must specify key shared meta/, label);
        else assert.deepEqual(steps[i], { event: want }, label);
      });
      // On copies: the panel's own topic is as the settings give it.
      assert.equal(JSON.stringify(models.view(TOPIC)), before, label);
    }
  }
});

test('a what-if of no steps drawn from the host’s frame is made again from the panel’s topology once there is one, and the first step takes that further', () => {
  // The What-if tab opened before the panel's topology shows a what-if made from the frame; the
  // first step used to build its what-if afresh from the topic (in the click's task) because a
  // frame's what-if has nothing to take further.
  for (const c of CASES) {
    const settings = settingsOf(c, ['a', 'b', 'dup', 'dup']);
    const keys = ['k1', 'k2', 'é'].map((value) => ({ format: 'utf8' as const, value }));
    const frames = structuredClone(buildFrames(new Topology(settings, []), keys, 1164, { shown: TOPIC }));
    const models = new Models();
    models.setSettings(settings, frames);
    models.setKeys(keys);
    const fromFrame = models.whatIf(TOPIC, [])!;
    assert.equal(models.engineReady, false, `${c.label}: the frame's what-if needs no topology`);
    assert.equal(models.whatIf(TOPIC, []), fromFrame, `${c.label}: kept while there is no topology`);
    models.warmUp(TOPIC, 0);
    assert.equal(models.engineReady, true);
    const own = models.whatIf(TOPIC, [])!;
    assert.notEqual(own, fromFrame, `${c.label}: made again from the topology`);
    assert.deepEqual([own.steps, own.movedRanges, own.keys], [fromFrame.steps, fromFrame.movedRanges, fromFrame.keys], c.label);
    assert.equal(models.whatIf(TOPIC, []), own, `${c.label}: then kept`);
    const events: TopologyEvent[] = [{ kind: 'connect', name: 'dup' }];
    const got = models.whatIf(TOPIC, events)!;
    const fresh = buildWhatIf(settings, TOPIC, events, models.shownKeys, new ColorMap(), undefined, models.topic(TOPIC))!;
    assert.deepEqual([got.steps, got.movedRanges, got.keys, got.apply], [fresh.steps.map((s) => ({ ...s, lost: {}, gained: {} })), fresh.movedRanges, fresh.keys, fresh.apply], c.label);
  }
});
