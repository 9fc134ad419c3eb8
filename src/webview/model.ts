/**
 * The panel's models, built with the engine from the settings the host sent and the keys, and
 * cached until either changes (zooming only lays out again).
 */
import type { Settings } from '../engine/settings';
import { PulsarTopicState, Topology, type TopicState } from '../engine/topology';
import type { TopologyEvent } from '../engine/events';
import type { HashRange, StickyKeyConsumerSelector } from '../engine/pulsar/keyShared/selector';
import type { MessageKey } from '../engine/key';
import type { KeyInput } from '../shared/protocol';
import { groupOfFrame, viewOfFrame, type TopicFrame } from '../shared/view/frame';
import { ColorMap } from '../shared/view/owners';
import { buildNamespaceView, type NamespaceViewModel } from '../shared/view/namespaceView';
import { toShownKey, type KeyEntry } from '../shared/view/shownKeys';
import { buildTopicView, type ShownKey, type TopicViewModel } from '../shared/view/topicView';
import { buildWhatIf, extendWhatIf, noStepsWhatIf, type WhatIfViewModel } from '../shared/view/whatIfView';
import { extendOrderingNote, orderingNote, type OrderingNote } from '../shared/view/orderingNote';
import { buildGroupView, continueGroupWhatIf, groupsOf, groupWhatIf, noStepsResult, type GroupViewModel, type GroupWhatIfRunState } from '../shared/view/groupView';
import { KafkaTopicState } from '../engine/topology';
import type { GroupWhatIfResult } from '../engine/kafka/groupWhatIf';
import { diffOwners, type ConsumerGroupState } from '../engine/kafka/consumerGroup';
import { unpackSettings } from '../shared/packedSettings';
import { warmLayouts } from '../shared/view/layoutCache';
import type { GroupWhatIfSpec } from './views/group';

export { toShownKey, type KeyEntry };

/**
 * Room, in entries, for the columns a what-if step on a topic makes (`stockSpareColumn`): its
 * ring's points and the segment table's wrap-around tail, with a tenth more for joins; 0 where it
 * has no consistent-hashing ring.
 */
export function spareColumnLength(view: TopicViewModel | undefined): number {
  const ring = view?.selector?.ring;
  return ring ? Math.ceil(ring.points.length * 1.1) + 1 : 0;
}

/**
 * A step's ordering note expected to take at most this long (ms, `noteFitsStep`) is worked out in
 * the step's own task, so that it shows in the step's frame. Deferred, it waits for the frame
 * after: a vsync later at the least, and behind that frame's raster (in a trace of a step on the
 * 3.x ring of the panel bench, the note's frame came 48 ms after the picture's). A dearer note is
 * still worked out after the picture is painted.
 */
export const NOTE_IN_STEP_MS = 8;

/** A group's what-if as the panel shows it. */
export interface GroupWhatIf {
  result: GroupWhatIfResult;
  after: GroupViewModel;
  memberTopics: Map<string, string[]>;
  /**
   * How many partitions would get another member in the group that the members Apply writes form
   * (`formedAgain`): worked out when asked, as forming a group costs as much as a step. A later
   * step taken on the same run changes `after`'s group; its value is a new one.
   */
  applyDiffers?: () => number;
}

