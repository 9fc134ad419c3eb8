/**
 * The Node half of `test/bench/panel.mjs`: builds the panel's view model for 1,000 consumers x
 * 100 points (both ring generations and AUTO_SPLIT) and lays it out as the webview would, timing
 * each part. Bundled on the fly by panel.mjs with esbuild.
 */
import { parseSettings } from '../../src/engine/settings';
import { Topology, type PulsarTopicState, type TopicState } from '../../src/engine/topology';
import { stringKey } from '../../src/engine/key';
import { parseEvent } from '../../src/engine/events';
import { buildTopicView } from '../../src/shared/view/topicView';
import { binPoints, isRingSelector } from '../../src/shared/view/ring';
import { orderingNote } from '../../src/shared/view/orderingNote';
import { fullWindow, layoutSegments } from '../../src/shared/view/segments';
import { buildWhatIf } from '../../src/shared/view/whatIfView';

export function benchSettings(consumers: number, points: number, brokerVersion: '3.0' | '4.0', consistentHashing = true): unknown {
  return {
    'keyRouting.topics': [
      {
        name: 'persistent://public/default/bench',
        system: 'pulsar',
        partitions: 0,
        brokerVersion,
        subscription: {
          name: 'sub',
          type: 'Key_Shared',
          keySharedMode: 'AUTO_SPLIT',
          consistentHashing,
          replicaPoints: points,
          consumers: Array.from({ length: consumers }, (_, i) => ({ name: `consumer-${i}` })),
        },
      },
    ],
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time<T>(runs: number, f: () => T): { ms: number; value: T } {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = f();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), value };
}

export function runModelBench(runs = 7): Array<Record<string, string | number>> {
  const keys = Array.from({ length: 10 }, (_, i) => ({ label: `order-${i}`, key: stringKey(`order-${i}`) }));
  const rows: Array<Record<string, string | number>> = [];
  const cases: Array<[string, '3.0' | '4.0', boolean]> = [
    ['3.0 ring', '3.0', true],
    ['4.0 ring', '4.0', true],
    ['4.0 auto-split', '4.0', false],
  ];
  for (const [label, version, ch] of cases) {
    const { settings } = parseSettings(benchSettings(1000, 100, version, ch));
    const name = settings.topics[0].name;
    // Connecting queues the ring selectors' joins; they go in as one batch when the ring is first
    // read, so the engine's assignment (the ring, the segment table, the point columns the panel
    // reads) is timed apart, each run on a fresh topology.
    const topology = time(runs, () => new Topology(settings, []).topics[0] as TopicState);
    const fresh = Array.from({ length: runs }, () => new Topology(settings, []).topics[0] as PulsarTopicState);
    let k = 0;
    const assignment = time(runs, () => {
      const s = fresh[k++].subscription!.selector;
      const table = s.segmentTable();
      return isRingSelector(s) ? [table, s.pointColumns()] : [table];
    });
    k = 0;
    const view = time(runs, () => buildTopicView(fresh[k++], keys));
    const sel = view.value.selector!;
    const layout = time(runs, () => layoutSegments(sel.segments, fullWindow(sel.segments.space), 1200));
    const ring = sel.ring ? time(runs, () => binPoints(sel.ring!, fullWindow(sel.segments.space), 720)) : undefined;
    const events = [parseEvent('+extra')];
    // The panel's what-if: the steps on a clone of its topic, next to its view of the topic.
    const whatIf = time(Math.min(runs, 3), () => buildWhatIf(settings, name, events, keys, undefined, view.value, fresh[0]));
    const fromSettings = time(Math.min(runs, 3), () => buildWhatIf(settings, name, events, keys));
    const note = time(Math.min(runs, 3), () => orderingNote(settings, name, events, keys, whatIf.value!, fresh[0]));
    rows.push({
      case: `${label}, 1,000 consumers x 100 points`,
      points: sel.ring?.points.length ?? 0,
      segments: sel.segments.count,
      'engine: connect 1,000 consumers (ms)': round(topology.ms),
      'engine: assignment (ring, segment table) (ms)': round(assignment.ms),
      'view model (ms)': round(view.ms),
      'layout 1,200 px (ms)': round(layout.ms),
      'runs drawn': layout.value.length,
      'ring bins 720 (ms)': ring ? round(ring.ms) : '-',
      'what-if +1 consumer, on the topic (ms)': round(whatIf.ms),
      'what-if from settings (ms)': round(fromSettings.ms),
      'ordering note (ms)': round(note.ms),
    });
  }
  return rows;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
