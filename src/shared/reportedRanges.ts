/**
 * The ranges of a broker's report as the state message carries them: one Int32Array per report
 * holding, consumer after consumer, how many ranges it has and then their bounds (every bound is
 * 0..2^31-1, as the settings check), with each consumer's `ranges` left empty. VS Code carries a
 * typed array to the webview as bytes, and pairs as JSON: a 3-partition ring of 1,000 consumers
 * imported from the broker's stats reports 300,000 ranges, 7 MB of JSON that took over a second of
 * the extension host's and the workbench's time. (One array per report, not per consumer: with
 * thousands of typed arrays in one message, code-server's webview received the host's frames
 * empty.) The host packs a copy of its settings; the panel unpacks them as it takes them.
 */
import type { HashRange } from '../engine/pulsar/keyShared/selector';
import type { ObservedState } from '../engine/observed/types';
import type { Settings } from '../engine/settings';

type Packed = ObservedState & { packedRanges?: Int32Array };

/** The settings with each report (`observed`, `observedPartitions`) through `f`; the rest shared. */
function mapReports(settings: Settings, f: (o: Packed) => Packed): Settings {
  const topics = settings.topics.map((t) => {
    const sub = t.system === 'pulsar' ? t.subscription : undefined;
    if (!sub || (!sub.observed && !sub.observedPartitions)) return t;
    const next = { ...sub };
    if (sub.observed) next.observed = f(sub.observed);
    if (sub.observedPartitions) next.observedPartitions = sub.observedPartitions.map(f);
    return { ...t, subscription: next };
  });
  return { ...settings, topics };
}

export function packReportedRanges(settings: Settings): Settings {
  return mapReports(settings, (o) => {
    // Filled in place: a push of each consumer's bounds spread as arguments would fail on a
    // consumer with tens of thousands of ranges, and a number[] first is a copy more.
    const packed = new Int32Array(o.consumers.reduce((n, c) => n + 1 + 2 * c.ranges.length, 0));
    let i = 0;
    for (const c of o.consumers) {
      packed[i++] = c.ranges.length;
      for (const [s, e] of c.ranges) {
        packed[i++] = s;
        packed[i++] = e;
      }
    }
    return { ...o, consumers: o.consumers.map((c) => ({ ...c, ranges: [] })), packedRanges: packed };
  });
}

export function unpackReportedRanges(settings: Settings): Settings {
  return mapReports(settings, ({ packedRanges: packed, ...o }) => {
    if (!(packed instanceof Int32Array)) return o;
    let i = 0;
    const consumers = o.consumers.map((c) => {
      const ranges: HashRange[] = [];
      for (let n = packed[i++]; n > 0; n--, i += 2) ranges.push([packed[i], packed[i + 1]]);
      return { ...c, ranges };
    });
    return { ...o, consumers };
  });
}
