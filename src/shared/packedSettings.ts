/**
 * The settings as the state message carries them to the panel, and back as the engine reads them.
 *
 * A broker's report's ranges: one Int32Array per report holding, consumer after consumer, how many
 * ranges it has and then their bounds (every bound is 0..2^31-1, as the settings check), with each
 * consumer's `ranges` left empty. VS Code carries a typed array to the webview as bytes, and pairs
 * as JSON: a 3-partition ring of 1,000 consumers imported from the broker's stats reports 300,000
 * ranges, 7 MB of JSON that took over a second of the extension host's and the workbench's time.
 * (One array per report, not per consumer: with thousands of typed arrays in one message,
 * code-server's webview received the host's frames empty.)
 *
 * A subscription's consumers: one JSON string. A message is cloned into the webview an object and a
 * string at a time, a consumer is three (its entry, name and setting path), and the page draws from
 * the host's frames: only the engine reads the consumers, after the first picture. Forty
 * subscriptions of 1,000 consumers were 120,000 of a state message's 170,000 objects and strings.
 *
 * The host packs a copy of its settings; the panel unpacks them when its engine first needs them.
 */
import type { HashRange } from '../engine/pulsar/keyShared/selector';
import type { ObservedState } from '../engine/observed/types';
import type { Settings, SubscriptionConfig } from '../engine/settings';

type PackedReport = ObservedState & { packedRanges?: Int32Array };
type PackedSubscription = SubscriptionConfig & { packedConsumers?: string; observed?: PackedReport; observedPartitions?: PackedReport[] };

/** The settings with each subscription, and each of its reports, through `sub` and `report`; the rest shared. */
function mapSubscriptions(settings: Settings, sub: (s: PackedSubscription) => PackedSubscription, report: (o: PackedReport) => PackedReport): Settings {
  const topics = settings.topics.map((t) => {
    if (t.system !== 'pulsar' || !t.subscription) return t;
    const next: PackedSubscription = sub(t.subscription);
    if (next.observed) next.observed = report(next.observed);
    if (next.observedPartitions) next.observedPartitions = next.observedPartitions.map(report);
    return { ...t, subscription: next };
  });
  return { ...settings, topics };
}

export function packSettings(settings: Settings): Settings {
  return mapSubscriptions(
    settings,
    (s) => ({ ...s, consumers: [], packedConsumers: JSON.stringify(s.consumers) }),
    (o) => {
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
    },
  );
}

export function unpackSettings(settings: Settings): Settings {
  return mapSubscriptions(
    settings,
    ({ packedConsumers, ...s }) => (typeof packedConsumers === 'string' ? { ...s, consumers: JSON.parse(packedConsumers) } : s),
    ({ packedRanges: packed, ...o }) => {
      if (!(packed instanceof Int32Array)) return o;
      let i = 0;
      const consumers = o.consumers.map((c) => {
        const ranges: HashRange[] = [];
        for (let n = packed[i++]; n > 0; n--, i += 2) ranges.push([packed[i], packed[i + 1]]);
        return { ...c, ranges };
      });
      return { ...o, consumers };
    },
  );
}