export class Models {
  #topologyValue: Topology | undefined;
  #topologyError: string | undefined;
  readonly #views = new Map<string, TopicViewModel>();
  readonly #colors = new Map<string, ColorMap>();
  #whatIfCache: { key: string; value: WhatIfViewModel | undefined; fromView?: boolean } | undefined;
  #noteCache: { key: string; value: OrderingNote | { error: string } | null } | undefined;
  /**
   * How long the last two ordering notes of each topic took (ms), a warm-up's included: the
   * smaller is taken for the next one's cost, so that one note slowed by a pause (a collection, the
   * machine) does not send the next one after the picture.
   */
  readonly #noteMs = new Map<string, number[]>();
  #nsCache: { key: string; value: NamespaceViewModel | { error: string } } | undefined;
  #frames = new Map<string, TopicFrame>();
  #groupCache = new Map<string, GroupViewModel>();
  /**
   * A copy of a group made by the idle warm-up, which the group's next what-if from its state takes
   * instead of copying it then: a copy of a KIP-848 group forms it again from its settings (a
   * classic group's is copied, see `ConsumerGroupState.clone`). Taken once (the run moves it on).
   */
  #groupCopy: { of: ConsumerGroupState; copy: ConsumerGroupState } | undefined;
  /** The last group what-if, with its run (moved on by the next step, so only the last is kept). */
  #groupWhatIfCache: { topic: string; group: string; events: string[]; run: GroupWhatIfRunState | undefined; value: GroupWhatIf | { error: string } } | undefined;
  /** The settings as the host sent them: what the page reads (consumers and a report's ranges still packed). */
  shown: Settings = { topics: [], namespaces: [] };
  /**
   * The throwaway steps `warmUp` has run on each topic with these settings: a topic's first step
   * runs its selector's or its group's code, which another topic's warm-up may not have run.
   */
  readonly stepsWarmed = new Map<string, number>();
  /**
   * A throwaway group step among a topic's first three, for the page to draw without showing it
   * (app.ts `warmRound`): the drawing of a real step (10,000 partitions compared, pages of members)
   * otherwise runs cold.
   */
  warmGroup: Pick<GroupWhatIfSpec, 'base' | 'after' | 'result'> | undefined;
  #settings: Settings | undefined;
  keys: KeyEntry[] = [];

  /**
   * The settings with the subscriptions' consumers and the reports' ranges unpacked, for the
   * engine: made when it first needs them, after the first picture (the host's frames draw that).
   * A 4-partition ring as reported is 400,000 ranges: unpacked on arrival, 30 ms and as much
   * garbage collection before any picture.
   */
  get settings(): Settings {
    return (this.#settings ??= unpackSettings(this.shown));
  }

  /** New settings, with the host's frames of them where it sent some. */
  setSettings(settings: Settings, frames?: readonly TopicFrame[]): void {
    this.shown = settings;
    this.#settings = undefined;
    this.#frames = new Map((Array.isArray(frames) ? frames : []).map((f) => [f?.name, f]));
    this.#topologyValue = undefined;
    this.#topologyError = undefined;
    this.stepsWarmed.clear();
    this.#groupCopy = undefined;
    this.#colors.clear();
    // Kept through a change of keys (their number changes a note's cost little): the next notes'
    // own times replace a stale one.
    this.#noteMs.clear();
    this.#invalidate();
  }

  setKeys(keys: KeyInput[]): void {
    this.keys = keys.map(toShownKey);
    this.#invalidate();
  }

  #invalidate(): void {
    this.#views.clear();
    this.#whatIfCache = undefined;
    this.#nsCache = undefined;
    this.#noteCache = undefined;
    this.#groupCache.clear();
    this.#groupWhatIfCache = undefined;
  }

  get shownKeys(): ShownKey[] {
    return this.keys.flatMap((k) => (k.shown ? [k.shown] : []));
  }

  /** Whether the host sent frames of the topics (the panel then needs its own topology only later). */
  get framed(): boolean {
    return this.#frames.size > 0;
  }

  /** Whether the panel's own topology is built (what-if steps and keys the host did not route need it). */
  get engineReady(): boolean {
    return this.#topologyValue !== undefined || this.#topologyError !== undefined;
  }

