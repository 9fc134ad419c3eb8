/**
 * The what-if editor's model: the topic before and after hypothetical steps, side by side, with
 * what moved. The steps run through the engine's `runWhatIf` on a clone of the topic's state (or a
 * topology built afresh from the settings), so every figure is the engine's.
 */
import type { TopologyEvent } from '../../engine/events';
import { mergeRanges, rangesOutside, type Consumer, type SegmentTable } from '../../engine/pulsar/keyShared/selector';
import type { KeySharedSubscription } from '../../engine/pulsar/keyShared/subscription';
import type { Problem, Settings } from '../../engine/settings';
import { PulsarTopicState, Topology, type TopicState } from '../../engine/topology';
import { diffOwnership, measureSize, routesAfter, runWhatIf, stepChanges, whatIfSelector, whatIfStep, type WhatIfResult, type WhatIfStep } from '../../engine/whatIf';
import type { ConsumerSetting } from '../protocol';
import { ColorMap } from './owners';
import { buildTopicView, type ShownKey, type TopicViewModel } from './topicView';

/** Sorted, overlapping and adjacent ranges merged, clipped (the engine's, where the view's callers have long found it). */
export { mergeRanges };

export interface WhatIfViewModel {
  topic: string;
  steps: WhatIfStep[];
  before: TopicViewModel;
  after: TopicViewModel;
  /** Changed hash intervals (slot space) from before to after, ascending and merged; empty for Kafka. */
  movedRanges: Array<[number, number]>;
  /**
   * Share of the key hash values whose owners changed from before to after (the selector's
   * `keyValues`), or null where the topic has no Key_Shared subscription.
   */
  movedFraction: number | null;
  /** Share of the shown keys whose partition or consumer changed (null without keys). */
  movedKeyFraction: number | null;
  keys: WhatIfResult['keys'];
  /** What "Apply to settings" would write. */
  apply: { partitions: number; consumers: ConsumerSetting[] | null };
  /**
   * Where applying differs from this what-if: a rebuild from the written settings connects the
   * consumers in order, while AUTO_SPLIT and 4.x ring layouts depend on the whole history.
   */
  applyDiffers: number | null;
  /**
   * With `deferApplyCheck`, where that rebuild is still to be made (a departure among the steps):
   * it connects every consumer again, so the panel runs it after the step is shown. Gives the value
   * `applyDiffers` would have had.
   */
  applyCheck?: () => number | null;
  /**
   * The subscription after each step, as the what-if left it (clones that share the computed
   * layouts; the last one is the after-topic's own), for the ordering note to take instead of
   * running the steps again. Handed over once: the note may change all but the last.
   */
  afterStates?: Array<KeySharedSubscription | undefined>;
}

/**
 * The what-if before its first step: the topic as its view shows it, on both sides, nothing moved
 * and nothing to apply. Made from the view alone (in the panel, the host's frame), so the What-if
 * tab opens without the panel's own topology: on a ring of 100,000 points that took 100-200 ms to
 * build, and a user who opened the tab right after the panel waited for it. Shows what
 * `buildWhatIf` of no steps shows (test/unit/noStepsWhatIf.test.ts).
 */
export function noStepsWhatIf(view: TopicViewModel): WhatIfViewModel {
  const keys = view.markers.map((m) => {
    const route = { key: m.label, ...m.route };
    return { key: m.label, before: route, after: route, moved: false };
  });
  return {
    topic: view.name,
    steps: [],
    before: view,
    after: view,
    movedRanges: [],
    movedFraction: view.selector ? 0 : null,
    movedKeyFraction: keys.length > 0 ? 0 : null,
    keys,
    apply: { partitions: view.partitions?.count ?? 0, consumers: null },
    applyDiffers: null,
  };
}

/** Builds the topic's state from the settings (consumers connected as configured). */
export function topicFromSettings(settings: Settings, name: string): TopicState | undefined {
  const problems: Problem[] = [];
  return new Topology(settings, problems).topic(name);
}

