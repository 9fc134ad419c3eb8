/**
 * Spare columns (engine/spareColumns): memory the panel writes while idle, which a what-if step's
 * large columns take instead of fresh memory. Each spare is handed out once, zeroed; a ring step
 * takes them and gives exactly what it gives on fresh memory, and a later step never writes over
 * an earlier step's columns.
 */
import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { PulsarTopicState, Topology } from '../../src/engine/topology';
import { parseEvent } from '../../src/engine/events';
import { dropSpareColumns, int32Column, spareColumnCount, SPARE_MIN_LENGTH, stockSpareColumn } from '../../src/engine/spareColumns';
import { ColorMap } from '../../src/shared/view/owners';
import { toShownKey } from '../../src/shared/view/shownKeys';
import { buildTopicView, type ShownKey } from '../../src/shared/view/topicView';
import { buildWhatIf, extendWhatIf, type WhatIfViewModel } from '../../src/shared/view/whatIfView';
import { spareColumnLength } from '../../src/webview/model';

const TOPIC = 'persistent://public/default/orders';
const L = SPARE_MIN_LENGTH * 2;

afterEach(() => dropSpareColumns());

describe('spare columns', () => {
  test('without spares a column is fresh memory of its own length, zeroed', () => {
    const a = int32Column(L);
    assert.equal(a.length, L);
    assert.equal(a.buffer.byteLength, L * 4);
    assert.ok(a.every((x) => x === 0));
  });

  test('stocking makes one spare a call up to the count, and drops those of another size', () => {
    assert.equal(stockSpareColumn(L, 2), true);
    assert.equal(stockSpareColumn(L, 2), true);
    assert.equal(stockSpareColumn(L, 2), false);
    assert.equal(spareColumnCount(), 2);
    // Another topic shown: its size replaces the old spares.
    assert.equal(stockSpareColumn(L + 8, 2), true);
    assert.equal(spareColumnCount(), 1);
    // A topic whose steps make no large column holds none.
    assert.equal(stockSpareColumn(SPARE_MIN_LENGTH - 1, 2), false);
    assert.equal(stockSpareColumn(0, 2), false);
    assert.equal(spareColumnCount(), 0);
  });

  test('a column takes a spare with room for it (up to twice its length), each spare once', () => {
    while (stockSpareColumn(L, 3));
    const a = int32Column(L);
    const b = int32Column(L / 2);
    assert.equal(spareColumnCount(), 1);
    assert.equal(a.buffer.byteLength, L * 4);
    assert.equal(b.buffer.byteLength, L * 4);
    assert.notEqual(a.buffer, b.buffer);
    assert.equal(b.length, L / 2);
    assert.ok(a.every((x) => x === 0) && b.every((x) => x === 0));
    a.fill(7);
    assert.ok(b.every((x) => x === 0));
    // Too long, too short for the room, or small: fresh memory, the spare kept.
    assert.equal(int32Column(L + 1).buffer.byteLength, (L + 1) * 4);
    assert.equal(int32Column(L / 2 - 1).buffer.byteLength, (L / 2 - 1) * 4);
    assert.equal(int32Column(100).buffer.byteLength, 400);
    assert.equal(spareColumnCount(), 1);
    const c = int32Column(L - 3);
    assert.equal(c.buffer.byteLength, L * 4);
    assert.equal(spareColumnCount(), 0);
    assert.equal(int32Column(L).buffer.byteLength, L * 4);
    assert.notEqual(int32Column(L).buffer, c.buffer);
  });
});

function settingsOf(brokerVersion: '3.0' | '4.0', consumers: number, consistentHashing = true): Settings {
  const { settings, problems } = parseSettings({
    'keyRouting.topics': [
      {
        name: TOPIC,
        system: 'pulsar',
        partitions: 0,
        brokerVersion,
        subscription: {
          name: 's',
          type: 'Key_Shared',
          keySharedMode: 'AUTO_SPLIT',
          consistentHashing,
          replicaPoints: 100,
          consumers: Array.from({ length: consumers }, (_, i) => ({ name: `c-${i}` })),
        },
      },
    ],
  });
  assert.deepEqual(problems, []);
  return settings;
}

