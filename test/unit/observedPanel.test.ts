/**
 * The panel's reading of a broker's report (src/shared/view/observedPanel.ts). The expectations
 * are read off the reports themselves: the 4.x AUTO_SPLIT stats fixture (its ranges against the
 * layout its connectedSince order predicts, worked out by hand from ALGORITHMS.md section 3, as in
 * observedView.test.ts) and the describe output's owner column.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPulsarStats } from '../../src/import/pulsarStats';
import { importKafkaGroups } from '../../src/import/kafkaGroups';
import { mergeImported } from '../../src/import/merge';
import { parseSettings } from '../../src/engine/settings';
import { Topology } from '../../src/engine/topology';
import { observedView, type KafkaObservedView, type PulsarObservedView } from '../../src/engine/observed/view';
import { differenceRuns, ownerRuns, panelObserved, spanOf, type PanelPulsarObserved } from '../../src/shared/view/observedPanel';

const DATA = join(__dirname, '../../../test/unit/data/observed');
const read = (f: string) => readFileSync(join(DATA, f), 'utf8');
const TOPIC = 'persistent://public/default/orders';

function topologyOf(raw: Record<string, unknown>): Topology {
  const { settings, problems } = parseSettings(raw);
  assert.deepEqual(problems, []);
  return new Topology(settings, []);
}

describe('observed panel model: the comparison with the prediction', () => {
  const view = () => observedView(topologyOf(mergeImported(undefined, importPulsarStats(read('pulsar-4.0-auto-split-draining.json'), { source: 's.json', topic: TOPIC }))), TOPIC) as PulsarObservedView;

  test('the differing runs, with owners as the report and the connectedSince order give them', () => {
    // Report: C3 [0, 16384], C4 [16385, 40960], C1 [40961, 65536]. Connecting C1, C3, C4 afresh
    // predicts C4 [0, 16384], C3 [16385, 32768], C1 [32769, 65536].
    assert.deepEqual(differenceRuns(view().groups[0].predicted), {
      runs: [
        { start: 0, end: 16384, reported: 'C3', predicted: 'C4' },
        { start: 16385, end: 32768, reported: 'C4', predicted: 'C3' },
        { start: 32769, end: 40960, reported: 'C4', predicted: 'C1' },
      ],
      more: 0,
    });
  });

  test('the report as the host sends it: the runs the panel lists and how many more', () => {
    const v = view();
    const sent = panelObserved(v) as PanelPulsarObserved;
    assert.deepEqual({ ...sent, groups: [] }, { ...v, groups: [] });
    const g = v.groups[0];
    const { predicted, model, ...rest } = g;
    assert.ok(predicted.differences.length > 0, 'the fixture has differences: the test would prove nothing');
    const s = sent.groups[0];
    assert.deepEqual({ ...s, predicted: undefined, model: undefined }, { ...rest, predicted: undefined, model: undefined });
    for (const [got, c] of [[s.predicted, predicted], [s.model, model]] as const) {
      assert.deepEqual(got, { equal: c.equal, size: c.size, reason: c.reason, ...differenceRuns(c) });
      assert.equal(got.runs.length + got.more, c.differences.length);
    }
  });

  test('past the cap the rest are counted, not drawn', () => {
    const r = differenceRuns(view().groups[0].predicted, 1);
    assert.deepEqual(r.runs, [{ start: 0, end: 16384, reported: 'C3', predicted: 'C4' }]);
    assert.equal(r.more, 2);
  });

  test('nobody and several owners', () => {
    const c = { equal: false, size: 3, reason: '', differences: [{ start: 1, end: 3, reported: [] as string[], other: ['a', 'b'] }] };
    assert.deepEqual(differenceRuns(c as never).runs, [{ start: 1, end: 3, reported: '', predicted: 'a + b' }]);
  });

  test('partition spans', () => {
    assert.deepEqual(spanOf(null), { kind: 'none', first: 0, last: 0 });
    assert.deepEqual(spanOf([2, 2]), { kind: 'one', first: 2, last: 2 });
    assert.deepEqual(spanOf([0, 5]), { kind: 'many', first: 0, last: 5 });
  });
});

describe('observed panel model: a Kafka group\'s owners as runs', () => {
  test('the describe output\'s owners, consecutive partitions with one owner merged', () => {
    const text = read('kafka-groups-describe.txt');
    const v = observedView(topologyOf(mergeImported(undefined, importKafkaGroups(text, { source: 'g.txt' }))), 'orders') as KafkaObservedView;
    const want: Array<string | null> = Array(6).fill(null);
    for (const c of text.split('\n').map((l) => l.trim().split(/\s+/)).filter((c) => c[0] === 'billing' && c[1] === 'orders')) want[Number(c[2])] = c[6] === '-' ? null : c[6];
    const runs = ownerRuns(v.groups[0].owners);
    // Expanding the runs gives back the describe output's column, and no two neighbours share an owner.
    assert.deepEqual(runs.flatMap((r) => Array.from({ length: r.last - r.first + 1 }, () => r.owner)), want);
    runs.slice(1).forEach((r, i) => assert.ok(r.owner !== runs[i].owner && r.first === runs[i].last + 1));
  });

  test('edges: nothing, all one owner, unowned partitions', () => {
    assert.deepEqual(ownerRuns([]), []);
    assert.deepEqual(ownerRuns(['m', 'm', 'm']), [{ first: 0, last: 2, owner: 'm' }]);
    assert.deepEqual(ownerRuns([null, 'a', 'a', null, null, 'b']), [
      { first: 0, last: 0, owner: null },
      { first: 1, last: 2, owner: 'a' },
      { first: 3, last: 4, owner: null },
      { first: 5, last: 5, owner: 'b' },
    ]);
  });
});