export function buildWhatIf(
  settings: Settings,
  topicName: string,
  events: readonly TopologyEvent[],
  keys: readonly ShownKey[],
  colors: ColorMap = new ColorMap(),
  /** The topic's view as the settings give it, where the caller has it already (the panel does). */
  beforeView?: TopicViewModel,
  /**
   * The topic's state as the settings give it, where the caller has it already (the panel does):
   * the steps then run on a clone of it instead of on a topology built again from the settings.
   * Left unchanged.
   */
  base?: TopicState,
  /** Leave the rebuild that `applyDiffers` needs to `applyCheck` (see there). */
  deferApplyCheck = false,
  /** False: the steps' `lost` and `gained` stay empty (see `whatIfStep`); the panel shows neither. */
  perConsumer = true,
): WhatIfViewModel | undefined {
  const afterTopic = base ? base.clone() : topicFromSettings(settings, topicName);
  if (!afterTopic) return undefined;
  let before = beforeView;
  if (!before) {
    const beforeTopic = base ?? topicFromSettings(settings, topicName);
    if (!beforeTopic) return undefined;
    before = buildTopicView(beforeTopic, keys, colors);
  }
  const selector = whatIfSelector(afterTopic);
  // Tables are never changed once built: this one still shows the state before the steps.
  const snapBefore = selector?.snapshotTable();
  const afterStates: Array<KeySharedSubscription | undefined> = [];
  const result = runWhatIf(
    afterTopic,
    [...events],
    keys.map((k) => ({ shown: k.label, key: k.key })),
    (i, t) => {
      // Clones of the states later steps change; the last one as it is (nothing changes it after).
      if (t instanceof PulsarTopicState && t.subscription) afterStates[i] = i < events.length - 1 ? t.subscription.clone() : t.subscription;
    },
    perConsumer,
  );
  // Before the first step nothing has moved.
  const resume: Resume = { settings, topicName, keys, colors, before, events: [], topic: afterTopic.clone(), snapBefore, moved: [], perConsumer };
  return finish(resume, events, result.steps, result.keys, afterTopic, afterStates, deferApplyCheck);
}

/**
 * What a what-if needs to take further by more steps without running the earlier ones again: its
 * inputs, and a private copy of the state after its last step (nothing else holds it, so nothing
 * changes it). Kept beside the model instead of in it, so the model's fields stay as they were.
 */
interface Resume {
  settings: Settings;
  topicName: string;
  keys: readonly ShownKey[];
  colors: ColorMap;
  before: TopicViewModel;
  /** The events applied so far, each as JSON. */
  events: string[];
  topic: TopicState;
  /** The snapshot table before the first step. */
  snapBefore: SegmentTable | undefined;
  /** Where the owners after the steps differ from those before them (`movedRanges`). */
  moved: ReadonlyArray<readonly [number, number]>;
  /** Whether the steps list what each consumer lost and gained (later steps as the first). */
  perConsumer: boolean;
}

const resumes = new WeakMap<WhatIfViewModel, Resume>();

/**
 * `buildWhatIf` for `events` from `previous`, a what-if of the same topic, settings, keys and
 * colours whose events start `events`: only the new events run, on a copy of the state `previous`
 * left, one step at a time as `runWhatIf` runs them, so every figure is what building afresh gives
 * (the unit tests compare both over random histories). A step at the scale of a 100,000-point ring
 * then costs one ring change instead of one per step so far. Undefined where `previous` cannot be
 * taken further that way (the caller builds afresh); `previous` is left as it was.
 */
export function extendWhatIf(
  previous: WhatIfViewModel,
  settings: Settings,
  topicName: string,
  events: readonly TopologyEvent[],
  keys: readonly ShownKey[],
  colors: ColorMap,
  deferApplyCheck = false,
): WhatIfViewModel | undefined {
  const r = resumes.get(previous);
  if (!r || r.settings !== settings || r.topicName !== topicName || r.colors !== colors) return undefined;
  if (events.length <= r.events.length || r.keys.length !== keys.length || r.keys.some((k, i) => k !== keys[i])) return undefined;
  for (let i = 0; i < r.events.length; i++) if (JSON.stringify(events[i]) !== r.events[i]) return undefined;
  const afterTopic = r.topic.clone();
  const shown = keys.map((k) => ({ shown: k.label, key: k.key }));
  const steps = previous.steps.slice();
  const afterStates: Array<KeySharedSubscription | undefined> = [];
  for (let i = r.events.length; i < events.length; i++) {
    steps.push(whatIfStep(afterTopic, events[i], shown, r.perConsumer));
    if (afterTopic instanceof PulsarTopicState && afterTopic.subscription) {
      afterStates[i] = i < events.length - 1 ? afterTopic.subscription.clone() : afterTopic.subscription;
    }
  }
  const routes = routesAfter(afterTopic, shown, previous.keys.map((k) => k.before));
  return finish({ ...r, topic: afterTopic.clone() }, events, steps, routes, afterTopic, afterStates, deferApplyCheck);
}

/**
 * Where the owners of the shown selector changed in the steps from `from` on (their ranges lost
 * and gained), ascending and merged: outside these those steps left the owner sets as they were.
 * Undefined where a step was refused (its diff was not taken, so it vouches for nothing).
 * Partition changes add selectors and leave the shown one as it is.
 */
function changedRanges(events: readonly TopologyEvent[], steps: readonly WhatIfStep[], from: number): Array<[number, number]> | undefined {
  const all: Array<[number, number]> = [];
  for (let i = from; i < steps.length; i++) {
    if (events[i].kind === 'partitions') continue;
    const changed = stepChanges.get(steps[i]);
    if (changed === undefined) return undefined;
    for (const [s, e] of changed) all.push([s, e]);
  }
  return mergeRanges(all, [-Infinity, Infinity]);
}

