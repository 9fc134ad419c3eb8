/**
 * The Analysis view of a topic: the run's state (with Cancel and Export), keys per partition,
 * consumer and bundle as bar charts (share of keys next to share of the hash space, the even share
 * as a line), skew figures, the heaviest keys, the lines that gave no key, and the same figures
 * under the What-if view's steps. Every chart has the same figures as a table for screen readers.
 */
import { formatEvent, type TopologyEvent } from '../../engine/events';
import type { Skew } from '../../analyze/figures';
import type { AnalysisRunInfo } from '../../shared/protocol';
import { analysisTopicView, runStatusText, type AnalysisTopicView, type HeavyRow, type ShareBar, type ShareChart, type TopologyCharts } from '../../shared/view/analysisView';
import { h, px, svg } from '../dom';
import { pct, thousands } from '../format';
import { cut, keyText } from '../../shared/keyText';
import { l10n } from '../l10n';
import type { Ui } from '../ui';

export interface AnalysisSpec {
  topic: string;
  base: AnalysisRunInfo | undefined;
  /** The what-if run of this topic for the base run, if any. */
  whatIf: AnalysisRunInfo | undefined;
  /** The What-if view's applied steps on this topic. */
  steps: TopologyEvent[];
  width: number;
  /** What the last export said. */
  exportStatus: string;
  ui: Ui;
  onCancel(runId: number): void;
  onExport(runId: number, format: 'csv' | 'json'): void;
  onWhatIf(): void;
}

const count = (n: number): string => thousands(Math.round(n));
const ratio = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined ? '–' : v.toFixed(digits));

const UNIT_TITLES = { partition: l10n.t('Keys per partition'), consumer: l10n.t('Keys per consumer'), bundle: l10n.t('Keys per namespace bundle') } as const;
const UNIT_NAMES = { partition: l10n.t('partition'), consumer: l10n.t('consumer'), bundle: l10n.t('bundle') } as const;
/** A count of a chart's units ("6 partitions"). */
const units = (kind: keyof typeof UNIT_NAMES, n: number | string): string =>
  kind === 'partition' ? l10n.t('{0} partitions', n) : kind === 'consumer' ? l10n.t('{0} consumers', n) : l10n.t('{0} bundles', n);

export function renderAnalysis(spec: AnalysisSpec): HTMLElement {
  const root = h('section', { class: 'analysis', 'aria-label': l10n.t('analysis of a key population') });
  const base = spec.base;
  if (!base) {
    root.append(
      h('p', { id: 'analysis-empty' }, l10n.t('No analysis yet: run Key Routing: Analyze Keys on a file of keys (editor or explorer context menu, or the command palette).')),
    );
    return root;
  }
  root.append(runHeader(base, spec, 'analysis'));
  const r = base.result;
  if (!r) return root;
  root.append(problemsBox(base));
  const v = analysisTopicView(r, spec.topic);
  if (!v) {
    root.append(h('p', { class: 'muted' }, l10n.t('{0} was not configured when these keys were analysed; run Analyze Keys again to include it.', spec.topic)));
    return root;
  }
  root.append(chartsOf(v.before, v, spec, 'before'));
  root.append(heavyTable(v, base.status));
  root.append(whatIfSection(spec, base));
  return root;
}

