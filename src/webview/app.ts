/**
 * The routing panel: topic tabs, the keys with their legend, one view per aspect of the topic
 * (partitions, hash ranges, ring, namespace bundles, what-if), rendered from the engine's models.
 * Talks to the host only through the typed protocol.
 */
import type { TopologyEvent } from '../engine/events';
import type { TopicConfig } from '../engine/settings';
import { javaLongDecode } from '../engine/pulsar/namespaceBundles';
import { stockSpareColumn } from '../engine/spareColumns';
import type { AnalysisRunInfo, ApplyGroupMessage, ApplyToSettingsMessage, Focus, FromWebviewMessage, KeyInput, ProblemInfo, ToWebviewMessage } from '../shared/protocol';
import { keyText } from '../shared/keyText';
import { clampWindow, type ZoomWindow } from '../shared/view/segments';
import type { TopicViewModel } from '../shared/view/topicView';
import type { PanelObserved } from '../shared/view/observedPanel';
import { h, keepUnchanged, sizedByRows, svg } from './dom';
import { hex8, pct, shortTopic, thousands } from './format';
import { Models, spareColumnLength } from './model';
import { groupWhatIfKey, isKeyInput, MAX_KEYS, MAX_STEPS, sameKey, sanitizeState, type PanelState, type ViewKind } from './state';
import { LIMITS } from '../shared/protocol';
import { l10n } from './l10n';
import { observedBadge, renderKafkaObserved, renderPulsarObserved } from './views/observed';
import { Ui } from './ui';
import { lazyDetails } from './views/pagedTable';
import { renderBar, type BarMarker, type BarSpec } from './views/bar';
import { barRows, renderBarCanvas, type BarCanvasHandle } from './views/barCanvas';
import { drawnOnCanvas, type ChartHandle } from './views/barShared';
import { renderPartitionsCanvas } from './views/partitionsCanvas';
import { renderRingCanvas } from './views/ringCanvas';
import { prepareCanvas, warmNext } from './canvas/surface';
import { renderAnalysis } from './views/analysis';
import { renderNamespace } from './views/namespace';
import { renderPartitions, type PartitionsSpec } from './views/partitions';
import { renderRing, ringSize, type RingSpec } from './views/ring';
import { consumersLegend, keysTable, producersTable } from './views/tables';
import { appliesAStep, groupApplyDiffers, groupChooser, groupKeysTable, groupNote, groupWhatIfEditor, membersTable, renderGroupWhatIf, type GroupWhatIfEditor, type GroupWhatIfSpec } from './views/group';
import { analysedKeysPerMember } from '../shared/view/groupView';
import { renderApplyDiffers, renderOrderingNote, renderWhatIf, whatIfEditor, type WhatIfEditor, type WhatIfSpec } from './views/whatIf';

export interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/**
 * Rounds of engine warm-up when idle after the first picture: the topology, then throwaway what-if
 * steps (`Models.warmUp`). With four steps the first real ones on the panel bench's 3.x ring still
 * ran code V8 had not finished optimising (steps 2-5 at 42-46 ms of CPU, later ones 25-30); with
 * fifteen, 31. They cost idle time: the warm-up ends 0.5-0.8 s after opening on the big rings
 * (1.6-1.8 s while it ran one part per idle period).
 */
const WARM_UP_ROUNDS = 16;
/** The least idle time left (ms) that the warm-up starts another part in: a later round takes 5-20 ms. */
const IDLE_PART_MS = 20;
/**
 * Spare columns stocked when idle: a step on a 3.x ring takes seven (ring points and holders, the
 * segment table's three, two view columns), on a 4.x ring six.
 */
const SPARE_COLUMNS = 8;
/**
 * How long after a zoom or pan input (ms) the idle warm-up waits: wheel events and held keys come
 * every 16-100 ms during a gesture; a user who has stopped takes longer than this to do anything else.
 */
const GESTURE_MS = 250;
/** Keys listed in the first picture; the rest follow after it. */
const KEYS_AT_ONCE = 16;
/** Partitions above which the partitions row is a canvas with a paged table. */
const DENSE_PARTITIONS = 512;

const VIEW_LABELS: Record<ViewKind, string> = {
  partitions: l10n.t('Partitions'),
  ranges: l10n.t('Hash ranges'),
  ring: l10n.t('Ring'),
  namespace: l10n.t('Namespace'),
  whatif: l10n.t('What-if'),
  analysis: l10n.t('Analysis'),
};