/**
 * The model of a what-if whose steps have run: `afterTopic` is the state after the last one, and
 * `resume` the what-if before the steps past its `events` (which it is given).
 */
function finish(
  resume: Resume,
  events: readonly TopologyEvent[],
  steps: WhatIfStep[],
  routes: WhatIfResult['keys'],
  afterTopic: TopicState,
  afterStates: Array<KeySharedSubscription | undefined>,
  deferApplyCheck: boolean,
): WhatIfViewModel {
  const { settings, topicName, keys, colors, before, snapBefore } = resume;
  const from = resume.events.length;
  resume.events = events.map((e) => JSON.stringify(e));
  const selector = whatIfSelector(afterTopic);
  const after = buildTopicView(afterTopic, keys, colors);
  let movedRanges: Array<[number, number]> = [];
  let movedFraction: number | null = null;
  if (selector && snapBefore) {
    // Outside the windows where the new steps changed owners, the owners after them are those
    // before them, and so is the whole diff (`resume.moved`): only the windows are swept. A
    // what-if's 20th join on a 3.0 ring of 100 x 1,000 points swept all 20 steps' windows (5.5 ms).
    const windows = changedRanges(events, steps, from);
    // One consumer step: its diff is the whole what-if's (the same two snapshots), already made.
    const runs = events.length === 1 && windows ? (stepChanges.get(steps[0]) ?? []) : diffOwnership(snapBefore, selector.snapshotTable(), selector.keyValues, windows, false).changed;
    resume.moved = movedRanges = mergeRanges(windows ? [...rangesOutside(resume.moved, windows), ...runs] : runs, selector.keyHashRange);
    // The key values (within the hash range) whose owners changed.
    const [lo, hi] = selector.keyValues;
    let size = 0;
    for (const [s, e] of movedRanges) size += Math.max(0, Math.min(e, hi) - Math.max(s, lo) + 1);
    movedFraction = size / measureSize(selector.keyValues);
  }
  const movedKeys = routes.filter((k) => k.moved).length;
  const consumers =
    afterTopic instanceof PulsarTopicState && afterTopic.subscription
      ? afterTopic.subscription.consumers.map((c) => consumerSetting(c))
      : null;
  // Joins alone (and partition changes) give the same layout as the settings listing the
  // consumers in that order; only a departure makes history matter.
  const departs = consumers !== null && events.some((e) => e.kind === 'disconnect');
  const check = () => (consumers ? (departs ? rebuildDifference(settings, topicName, afterTopic, consumers) : 0) : null);
  const model: WhatIfViewModel = {
    afterStates,
    topic: topicName,
    steps,
    before,
    after,
    movedRanges,
    movedFraction,
    movedKeyFraction: keys.length > 0 ? movedKeys / keys.length : null,
    keys: routes,
    apply: { partitions: afterTopic.partitions, consumers },
    ...(deferApplyCheck && departs ? { applyDiffers: null, applyCheck: check } : { applyDiffers: check() }),
  };
  resumes.set(model, resume);
  return model;
}

function consumerSetting(c: Consumer): ConsumerSetting {
  return c.ranges ? { name: c.name, ranges: c.ranges.map(([s, e]) => [s, e]) } : { name: c.name };
}


/**
 * The share of key hash values owned differently (by consumer id) when the topic is rebuilt from
 * the settings "Apply" would write, compared with the what-if's outcome. Apply drops the broker's
 * report (it no longer describes the consumers), and so does the rebuild: kept, it named consumers
 * the new list has not, and restoring it threw.
 */
export function rebuildDifference(settings: Settings, topicName: string, after: TopicState, consumers: ConsumerSetting[]): number | null {
  const rewritten: Settings = {
    ...settings,
    topics: settings.topics.map((t) =>
      t.name === topicName && t.system === 'pulsar' && t.subscription
        ? {
            ...t,
            partitions: after.partitions,
            subscription: {
              ...t.subscription,
              consumers: consumers.map((c, i) => ({ ...c, path: `(what-if).consumers[${i}]` })),
              observed: undefined,
              observedPartitions: undefined,
            },
          }
        : t,
    ),
  };
  const rebuilt = topicFromSettings(rewritten, topicName);
  const a = whatIfSelector(after);
  const b = rebuilt && whatIfSelector(rebuilt);
  if (!a || !b) return null;
  // Consumers are compared by id: the rebuilt topology has its own consumer objects.
  const canon = new Map<string, Consumer>();
  const byId = (t: SegmentTable): SegmentTable => ({
    ...t,
    owners: t.owners.map((list) =>
      list.map((c) => {
        let x = canon.get(c.id);
        if (!x) canon.set(c.id, (x = c));
        return x;
      }),
    ),
  });
  return diffOwnership(byId(a.segmentTable()), byId(b.segmentTable()), a.keyValues, undefined, false).movedSize / measureSize(a.keyValues);
}