function runHeader(run: AnalysisRunInfo, spec: AnalysisSpec, id: string): HTMLElement {
  const busy = run.status === 'running';
  const box = h('div', { class: 'analysis-head' });
  if (id === 'analysis') {
    box.append(h('h2', {}, ...l10n.parts('Analysis of {0}', h('span', { class: 'key' }, run.source))), h('p', { class: 'muted' }, l10n.t('Keys read as {0}; run in {1}.', run.inputLabel, run.where || '…')));
  }
  box.append(h('p', { id: `${id}-status`, class: `run-status ${run.status}`, role: 'status', 'aria-live': 'polite', 'data-status': run.status, 'data-result-status': run.result?.status ?? '' }, runStatusText(run)));
  const row = h('div', { class: 'row' });
  if (busy) {
    // data-run: the markup names the run it cancels, so the button can be kept while figures stream in (keepUnchanged).
    const cancel = h('button', { id: `${id}-cancel`, type: 'button', class: 'secondary', 'data-run': run.id, 'data-keep': `${id}-cancel` }, l10n.t('Cancel'));
    cancel.addEventListener('click', () => spec.onCancel(run.id));
    row.append(cancel);
  } else if (run.result) {
    for (const format of ['csv', 'json'] as const) {
      // A CSV row cannot say that its figures cover only part of the input (the host refuses it too).
      const partial = format === 'csv' && run.result.status !== 'complete';
      const title = partial ? l10n.t('The analysis did not finish: CSV cannot mark partial figures; export JSON (its status says so)') : l10n.t('Save these figures as {0}', format.toUpperCase());
      const b = h('button', { id: `${id}-export-${format}`, type: 'button', class: 'secondary', title, disabled: partial }, l10n.t('Export {0}…', format.toUpperCase()));
      b.addEventListener('click', () => spec.onExport(run.id, format));
      row.append(b);
    }
    if (id === 'analysis') row.append(h('span', { id: 'analysis-export-status', role: 'status' }, spec.exportStatus));
  }
  if (row.childNodes.length) box.append(row);
  return box;
}

function problemsBox(run: AnalysisRunInfo): HTMLElement {
  const r = run.result!;
  const box = h('div', { id: 'analysis-problems', class: 'analysis-problems', 'data-count': r.problems.count });
  const blank = r.input.blankLines > 0 ? ' ' + l10n.t('Empty lines skipped: {0}.', count(r.input.blankLines)) : '';
  if (r.problems.count === 0) {
    box.append(h('p', { class: 'muted' }, (r.status === 'complete' ? l10n.t('Every line gave a key ({0} lines, {1} keys).', count(r.input.lines), count(r.input.keys)) : l10n.t('Every line read so far gave a key ({0} lines, {1} keys).', count(r.input.lines), count(r.input.keys))) + blank));
  } else {
    const shown = r.problems.first.slice(0, 10);
    box.append(
      h('p', { class: 'warning' }, l10n.t('Lines that gave no key, skipped: {0}', count(r.problems.count)) + (r.problems.count > shown.length ? l10n.t('; the first {0}', shown.length) : '') + ':' + blank),
      h('ul', { class: 'problem-lines', 'aria-label': l10n.t('lines that gave no key') }, ...shown.map((p) => h('li', { 'data-line': p.line }, h('span', { class: 'line-no' }, l10n.t('line {0}', p.line)), `: ${p.message}`))),
    );
  }
  if (r.configProblems.length) {
    box.append(h('p', { class: 'warning' }, l10n.t('Left out, as the broker would refuse them: {0}.', r.configProblems.map((p) => `${p.path} (${p.message})`).join('; '))));
  }
  return box;
}

function chartsOf(c: TopologyCharts, v: AnalysisTopicView, spec: AnalysisSpec, side: 'before' | 'after'): HTMLElement {
  const box = h('div', { class: 'analysis-charts', 'data-side': side });
  const charts: ShareChart[] = [c.partitions, c.consumers, c.bundles].filter((x): x is ShareChart => x !== undefined);
  if (charts.length === 0) box.append(h('p', { class: 'muted' }, l10n.t('{0} has no partitions, consumers or bundles to count keys on.', v.topic)));
  if (c.producers) {
    const d = c.producers;
    box.append(h('p', { class: d.disagreeKeys ? 'warning' : 'muted', id: `${side}-producers`, 'data-keys': d.disagreeKeys, 'data-share': d.disagreeShare }, d.disagreeKeys ? l10n.t('The producers ({0}) disagree on {1} keys ({2}): they put them on different partitions.', d.names.join(', '), count(d.disagreeKeys), pct(d.disagreeShare)) : l10n.t('The producers ({0}) agree on every key.', d.names.join(', '))));
  }
  if (c.randomKeys) box.append(h('p', { class: 'muted', id: `${side}-random` }, l10n.t('{0} keys go to no fixed partition (the client picks at random or ignores the key) and are not in the partition figures.', count(c.randomKeys))));
  if (c.keyErrors) box.append(h('p', { class: 'warning', id: `${side}-key-errors` }, l10n.t("{0} keys cannot be serialized with the topic's key serializer and are left out.", count(c.keyErrors))));
  for (const chart of charts) {
    const id = `${side}-${chart.kind}`;
    const section = h('section', { class: 'share-section', 'data-section': id, 'aria-labelledby': `${id}-title` }, h('h3', { id: `${id}-title` }, side === 'after' ? l10n.t('{0} after the what-if', UNIT_TITLES[chart.kind]) : UNIT_TITLES[chart.kind]));
    section.append(renderShareChart(chart, id, spec.width, spec.ui), skewLine(chart, id));
    if (chart.kind === 'consumer' && c.unowned && c.unowned.keys > 0) {
      section.append(h('p', { class: 'warning', id: `${id}-unowned`, 'data-keys': c.unowned.keys }, l10n.t('{0} keys ({1}) have a hash no consumer owns: the broker would not deliver them until one does.', count(c.unowned.keys), pct(c.unowned.share))));
    }
    section.append(shareTable(chart, id));
    box.append(section);
  }
  return box;
}

