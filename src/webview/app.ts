/**
 * The routing panel: topic tabs, the keys with their legend, one view per aspect of the topic
 * (partitions, hash ranges, ring, namespace bundles, what-if), rendered from the engine's models.
 * Talks to the host only through the typed protocol.
 */
import type { TopologyEvent } from '../engine/events';
import type { TopicConfig } from '../engine/settings';
import { javaLongDecode } from '../engine/pulsar/namespaceBundles';
import type { AnalysisRunInfo, ApplyToSettingsMessage, FromWebviewMessage, KeyInput, ProblemInfo, ToWebviewMessage } from '../shared/protocol';
import { clampWindow, type ZoomWindow } from '../shared/view/segments';
import type { TopicViewModel } from '../shared/view/topicView';
import { h, keepUnchanged, svg } from './dom';
import { hex8, keyText, pct, shortTopic } from './format';
import { Models } from './model';
import { isKeyInput, MAX_KEYS, MAX_STEPS, sameKey, sanitizeState, type PanelState, type ViewKind } from './state';
import { l10n } from './l10n';
import { Ui } from './ui';
import { renderBar, type BarMarker } from './views/bar';
import { renderAnalysis } from './views/analysis';
import { renderNamespace } from './views/namespace';
import { renderPartitions } from './views/partitions';
import { renderRing } from './views/ring';
import { consumersLegend, keysTable } from './views/tables';
import { renderOrderingNote, renderWhatIf } from './views/whatIf';

export interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

const VIEW_LABELS: Record<ViewKind, string> = {
  partitions: l10n.t('Partitions'),
  ranges: l10n.t('Hash ranges'),
  ring: l10n.t('Ring'),
  namespace: l10n.t('Namespace'),
  whatif: l10n.t('What-if'),
  analysis: l10n.t('Analysis'),
};