export class App {
  #state: PanelState;
  private readonly models = new Models();
  readonly #ui = new Ui();
  #problems: ProblemInfo[] = [];
  #stale: string[] = [];
  /** The broker's reports of the topics that have one, by topic (from the state message). */
  #observed = new Map<string, PanelObserved>();
  #received = false;
  #nextRequest = 1;
  #applyStatus = new Map<string, string>();
  #error = '';
  #lastWidth = 0;
  readonly #main = h('main', { id: 'view', role: 'tabpanel' });
  /** Analyze Keys: the latest run, and its what-if runs per topic (host data, kept in memory only). */
  #analysis: { base?: AnalysisRunInfo; whatIf: Map<string, AnalysisRunInfo> } = { whatIf: new Map() };
  #exportStatus = '';
  readonly #pendingExport = new Set<number>();
  /** The charts drawn for each zoom window (`topic|chart`): a zoom redraws them, nothing else. */
  #zoomGroups = new Map<string, Array<ChartHandle<Element>>>();
  /** The what-if's canvas bars by id (before, after), which its next step draws on again (see `bar`). */
  #whatIfBars = new Map<string, BarCanvasHandle>();
  /** Counts renders: work deferred by one render is dropped once another has replaced its page. */
  #generation = 0;
  #deferred: Array<() => void> = [];
  /** The group what-if's part of the What-if view last drawn, which a group step draws again. */
  #groupPart: HTMLElement | undefined;
  /** A group what-if the host asked for (`#focusOn`), scrolled to once it is drawn. */
  #revealGroup = false;
  /** Each group what-if's editor (by topic and group), kept as the topics' are. */
  readonly #groupEditors = new Map<string, GroupWhatIfEditor>();
  #saveQueued = false;
  /** When a chart's zoom window last changed (`performance.now()`): the idle warm-up waits for a gesture's end. */
  #zoomedAt = -1e9;
  /** Whether the keys past the first few are shown (kept across renders). */
  #moreKeysOpen = false;
  /** The topic and view drawn last. */
  #shown: { topic: string; kind: ViewKind } | undefined;
  /** Each topic's what-if editor, kept from one drawing to the next (see `WhatIfEditor`). */
  readonly #editors = new Map<string, WhatIfEditor>();

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    this.#state = sanitizeState(api.getState());
    this.models.setKeys(this.#state.keys);
    root.append(this.#ui.tooltip, this.#ui.live);
    document.body.append(patterns());
    new ResizeObserver(() => {
      const w = this.#width();
      if (Math.abs(w - this.#lastWidth) > 8 && this.#received) {
        this.render();
        this.sendView();
      }
    }).observe(document.body);
    this.render();
  }

  onMessage(msg: ToWebviewMessage): void {
    switch (msg.type) {
      case 'state':
        // The benchmark and the webview's developer tools time the picture from here.
        performance.mark('keyRouting:state');
        this.#stateMarked = true;
        this.#received = true;
        this.#problems = Array.isArray(msg.problems) ? msg.problems : [];
        this.#stale = Array.isArray(msg.stale) ? msg.stale : [];
        this.models.setSettings(msg.settings ?? { topics: [], namespaces: [] }, msg.frames);
        // The editors of topics the settings no longer have go with them (groups' are made again).
        for (const name of this.#editors.keys()) if (!this.models.shown.topics.some((t) => t.name === name)) this.#editors.delete(name);
        this.#groupEditors.clear();
        this.#observed = new Map((Array.isArray(msg.observed) ? msg.observed : []).map((o) => [o?.topic, o]));
        this.#addKeys(msg.keys);
        this.#focusOn(msg.focus);
        break;
      case 'showKeys':
        this.#addKeys(msg.keys);
        this.#focusOn(msg.focus);
        break;
      case 'applyResult': {
        const topic = this.#pendingApply.get(msg.requestId);
        this.#pendingApply.delete(msg.requestId);
        if (topic === undefined) return;
        this.#applyStatus.set(topic, msg.message);
        if (msg.outcome === 'applied') {
          // The settings now say what the steps did; the host sends them as a new state.
          delete this.#state.whatIf[topic];
        }
        break;
      }
      case 'analysis':
        if (!this.#onAnalysis(msg.run, msg.reveal === true)) return;
        break;
      case 'exportResult':
        if (!this.#pendingExport.delete(msg.requestId)) return;
        this.#exportStatus = msg.message;
        break;
    }
    this.#save();
    this.render();
  }

  /**
   * The topic the host asks for and, from a what-if notification, that what-if in place of the
   * topic's steps: the one step from the settings, as the notification counted it.
   */
  #focusOn({ topic, leave: id, group }: Focus = {}): void {
    const st = this.#state;
    if (typeof topic !== 'string') return;
    st.topic = topic;
    if (typeof id !== 'string') return;
    st.views[topic] = 'whatif';
    if (typeof group !== 'string') st.whatIf[topic] = { events: [{ kind: 'disconnect', id }], cursor: 1 };
    else {
      (st.groups ??= {})[topic] = group;
      (st.groupWhatIf ??= {})[groupWhatIfKey(topic, group)] = { events: ['-' + id], cursor: 1 };
      this.#revealGroup = true;
    }
  }

  /** Keeps the run; true where the page must be drawn again (the Analysis view shows, or is revealed). */
  #onAnalysis(run: AnalysisRunInfo, reveal: boolean): boolean {
    if (!run.whatIf) {
      if (this.#analysis.base && this.#analysis.base.id > run.id) return false;
      if (this.#analysis.base?.id !== run.id) {
        this.#analysis.whatIf.clear();
        this.#exportStatus = '';
      }
      this.#analysis.base = run;
    } else {
      if (!this.#analysis.base || run.whatIf.baseId !== this.#analysis.base.id) return false;
      const prev = this.#analysis.whatIf.get(run.whatIf.topic);
      if (prev && prev.id > run.id) return false;
      this.#analysis.whatIf.set(run.whatIf.topic, run);
    }
    if (reveal) {
      for (const t of this.models.shown.topics) this.#state.views[t.name] = 'analysis';
      if (this.#state.topic === undefined && this.models.shown.topics.length) this.#state.topic = this.models.shown.topics[0].name;
      return true;
    }
    // Redrawn only where it shows: other views (the what-if editor, say) keep what is typed in them.
    const topic = this.#state.topic;
    return topic !== undefined && this.#state.views[topic] === 'analysis';
  }

  readonly #pendingApply = new Map<number, string>();
  #stateMarked = false;

  /** Keys from a route result go first (newest first), the panel's own follow. */
  #addKeys(keys: readonly KeyInput[] | undefined): void {
    const incoming = (keys ?? []).filter(isKeyInput);
    if (incoming.length === 0) return;
    const rest = this.#state.keys.filter((k) => !incoming.some((n) => sameKey(n, k)));
    this.#state.keys = [...incoming, ...rest].slice(0, MAX_KEYS);
    this.models.setKeys(this.#state.keys);
    this.sendView();
  }

  /**
   * Tells the host which keys the panel shows, how wide it is and its topic, so that its next
   * `state` routes them, lays the charts out for that width and sends that topic's frame whatever
   * the others cost (a frame without a key's route sends the panel to its own, slower, topology).
   * As many keys as fit a message.
   */
  sendView(): void {
    const keys: KeyInput[] = [];
    let bytes = 64;
    for (const k of this.#state.keys) {
      bytes += k.value.length * 3 + 40;
      if (bytes > LIMITS.messageBytes || keys.length >= LIMITS.panelKeys || k.value.length > LIMITS.keyValue) break;
      keys.push({ format: k.format, value: k.value });
    }
    const topic = this.#state.topic;
    this.#post({ type: 'panelView', keys, width: Math.min(LIMITS.panelWidth, this.#width()), ...(topic ? { topic: topic.slice(0, LIMITS.topicName) } : {}) });
  }

  /**
   * While the host answers `ready` (it builds the frames first): the canvases of the Pulsar first
   * pictures that cost most at scale, made ahead (see `prepareCanvas`): a ring and its zoomed
   * strip, and the bar of hash ranges. A Kafka topic's partitions make their own (their height
   * depends on how the keys stack). A spare nothing takes stays for a later chart of its size:
   * three canvases at most, about 1.5 MB at a 1,200 px width (device pixel ratio 1).
   */
  prepareCanvases(): void {
    const width = this.#width();
    const keys = this.#state.keys.length;
    prepareCanvas(ringSize(width), ringSize(width));
    prepareCanvas(width, barRows(keys, false, true).height);
    prepareCanvas(width, barRows(keys, false, false).height);
  }

  #post(msg: FromWebviewMessage): void {
    this.api.postMessage(msg);
  }

  #save(): void {
    this.api.setState(this.#state);
  }

  #width(): number {
    // Until the first view is attached, the root's width is the one the view will get (nothing
    // between them has padding); the body's is wider by its padding, and measuring that made the
    // first picture be drawn twice (the resize observer saw the real width and drew it again).
    const w = (this.#main.isConnected ? this.#main.clientWidth : this.root.clientWidth) || document.body.clientWidth || window.innerWidth;
    return Math.max(320, Math.floor(w) - 4);
  }

  // -------------------------------------------------------------------------------------------

  render(): void {
    this.#whatIfBars.clear();
    this.#redraw(() => this.#drawPage());
    // Under the topic's own what-if, the group's would be out of sight (`#redraw` keeps the scroll).
    if (this.#revealGroup && this.#groupPart?.firstChild) {
      this.#revealGroup = false;
      this.#groupPart.scrollIntoView();
    }
  }

  /**
   * Draws the page, or a part of it, as a new generation (the deferred work of the last is dropped
   * and the canvas charts' zoom groups made again), keeping the focus and the scroll position.
   */
  #redraw(draw: () => void): void {
    this.#generation++;
    this.#zoomGroups = new Map();
    this.#deferred = [];
    this.#inPlace(draw);
    this.#afterPaint();
  }

  /** Runs `draw` (which changes the page), then gives the focus and the scroll position back. */
  #inPlace(draw: () => void): void {
    const scrollY = window.scrollY;
    const active = document.activeElement?.id;
    this.#ui.hideTip();
    draw();
    if (active && document.activeElement?.id !== active) document.getElementById(active)?.focus();
    window.scrollTo(0, scrollY);
  }

  #drawPage(): void {
    const topics = this.models.shown.topics;
    const header = h('header', { class: 'top' }, h('h1', {}, l10n.t('Key Routing')));
    const body: HTMLElement[] = [];
    if (!this.#received) {
      body.push(h('p', { class: 'muted' }, l10n.t('Waiting for the settings…')));
    } else if (topics.length === 0) {
      body.push(h('p', {}, l10n.t('No topics configured. Add one to keyRouting.topics in the workspace settings (Key Routing: Add Topic).')));
    }
    if (this.#problems.length) body.push(this.#problemsBox());
    if (this.#error) body.push(h('p', { class: 'error', role: 'alert' }, this.#error));
    // The panel's own topology, unless the host's frames draw the topics (then it is built when
    // idle, or when a what-if step needs it).
    if (!this.models.framed || this.models.engineReady) {
      const topology = this.models.topology();
      if (topology.error) body.push(h('p', { class: 'error' }, topology.error));
    }
    let topic: TopicConfig | undefined;
    if (topics.length) {
      topic = topics.find((t) => t.name === this.#state.topic) ?? topics[0];
      this.#state.topic = topic.name;
      header.append(this.#topicTabs(topics, topic));
    }
    body.push(this.#keysBox());
    this.#main.replaceChildren();
    if (topic) {
      const views = this.#viewsOf(topic);
      let kind = this.#state.views[topic.name];
      if (!kind || !views.includes(kind)) kind = views[0];
      const viewTabs = this.#viewTabs(topic, views, kind);
      this.#main.setAttribute('aria-label', l10n.t('{0} of {1}', VIEW_LABELS[kind], topic.name));
      body.push(viewTabs, this.#main);
      this.#lastWidth = this.#width();
      this.#shown = { topic: topic.name, kind };
      this.#renderViewSafely(topic, kind, this.#lastWidth);
    } else {
      this.#shown = undefined;
    }
    const app = h('div', { id: 'app' }, header, ...body);
    keepUnchanged(app, this.root);
    this.root.replaceChildren(app, this.#ui.tooltip, this.#ui.live);
  }

  /**
   * Work the first picture does not need (tables, the ordering note), run after it is painted, in
   * tasks of about 12 ms so input is handled in between; then, when the panel is idle, its own
   * topology (what-if steps and keys the host has not routed need it), warmed up with a throwaway
   * step.
   */
  #afterPaint(): void {
    const gen = this.#generation;
    if (this.#received && !this.models.engineReady) document.body.dataset.engine = 'pending';
    const first = this.#stateMarked;
    this.#stateMarked = false;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (first) performance.measure('keyRouting:firstPicture', 'keyRouting:state');
        // The deferred tasks start in a task of their own and run back to back until one ends
        // 12 ms in. A frame after each one made a Kafka group's complete picture (its members,
        // its keys, the topic's keys: 13 + 5 + 4 ms) wait for three frames where two hold it.
        const next = () => {
          const t = performance.now();
          let task;
          while (gen === this.#generation && (task = this.#deferred.shift())) {
            task();
            if (performance.now() - t > 12) return void setTimeout(next, 0);
          }
          if (gen !== this.#generation) return;
          if (first) performance.measure('keyRouting:complete', 'keyRouting:state');
          this.#warmUp(gen);
        };
        setTimeout(next, 0);
      }, 0),
    );
  }

  /** Runs `task` when the panel is next idle (within a second), unless the page is drawn again first. */
  #whenIdle(task: () => void): void {
    const gen = this.#generation;
    onIdle(() => {
      if (gen === this.#generation) task();
    }, 1000);
  }

  /** Runs `task` after the picture is painted, unless the page is drawn again first. */
  #later(task: () => void, first = false): void {
    if (first) this.#deferred.unshift(task);
    else this.#deferred.push(task);
  }

  /**
   * The panel's idle work, an idle callback a task: first the charts' zoom layouts (`warmLater`:
   * a few milliseconds each, so that the first zooms run optimised code with feedback for every
   * branch), then its own topology (what-if steps and keys the host has not routed need it),
   * warmed up with throwaway what-if steps on clones so that a real step runs optimised code
   * instead of cold code (the engine's functions are compiled after a few calls), then spare
   * columns for the next step. The body's `data-engine` says "ready" when all is done: only the
   * latest page's warm-up says so (an earlier one said it while a later one still ran its rounds).
   */
  #warmUp(gen: number): void {
    const topic = this.#state.topic;
    const engine = this.#received && !this.models.engineReady && topic !== undefined;
    document.body.dataset.engine = 'warming';
    let round = 0;
    /** Does the next part of the warm-up; false when none is left. */
    const part = (idle?: IdleDeadline): boolean => {
      if (warmNext()) return true;
      // Spare columns for the next what-if step (see engine/spareColumns), as many as the idle
      // period has room for (a millisecond or two each). Before every engine round too: the
      // throwaway steps then run the code that takes them, which a real step would otherwise be
      // the first to run (V8 had compiled it for none).
      if (gen === this.#generation && topic !== undefined) {
        const length = spareColumnLength(this.models.view(topic));
        let made = false;
        while (stockSpareColumn(length, SPARE_COLUMNS)) {
          made = true;
          if ((idle?.timeRemaining() ?? 0) < 4) break;
        }
        if (made) return true;
      }
      // A later page's warm-up takes over once this one has built the topology.
      const superseded = gen !== this.#generation && this.models.engineReady && round > 0;
      if (engine && !superseded && round < WARM_UP_ROUNDS) {
        // Round 0 needs no group: finding it would build the topology, which round 0 does a part at a time.
        if (this.#warmRound(topic, round, round > 0 ? this.#chosenGroup(topic)?.name : undefined)) round++;
        return true;
      }
      // Only the latest page's warm-up says so: an earlier one's end is not the end of the later one.
      if (gen === this.#generation) document.body.dataset.engine = 'ready';
      return false;
    };
    // Parts while the idle period has room for one more (as long as the last one took, and at
    // least IDLE_PART_MS): a callback asked for from an idle callback runs in the next idle
    // period, 50 ms later however short the part was, and a part a callback took 1.6-1.8 s on the
    // big rings (16 rounds of 5-40 ms, each after its columns). None while a zoom or pan goes on
    // (an input in the last GESTURE_MS): a part run between two of its frames made the next one
    // late (a gesture begun at once on a 3.x ring of 100,000 points missed 5-20 of 60 frames).
    const step = (idle?: IdleDeadline) => {
      for (;;) {
        if (performance.now() - this.#zoomedAt < GESTURE_MS) return onIdle(step, 500);
        const start = performance.now();
        if (!part(idle)) return;
        if ((idle?.timeRemaining() ?? 0) < Math.max(IDLE_PART_MS, performance.now() - start)) return onIdle(step, 500);
      }
    };
    onIdle(step, 500);
  }

  /**
   * A round of the engine's warm-up (`Models.warmUp`), and a group's throwaway step drawn and
   * dropped, so that a real step's drawing runs compiled code too. On 10,000 partitions and 500
   * members a step taken once the What-if tab settled drew cold (33 ms of its CPU, against 15);
   * by the wall clock such steps took 34-84 ms in five runs, 31-43 with this.
   */
  #warmRound(topic: string, round: number, group?: string): boolean {
    const done = this.models.warmUp(topic, round, group);
    const w = this.models.warmGroup;
    this.models.warmGroup = undefined;
    if (w) renderGroupWhatIf(w).append(membersTable(w.after, null));
    return done;
  }

  #problemsBox(): HTMLElement {
    return h(
      'details',
      { class: 'problems' },
      h('summary', {}, `${this.#problems.length} settings problem${this.#problems.length > 1 ? 's' : ''}${this.#stale.length ? ` (${this.#stale.join(', ')} shown with last good settings)` : ''}`),
      h('ul', {}, ...this.#problems.slice(0, 20).map((p) => h('li', {}, h('code', {}, p.path), ` ${p.message}`))),
    );
  }

  #topicTabs(topics: TopicConfig[], current: TopicConfig): HTMLElement {
    // Kept as it is where unchanged (keepUnchanged): the listeners depend only on the topics and the selection, all in the markup.
    // Past 20 topics, tabs would fill rows above the picture (200 topics: 25 rows): a list instead.
    if (topics.length > 20) {
      const pick = h('select', { class: 'topic-select', 'aria-label': l10n.t('Topics'), 'data-keep': 'topic-tabs' }, ...topics.map((t) => h('option', { value: t.name, selected: t === current }, `${shortTopic(t.name)} · ${t.system}`)));
      pick.addEventListener('change', () => this.#selectTopic(pick.value));
      return pick;
    }
    const list = h('div', { role: 'tablist', class: 'tabs topic-tabs', 'aria-label': l10n.t('Topics'), 'data-keep': 'topic-tabs' });
    const tabs = topics.map((t) =>
      h(
        'button',
        {
          role: 'tab',
          type: 'button',
          id: `topic-tab-${topics.indexOf(t)}`,
          class: 'tab',
          'aria-selected': t === current ? 'true' : 'false',
          tabindex: t === current ? 0 : -1,
          title: t.name,
          'data-topic': t.name,
        },
        shortTopic(t.name),
        h('span', { class: 'tab-system' }, t.system),
      ),
    );
    tabs.forEach((b, i) => {
      b.addEventListener('click', () => this.#selectTopic(topics[i].name));
      b.addEventListener('keydown', (ev) => this.#tabKeys(ev, tabs, i, (j) => this.#selectTopic(topics[j].name)));
    });
    list.append(...tabs);
    return list;
  }

  #viewTabs(topic: TopicConfig, views: ViewKind[], current: ViewKind): HTMLElement {
    const list = h('div', { role: 'tablist', class: 'tabs view-tabs', 'aria-label': l10n.t('Views of {0}', topic.name), 'data-keep': 'view-tabs' });
    const tabs = views.map((v) =>
      h('button', { role: 'tab', type: 'button', id: `view-tab-${v}`, class: 'tab', 'aria-selected': v === current ? 'true' : 'false', 'aria-controls': 'view', tabindex: v === current ? 0 : -1, 'data-view': v }, VIEW_LABELS[v]),
    );
    tabs.forEach((b, i) => {
      b.addEventListener('click', () => this.#selectView(topic.name, views[i]));
      b.addEventListener('keydown', (ev) => this.#tabKeys(ev, tabs, i, (j) => this.#selectView(topic.name, views[j])));
    });
    list.append(...tabs);
    return list;
  }

  /** Arrow keys, Home and End move along a tab list (the WAI-ARIA tabs pattern). */
  #tabKeys(ev: KeyboardEvent, tabs: HTMLElement[], i: number, select: (j: number) => void): void {
    const n = tabs.length;
    const j = ev.key === 'ArrowRight' ? (i + 1) % n : ev.key === 'ArrowLeft' ? (i - 1 + n) % n : ev.key === 'Home' ? 0 : ev.key === 'End' ? n - 1 : -1;
    if (j < 0) return;
    ev.preventDefault();
    select(j);
    document.getElementById(tabs[j].id)?.focus();
  }

  #selectTopic(name: string): void {
    this.#state.topic = name;
    this.#error = '';
    this.#save();
    this.render();
    this.sendView();
  }

  #selectView(topic: string, view: ViewKind): void {
    this.#state.views[topic] = view;
    this.#error = '';
    this.#save();
    this.render();
  }

  #viewsOf(t: TopicConfig): ViewKind[] {
    if (t.system === 'kafka') return ['partitions', 'whatif', 'analysis'];
    const out: ViewKind[] = [];
    const sub = t.subscription;
    // A broker's report gives each consumer's ranges, not the ring's points: it is drawn as ranges.
    const ring = sub && sub.keySharedMode === 'AUTO_SPLIT' && sub.consistentHashing && !sub.observed && !sub.observedPartitions;
    if (ring) out.push('ring');
    if (sub) out.push('ranges');
    if (t.partitions > 0) out.push('partitions');
    out.push('namespace');
    if (sub || t.partitions > 0) out.push('whatif');
    out.push('analysis');
    return out;
  }

  #keysBox(): HTMLElement {
    const box = h('section', { class: 'keys', 'aria-label': l10n.t('Keys') });
    const list = h('ol', { class: 'key-legend', 'aria-label': l10n.t('keys shown, numbered as on the charts') });
    const item = (k: (typeof this.models.keys)[number], i: number): HTMLElement => {
      const remove = h('button', { type: 'button', class: 'icon', title: l10n.t('Remove key {0}', i + 1), 'aria-label': l10n.t('Remove key {0}', i + 1) }, '×');
      remove.addEventListener('click', () => {
        this.#state.keys = this.#state.keys.filter((x) => !sameKey(x, k.input));
        this.models.setKeys(this.#state.keys);
        this.sendView();
        this.#save();
        this.render();
      });
      return h(
        'li',
        { class: `key-item${k.error ? ' invalid' : ''}`, 'data-n': i + 1 },
        h('span', { class: 'badge' }, String(i + 1)),
        h('span', { class: 'key', title: k.shown?.label ?? k.input.value }, keyText(k.shown?.label ?? k.input.value)),
        k.input.format === 'hex' ? h('span', { class: 'muted' }, ' (hex)') : null,
        k.error ? h('span', { class: 'error' }, ` ${k.error}`) : null,
        remove,
      );
    };
    // The first keys listed; the rest behind a disclosure, made when opened (a hundred keys are
    // four hundred elements and half the page).
    const keys = this.models.keys;
    keys.slice(0, KEYS_AT_ONCE).forEach((k, i) => list.append(item(k, i)));
    let more: HTMLDetailsElement | null = null;
    if (keys.length > KEYS_AT_ONCE) {
      more = lazyDetails(`and ${keys.length - KEYS_AT_ONCE} more keys`, () => {
        const rest = h('ol', { class: 'key-legend', start: KEYS_AT_ONCE + 1, 'aria-label': `keys ${KEYS_AT_ONCE + 1} to ${keys.length}` });
        rest.append(...keys.slice(KEYS_AT_ONCE).map((k, j) => item(k, KEYS_AT_ONCE + j)));
        return rest;
      }, { class: 'more-keys', id: 'more-keys' });
      if (this.#moreKeysOpen) more.open = true;
      const d = more;
      d.addEventListener('toggle', () => (this.#moreKeysOpen = d.open));
    }
    const input = h('input', { id: 'key-input', type: 'text', placeholder: l10n.t('add a key'), 'aria-label': l10n.t('key to add'), maxlength: 4096 });
    const format = h('select', { id: 'key-format', 'aria-label': l10n.t('key format') }, h('option', { value: 'utf8' }, l10n.t('text')), h('option', { value: 'hex' }, l10n.t('hex bytes')));
    const add = h('button', { id: 'key-add', type: 'submit' }, l10n.t('Add key'));
    const form = h('form', { class: 'row', 'aria-label': l10n.t('add a key') }, input, format, add);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const value = input.value;
      if (value === '') return;
      const k: KeyInput = { format: format.value === 'hex' ? 'hex' : 'utf8', value: format.value === 'hex' ? value.replace(/\s+/g, '') : value };
      this.#state.keys = [...this.#state.keys.filter((x) => !sameKey(x, k)), k].slice(-MAX_KEYS);
      this.models.setKeys(this.#state.keys);
      this.sendView();
      this.#save();
      this.render();
      document.getElementById('key-input')?.focus();
    });
    box.append(h('h2', {}, l10n.t('Keys')), this.models.keys.length ? list : h('p', { class: 'muted' }, l10n.t('No keys yet.')), ...(more ? [more] : []), form);
    return box;
  }

  // -------------------------------------------------------------------------------------------

  #renderViewSafely(topic: TopicConfig, kind: ViewKind, width: number): void {
    try {
      this.#renderView(topic, kind, width);
    } catch (e) {
      this.#main.append(this.#viewFailed(e));
    }
  }

  /** A view's failure: said where the view would be, and reported to the host's log. */
  #viewFailed(e: unknown): HTMLElement {
    this.#report(e);
    return h('p', { class: 'error' }, l10n.t('This view failed: {0}', (e as Error).message));
  }

  /** An error the page caught, for the host's log. */
  #report(e: unknown): void {
    this.#post({ type: 'webviewError', message: String((e as Error).stack ?? e).slice(0, 2000) });
  }

  /**
   * A what-if's Apply check (a rebuild of what the written settings give) when the panel is idle:
   * it only warns before Apply, and as the next task it held up the input after a step by 50 ms or
   * more. `show` gets its value, or `fallback` where it threw (reported, as a failed view is).
   */
  #checkWhenIdle<T>(check: () => T, fallback: T, show: (value: T) => void): void {
    this.#whenIdle(() => {
      let value = fallback;
      try {
        value = check();
      } catch (e) {
        this.#report(e);
      }
      show(value);
    });
  }

  #renderView(topic: TopicConfig, kind: ViewKind, width: number): void {
    // Timings for the benchmark (test/bench/panel.mjs): building the models with the engine, then
    // the view. `performance.measure` entries, visible in the webview's developer tools too.
    const t1 = performance.now();
    const v = this.models.view(topic.name);
    if (kind === 'whatif') {
      const ws = this.#state.whatIf[topic.name];
      this.models.whatIf(topic.name, ws ? ws.events.slice(0, ws.cursor) : []);
    }
    const t2 = performance.now();
    performance.measure('keyRouting:viewModel', { start: t1, end: t2 });
    queueMicrotask(() => performance.measure('keyRouting:render', { start: t2, end: performance.now() }));
    if (!v) {
      this.#main.append(h('p', { class: 'error' }, l10n.t('Topic {0} could not be modelled.', topic.name)));
      return;
    }
    switch (kind) {
      case 'partitions':
        return this.#partitionsView(v, width);
      case 'ranges':
        return this.#rangesView(topic, v, width);
      case 'ring':
        return this.#ringView(topic, v, width);
      case 'namespace':
        return this.#namespaceView(topic, width);
      case 'whatif':
        return this.#whatIfView(topic, width);
      case 'analysis':
        return this.#analysisView(topic, width);
    }
  }

  #analysisView(topic: TopicConfig, width: number): void {
    const ws = this.#state.whatIf[topic.name];
    const steps = ws ? ws.events.slice(0, ws.cursor) : [];
    const base = this.#analysis.base;
    this.#main.append(
      renderAnalysis({
        topic: topic.name,
        base,
        whatIf: this.#analysis.whatIf.get(topic.name),
        steps,
        width,
        exportStatus: this.#exportStatus,
        ui: this.#ui,
        onCancel: (runId) => this.#post({ type: 'cancelAnalysis', runId }),
        onExport: (runId, format) => {
          const requestId = this.#nextRequest++;
          this.#pendingExport.add(requestId);
          this.#exportStatus = l10n.t('Choose where to save…');
          this.#post({ type: 'exportAnalysis', requestId, runId, format });
          this.render();
        },
        onWhatIf: () => {
          if (!base || steps.length === 0) return;
          this.#post({ type: 'analyzeWhatIf', requestId: this.#nextRequest++, runId: base.id, topic: topic.name, events: steps });
        },
      }),
    );
    this.#analysisMembers(topic);
    // The status line is redrawn with every partial result; the live region speaks only a change of state.
    const said = base ? `${base.id}:${base.status}` : '';
    if (base && said !== this.#analysisAnnounced) this.#ui.announce(`Analysis of ${base.source}: ${base.status}`);
    this.#analysisAnnounced = said;
  }

  #analysisAnnounced = '';

  /** A Kafka topic's analysed keys per member of the chosen group, with the skew over the members. */
  #analysisMembers(topic: TopicConfig): void {
    if (topic.system !== 'kafka') return;
    const chosen = this.#chosenGroup(topic.name);
    const figures = this.#analysis.base?.result?.topics.find((t) => t.topic === topic.name);
    if (!chosen || !figures?.partitionKeys) return;
    const group = this.models.group(topic.name, chosen.name);
    if (!group) return;
    const analysed = figures.sparsePartitions ? null : analysedKeysPerMember(group, figures.partitionKeys);
    this.#main.append(
      this.#groupHeader(topic.name, chosen.name, chosen.names),
      h('h3', {}, l10n.t('Analysed keys per member of {0}', group.group)),
      analysed
        ? membersTable(group, analysed, 'analysis-members-table')
        : h('p', { class: 'muted' }, figures.sparsePartitions ? l10n.t('Not counted per member: the analysis lists only the partitions that received keys.') : l10n.t('Not counted per member: the group has too many partitions to list its owners.')),
    );
  }

  #zoomOf(key: string, space: readonly [number, number]): ZoomWindow {
    return clampWindow(this.#state.zoom[key], space);
  }

  #setZoom(key: string, w: ZoomWindow): void {
    this.#state.zoom[key] = w;
    this.#zoomedAt = performance.now();
    const charts = this.#zoomGroups.get(key);
    if (!charts || charts.length === 0) {
      this.#save();
      this.render();
      return;
    }
    // The charts redraw in place (a bar in the next frame, a ring's wedge at once), keeping the
    // focus and the cursor; the state is saved once per frame however many wheel events come.
    for (const c of charts) c.setWindow(w);
    if (!this.#saveQueued) {
      this.#saveQueued = true;
      requestAnimationFrame(() => {
        this.#saveQueued = false;
        this.#save();
      });
    }
  }