const CHART_H = 150;
const TOP = 16;
const LABELS_H = 34;

/** Bars: share of keys (solid) next to share of the hash space (outlined), and the even share as a dashed line. */
export function renderShareChart(chart: ShareChart, id: string, width: number, ui: Ui): HTMLElement {
  const left = 58;
  const plotW = Math.max(120, width - left - 8);
  const n = chart.bars.length;
  const slot = plotW / Math.max(1, n);
  const hasHash = chart.bars.some((b) => b.hashShare !== null);
  const barW = Math.max(1, Math.min(28, (slot - 3) / (hasHash ? 2 : 1)));
  const plotH = CHART_H - TOP;
  const y = (share: number) => TOP + plotH - (share / chart.scaleMax) * plotH;
  const height = CHART_H + LABELS_H;
  const svgEl = svg('svg', { width: left + plotW + 8, height, class: 'share-chart', role: 'img', 'aria-label': chartLabel(chart) });
  // Axis: 0 and the top share.
  svgEl.append(
    svg('line', { class: 'axis-line', x1: left, y1: TOP + plotH, x2: left + plotW, y2: TOP + plotH }),
    svg('text', { class: 'axis', x: left - 4, y: TOP + plotH + 4, 'text-anchor': 'end' }, '0'),
    svg('text', { class: 'axis', x: left - 4, y: TOP + 4, 'text-anchor': 'end' }, pct(chart.scaleMax).replace(' ', '')),
    svg('line', { class: 'grid-line', x1: left, y1: TOP, x2: left + plotW, y2: TOP }),
  );
  const step = Math.max(1, Math.ceil(26 / slot));
  chart.bars.forEach((b, i) => {
    const x0 = left + i * slot + (slot - barW * (hasHash ? 2 : 1)) / 2;
    const g = svg('g', {
      class: `unit${b.hottest ? ' hottest' : ''}`,
      'data-unit': b.unit ?? b.label,
      'data-keys': b.keys,
      'data-key-share': b.keyShare,
      'data-hash-share': b.hashShare ?? '',
    });
    // A transparent slot behind the bars catches the pointer over the whole column.
    g.append(svg('rect', { class: 'slot', x: px(left + i * slot), y: 0, width: px(slot), height: CHART_H, fill: 'transparent' }));
    g.append(svg('rect', { class: `key-bar${b.hottest ? ' hot' : ''}`, x: px(x0), y: px(y(b.keyShare)), width: px(barW), height: px(Math.max(0, TOP + plotH - y(b.keyShare))) }));
    if (b.hashShare !== null) g.append(svg('rect', { class: 'hash-bar', x: px(x0 + barW), y: px(y(b.hashShare)), width: px(barW), height: px(Math.max(0, TOP + plotH - y(b.hashShare))) }));
    if (i % step === 0 || b.hottest) {
      g.append(svg('text', { class: `bar-label${b.hottest ? ' hot' : ''}`, x: px(left + (i + 0.5) * slot), y: CHART_H + 14, 'text-anchor': 'middle' }, cut(b.label, Math.max(4, Math.floor((slot * step) / 6.5)))));
    }
    g.addEventListener('mousemove', (ev) => ui.showTip(ev.clientX, ev.clientY, tipLines(chart, b)));
    svgEl.append(g);
  });
  // The even share: every unit the same number of keys.
  if (chart.units > 0) {
    const even = chart.grouping === 'none' ? 1 / chart.units : undefined;
    if (even !== undefined && even <= chart.scaleMax) {
      svgEl.append(svg('line', { class: 'even-line', x1: left, y1: px(y(even)), x2: left + plotW, y2: px(y(even)) }));
    }
  }
  svgEl.addEventListener('mouseleave', () => ui.hideTip());
  const legend = h(
    'ul',
    { class: 'legend share-legend', 'aria-hidden': 'true' },
    h('li', { class: 'legend-item' }, h('span', { class: 'swatch key-swatch' }), l10n.t('share of keys')),
    hasHash ? h('li', { class: 'legend-item' }, h('span', { class: 'swatch hash-swatch' }), l10n.t('share of the hash space')) : null,
    chart.grouping === 'none' ? h('li', { class: 'legend-item' }, h('span', { class: 'swatch even-swatch' }), l10n.t('even share')) : null,
    chart.grouping !== 'none' ? h('li', { class: 'legend-item muted' }, chart.grouping === 'top' ? l10n.t('the {0} busiest of {1}, the rest as one bar', chart.bars.length - 1, count(chart.units)) : l10n.t('{0}, {1} per bar', units(chart.kind, count(chart.units)), Math.ceil(chart.units / chart.bars.length))) : null,
  );
  return h('div', { class: 'chart', 'data-chart': id, tabindex: 0, role: 'group', 'aria-label': l10n.t('{0}: chart', UNIT_TITLES[chart.kind]) }, svgEl, legend);
}