export class App {
  private state: PanelState;
  private readonly models = new Models();
  private readonly ui = new Ui();
  private problems: ProblemInfo[] = [];
  private stale: string[] = [];
  private received = false;
  private nextRequest = 1;
  private applyStatus = new Map<string, string>();
  private error = '';
  private lastWidth = 0;
  private readonly main = h('main', { id: 'view', role: 'tabpanel' });
  /** Analyze Keys: the latest run, and its what-if runs per topic (host data, kept in memory only). */
  private analysis: { base?: AnalysisRunInfo; whatIf: Map<string, AnalysisRunInfo> } = { whatIf: new Map() };
  private exportStatus = '';
  private readonly pendingExport = new Set<number>();

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    this.state = sanitizeState(api.getState());
    this.models.setKeys(this.state.keys);
    root.append(this.ui.tooltip, this.ui.live);
    document.body.append(patterns());
    new ResizeObserver(() => {
      const w = this.width();
      if (Math.abs(w - this.lastWidth) > 8 && this.received) this.render();
    }).observe(document.body);
    this.render();
  }

  onMessage(msg: ToWebviewMessage): void {
    switch (msg.type) {
      case 'state':
        this.received = true;
        this.problems = Array.isArray(msg.problems) ? msg.problems : [];
        this.stale = Array.isArray(msg.stale) ? msg.stale : [];
        this.models.setSettings(msg.settings ?? { topics: [], namespaces: [] });
        this.addKeys(msg.keys);
        if (msg.focus?.topic) this.state.topic = msg.focus.topic;
        break;
      case 'showKeys':
        this.addKeys(msg.keys);
        if (msg.focus?.topic) this.state.topic = msg.focus.topic;
        break;
      case 'applyResult': {
        const topic = this.pendingApply.get(msg.requestId);
        this.pendingApply.delete(msg.requestId);
        if (topic === undefined) return;
        this.applyStatus.set(topic, msg.message);
        if (msg.outcome === 'applied') {
          // The settings now say what the steps did; the host sends them as a new state.
          delete this.state.whatIf[topic];
        }
        break;
      }
      case 'analysis':
        if (!this.onAnalysis(msg.run, msg.reveal === true)) return;
        break;
      case 'exportResult':
        if (!this.pendingExport.delete(msg.requestId)) return;
        this.exportStatus = msg.message;
        break;
    }
    this.save();
    this.render();
  }

  /** Keeps the run; true where the page must be drawn again (the Analysis view shows, or is revealed). */
  private onAnalysis(run: AnalysisRunInfo, reveal: boolean): boolean {
    if (!run.whatIf) {
      if (this.analysis.base && this.analysis.base.id > run.id) return false;
      if (this.analysis.base?.id !== run.id) {
        this.analysis.whatIf.clear();
        this.exportStatus = '';
      }
      this.analysis.base = run;
    } else {
      if (!this.analysis.base || run.whatIf.baseId !== this.analysis.base.id) return false;
      const prev = this.analysis.whatIf.get(run.whatIf.topic);
      if (prev && prev.id > run.id) return false;
      this.analysis.whatIf.set(run.whatIf.topic, run);
    }
    if (reveal) {
      for (const t of this.models.settings.topics) this.state.views[t.name] = 'analysis';
      if (this.state.topic === undefined && this.models.settings.topics.length) this.state.topic = this.models.settings.topics[0].name;
      return true;
    }
    // Redrawn only where it shows: other views (the what-if editor, say) keep what is typed in them.
    const topic = this.state.topic;
    return topic !== undefined && this.state.views[topic] === 'analysis';
  }

  private readonly pendingApply = new Map<number, string>();

  /** Keys from a route result go first (newest first), the panel's own follow. */
  private addKeys(keys: readonly KeyInput[] | undefined): void {
    const incoming = (keys ?? []).filter(isKeyInput);
    if (incoming.length === 0) return;
    const rest = this.state.keys.filter((k) => !incoming.some((n) => sameKey(n, k)));
    this.state.keys = [...incoming, ...rest].slice(0, MAX_KEYS);
    this.models.setKeys(this.state.keys);
  }

  private post(msg: FromWebviewMessage): void {
    this.api.postMessage(msg);
  }

  private save(): void {
    this.api.setState(this.state);
  }

  private width(): number {
    // Until the first view is attached, the root's width is the one the view will get (nothing
    // between them has padding); the body's is wider by its padding, and measuring that made the
    // first picture be drawn twice (the resize observer saw the real width and drew it again).
    const w = (this.main.isConnected ? this.main.clientWidth : this.root.clientWidth) || document.body.clientWidth || window.innerWidth;
    return Math.max(320, Math.floor(w) - 4);
  }

  // -------------------------------------------------------------------------------------------

  render(): void {
    const scrollY = window.scrollY;
    const active = document.activeElement?.id;
    this.ui.hideTip();
    const topics = this.models.settings.topics;
    const header = h('header', { class: 'top' }, h('h1', {}, l10n.t('Key Routing')));
    const body: HTMLElement[] = [];
    if (!this.received) {
      body.push(h('p', { class: 'muted' }, l10n.t('Waiting for the settings…')));
    } else if (topics.length === 0) {
      body.push(h('p', {}, l10n.t('No topics configured. Add one to keyRouting.topics in the workspace settings (Key Routing: Add Topic).')));
    }
    if (this.problems.length) body.push(this.problemsBox());
    if (this.error) body.push(h('p', { class: 'error', role: 'alert' }, this.error));
    const t0 = performance.now();
    const topology = this.models.topology();
    performance.measure('keyRouting:topology', { start: t0, end: performance.now() });
    if (topology.error) body.push(h('p', { class: 'error' }, topology.error));
    let topic: TopicConfig | undefined;
    if (topics.length) {
      topic = topics.find((t) => t.name === this.state.topic) ?? topics[0];
      this.state.topic = topic.name;
      header.append(this.topicTabs(topics, topic));
    }
    body.push(this.keysBox());
    this.main.replaceChildren();
    if (topic) {
      const views = this.viewsOf(topic);
      let kind = this.state.views[topic.name];
      if (!kind || !views.includes(kind)) kind = views[0];
      const viewTabs = this.viewTabs(topic, views, kind);
      this.main.setAttribute('aria-label', l10n.t('{0} of {1}', VIEW_LABELS[kind], topic.name));
      body.push(viewTabs, this.main);
      this.lastWidth = this.width();
      try {
        this.renderView(topic, kind);
      } catch (e) {
        this.main.append(h('p', { class: 'error' }, l10n.t('This view failed: {0}', (e as Error).message)));
        this.post({ type: 'webviewError', message: String((e as Error).stack ?? e).slice(0, 2000) });
      }
    }
    const app = h('div', { id: 'app' }, header, ...body);
    keepUnchanged(app, this.root);
    this.root.replaceChildren(app, this.ui.tooltip, this.ui.live);
    if (active) document.getElementById(active)?.focus();
    window.scrollTo(0, scrollY);
  }

  private problemsBox(): HTMLElement {
    return h(
      'details',
      { class: 'problems' },
      h('summary', {}, `${this.problems.length} settings problem${this.problems.length > 1 ? 's' : ''}${this.stale.length ? ` (${this.stale.join(', ')} shown with last good settings)` : ''}`),
      h('ul', {}, ...this.problems.slice(0, 20).map((p) => h('li', {}, h('code', {}, p.path), ` ${p.message}`))),
    );
  }

  private topicTabs(topics: TopicConfig[], current: TopicConfig): HTMLElement {
    // Kept as it is where unchanged (keepUnchanged): the listeners depend only on the topics and the selection, all in the markup.
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
      b.addEventListener('click', () => this.selectTopic(topics[i].name));
      b.addEventListener('keydown', (ev) => this.tabKeys(ev, tabs, i, (j) => this.selectTopic(topics[j].name)));
    });
    list.append(...tabs);
    return list;
  }

  private viewTabs(topic: TopicConfig, views: ViewKind[], current: ViewKind): HTMLElement {
    const list = h('div', { role: 'tablist', class: 'tabs view-tabs', 'aria-label': l10n.t('Views of {0}', topic.name), 'data-keep': 'view-tabs' });
    const tabs = views.map((v) =>
      h('button', { role: 'tab', type: 'button', id: `view-tab-${v}`, class: 'tab', 'aria-selected': v === current ? 'true' : 'false', 'aria-controls': 'view', tabindex: v === current ? 0 : -1, 'data-view': v }, VIEW_LABELS[v]),
    );
    tabs.forEach((b, i) => {
      b.addEventListener('click', () => this.selectView(topic.name, views[i]));
      b.addEventListener('keydown', (ev) => this.tabKeys(ev, tabs, i, (j) => this.selectView(topic.name, views[j])));
    });
    list.append(...tabs);
    return list;
  }

  /** Arrow keys, Home and End move along a tab list (the WAI-ARIA tabs pattern). */
  private tabKeys(ev: KeyboardEvent, tabs: HTMLElement[], i: number, select: (j: number) => void): void {
    const n = tabs.length;
    const j = ev.key === 'ArrowRight' ? (i + 1) % n : ev.key === 'ArrowLeft' ? (i - 1 + n) % n : ev.key === 'Home' ? 0 : ev.key === 'End' ? n - 1 : -1;
    if (j < 0) return;
    ev.preventDefault();
    select(j);
    document.getElementById(tabs[j].id)?.focus();
  }

  private selectTopic(name: string): void {
    this.state.topic = name;
    this.error = '';
    this.save();
    this.render();
  }

  private selectView(topic: string, view: ViewKind): void {
    this.state.views[topic] = view;
    this.error = '';
    this.save();
    this.render();
  }

  private viewsOf(t: TopicConfig): ViewKind[] {
    if (t.system === 'kafka') return ['partitions', 'whatif', 'analysis'];
    const out: ViewKind[] = [];
    const sub = t.subscription;
    const ring = sub && sub.keySharedMode === 'AUTO_SPLIT' && sub.consistentHashing;
    if (ring) out.push('ring');
    if (sub) out.push('ranges');
    if (t.partitions > 0) out.push('partitions');
    out.push('namespace');
    if (sub || t.partitions > 0) out.push('whatif');
    out.push('analysis');
    return out;
  }

  private keysBox(): HTMLElement {
    const box = h('section', { class: 'keys', 'aria-label': l10n.t('Keys') });
    const list = h('ol', { class: 'key-legend', 'aria-label': l10n.t('keys shown, numbered as on the charts') });
    this.models.keys.forEach((k, i) => {
      const remove = h('button', { type: 'button', class: 'icon', title: l10n.t('Remove key {0}', i + 1), 'aria-label': l10n.t('Remove key {0}', i + 1) }, '×');
      remove.addEventListener('click', () => {
        this.state.keys = this.state.keys.filter((x) => !sameKey(x, k.input));
        this.models.setKeys(this.state.keys);
        this.save();
        this.render();
      });
      list.append(
        h(
          'li',
          { class: `key-item${k.error ? ' invalid' : ''}`, 'data-n': i + 1 },
          h('span', { class: 'badge' }, String(i + 1)),
          h('span', { class: 'key', title: k.shown?.label ?? k.input.value }, keyText(k.shown?.label ?? k.input.value)),
          k.input.format === 'hex' ? h('span', { class: 'muted' }, ' (hex)') : null,
          k.error ? h('span', { class: 'error' }, ` ${k.error}`) : null,
          remove,
        ),
      );
    });
    const input = h('input', { id: 'key-input', type: 'text', placeholder: l10n.t('add a key'), 'aria-label': l10n.t('key to add'), maxlength: 4096 });
    const format = h('select', { id: 'key-format', 'aria-label': l10n.t('key format') }, h('option', { value: 'utf8' }, l10n.t('text')), h('option', { value: 'hex' }, l10n.t('hex bytes')));
    const add = h('button', { id: 'key-add', type: 'submit' }, l10n.t('Add key'));
    const form = h('form', { class: 'row', 'aria-label': l10n.t('add a key') }, input, format, add);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const value = input.value;
      if (value === '') return;
      const k: KeyInput = { format: format.value === 'hex' ? 'hex' : 'utf8', value: format.value === 'hex' ? value.replace(/\s+/g, '') : value };
      this.state.keys = [...this.state.keys.filter((x) => !sameKey(x, k)), k].slice(-MAX_KEYS);
      this.models.setKeys(this.state.keys);
      this.save();
      this.render();
      document.getElementById('key-input')?.focus();
    });
    box.append(h('h2', {}, l10n.t('Keys')), this.models.keys.length ? list : h('p', { class: 'muted' }, l10n.t('No keys yet.')), form);
    return box;
  }

  // -------------------------------------------------------------------------------------------

  private renderView(topic: TopicConfig, kind: ViewKind): void {
    // Timings for the benchmark (test/bench/panel.mjs): building the models with the engine, then
    // the view. `performance.measure` entries, visible in the webview's developer tools too.
    const t1 = performance.now();
    const v = this.models.view(topic.name);
    if (kind === 'whatif') {
      const ws = this.state.whatIf[topic.name];
      this.models.whatIf(topic.name, ws ? ws.events.slice(0, ws.cursor) : []);
    }
    const t2 = performance.now();
    performance.measure('keyRouting:viewModel', { start: t1, end: t2 });
    queueMicrotask(() => performance.measure('keyRouting:render', { start: t2, end: performance.now() }));
    if (!v) {
      this.main.append(h('p', { class: 'error' }, l10n.t('Topic {0} could not be modelled.', topic.name)));
      return;
    }
    const width = this.width();
    switch (kind) {
      case 'partitions':
        return this.partitionsView(v, width);
      case 'ranges':
        return this.rangesView(topic, v, width);
      case 'ring':
        return this.ringView(topic, v, width);
      case 'namespace':
        return this.namespaceView(topic, width);
      case 'whatif':
        return this.whatIfView(topic, width);
      case 'analysis':
        return this.analysisView(topic, width);
    }
  }

  private analysisView(topic: TopicConfig, width: number): void {
    const ws = this.state.whatIf[topic.name];
    const steps = ws ? ws.events.slice(0, ws.cursor) : [];
    const base = this.analysis.base;
    this.main.append(
      renderAnalysis({
        topic: topic.name,
        base,
        whatIf: this.analysis.whatIf.get(topic.name),
        steps,
        width,
        exportStatus: this.exportStatus,
        ui: this.ui,
        onCancel: (runId) => this.post({ type: 'cancelAnalysis', runId }),
        onExport: (runId, format) => {
          const requestId = this.nextRequest++;
          this.pendingExport.add(requestId);
          this.exportStatus = l10n.t('Choose where to save…');
          this.post({ type: 'exportAnalysis', requestId, runId, format });
          this.render();
        },
        onWhatIf: () => {
          if (!base || steps.length === 0) return;
          this.post({ type: 'analyzeWhatIf', requestId: this.nextRequest++, runId: base.id, topic: topic.name, events: steps });
        },
      }),
    );
    // The status line is redrawn with every partial result; the live region speaks only a change of state.
    const said = base ? `${base.id}:${base.status}` : '';
    if (base && said !== this.analysisAnnounced) this.ui.announce(`Analysis of ${base.source}: ${base.status}`);
    this.analysisAnnounced = said;
  }

  private analysisAnnounced = '';

  private zoomOf(key: string, space: readonly [number, number]): ZoomWindow {
    return clampWindow(this.state.zoom[key], space);
  }

  private setZoom(key: string, w: ZoomWindow): void {
    this.state.zoom[key] = w;
    this.save();
    this.render();
  }

  private partitionsView(v: TopicViewModel, width: number): void {
    const p = v.partitions!;
    this.main.append(
      h('p', { class: 'view-note' }, `${p.count} partitions. A keyed message goes to ${v.system === 'kafka' ? 'murmur2(key bytes) & 0x7fffffff % partitions (the Java client and every Java-compatible client)' : `the ${p.scheme} hash of the key, sign-safe modulo the partitions (the Java client's producer routing)`}.`),
      renderPartitions({
        id: 'partitions',
        label: `${v.name}: partitions`,
        count: p.count,
        width,
        marks: v.markers.map((m) => ({ n: m.n, label: m.label, partition: m.route.partition })),
        ui: this.ui,
      }),
    );
    const t = keysTable(v);
    if (t) this.main.append(t);
  }

  private selectorNote(v: TopicViewModel, topic: TopicConfig): string {
    const s = v.selector!;
    const sub = topic.system === 'pulsar' ? topic.subscription : undefined;
    const hash =
      s.brokerVersion === '4.0'
        ? s.algorithm === 'consistentHashing'
          ? 'the key hash is murmur3 % 65535 + 1'
          : `the key hash is murmur3 % ${sub?.hashRangeSize ?? 65536} (0 becomes 1)`
        : s.algorithm === 'consistentHashing'
          ? 'the key hash is the 31-bit murmur3 itself'
          : `the slot is murmur3 % ${sub?.hashRangeSize ?? 65536}`;
    const algo = s.algorithm === 'consistentHashing' ? `consistent hashing, ${sub?.replicaPoints ?? 100} points per consumer` : s.algorithm === 'autoSplit' ? 'AUTO_SPLIT hash ranges' : 'STICKY hash ranges';
    const stickyNote = s.algorithm === 'sticky' && s.brokerVersion === '4.0' ? ' The 4.x STICKY selector was not checked against the broker: it is modelled as the 3.x algorithm with the 4.x key hash.' : '';
    return `${algo}, broker ${s.brokerVersion}: ${hash}. ${s.consumers.length} consumer${s.consumers.length === 1 ? '' : 's'} connected.${stickyNote}`;
  }

  private markers(v: TopicViewModel): BarMarker[] {
    return v.markers.flatMap((k) => (k.slot === null ? [] : [{ n: k.n, label: k.label, value: k.slot, hash: k.route.stickyKeyHash ?? k.slot, consumer: k.route.consumer ?? null, arc: k.arc }]));
  }

  private rangesView(topic: TopicConfig, v: TopicViewModel, width: number): void {
    const s = v.selector!;
    const zoomKey = `${topic.name}|ranges`;
    this.main.append(
      h('p', { class: 'view-note' }, this.selectorNote(v, topic)),
      renderBar({
        id: 'ranges',
        label: `${v.name}: key hash ranges`,
        model: s.segments,
        window: this.zoomOf(zoomKey, s.segments.space),
        width,
        markers: this.markers(v),
        ring: s.ring,
        onWindow: (w) => this.setZoom(zoomKey, w),
        ui: this.ui,
      }),
      consumersLegend(s.segments),
    );
    const t = keysTable(v);
    if (t) this.main.append(t);
  }

  private ringView(topic: TopicConfig, v: TopicViewModel, width: number): void {
    const s = v.selector!;
    const zoomKey = `${topic.name}|ring`;
    const window = this.zoomOf(zoomKey, s.segments.space);
    const size = Math.min(460, width);
    const markers = this.markers(v);
    this.main.append(
      h('p', { class: 'view-note' }, this.selectorNote(v, topic), ' Each key travels clockwise from its hash to the next point; that point’s consumer gets it.'),
      h(
        'div',
        { class: 'chart ring-chart', 'data-chart': 'ring', tabindex: 0, role: 'group', 'aria-label': l10n.t('{0}: consistent-hashing ring; click to zoom the strip below', v.name) },
        renderRing({ label: `${v.name}: ring`, model: s.segments, ring: s.ring!, window, size, markers, onWindow: (w) => this.setZoom(zoomKey, w), ui: this.ui }),
      ),
      h('h3', {}, l10n.t('Zoomed strip')),
      renderBar({ id: 'detail', label: `${v.name}: ring points in the zoom window`, model: s.segments, window, width, markers, ring: s.ring, onWindow: (w) => this.setZoom(zoomKey, w), ui: this.ui }),
      consumersLegend(s.segments),
    );
    const t = keysTable(v);
    if (t) this.main.append(t);
  }

  private namespaceView(topic: TopicConfig, width: number): void {
    const text = this.state.positions[topic.name] ?? '';
    const positions = parsePositions(text);
    const model = this.models.namespace(topic.name, Array.isArray(positions) ? positions : null);
    if (!model) return;
    if ('error' in model) {
      this.main.append(h('p', { class: 'error' }, l10n.t('The topic name cannot be resolved: {0}', model.error)));
      return;
    }
    const size = Math.min(360, width);
    this.main.append(
      h(
        'p',
        { class: 'view-note' },
        `Namespace ${model.namespace}: ${model.layout.size} bundle${model.layout.size === 1 ? '' : 's'}${model.configured ? '' : ' (not in keyRouting.pulsarNamespaces: the broker default defaultNumberOfNamespaceBundles = 4 is shown)'}. ` +
          l10n.t('The broker hashes each topic’s full name (each partition is a topic of its own) with CRC-32 and serves it from the bundle holding that hash.'),
      ),
      renderNamespace(model, size, width, this.ui),
    );
    const marks = model.marks.slice(0, 64);
    this.main.append(
      h(
        'table',
        { class: 'ns-table', 'aria-label': l10n.t('partition topics and their bundles') },
        h('thead', {}, h('tr', {}, ...['topic', 'hash', 'bundle', 'keys'].map((t) => h('th', { scope: 'col' }, t)))),
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
      this.main.append(h('p', { class: 'muted' }, `${model.marks.length - marks.length + model.unmarked} more partitions not listed.`));
    }
    const posInput = h('input', { id: 'split-positions', type: 'text', value: text, placeholder: 'e.g. 0x20000000, 0x30000000', 'aria-label': 'positions for specified_positions_divide', maxlength: 2000 });
    const setPos = h('button', { type: 'button', id: 'split-positions-set' }, l10n.t('Preview'));
    setPos.addEventListener('click', () => {
      this.state.positions[topic.name] = posInput.value;
      this.save();
      this.render();
    });
    this.main.append(
      h('h3', {}, l10n.t('Split preview for bundle {0}', model.focus.name)),
      h('p', { class: 'muted' }, `Owned topics used: ${model.owned.length} (${model.owned.slice(0, 5).map((o) => shortTopic(o.name)).join(', ')}${model.owned.length > 5 ? ', …' : ''}).`),
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
              h('td', { class: 'positions' }, s.error ? `the broker throws: ${s.error}` : s.positions ? s.positions.map(hex8).join(', ') + (s.refusal ? ` (refused: ${s.refusal})` : '') : 'no split'),
              h('td', { class: 'muted' }, s.note),
            ),
          ),
        ),
      ),
    );
  }

  private whatIfView(topic: TopicConfig, width: number): void {
    const ws = this.state.whatIf[topic.name] ?? { events: [], cursor: 0 };
    const applied = ws.events.slice(0, ws.cursor);
    const model = this.models.whatIf(topic.name, applied);
    if (!model) return;
    const note = this.models.orderingNote(topic.name, applied);
    const zoomKey = `${topic.name}|whatif`;
    const space = model.before.selector?.segments.space;
    const update = (next: { events: TopologyEvent[]; cursor: number }) => {
      this.state.whatIf[topic.name] = next;
      this.applyStatus.delete(topic.name);
      this.error = '';
      this.save();
      this.render();
    };
    this.main.append(
      renderWhatIf({
        topic: topic.name,
        model,
        state: ws,
        width,
        window: space ? this.zoomOf(zoomKey, space) : undefined,
        note,
        applyStatus: this.applyStatus.get(topic.name) ?? '',
        ui: this.ui,
        onStep: (e) => {
          if (ws.cursor >= MAX_STEPS) return this.fail(l10n.t('At most {0} steps.', MAX_STEPS));
          update({ events: [...ws.events.slice(0, ws.cursor), e], cursor: ws.cursor + 1 });
        },
        onUndo: () => update({ events: ws.events, cursor: Math.max(0, ws.cursor - 1) }),
        onRedo: () => update({ events: ws.events, cursor: Math.min(ws.events.length, ws.cursor + 1) }),
        onClear: () => update({ events: [], cursor: 0 }),
        onWindow: (w) => this.setZoom(zoomKey, w),
        onError: (m) => this.fail(m),
        onApply: () => {
          const requestId = this.nextRequest++;
          const msg: ApplyToSettingsMessage = { type: 'applyToSettings', requestId, topic: topic.name };
          if (model.apply.partitions !== topic.partitions) msg.partitions = model.apply.partitions;
          if (model.apply.consumers) msg.consumers = model.apply.consumers;
          this.pendingApply.set(requestId, topic.name);
          this.applyStatus.set(topic.name, l10n.t('Waiting for your confirmation…'));
          this.post(msg);
          this.render();
        },
      }),
    );
    if (note === undefined) {
      // After this paint: the simulation connects the consumers once more.
      setTimeout(() => {
        const computed = this.models.orderingNote(topic.name, applied, true);
        const slot = document.getElementById('whatif-ordering');
        if (slot && computed !== undefined) slot.replaceWith(renderOrderingNote(computed));
      }, 0);
    }
    if (model.movedFraction !== null) this.ui.announce(`What-if: ${pct(model.movedFraction)} of the key hashes move.`);
  }

  private fail(message: string): void {
    this.error = message;
    this.render();
  }
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

