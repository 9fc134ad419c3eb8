/** The tables under the charts: keys with their routes, and the consumers with their shares. */
import type { SegmentsModel } from '../../shared/view/segments';
import type { KeyMarker, TopicViewModel } from '../../shared/view/topicView';
import { colourClass, h } from '../dom';
import { pct, range } from '../format';
import { keyText } from '../../shared/keyText';
import { l10n } from '../l10n';

export function keysTable(v: TopicViewModel): HTMLElement | null {
  if (v.markers.length === 0) return h('p', { class: 'muted' }, l10n.t('No keys yet: add one above, or run Key Routing: Show Route in an editor.'));
  const pulsar = v.system === 'pulsar';
  const sel = v.selector;
  // The producer client's hash: Kafka's depends on the topic's partitioner (none for a client that
  // ignores keys); Pulsar's routes carry it for the C++ schemes and for topics with producers.
  const clientHash = v.partitions?.hash ?? null;
  const showClientHash = clientHash !== null && (!pulsar || v.markers.some((m) => m.route.hash !== undefined));
  const showBytes = v.markers.some((m) => m.route.keyHex !== undefined);
  const head = [
    '#',
    l10n.t('key'),
    ...(showBytes ? [l10n.t('serialized key')] : []),
    ...(v.partitions ? [l10n.t('partition')] : []),
    ...(showClientHash ? [l10n.t('{0} hash', clientHash)] : []),
    ...(pulsar ? [l10n.t('sticky key hash')] : []),
    ...(pulsar && sel ? [l10n.t('slot'), l10n.t('consumer'), l10n.t('range')] : []),
    ...(sel?.ring ? [l10n.t('ring point'), l10n.t('arc')] : []),
  ];
  const row = (m: KeyMarker) => {
    const r = m.route;
    const cells = [
      h('td', {}, h('span', { class: 'badge' }, String(m.n))),
      h('td', { class: 'key', title: m.label }, keyText(m.label)),
    ];
    if (r.error !== undefined) {
      // The serializer refused the key: nothing else is known about it.
      cells.push(h('td', { class: 'error', colspan: head.length - 2 }, r.error));
      return h('tr', { 'data-n': m.n, class: 'key-row' }, ...cells);
    }
    return h(
      'tr',
      { 'data-n': m.n, class: 'key-row' },
      ...cells,
      showBytes ? h('td', { class: 'bytes' }, r.keyHex ?? '–') : null,
      v.partitions ? h('td', { class: 'partition', title: r.note ?? '' }, r.partition === null ? `– (${r.note ?? l10n.t('no fixed partition')})` : String(r.partition)) : null,
      showClientHash ? h('td', { class: 'client-hash' }, r.hash === undefined ? '–' : String(r.hash)) : null,
      pulsar ? h('td', { class: 'hash' }, r.stickyKeyHash === undefined ? '–' : String(r.stickyKeyHash)) : null,
      pulsar && sel ? h('td', { class: 'slot' }, m.slot === null ? '–' : String(m.slot)) : null,
      pulsar && sel ? consumerCell(r) : null,
      pulsar && sel ? h('td', { class: 'range' }, range(r.range)) : null,
      sel?.ring ? h('td', { class: 'point' }, m.arc ? String(m.arc.to) : '–') : null,
      sel?.ring ? h('td', { class: 'arc' }, m.arc ? `${m.arc.length} hash${m.arc.length === 1 ? '' : 'es'}${m.arc.wraps ? ', wraps past the top' : ''}` : '–') : null,
    );
  };
  return h(
    'table',
    { class: 'keys-table', 'aria-label': l10n.t('keys and where they go') },
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...v.markers.map(row)),
  );
}

/** The key's consumer; where its hash still drains at another consumer (a 4.x report), that one and its unacknowledged messages. */
function consumerCell(r: KeyMarker['route'] & { observed?: true; draining?: { consumer: string; unackMsgs: number } }): HTMLElement {
  const d = r.draining;
  return h(
    'td',
    { class: `consumer${d ? ' draining' : ''}`, ...(d ? { 'data-draining': d.consumer } : {}), ...(r.observed ? { 'data-observed': 'true' } : {}) },
    r.consumer ?? l10n.t('nobody'),
    d ? h('span', { class: 'warning' }, ` (draining at ${d.consumer}: ${d.unackMsgs} unacknowledged)`) : null,
  );
}

/**
 * The key's partition under each producer client the topic lists (`producers`), a row per key,
 * with the keys on which they disagree marked in words (not by colour alone). Null where the
 * topic lists no producers.
 */
export function producersTable(v: TopicViewModel): HTMLElement | null {
  const names: string[] = [];
  for (const m of v.markers) for (const p of Object.keys(m.route.byProducer ?? {})) if (!names.includes(p)) names.push(p);
  if (names.length === 0) return null;
  const disagreeing = v.markers.filter((m) => m.route.disagree).length;
  const cell = (p: number | null | undefined) => (p === undefined ? '–' : p === null ? l10n.t('none fixed') : String(p));
  return h(
    'section',
    { class: 'producers', 'aria-label': 'the key under each producer client' },
    h('h3', {}, l10n.t('Producer clients')),
    h(
      'p',
      { class: disagreeing ? 'warning' : 'muted', 'data-disagree': disagreeing },
      disagreeing
        ? l10n.t('Keys the producers disagree on: {0} of {1}. The same key lands on different partitions, so per-key order and co-location break between them.', disagreeing, v.markers.length)
        : l10n.t('The producers agree on every key shown.'),
    ),
    h(
      'table',
      { class: 'producers-table', 'aria-label': 'partition of each key under each configured producer' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, l10n.t('key')), ...names.map((n) => h('th', { scope: 'col' }, n)), h('th', { scope: 'col' }, l10n.t('producers')))),
      h(
        'tbody',
        {},
        ...v.markers.map((m) =>
          h(
            'tr',
            { 'data-n': m.n, class: m.route.disagree ? 'producer-row disagree' : 'producer-row' },
            h('td', {}, h('span', { class: 'badge' }, String(m.n))),
            h('td', { class: 'key', title: m.label }, keyText(m.label)),
            ...names.map((n) => h('td', { class: 'partition', 'data-producer': n }, m.route.error !== undefined ? '–' : cell(m.route.byProducer?.[n]))),
            h('td', { class: 'verdict' }, m.route.error !== undefined ? m.route.error : m.route.disagree ? l10n.t('disagree') : l10n.t('agree')),
          ),
        ),
      ),
    ),
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
        h('span', { class: `swatch ${colourClass(o.color)}`, 'aria-hidden': 'true' }),
        h('span', { class: 'legend-name' }, o.ids.length ? o.label : l10n.t('unowned')),
        h('span', { class: 'legend-share' }, pct(o.share)),
      ),
    ),
    owners.length > max ? h('li', { class: 'legend-item muted' }, l10n.t('and {0} more', owners.length - max)) : null,
  );
}