function tipLines(chart: ShareChart, b: ShareBar): string[] {
  return [
    b.units > 1 ? `${b.label} (${units(chart.kind, b.units)})` : `${UNIT_NAMES[chart.kind]} ${b.label}`,
    l10n.t('{0} keys: {1} of the keys', count(b.keys), pct(b.keyShare)),
    ...(b.hashShare !== null ? [l10n.t('{0} of the hash space', pct(b.hashShare)) + (b.ratio !== null ? l10n.t('; {0}× its share', ratio(b.ratio)) : '')] : []),
    ...(b.hottest ? [l10n.t('the busiest')] : []),
  ];
}

function chartLabel(chart: ShareChart): string {
  const s = chart.skew;
  const head = `${UNIT_TITLES[chart.kind]}: ${units(chart.kind, count(chart.units))}`;
  const hot = chart.hottest ? l10n.t('; busiest {0} with {1} keys ({2})', chart.hottest.label, count(chart.hottest.keys), pct(chart.hottest.keyShare)) : '';
  const sk = s ? l10n.t('; max over mean {0}, coefficient of variation {1}', ratio(s.maxOverMean), ratio(s.cv, 3)) : '';
  return `${head}${hot}${sk}. ${l10n.t('The table below lists every figure.')}`;
}

function skewLine(chart: ShareChart, id: string): HTMLElement {
  const s: Skew | null = chart.skew;
  if (!s) return h('p', { class: 'muted' }, l10n.t('No skew figures: nothing to count on.'));
  return h(
    'p',
    { class: 'skew', id: `${id}-skew`, 'data-max-over-mean': s.maxOverMean ?? '', 'data-cv': s.cv ?? '', 'data-max': s.max, 'data-min': s.min },
    ...l10n.parts('Skew: max over mean {0}, coefficient of variation {1}', h('strong', {}, ratio(s.maxOverMean)), h('strong', {}, ratio(s.cv, 3))),
    ' · ' + l10n.t('keys per {0}: min {1}, mean {2}, max {3}', UNIT_NAMES[chart.kind], count(s.min), s.mean.toFixed(1), count(s.max)) + (chart.hottest ? ` (${chart.hottest.label})` : '') + '.',
  );
}