  topology(): { topology?: Topology; error?: string } {
    if (!this.#topologyValue && !this.#topologyError) {
      try {
        this.#topologyValue = new Topology(this.settings, []);
      } catch (e) {
        // The host sends parsed settings; this guards against a state the engine cannot build.
        this.#topologyError = `the settings could not be modelled: ${(e as Error).message}`;
      }
    }
    return { topology: this.#topologyValue, error: this.#topologyError };
  }

  topic(name: string): TopicState | undefined {
    return this.topology().topology?.topic(name);
  }

  colorsOf(topic: string): ColorMap {
    let c = this.#colors.get(topic);
    if (!c) this.#colors.set(topic, (c = new ColorMap()));
    return c;
  }

  view(name: string): TopicViewModel | undefined {
    let v = this.#views.get(name);
    if (!v) {
      // The host's frame where it routes every key shown; else the panel's own topology.
      const f = this.#frames.get(name);
      v = f ? viewOfFrame(f, this.keys) : undefined;
      if (v?.selector) this.colorsOf(name).seed(v.selector.segments.owners);
      if (!v) {
        const t = this.topic(name);
        if (!t) return undefined;
        v = buildTopicView(t, this.shownKeys, this.colorsOf(name));
      }
      this.#views.set(name, v);
    }
    return v;
  }

  whatIf(name: string, events: readonly TopologyEvent[]): WhatIfViewModel | undefined {
    const key = JSON.stringify([name, events]);
    // A what-if of no steps made from the view is made again once the engine is ready, so that the
    // first step extends the engine's instead of building the topic's what-if in its own task.
    if (this.#whatIfCache?.key !== key || (this.#whatIfCache.fromView && this.engineReady)) {
      // A step added to the last what-if takes it further (only the new step runs); else afresh.
      const last = this.#whatIfCache?.value;
      // No steps before the topology is built: from the view (see noStepsWhatIf), so the tab's
      // picture does not wait for it (the task after the picture builds it: App's #whatIfView).
      // After, the engine's, which the first step extends.
      const view = events.length === 0 && !this.engineReady ? this.view(name) : undefined;
      const value = view
        ? noStepsWhatIf(view)
        : (last && extendWhatIf(last, this.settings, name, events, this.shownKeys, this.colorsOf(name), true)) ??
        buildWhatIf(this.settings, name, events, this.shownKeys, this.colorsOf(name), this.view(name), this.topic(name), true, false);
      this.#whatIfCache = { key, value, fromView: !!view };
    }
    return this.#whatIfCache.value;
  }

  /** The ordering note, if computed for these steps; with `compute`, computes it. */
  orderingNote(name: string, events: readonly TopologyEvent[], compute = false): OrderingNote | { error: string } | null | undefined {
    const key = JSON.stringify([name, events]);
    if (this.#noteCache?.key === key) return this.#noteCache.value;
    if (!compute) return undefined;
    let value: OrderingNote | { error: string } | null;
    try {
      const w = this.whatIf(name, events);
      // A step added to the last note's steps takes that note further; else afresh.
      const last = this.#noteCache?.value;
      value = w
        ? this.#timeNote(
            name,
            () =>
              (last && !('error' in last) && extendOrderingNote(last, this.settings, name, events, this.shownKeys, w)) ||
              orderingNote(this.settings, name, events, this.shownKeys, w, this.topic(name)),
          )
        : null;
    } catch (e) {
      value = { error: (e as Error).message };
    }
    this.#noteCache = { key, value };
    return value;
  }

  /** Whether a step's ordering note on `name` can be worked out in the step's task (`NOTE_IN_STEP_MS`). */
  noteFitsStep(name: string): boolean {
    return Math.min(...(this.#noteMs.get(name) ?? [Infinity])) <= NOTE_IN_STEP_MS;
  }

  /** `note()`, timed for `noteFitsStep`. */
  #timeNote<T>(name: string, note: () => T): T {
    const t0 = performance.now();
    const value = note();
    // A note of no steps (null) says nothing of what a step's note costs.
    if (value !== null) this.#noteMs.set(name, [performance.now() - t0, ...(this.#noteMs.get(name) ?? [])].slice(0, 2));
    return value;
  }

  /**
   * For idle time after the first picture, a round at a time, so that a real step runs compiled
   * code on a topology that is there: round 0 builds the panel's own topology (a Kafka topic's
   * groups formed with it) and works out the topic's assignment; each later round runs a
   * throwaway what-if step with its ordering note (own colours, nothing cached; `round` names the
   * consumer that joins; every third round the first consumer leaves instead, as a removal runs
   * code no join runs), or on a Kafka topic a throwaway step of `group`'s what-if (a member joins
   * in odd rounds, its first member leaves in even ones). The topology and the first step were one
   * task of 500 ms on a ring of 100,000 points, which held up any input that came during it; a
   * group's first join and first leave ran their rebalance cold (with 500 members and 10,000
   * partitions, 10-15 ms more than later steps). Round 0 takes several calls (the topology, then
   * a broker's report a part of a partition a call: ObservedGroups): false until it is done.
   */
  warmUp(name: string, round: number, group?: string): boolean {
    // The topology in a call of its own (a report's ranges unpacked, a ring's points hashed), then its tables.
    if (round === 0 && !this.engineReady) {
      this.topology();
      return false;
    }
    const t = this.topic(name);
    if (t instanceof KafkaTopicState && round > 0 && group !== undefined) {
      const topology = this.topology().topology;
      const g = topology?.group(group);
      if (!topology || !g) return true;
      this.stepsWarmed.set(name, (this.stepsWarmed.get(name) ?? 0) + 1);
      try {
        const first = g.members.keys().next().value;
        const step = round % 2 === 0 && first !== undefined ? `-${first}` : `+\u0000warm-up-${round}`;
        const w = this.#groupWhatIfValue(groupWhatIf(topology, g, name, [step], this.#groupKeys()), name);
        // The topic's first three throwaway steps, whichever warm-up takes them (the tab's task,
        // then the idle one, each count their own rounds from 1).
        const base = this.stepsWarmed.get(name)! <= 3 ? this.group(name, group) : undefined;
        if (base) this.warmGroup = { base, ...w };
        if (this.#groupCopy?.of !== g) this.#groupCopy = { of: g, copy: g.clone() };
      } catch {
        // Only a warm-up: the real step reports its own errors.
      }
      return true;
    }
    if (!(t instanceof PulsarTopicState) || !t.subscription) return true;
    if (round === 0) {
      if (t.observed?.groups.restoreNext()) return false;
      t.subscription.selector.segmentTable();
      return true;
    }
    this.stepsWarmed.set(name, (this.stepsWarmed.get(name) ?? 0) + 1);
    try {
      const keys = this.shownKeys;
      const first = t.subscription.consumers[0]?.id;
      const events: TopologyEvent[] = [round % 3 === 0 && first ? { kind: 'disconnect', id: first } : { kind: 'connect', name: `\u0000warm-up-${round}`, ...stickyWarmUpRanges(t.subscription.selector) }];
      // Taken as a real step is: a what-if of no steps, extended by it. Built afresh, the throwaway
      // steps never ran `extendWhatIf`, which the panel's first real step then ran cold.
      const colors = new ColorMap();
      const none = buildWhatIf(this.settings, name, [], keys, colors, undefined, t, true, false);
      const w = none && extendWhatIf(none, this.settings, name, events, keys, colors, true);
      if (w) this.#timeNote(name, () => orderingNote(this.settings, name, events, keys, w, t));
      // A step's bars draw the ring's points, which a view of a broker's report (its ranges, no
      // ring) never drew: their first binning of 100,000 points ran cold (25 ms of a 100 ms step).
      const s = w?.after.selector;
      if (round < 2 && s?.ring) warmLayouts(s.segments, s.ring, 720);
    } catch {
      // Only a warm-up: the real step reports its own errors.
    }
    return true;
  }

  /** Names of the consumer groups that consume the topic (from the host's frame where it has them). */
  groupNames(topic: string): string[] {
    const fromFrame = this.#frames.get(topic)?.groups;
    if (Array.isArray(fromFrame) && fromFrame.every((g) => typeof g?.view?.group === 'string')) return fromFrame.map((g) => g.view.group);
    const t = this.topology().topology;
    return t ? groupsOf(t, topic).map((g) => g.name) : [];
  }

  group(topic: string, name: string): GroupViewModel | undefined {
    const key = JSON.stringify([topic, name]);
    let v = this.#groupCache.get(key);
    const f = this.#frames.get(topic);
    if (!v && f) {
      const view = this.view(topic);
      v = view && groupOfFrame(f, name, view.markers);
      if (v) this.#groupCache.set(key, v);
    }
    if (!v) {
      const t = this.topic(topic);
      const g = this.topology().topology?.group(name);
      const view = this.view(topic);
      if (!(t instanceof KafkaTopicState) || !g || !view) return undefined;
      v = buildGroupView(g, t, view.markers);
      this.#groupCache.set(key, v);
    }
    return v;
  }

  /**
   * The group's what-if from its current state, and the group after the steps as the panel draws
   * it. A step added after the last what-if continues that run (see `continueGroupWhatIf`); any
   * other change (undo, another group, new keys) runs the steps again from the group's state.
   */
  groupWhatIf(topic: string, name: string, events: readonly string[]): GroupWhatIf | { error: string } | undefined {
    // As for a topic's what-if: no steps before the topology is built (see `noStepsResult`).
    const base = events.length === 0 && !this.engineReady ? this.group(topic, name) : undefined;
    if (base) return { result: noStepsResult(base), after: base, memberTopics: new Map() };
    const topology = this.topology().topology;
    const g = topology?.group(name);
    if (!topology || !g) return undefined;
    const last = this.#groupWhatIfCache;
    // Whether the last what-if's steps are the first of these (all of them: it is this what-if).
    const continues = last?.topic === topic && last.group === name && last.events.length <= events.length && last.events.every((e, i) => e === events[i]);
    if (continues && last.events.length === events.length) return last.value;
    let value: GroupWhatIf | { error: string };
    let run: GroupWhatIfRunState | undefined;
    try {
      run = continues && last.run ? continueGroupWhatIf(last.run, events.slice(last.events.length)) : groupWhatIf(topology, g, topic, events, this.#groupKeys(), this.#takeCopy(g));
      value = this.#groupWhatIfValue(run, topic);
    } catch (e) {
      // A run that threw part-way is in no known state: the next what-if starts afresh.
      run = undefined;
      value = { error: (e as Error).message };
    }
    this.#groupWhatIfCache = { topic, group: name, events: events.slice(), run, value };
    return value;
  }

  /** The warm-up's copy of `g`, if it made one: handed out once. */
  #takeCopy(g: ConsumerGroupState): ConsumerGroupState | undefined {
    const c = this.#groupCopy;
    this.#groupCopy = undefined;
    return c?.of === g ? c.copy : undefined;
  }

  /** The shown keys as a group what-if takes them. */
  #groupKeys(): Array<{ shown: string; key: MessageKey }> {
    return this.shownKeys.map((k) => ({ shown: k.label, key: k.key }));
  }

  /** What the panel shows of a group what-if's run: the result, the group after it, the members' own subscriptions. */
  #groupWhatIfValue(run: GroupWhatIfRunState, topic: string): GroupWhatIf {
    const shown = this.shownKeys;
    const { group: after, topics } = run.run;
    const markers = this.view(topic)?.markers ?? [];
    const routed = markers.map((m) => ({ n: m.n, label: m.label, route: topics.get(topic)!.route(shown[m.n - 1].key) }));
    // Each member's subscription where it differs from the group's topics (what "Apply" writes; the
    // run's copy of the group shares the group's configuration).
    const all = after.config.topics.join('\u0000');
    const memberTopics = new Map<string, string[]>();
    for (const [id, subs] of after.members) if (subs.join('\u0000') !== all) memberTopics.set(id, [...subs]);
    let differs: number | undefined;
    const applyDiffers = () => {
      const now = after.owners();
      const formed = after.formedAgain().owners();
      return (differs ??= typeof now === 'string' || typeof formed === 'string' ? 0 : diffOwners(now, formed).length);
    };
    return { result: run.result, after: buildGroupView(after, topics.get(topic)!, routed), memberTopics, applyDiffers };
  }

  namespace(name: string, positions: number[] | null): NamespaceViewModel | { error: string } | undefined {
    const t = this.topic(name);
    const v = this.view(name);
    if (!t || !v || v.system !== 'pulsar') return undefined;
    const key = JSON.stringify([name, positions]);
    if (this.#nsCache?.key !== key) {
      this.#nsCache = { key, value: buildNamespaceView(this.settings, name, t.partitions, v.markers.map((m) => m.route.partition), positions) };
    }
    return this.#nsCache.value;
  }
}

/**
 * The ranges a throwaway join brings on a STICKY subscription: the first hash value nobody owns
 * (the selector's table lists gaps as segments of no consumer). Without ranges the broker refuses
 * the join at once, so the warm-up's joins ran none of the code a user's join runs, and the first
 * real one after them took 33-66 ms where later ones take 15-18. None where every value is owned
 * (a user's join is refused there too) or the subscription is not STICKY.
 */
function stickyWarmUpRanges(selector: StickyKeyConsumerSelector): { ranges?: HashRange[] } {
  if (selector.algorithm !== 'sticky') return {};
  const table = selector.segmentTable();
  for (let i = 0; i < table.count; i++) if (table.owners[table.owner[i]].length === 0) return { ranges: [[table.starts[i], table.starts[i]]] };
  return {};
}