  /**
   * The hash-range bar, on a canvas where it is dense; its zoom window shared by `zoomKey`. With
   * `kept` (the what-if's bars), on the canvas of the bar of its id drawn last where that one is
   * out of the page (a step removes the old what-if before drawing the new one): a step then makes
   * no canvas.
   */
  #bar(spec: BarSpec, zoomKey: string, kept?: Map<string, BarCanvasHandle>): HTMLElement {
    if (!drawnOnCanvas(spec, this.#state.renderer)) {
      const svgChart = renderBar(spec);
      this.#joinZoom(zoomKey, svgChart);
      return svgChart.element;
    }
    const old = kept?.get(spec.id);
    const chart = old && !old.element.isConnected ? old : renderBarCanvas(spec);
    if (chart === old) old.show(spec);
    kept?.set(spec.id, chart);
    this.#joinZoom(zoomKey, chart);
    return chart.element;
  }

  #ring(spec: RingSpec, zoomKey: string): Element {
    const chart = drawnOnCanvas(spec, this.#state.renderer) ? renderRingCanvas(spec) : renderRing(spec);
    this.#joinZoom(zoomKey, chart);
    return chart.element;
  }

  #partitionsChart(spec: PartitionsSpec): HTMLElement {
    const r = this.#state.renderer ?? 'auto';
    return (r === 'auto' ? spec.count > DENSE_PARTITIONS : r === 'canvas') ? renderPartitionsCanvas(spec).element : renderPartitions(spec);
  }

  #joinZoom(key: string, chart: ChartHandle<Element>): void {
    let list = this.#zoomGroups.get(key);
    if (!list) this.#zoomGroups.set(key, (list = []));
    list.push(chart);
  }

  #partitionsView(v: TopicViewModel, width: number): void {
    const p = v.partitions!;
    const chosen = v.system === 'kafka' ? this.#chosenGroup(v.name) : null;
    const group = chosen ? this.models.group(v.name, chosen.name) : undefined;
    if (chosen && group) this.#main.append(this.#groupHeader(v.name, chosen.name, chosen.names), groupNote(group));
    this.#main.append(
      h(
        'p',
        { class: 'view-note' },
        v.system !== 'kafka'
          ? l10n.t("{0} partitions. A keyed message goes by the producer's {1} hash of the key modulo the partitions.", thousands(p.count), p.scheme)
          : p.hash
            ? l10n.t("{0} partitions. A keyed message goes where the topic's partitioner puts it: {1}, from the {2} hash of the serialized key.", thousands(p.count), p.scheme, p.hash)
            : l10n.t("{0} partitions. A keyed message goes where the topic's partitioner puts it: {1}, whatever the key.", thousands(p.count), p.scheme),
      ),
      this.#partitionsChart({
        id: 'partitions',
        label: `${v.name}: partitions`,
        count: p.count,
        width,
        marks: v.markers.map((m) => ({ n: m.n, label: m.label, partition: m.route.partition })),
        ...(group?.owner ? { owners: { of: group.owner, names: group.members.map((m) => m.id) } } : {}),
        ui: this.#ui,
      }),
    );
    const seen = this.#observed.get(v.name);
    const owners = seen?.system === 'kafka' ? renderKafkaObserved(seen, chosen?.name ?? null) : null;
    if (owners) this.#main.append(owners);
    if (group) {
      // After the first picture: a group of hundreds of members is a table of thousands of cells.
      this.#slotLater(`${group.members.length} members…`, () => {
        const run = this.#analysis.base?.result?.topics.find((t) => t.topic === v.name);
        const analysed = run?.partitionKeys && !run.sparsePartitions ? analysedKeysPerMember(group, run.partitionKeys) : null;
        return [h('h3', {}, l10n.t('Members of {0}', group.group)), membersTable(group, analysed)];
      });
      // A slot of its own: below the members, often out of sight.
      if (group.keys.length) this.#slotLater(`${group.keys.length} keys…`, () => [groupKeysTable(group)]);
    }
    this.#keysTableLater(v);
  }

  /** The group shown on a Kafka topic (the one chosen, else its first), with the chooser before it. */
  #chosenGroup(topic: string): { name: string; names: string[] } | null {
    const names = this.models.groupNames(topic);
    if (names.length === 0) return null;
    const chosen = this.#state.groups?.[topic];
    return { name: chosen && names.includes(chosen) ? chosen : names[0], names };
  }

  #groupHeader(topic: string, name: string, names: string[]): HTMLElement {
    return groupChooser(names, name, (g) => {
      this.#state.groups = { ...(this.#state.groups ?? {}), [topic]: g };
      this.#save();
      this.render();
    });
  }

  /** The keys table, filled in after the first picture (a hundred keys are a thousand cells). */
  #keysTableLater(v: TopicViewModel): void {
    const tables = () => [keysTable(v), producersTable(v)].filter((t): t is HTMLElement => t !== null);
    if (v.markers.length <= 12) {
      this.#main.append(...tables());
      return;
    }
    this.#slotLater(`${v.markers.length} keys…`, tables);
  }

  /**
   * A busy placeholder saying `what`, replaced after the first picture by a box of what `make`
   * makes, which the browser does not lay out while it is out of sight (a hundred keys are a
   * thousand table cells: 15-30 ms of layout on a 2-core machine). A new box, not the placeholder
   * filled: the browser skips only a box that was out of sight when it was first drawn.
   */
  #slotLater(what: string, make: () => Node[]): void {
    const slot = h('div', { 'aria-busy': 'true' }, h('p', { class: 'muted' }, what));
    this.#main.append(slot);
    this.#later(() => slot.replaceWith(sizedByRows(h('div', { class: 'deferred' }, ...make()))));
  }

  #selectorNote(v: TopicViewModel, topic: TopicConfig): string {
    const s = v.selector!;
    const sub = topic.system === 'pulsar' ? topic.subscription : undefined;
    const size = sub?.hashRangeSize ?? 65536;
    const hash =
      s.brokerVersion === '4.0'
        ? l10n.t('the key hash is {0}', s.algorithm === 'consistentHashing' ? 'murmur3 % 65535 + 1' : `murmur3 % ${size}${l10n.t(' (0 becomes 1)')}`)
        : s.algorithm === 'consistentHashing'
          ? l10n.t('the key hash is {0}', l10n.t('the 31-bit murmur3 itself'))
          : l10n.t('the slot is {0}', `murmur3 % ${size}`);
    const algo =
      s.algorithm === 'consistentHashing'
        ? l10n.t('consistent hashing, {0} points per consumer', sub?.replicaPoints ?? 100)
        : s.algorithm === 'autoSplit'
          ? l10n.t('auto-split ranges')
          : l10n.t('sticky ranges');
    return l10n.t('Broker {0}, {1}: {2}. Consumers connected: {3}.', s.brokerVersion, algo, hash, thousands(s.consumers.length));
  }

  #markers(v: TopicViewModel): BarMarker[] {
    return v.markers.flatMap((k) => (k.slot === null ? [] : [{ n: k.n, label: k.label, value: k.slot, hash: k.route.stickyKeyHash ?? k.slot, consumer: k.route.consumer ?? null, arc: k.arc }]));
  }

  #rangesView(topic: TopicConfig, v: TopicViewModel, width: number): void {
    const s = v.selector!;
    const zoomKey = `${topic.name}|ranges`;
    this.#main.append(
      h('p', { class: 'view-note' }, this.#selectorNote(v, topic)),
      this.#bar(
        {
          id: 'ranges',
          label: `${v.name}: key hash ranges`,
          model: s.segments,
          window: this.#zoomOf(zoomKey, s.segments.space),
          width,
          markers: this.#markers(v),
          ...this.#drainingMarks(topic.name),
          ring: s.ring,
          onWindow: (w) => this.#setZoom(zoomKey, w),
          ui: this.#ui,
        },
        zoomKey,
      ),
      consumersLegend(s.segments),
    );
    this.#observedParts(topic.name);
    this.#keysTableLater(v);
  }

  /**
   * A Pulsar topic with the broker's report (the host's `observedView`): the "observed at ..."
   * badge, the comparison with the configured order's prediction, and the draining hashes.
   */
  #drainingMarks(topic: string): { draining?: Array<{ hash: number; consumer: string }> } {
    const seen = this.#observed.get(topic);
    // The bar draws one selector: marks only for a topic reported as one group and not changed since.
    if (seen?.system !== 'pulsar' || !seen.current || seen.groups.length !== 1 || seen.groups[0].draining.length === 0) return {};
    return { draining: seen.groups[0].draining };
  }

  /** The "observed at" badge; the comparison and draining tables after the first picture (a table per partition's report). */
  #observedParts(topic: string): void {
    const seen = this.#observed.get(topic);
    if (seen?.system !== 'pulsar') return;
    this.#main.append(h('div', { class: 'row' }, observedBadge(seen.at, seen.current)));
    this.#slotLater(`${l10n.t('Reported by the broker')}…`, () => [renderPulsarObserved(seen)]);
  }

  #ringView(topic: TopicConfig, v: TopicViewModel, width: number): void {
    const s = v.selector!;
    const zoomKey = `${topic.name}|ring`;
    const window = this.#zoomOf(zoomKey, s.segments.space);
    const size = ringSize(width);
    const markers = this.#markers(v);
    this.#main.append(
      h('p', { class: 'view-note' }, this.#selectorNote(v, topic), ' Each key travels clockwise from its hash to the next point; that point’s consumer gets it.'),
      h(
        'div',
        { class: 'chart ring-chart', 'data-chart': 'ring', tabindex: 0, role: 'group', 'aria-label': l10n.t('{0}: consistent-hashing ring; click to zoom the strip below', v.name) },
        this.#ring({ label: `${v.name}: ring`, model: s.segments, ring: s.ring!, window, size, markers, onWindow: (w) => this.#setZoom(zoomKey, w), ui: this.#ui }, zoomKey),
      ),
      h('h3', {}, l10n.t('Zoomed strip')),
      this.#bar({ id: 'detail', label: `${v.name}: ring points in the zoom window`, model: s.segments, window, width, markers, ...this.#drainingMarks(topic.name), ring: s.ring, onWindow: (w) => this.#setZoom(zoomKey, w), ui: this.#ui }, zoomKey),
      consumersLegend(s.segments),
    );
    this.#observedParts(topic.name);
    this.#keysTableLater(v);
  }

  #namespaceView(topic: TopicConfig, width: number): void {
    const text = this.#state.positions[topic.name] ?? '';
    const positions = parsePositions(text);
    const model = this.models.namespace(topic.name, Array.isArray(positions) ? positions : null);
    if (!model) return;
    if ('error' in model) {
      this.#main.append(h('p', { class: 'error' }, l10n.t('The topic name cannot be resolved: {0}', model.error)));
      return;
    }
    const size = Math.min(360, width);
    this.#main.append(
      h(
        'p',
        { class: 'view-note' },
        (model.configured
          ? l10n.t('Namespace {0}, bundles: {1}.', model.namespace, model.layout.size)
          : l10n.t('Namespace {0}, bundles: {1} (not in keyRouting.pulsarNamespaces: the broker default defaultNumberOfNamespaceBundles = 4 is shown).', model.namespace, model.layout.size)) +
          ' ' +
          l10n.t('The broker hashes each topic’s full name (each partition is a topic of its own) with CRC-32 and serves it from the bundle holding that hash.'),
      ),
      renderNamespace(model, size, width, this.#ui),
    );
    const marks = model.marks.slice(0, 64);
    this.#main.append(
      h(
        'table',
        { class: 'ns-table', 'aria-label': l10n.t('partition topics and their bundles') },
        h('thead', {}, h('tr', {}, ...[l10n.t('topic'), l10n.t('hash'), l10n.t('bundle'), l10n.t('keys')].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ...marks.map((m) =>
            h(
              'tr',
              { class: m.keys.length ? 'hit' : '', 'data-partition': m.partition ?? '' },
              h('td', {}, m.name),
              h('td', { class: 'hash' }, `${hex8(m.hash)} (${m.hash})`),
              h('td', {}, model.layout.bundle(m.bundle).name),
              h('td', {}, m.keys.map((n) => `#${n}`).join(' ')),
            ),
          ),
        ),
      ),
    );
    if (model.marks.length > marks.length || model.unmarked) {
      this.#main.append(h('p', { class: 'muted' }, l10n.t('{0} more partitions not listed.', model.marks.length - marks.length + model.unmarked)));
    }
    const posInput = h('input', { id: 'split-positions', type: 'text', value: text, placeholder: 'e.g. 0x20000000, 0x30000000', 'aria-label': 'positions for specified_positions_divide', maxlength: 2000 });
    const setPos = h('button', { type: 'button', id: 'split-positions-set' }, l10n.t('Preview'));
    setPos.addEventListener('click', () => {
      this.#state.positions[topic.name] = posInput.value;
      this.#save();
      this.render();
    });
    this.#main.append(
      h('h3', {}, l10n.t('Split preview for bundle {0}', model.focus.name)),
      h('p', { class: 'muted' }, `Owned topics used: ${model.owned.length} (${model.owned.slice(0, 5).map((o) => shortTopic(o.name)).join(', ')}${model.owned.length > 5 ? ', …' : ''}).`),
      ...(model.unhashed.length
        ? [h('p', { class: 'muted', 'data-summary': 'unhashed' }, l10n.t('Not hashed (too many partition topics to draw each): {0}.', model.unhashed.map((u) => l10n.t('{0} with {1} partitions', shortTopic(u.topic), thousands(u.partitions))).join(', ')))]
        : []),
      h('div', { class: 'row' }, h('label', { for: 'split-positions' }, l10n.t('Positions')), posInput, setPos, typeof positions === 'string' ? h('span', { class: 'error' }, positions) : null),
      h(
        'table',
        { class: 'split-table', 'aria-label': l10n.t('split preview per algorithm') },
        h('thead', {}, h('tr', {}, ...['algorithm', 'split at', 'how'].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ...model.splits.map((s) =>
            h(
              'tr',
              { 'data-algorithm': s.algorithm },
              h('td', {}, h('code', {}, s.algorithm)),
              h('td', { class: 'positions' }, s.skipped ? s.skipped : s.error ? `the broker throws: ${s.error}` : s.positions ? s.positions.map(hex8).join(', ') + (s.refusal ? ` (refused: ${s.refusal})` : '') : 'no split'),
              h('td', { class: 'muted' }, s.note),
            ),
          ),
        ),
      ),
    );
  }

  #whatIfView(topic: TopicConfig, width: number): void {
    const ws = this.#state.whatIf[topic.name] ?? { events: [], cursor: 0 };
    const applied = ws.events.slice(0, ws.cursor);
    const model = this.models.whatIf(topic.name, applied);
    if (!model) return;
    // In the step's task where the last note took little (NOTE_IN_STEP_MS), else after the picture.
    const note = this.models.orderingNote(topic.name, applied, this.models.noteFitsStep(topic.name));
    const zoomKey = `${topic.name}|whatif`;
    const space = model.before.selector?.segments.space;
    const update = (next: { events: TopologyEvent[]; cursor: number }) => {
      this.#state.whatIf[topic.name] = next;
      this.#applyStatus.delete(topic.name);
      this.#stepTaken();
    };
    const spec: WhatIfSpec = {
      topic: topic.name,
      model,
      state: ws,
      width,
      window: space ? this.#zoomOf(zoomKey, space) : undefined,
      note,
      applyStatus: this.#applyStatus.get(topic.name) ?? '',
      ui: this.#ui,
      ...this.#stepHandlers(ws, update),
      onClear: () => update({ events: [], cursor: 0 }),
      onWindow: (w) => this.#setZoom(zoomKey, w),
      onError: (m) => this.#fail(m),
      bar: (spec) => this.#bar(spec, zoomKey, this.#whatIfBars),
      partitions: (spec) => this.#partitionsChart(spec),
      onApply: () => {
        const requestId = this.#nextRequest++;
        const msg: ApplyToSettingsMessage = { type: 'applyToSettings', requestId, topic: topic.name };
        if (model.apply.partitions !== topic.partitions) msg.partitions = model.apply.partitions;
        if (model.apply.consumers) msg.consumers = model.apply.consumers;
        this.#pendingApply.set(requestId, topic.name);
        this.#applyStatus.set(topic.name, l10n.t('Waiting for your confirmation…'));
        this.#post(msg);
        this.render();
      },
    };
    const kept = this.#editors.get(topic.name);
    let editor = kept;
    if (editor?.fits(model)) editor.sync(spec);
    else this.#editors.set(topic.name, (editor = whatIfEditor(spec)));
    // Kept in place by a step's redraw (`stepTaken`), which starts after it.
    if (kept && kept !== editor && kept.element.parentNode === this.#main) kept.element.replaceWith(editor.element);
    if (editor.element.parentNode !== this.#main) this.#main.append(editor.element);
    this.#main.append(renderWhatIf(spec));
    if (note === undefined) {
      // After this paint, before anything else deferred: the ordering simulation.
      this.#later(() => {
        // Before the first step: what it needs first, the topology and its segment table, where
        // the warm-up has not built them yet (a lookup where it has).
        if (!applied.length) this.models.warmUp(topic.name, 0);
        const computed = this.models.orderingNote(topic.name, applied, true);
        const slot = document.getElementById('whatif-ordering');
        if (slot && computed !== undefined) slot.replaceWith(renderOrderingNote(computed));
        // Opened before the idle warm-up's throwaway steps ran: three of them now (two joins and a
        // leave), before the tab is done, so that the first real step runs code V8 has compiled.
        // Cold, that step took 85-95 ms on a 3.0 ring of 100,000 points (warm: 25-40); after two
        // rounds 33-53, after three 38-49 (and 43-48 on the reported 3.0 ring, from 63-68). Not
        // after a step of the group shown, which does not draw the page again: that step ran it.
        const group = this.#chosenGroup(topic.name)?.name;
        const groupStep = group !== undefined && !!this.#state.groupWhatIf?.[groupWhatIfKey(topic.name, group)]?.cursor;
        if (!applied.length && !groupStep) for (let round = (this.models.stepsWarmed.get(topic.name) ?? 0) + 1; round <= 3; round++) this.#warmRound(topic.name, round, group);
      }, true);
    }
    // And the rebuild from the settings "Apply" would write (it connects every consumer again: a
    // whole ring of 100,000 points).
    if (model.applyCheck) {
      this.#checkWhenIdle<number | null>(model.applyCheck, null, (share) => {
        model.applyDiffers = share;
        delete model.applyCheck;
        document.getElementById('whatif-apply-differs')?.replaceWith(renderApplyDiffers(share));
      });
    }
    if (model.movedFraction !== null) this.#ui.announce(`What-if: ${pct(model.movedFraction)} of the key hashes move.`);
    if (topic.system === 'kafka') this.#groupWhatIfView(topic);
  }

  /** Step, undo and redo over a what-if's steps (a topic's events or a group's), the same for both editors. */
  #stepHandlers<E>(ws: { events: E[]; cursor: number }, update: (next: { events: E[]; cursor: number }) => void) {
    return {
      onStep: (e: E) => {
        if (ws.cursor >= MAX_STEPS) return this.#fail(l10n.t('At most {0} steps.', MAX_STEPS));
        update({ events: [...ws.events.slice(0, ws.cursor), e], cursor: ws.cursor + 1 });
      },
      onUndo: () => update({ events: ws.events, cursor: Math.max(0, ws.cursor - 1) }),
      onRedo: () => update({ events: ws.events, cursor: Math.min(ws.events.length, ws.cursor + 1) }),
    };
  }

  /**
   * A Kafka topic's group what-if, under the topic's own: members join or leave, the partitions
   * grow. Drawn into a part of its own, which a group step draws again alone (`groupStepTaken`):
   * the topic's what-if above it does not depend on the group's steps.
   */
  #groupWhatIfView(topic: TopicConfig): void {
    const part = h('section', { class: 'group-whatif' });
    this.#main.append(part);
    this.#groupPart = part;
    this.#drawGroupWhatIf(topic, part, false);
  }

  /** The group's what-if into `part`: all of it, or (`afterEditor`) what follows its kept editor. */
  #drawGroupWhatIf(topic: TopicConfig, part: HTMLElement, afterEditor: boolean): void {
    const chosen = this.#chosenGroup(topic.name);
    if (!chosen) return;
    const base = this.models.group(topic.name, chosen.name);
    if (!base) return;
    const key = groupWhatIfKey(topic.name, chosen.name);
    const ws = this.#state.groupWhatIf?.[key] ?? { events: [], cursor: 0 };
    const applied = ws.events.slice(0, ws.cursor);
    const r = this.models.groupWhatIf(topic.name, chosen.name, applied);
    if (!r) return;
    if (!afterEditor) {
      part.setAttribute('aria-label', l10n.t('what-if for group {0}', base.group));
      part.append(this.#groupHeader(topic.name, chosen.name, chosen.names));
    }
    if ('error' in r) {
      part.append(h('p', { class: 'error', role: 'alert' }, l10n.t('The group what-if failed: {0}', r.error)));
      return;
    }
    const update = (next: { events: string[]; cursor: number }) => {
      this.#state.groupWhatIf = { ...(this.#state.groupWhatIf ?? {}), [key]: next };
      this.#applyStatus.delete(key);
      this.#groupStepTaken(topic, key);
    };
    const spec: GroupWhatIfSpec = {
      base,
      after: r.after,
      result: r.result,
      events: ws.events,
      cursor: ws.cursor,
      ...this.#stepHandlers(ws, update),
      onError: (m) => this.#fail(m),
      onApply: () => {
        const requestId = this.#nextRequest++;
        const members = r.after.members.map((m) => {
          const subs = r.memberTopics.get(m.id);
          return subs ? { id: m.id, topics: subs } : { id: m.id };
        });
        const msg: ApplyGroupMessage = { type: 'applyGroupToSettings', requestId, group: chosen.name, members };
        if (r.after.partitions !== base.partitions) {
          msg.topic = topic.name;
          msg.partitions = r.after.partitions;
        }
        this.#pendingApply.set(requestId, key);
        this.#applyStatus.set(key, l10n.t('Waiting for your confirmation…'));
        this.#post(msg);
        this.render();
      },
    };
    let editor = this.#groupEditors.get(key);
    if (editor) editor.sync(spec);
    else this.#groupEditors.set(key, (editor = groupWhatIfEditor(spec)));
    if (!afterEditor) part.append(h('h3', {}, l10n.t('Rebalance what-if: group {0}', base.group)), editor.element);
    // Whether Apply gives the group other owners (it forms the group again).
    const differs = appliesAStep(r.result) && r.applyDiffers;
    const slot = groupApplyDiffers(differs ? null : 0);
    if (differs) this.#checkWhenIdle(differs, 0, (n) => slot.replaceWith(groupApplyDiffers(n)));
    part.append(
      // Under the editor's Apply button, where it is read before Apply.
      slot,
      renderGroupWhatIf(spec),
      h('p', { id: 'group-whatif-apply-status', role: 'status' }, this.#applyStatus.get(key) ?? ''),
      h('h4', {}, l10n.t('Members after the what-if')),
      membersTable(r.after, null, 'members-after-table'),
    );
  }

  /**
   * After a group what-if step (or undo, redo): what follows its editor, in its part of the page,
   * drawn again in place; or the whole step's redraw (`stepTaken`) where that part is not the one
   * shown or an error shown above it must go.
   */
  #groupStepTaken(topic: TopicConfig, key: string): void {
    const part = this.#groupPart;
    const editor = this.#groupEditors.get(key)?.element;
    if (this.#error !== '' || this.#shown?.kind !== 'whatif' || this.#shown.topic !== topic.name || !part?.isConnected || editor?.parentNode !== part) return this.#stepTaken();
    this.#save();
    this.#inPlace(() => {
      while (part.lastChild && part.lastChild !== editor) part.lastChild.remove();
      try {
        this.#drawGroupWhatIf(topic, part, true);
      } catch (e) {
        part.append(this.#viewFailed(e));
      }
    });
  }

  /**
   * After a what-if step (or undo, redo, clear): the What-if view drawn again below its editor,
   * which stays in the page as it is (see `WhatIfEditor`); the rest of the page (keys, tabs) does
   * not depend on the steps. The whole page is drawn where the view is not the one shown, or an
   * error shown above it must go.
   */
  #stepTaken(): void {
    const hadError = this.#error !== '';
    this.#error = '';
    this.#save();
    const topic = this.models.shown.topics.find((t) => t.name === this.#shown?.topic);
    const editor = topic && this.#editors.get(topic.name);
    if (hadError || !topic || !editor || this.#shown?.kind !== 'whatif' || this.#main.firstChild !== editor.element) return this.render();
    const width = this.#width();
    this.#redraw(() => {
      while (this.#main.lastChild && this.#main.lastChild !== editor.element) this.#main.lastChild.remove();
      this.#renderViewSafely(topic, 'whatif', width);
    });
  }

  #fail(message: string): void {
    this.#error = message;
    this.render();
  }
}