function shareTable(chart: ShareChart, id: string): HTMLElement {
  const rows = chart.bars;
  const hasHash = rows.some((b) => b.hashShare !== null);
  return h(
    'details',
    { class: 'share-table-box' },
    h('summary', {}, l10n.t('Figures as a table')),
    h(
      'table',
      { class: 'share-table', id: `${id}-table`, 'aria-label': l10n.t('{0}: figures', UNIT_TITLES[chart.kind]) },
      h('thead', {}, h('tr', {}, ...[UNIT_NAMES[chart.kind], l10n.t('keys'), l10n.t('share of keys'), ...(hasHash ? [l10n.t('share of the hash space'), l10n.t('keys / hash share')] : [])].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        ...rows.map((b) =>
          h(
            'tr',
            { 'data-unit': b.unit ?? b.label, class: b.hottest ? 'hit' : '' },
            h('td', {}, b.label),
            h('td', { class: 'num keys' }, count(b.keys)),
            h('td', { class: 'num' }, pct(b.keyShare)),
            hasHash ? h('td', { class: 'num' }, b.hashShare === null ? '–' : pct(b.hashShare)) : null,
            hasHash ? h('td', { class: 'num' }, ratio(b.ratio)) : null,
          ),
        ),
      ),
    ),
  );
}

function heavyTable(v: AnalysisTopicView, status: AnalysisRunInfo['status'], id = 'heavy'): HTMLElement {
  const hv = v.heavy;
  const box = h('section', { class: 'heavy', id, 'aria-labelledby': `${id}-title` }, h('h3', { id: `${id}-title` }, id === 'heavy' ? l10n.t('Heaviest keys') : l10n.t('Heaviest keys under the what-if')));
  if (hv.rows.length === 0) {
    box.append(h('p', { class: 'muted' }, l10n.t('No keys yet.')));
    return box;
  }
  const pulsar = v.system === 'pulsar';
  const hasConsumer = hv.rows.some((r) => r.consumer !== undefined);
  const hasAfter = hv.rows.some((r) => r.after !== undefined);
  const note = hv.exact
    ? status === 'complete'
      ? l10n.t('Exact counts.')
      : l10n.t('Exact counts of the part read.')
    : l10n.t('Counts are lower bounds (one pass over input that cannot be read twice, or stopped early); the upper bound is given where it differs.');
  const complete = !hv.complete
    ? l10n.t('Keys left out may occur as often as those listed.')
    : hv.unlistedMax === 0
      ? l10n.t('Every key that occurs is listed.')
      : l10n.t('No key left out occurs more often than this: {0}.', count(hv.unlistedMax));
  box.append(h('p', { class: 'muted' }, `${note} ${complete}`));
  const head = ['#', l10n.t('key'), l10n.t('count'), l10n.t('share'), ...(pulsar || v.before.partitions ? [l10n.t('partition')] : []), ...(hasConsumer ? [l10n.t('consumer')] : []), ...(hasAfter ? [l10n.t('after the what-if')] : [])];
  const row = (r: HeavyRow) =>
    h(
      'tr',
      { class: 'heavy-row', 'data-key': r.key, 'data-count': r.count },
      h('td', {}, String(r.rank)),
      h('td', { class: 'key', title: r.key }, keyText(r.format === 'hex' ? `0x${r.key}` : r.key), r.truncated ? h('span', { class: 'muted' }, ' ' + l10n.t('(cut)')) : null),
      h('td', { class: 'num' }, r.exact ? count(r.count) : `≥ ${count(r.count)}${r.maxCount !== undefined ? ` (≤ ${count(r.maxCount)})` : ''}`),
      h('td', { class: 'num' }, pct(r.keyShare)),
      pulsar || v.before.partitions ? h('td', { class: 'partition' }, r.partition === undefined || r.partition === null ? '–' : String(r.partition)) : null,
      hasConsumer ? h('td', { class: 'consumer' }, r.consumer === undefined ? '–' : (r.consumer ?? l10n.t('nobody'))) : null,
      hasAfter ? h('td', {}, r.after ? describeAfter(r) : '–') : null,
    );
  box.append(
    h(
      'table',
      { class: 'heavy-table', 'aria-label': l10n.t('the heaviest keys and where they go') },
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...hv.rows.map(row)),
    ),
  );
  return box;
}

