/** The tables under the charts: keys with their routes, and the consumers with their shares. */
import type { SegmentsModel } from '../../shared/view/segments';
import type { KeyMarker, TopicViewModel } from '../../shared/view/topicView';
import { h } from '../dom';
import { keyText, pct, range } from '../format';
import { l10n } from '../l10n';

export function keysTable(v: TopicViewModel): HTMLElement | null {
  if (v.markers.length === 0) return h('p', { class: 'muted' }, l10n.t('No keys yet: add one above, or run Key Routing: Show Route in an editor.'));
  const pulsar = v.system === 'pulsar';
  const sel = v.selector;
  const head = ['#', 'key', ...(v.partitions ? ['partition'] : []), pulsar ? 'sticky key hash' : 'murmur2 hash', ...(pulsar && sel ? ['slot', 'consumer', 'range'] : []), ...(sel?.ring ? ['ring point', 'arc'] : [])];
  const row = (m: KeyMarker) =>
    h(
      'tr',
      { 'data-n': m.n, class: 'key-row' },
      h('td', {}, h('span', { class: 'badge' }, String(m.n))),
      h('td', { class: 'key', title: m.label }, keyText(m.label)),
      v.partitions ? h('td', { class: 'partition' }, m.route.partition === null ? '–' : String(m.route.partition)) : null,
      h('td', { class: 'hash' }, String(pulsar ? m.route.stickyKeyHash : m.route.hash)),
      pulsar && sel ? h('td', { class: 'slot' }, m.slot === null ? '–' : String(m.slot)) : null,
      pulsar && sel ? h('td', { class: 'consumer' }, m.route.consumer ?? 'nobody') : null,
      pulsar && sel ? h('td', { class: 'range' }, range(m.route.range)) : null,
      sel?.ring ? h('td', { class: 'point' }, m.arc ? String(m.arc.to) : '–') : null,
      sel?.ring ? h('td', { class: 'arc' }, m.arc ? `${m.arc.length} hashes${m.arc.wraps ? ', wraps past the top' : ''}` : '–') : null,
    );
  return h(
    'table',
    { class: 'keys-table', 'aria-label': l10n.t('keys and where they go') },
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...v.markers.map(row)),
  );
}

export function consumersLegend(m: SegmentsModel, max = 40): HTMLElement {
  const owners = m.owners.filter((o, i) => i === 0 ? o.values > 0 : true);
  const shown = owners.slice(0, max);
  return h(
    'ul',
    { class: 'legend', 'aria-label': l10n.t('consumers and their share of the key hashes') },
    ...shown.map((o) =>
      h(
        'li',
        { class: 'legend-item', 'data-owner': o.label },
        h('span', { class: `swatch ${o.color < 0 ? 'unowned' : `c${o.color}`}`, 'aria-hidden': 'true' }),
        h('span', { class: 'legend-name' }, o.ids.length ? o.label : 'unowned'),
        h('span', { class: 'legend-share' }, pct(o.share)),
      ),
    ),
    owners.length > max ? h('li', { class: 'legend-item muted' }, `and ${owners.length - max} more`) : null,
  );
}