/** Runs `f` when the page is next idle, within `timeout` ms; after a short timer where there are no idle callbacks (Safari). */
function onIdle(f: (deadline?: IdleDeadline) => void, timeout: number): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback((deadline) => f(deadline), { timeout });
  else setTimeout(() => f(), 50);
}

/** The hatch patterns the charts fill unowned and moved ranges with (colours set in CSS). */
function patterns(): SVGSVGElement {
  const hatch = (id: string, size: number, lineClass: string) =>
    svg(
      'pattern',
      { id, patternUnits: 'userSpaceOnUse', width: size, height: size, patternTransform: 'rotate(45)' },
      svg('line', { class: lineClass, x1: 1, y1: 0, x2: 1, y2: size }),
    );
  return svg('svg', { class: 'defs', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false' }, svg('defs', {}, hatch('hatch-unowned', 6, 'hatch-line'), hatch('hatch-moved', 7, 'hatch-moved-line')));
}

/** Split positions as typed: Long.decode numbers separated by commas or spaces. */
function parsePositions(text: string): number[] | string | null {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '');
  if (parts.length === 0) return null;
  const out: number[] = [];
  for (const p of parts) {
    const v = javaLongDecode(p);
    if (typeof v === 'string') return `${p}: ${v}`;
    if (v < 0n || v > 0xffffffffn) return `${p}: outside 0x00000000..0xffffffff`;
    out.push(Number(v));
  }
  return out;
}