function describeAfter(r: HeavyRow): string {
  const a = r.after!;
  const parts: string[] = [];
  if (a.partition !== null) parts.push(`p${a.partition}`);
  if (a.consumer !== undefined) parts.push(a.consumer ?? l10n.t('nobody'));
  const moved = a.partition !== (r.partition ?? null) || (a.consumer !== undefined && a.consumer !== r.consumer);
  return `${parts.join(' ') || '–'}${moved ? ` ${l10n.t('(moves)')}` : ''}`;
}

function sameSteps(a: readonly TopologyEvent[], b: readonly TopologyEvent[]): boolean {
  return a.length === b.length && a.every((e, i) => formatEvent(e) === formatEvent(b[i]));
}

function whatIfSection(spec: AnalysisSpec, base: AnalysisRunInfo): HTMLElement {
  const box = h('section', { class: 'analysis-whatif', 'aria-labelledby': 'analysis-whatif-title' }, h('h3', { id: 'analysis-whatif-title' }, l10n.t('Under the what-if')));
  const steps = spec.steps;
  const run = spec.whatIf;
  const stepsText = steps.map(formatEvent).join(' ');
  if (steps.length === 0 && !run) {
    box.append(h('p', { class: 'muted' }, l10n.t('Add steps in the What-if view (a consumer joins or leaves, the partition count changes) to see these figures after the change.')));
    return box;
  }
  if (steps.length > 0) {
    const go = h('button', { id: 'analysis-whatif-run', type: 'button', disabled: base.status !== 'complete' }, l10n.t('Analyse these keys under {0}', stepsText));
    go.addEventListener('click', spec.onWhatIf);
    const changed = run?.whatIf && !sameSteps(run.whatIf.events, steps) ? h('span', { class: 'warning' }, ' ' + l10n.t('The What-if view’s steps changed since the figures below.')) : null;
    box.append(h('div', { class: 'row' }, go, changed, base.status !== 'complete' ? h('span', { class: 'muted' }, ' ' + l10n.t('(once the analysis has finished)')) : null));
  }
  if (!run) return box;
  box.append(h('p', { class: 'muted' }, l10n.t('Steps: {0}', run.whatIf!.events.map(formatEvent).join(' '))), runHeader(run, spec, 'whatif'));
  const r = run.result;
  const v = r ? analysisTopicView(r, spec.topic) : undefined;
  if (!r || !v?.after) return box;
  const refused = (r.whatIf?.events ?? []).filter((e) => e.error !== undefined);
  if (refused.length) box.append(h('p', { class: 'error' }, ...refused.map((e) => `${e.event}: ${e.error}. `)));
  box.append(
    h('p', { id: 'whatif-moved-keys-share', 'data-moved': v.after.movedKeys, 'data-share': v.after.movedShare }, h('strong', {}, pct(v.after.movedShare)), ' ' + (v.system === 'kafka' ? l10n.t('of the keys ({0} of {1}) change partition.', count(v.after.movedKeys), count(v.keys)) : l10n.t('of the keys ({0} of {1}) change partition or consumer.', count(v.after.movedKeys), count(v.keys)))),
    skewComparison(v),
    chartsOf(v.after, v, spec, 'after'),
    heavyTable(v, run.status, 'whatif-heavy'),
  );
  return box;
}

function skewComparison(v: AnalysisTopicView): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const kind of ['partitions', 'consumers', 'bundles'] as const) {
    const b = v.before[kind];
    const a = v.after?.[kind];
    if (!b && !a) continue;
    rows.push(
      h(
        'tr',
        { 'data-kind': kind },
        h('th', { scope: 'row' }, kind),
        h('td', { class: 'num' }, b ? count(b.units) : '–'),
        h('td', { class: 'num' }, ratio(b?.skew?.maxOverMean)),
        h('td', { class: 'num' }, ratio(b?.skew?.cv, 3)),
        h('td', { class: 'num' }, a ? count(a.units) : '–'),
        h('td', { class: 'num' }, ratio(a?.skew?.maxOverMean)),
        h('td', { class: 'num' }, ratio(a?.skew?.cv, 3)),
      ),
    );
  }
  return h(
    'table',
    { class: 'skew-table', 'aria-label': l10n.t('skew before and after the what-if') },
    h('thead', {}, h('tr', {}, ...['', 'units before', 'max/mean', 'CV', 'units after', 'max/mean', 'CV'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows),
  );
}