/** What a what-if shows, as plain data: every column copied out of its typed array. */
function shown(w: WhatIfViewModel) {
  const sel = w.after.selector!;
  return {
    movedRanges: w.movedRanges,
    movedFraction: w.movedFraction,
    movedKeyFraction: w.movedKeyFraction,
    keys: w.keys,
    steps: w.steps,
    count: sel.segments.count,
    starts: Array.from(sel.segments.starts),
    ends: Array.from(sel.segments.ends),
    owner: Array.from(sel.segments.owner),
    owners: sel.segments.owners.map((o) => [o.label, o.values]),
    points: Array.from(sel.ring!.points),
    pointOwner: Array.from(sel.ring!.owner),
  };
}

/** The large columns a what-if's after view holds. */
function columnsOf(w: WhatIfViewModel): Int32Array[] {
  const sel = w.after.selector!;
  return [sel.segments.starts, sel.segments.ends, sel.segments.owner, sel.ring!.points, sel.ring!.owner].filter((c): c is Int32Array => c instanceof Int32Array);
}

for (const version of ['3.0', '4.0'] as const) {
  test(`a what-if step on a ${version} ring takes spare columns and shows what fresh columns show`, () => {
    const settings = settingsOf(version, 300);
    const topic = new Topology(settings, []).topic(TOPIC) as PulsarTopicState;
    const keys = ['user-1', 'order:42', 'Order-3459134', 'é'].map((v) => toShownKey({ format: 'utf8', value: v }).shown as ShownKey);
    const join = [parseEvent('+x-1')];
    const leave = [...join, parseEvent('-c-7')];
    const length = spareColumnLength(buildTopicView(topic, keys, new ColorMap()));
    const segments = topic.subscription!.selector.segmentTable().count;
    assert.ok(length > segments + 1 && length >= SPARE_MIN_LENGTH, `room for the ring's columns (${length})`);
    assert.equal(spareColumnLength(undefined), 0);

    const colors = new ColorMap();
    const f1 = buildWhatIf(settings, TOPIC, join, keys, colors, undefined, topic, true)!;
    const f2 = extendWhatIf(f1, settings, TOPIC, leave, keys, colors, true)!;
    assert.equal(spareColumnCount(), 0);

    const sparesColors = new ColorMap();
    while (stockSpareColumn(length, 8));
    const s1 = buildWhatIf(settings, TOPIC, join, keys, sparesColors, undefined, topic, true)!;
    const taken1 = 8 - spareColumnCount();
    assert.ok(taken1 >= 6, `the join took ${taken1} spares`);
    const before = shown(s1);
    while (stockSpareColumn(length, 8));
    const s2 = extendWhatIf(s1, settings, TOPIC, leave, keys, sparesColors, true)!;
    const taken2 = 8 - spareColumnCount();
    assert.ok(taken2 >= 6, `the leave took ${taken2} spares`);
    assert.ok(s2.steps.every((s) => s.error === undefined && (s.movedFraction ?? 0) > 0), 'both steps moved keys');

    assert.deepEqual(shown(s1), shown(f1));
    assert.deepEqual(shown(s2), shown(f2));
    // The second step wrote nothing into the first one's columns, and no two columns share memory.
    assert.deepEqual(shown(s1), before);
    const arrays = [...new Set([...columnsOf(s1), ...columnsOf(s2)])];
    assert.equal(new Set(arrays.map((c) => c.buffer)).size, arrays.length);
  });
}

test('a topic without a consistent-hashing ring asks for no spare columns', () => {
  const settings = settingsOf('4.0', 3000, false);
  const topic = new Topology(settings, []).topic(TOPIC)!;
  const view = buildTopicView(topic, [], new ColorMap());
  assert.ok(view.selector!.segments.count >= 3000);
  assert.equal(spareColumnLength(view), 0);
});
