/**
 * What a broker reported about a topic (the settings' `observed` block, as the host's engine reads
 * it: `observedView`, sent in the state message): the "observed at ..." badge, the reported
 * layout next to the one the configured connection order predicts (equal, or the runs where they
 * differ and why), the draining hashes with the consumers holding them, and a Kafka group's
 * observed owners.
 */
import type { KafkaObservedView } from '../../engine/observed/view';
import { ownerRuns, spanOf, type PanelPulsarObserved, type PartitionSpan } from '../../shared/view/observedPanel';
import { h } from '../dom';
import { thousands } from '../format';
import { l10n } from '../l10n';
import { pagedTable } from './pagedTable';

export function observedBadge(at: string | undefined, current: boolean): HTMLElement {
  return h(
    'span',
    {
      class: `badge observed-badge${current ? '' : ' stale'}`,
      'data-observed': at ?? '',
      'data-current': String(current),
      title: current ? l10n.t('Routes read what the broker reported.') : l10n.t('A what-if step changed the consumers since the report: routes come from the engine again.'),
    },
    at ? l10n.t('observed at {0}', at) : l10n.t('observed'),
    current ? '' : ` ${l10n.t('(changed since)')}`,
  );
}

function where(p: PartitionSpan): string {
  const s = spanOf(p);
  return s.kind === 'none' ? '' : s.kind === 'one' ? l10n.t('partition {0}: ', s.first) : l10n.t('partitions {0}-{1}: ', s.first, s.last);
}

/** The comparison with the configured order's prediction and the draining hashes, per group. */
export function renderPulsarObserved(view: PanelPulsarObserved): HTMLElement {
  const box = h('section', { class: 'observed', 'aria-label': l10n.t('the state the broker reported') }, h('h3', {}, l10n.t('Reported by the broker')));
  view.groups.forEach((g, i) => {
    const at = where(g.partitions);
    const p = g.predicted;
    const attrs = { id: `observed-predicted-${i}`, 'data-equal': String(p.equal), 'data-size': p.size, 'data-runs': p.runs.length + p.more };
    if (p.equal) {
      box.append(h('p', { class: 'muted', ...attrs }, at, l10n.t('the reported layout equals the one the configured connection order predicts.')));
    } else {
      const { runs, more } = p;
      box.append(
        h('p', { class: 'warning', ...attrs }, at, l10n.t('the reported layout differs from the configured order’s prediction on {0} hash values in {1} runs: {2}', thousands(p.size), runs.length + more, p.reason)),
        h(
          'table',
          { class: 'observed-diff', id: `observed-diff-${i}`, 'aria-label': l10n.t('where the report and the prediction differ') },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, l10n.t('hash range')), h('th', { scope: 'col' }, l10n.t('reported')), h('th', { scope: 'col' }, l10n.t('predicted')))),
          h(
            'tbody',
            {},
            ...runs.map((r) => h('tr', { 'data-start': r.start, 'data-end': r.end }, h('td', { class: 'hash' }, `${r.start}-${r.end}`), h('td', {}, r.reported || l10n.t('nobody')), h('td', {}, r.predicted || l10n.t('nobody')))),
          ),
        ),
        ...(more ? [h('p', { class: 'muted' }, l10n.t('and {0} more runs', more))] : []),
      );
    }
    for (const a of g.assumptions) box.append(h('p', { class: 'muted' }, at, a));
    if (!g.model.equal) box.append(h('p', { class: 'warning', 'data-model-equal': 'false' }, at, l10n.t('the ring rebuilt for what-if steps differs from the report on {0} hash values: {1}', thousands(g.model.size), g.model.reason)));
    // Paged: a 4.x report can list thousands of draining hashes, each partition its own.
    const d = g.draining;
    if (d.length)
      box.append(
        pagedTable({
          id: `observed-draining-${i}`,
          label: l10n.t('{0}draining hashes', at),
          columns: [l10n.t('draining hash'), l10n.t('held by'), l10n.t('unacknowledged'), l10n.t('blocked deliveries')],
          count: d.length,
          row: (r) => [d[r].hash, d[r].consumer, d[r].unackMsgs, d[r].blockedAttempts],
          rowAttrs: (r) => ({ 'data-hash': d[r].hash, 'data-consumer': d[r].consumer }),
          cellClass: ['hash', '', 'num', 'num'],
          className: 'draining-table',
        }).element,
      );
  });
  return box;
}

/** The observed owners of the shown group (runs of partitions), or null if it reported none. */
export function renderKafkaObserved(view: KafkaObservedView, group: string | null): HTMLElement | null {
  const g = view.groups.find((x) => x.group === group) ?? (group === null ? view.groups[0] : undefined);
  if (!g) return null;
  // Runs of partitions, paged: an assignor that deals partitions round makes a run of each.
  const runs = ownerRuns(g.owners);
  const title = l10n.t('Owners the broker reported for {0}', g.group);
  return h(
    'section',
    { class: 'observed', 'data-group': g.group, 'aria-label': l10n.t('the owners the broker reported') },
    h('div', { class: 'row' }, observedBadge(g.at, g.current)),
    h('h3', {}, title),
    pagedTable({
      id: 'observed-owners',
      label: title,
      columns: [l10n.t('partitions'), l10n.t('observed owner')],
      count: runs.length,
      row: (i) => [runs[i].first === runs[i].last ? runs[i].first : `${runs[i].first}-${runs[i].last}`, runs[i].owner ?? l10n.t('nobody')],
      rowAttrs: (i) => ({ 'data-first': runs[i].first, 'data-last': runs[i].last, 'data-owner': runs[i].owner ?? '' }),
      cellClass: ['num'],
    }).element,
  );
}
