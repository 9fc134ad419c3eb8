/**
 * A Kafka consumer group in the panel: the chooser, the members table (partitions, share of the
 * shown and analysed keys), the keys with their partition and member, and the group's what-if
 * editor (a member joins or leaves, the partitions grow) with the partitions and keys that move.
 * The numbers come from the engine's group (shared/view/groupView.ts).
 */
import type { GroupWhatIfResult } from '../../engine/kafka/groupWhatIf';
import { MAX_PARTITIONS } from '../../engine/settings';
import type { GroupViewModel, MemberKeys } from '../../shared/view/groupView';
import { h } from '../dom';
import { choiceInput } from './choiceInput';
import { pagedTable } from './pagedTable';
import { pct, thousands } from '../format';
import { keyText } from '../../shared/keyText';
import { l10n } from '../l10n';

export function groupChooser(groups: readonly string[], chosen: string, onChoose: (name: string) => void): HTMLElement {
  const select = h('select', { id: 'group-choice', 'aria-label': l10n.t('consumer group') }, ...groups.map((g) => h('option', { value: g, ...(g === chosen ? { selected: 'selected' } : {}) }, g)));
  select.addEventListener('change', () => onChoose((select as HTMLSelectElement).value));
  return h('div', { class: 'row' }, h('label', { for: 'group-choice' }, l10n.t('Consumer group')), select);
}

/** The line under the chooser: assignor, members, whether the owners were reported by the broker. */
export function groupNote(v: GroupViewModel): HTMLElement {
  const parts = [l10n.t('Partitions coloured by the member of group {0} that owns them (assignor {1}, members: {2}).', v.group, v.assignor, v.members.length)];
  if (v.unowned) parts.push(l10n.t('Partitions with no member: {0}.', thousands(v.unowned)));
  if (!v.owner) parts.push(l10n.t("{0} partitions are too many to colour one by one; the keys' members are listed below.", thousands(v.partitions)));
  return h(
    'div',
    { class: 'group-note' },
    v.observedAt !== null ? h('span', { class: 'badge observed-badge', 'data-observed': v.observedAt }, v.observedAt ? l10n.t('observed at {0}', v.observedAt) : l10n.t('observed')) : null,
    h('p', { class: 'view-note' }, parts.join(' ')),
    ...v.notes.map((n) => h('p', { class: 'warning' }, n)),
  );
}

export function membersTable(v: GroupViewModel, analysed: MemberKeys | null, id = 'members-table'): HTMLElement {
  const shownKeys = v.keys.filter((k) => k.member !== null).length;
  const head = [l10n.t('member'), l10n.t('partitions'), l10n.t('share of partitions'), l10n.t('shown keys'), ...(analysed ? [l10n.t('analysed keys'), l10n.t('share of analysed keys')] : [])];
  const label = l10n.t('members of group {0} with their partitions and keys', v.group);
  const cells = (i: number): Array<string | Node[]> => {
    const m = v.members[i];
    return [
      [h('span', { class: `swatch c${m.color % 12}`, 'aria-hidden': 'true' }), document.createTextNode(` ${m.id}`)],
      m.partitions === null ? '–' : thousands(m.partitions),
      m.partitions === null || v.partitions === 0 ? '–' : pct(m.partitions / v.partitions),
      shownKeys ? `${m.keys} (${pct(m.keys / shownKeys)})` : '0',
      ...(analysed ? [thousands(analysed.members[i].keys), pct(analysed.members[i].share)] : []),
    ];
  };
  const cellClass = ['', 'num partitions', 'num', 'num keys', ...(analysed ? ['num analysed', 'num'] : [])];
  const rowAttrs = (i: number) => ({ 'data-member': v.members[i].id });
  // Hundreds of members are thousands of cells, made again with each what-if step: a page at a time.
  const table = pagedTable({ id, label, columns: head, count: v.members.length, row: cells, rowAttrs, cellClass, rowHeaders: true, className: 'members-table', pageSize: MEMBERS_PAGE }).element;
  return h(
    'div',
    {},
    table,
    analysed?.skew
      ? h('p', { class: 'muted', id: `${id}-skew`, 'data-max-over-mean': analysed.skew.maxOverMean ?? '' }, l10n.t('Analysed keys per member: busiest {0} x the mean, coefficient of variation {1}.', analysed.skew.maxOverMean?.toFixed(2) ?? '–', analysed.skew.cv?.toFixed(3) ?? '–') + (analysed.unowned ? ` ${l10n.t('Keys on partitions with no member: {0}.', thousands(analysed.unowned))}` : ''))
      : null,
  );
}

/** Members a page of the members table lists. */
export const MEMBERS_PAGE = 50;

export function groupKeysTable(v: GroupViewModel): HTMLElement {
  return h(
    'table',
    { class: 'group-keys-table', 'aria-label': l10n.t('keys with their partition and member of group {0}', v.group) },
    h('thead', {}, h('tr', {}, ...['#', l10n.t('key'), l10n.t('partition'), l10n.t('member')].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...v.keys.map((k) =>
        h(
          'tr',
          { 'data-n': k.n, class: 'group-key-row' },
          h('td', {}, h('span', { class: 'badge' }, String(k.n))),
          h('td', { class: 'key', title: k.label }, keyText(k.label)),
          h('td', { class: 'partition' }, k.partition === null ? `– (${k.why ?? ''})` : String(k.partition)),
          h('td', { class: 'member' }, k.member ?? (k.partition === null ? '–' : l10n.t('nobody'))),
        ),
      ),
    ),
  );
}

export interface GroupWhatIfSpec {
  base: GroupViewModel;
  after: GroupViewModel;
  result: GroupWhatIfResult;
  events: readonly string[];
  cursor: number;
  onStep: (event: string) => void;
  onUndo: () => void;
  onRedo: () => void;
  onApply: () => void;
  onError: (message: string) => void;
}

/** The member owning partition `p` in a view, null for none. */
function ownerId(v: GroupViewModel, p: number): string | null {
  const i = v.owner![p];
  return i < 0 ? null : v.members[i].id;
}

/**
 * Partitions of the topic whose member differs between the two views (both listed one by one),
 * ascending: numbers only (a member joining a range group of 10,000 partitions moves nearly all).
 */
export function movedPartitions(base: GroupViewModel, after: GroupViewModel): Int32Array {
  if (!base.owner || !after.owner) return new Int32Array(0);
  const n = Math.min(base.owner.length, after.owner.length);
  const out = new Int32Array(n);
  let k = 0;
  for (let p = 0; p < n; p++) if (ownerId(base, p) !== ownerId(after, p)) out[k++] = p;
  return out.subarray(0, k);
}

/**
 * A group what-if's controls (a member joins or leaves, the partitions grow; undo, redo, Apply),
 * made once per topic and group and kept in the page from one step to the next, as the topic's
 * own editor is (see `WhatIfEditor`): a step draws again only what follows it, and what is typed
 * stays. Its list of the members to remove is patched by each step's change. Its buttons act on
 * the spec of the latest `sync`.
 */
export interface GroupWhatIfEditor {
  readonly element: HTMLElement;
  sync(spec: GroupWhatIfSpec): void;
}

export function groupWhatIfEditor(first: GroupWhatIfSpec): GroupWhatIfEditor {
  let spec = first;
  const member = h('input', { id: 'group-whatif-member', type: 'text', maxlength: 200, placeholder: l10n.t('member id'), 'aria-label': l10n.t('member id to add') });
  const topics = h('input', { id: 'group-whatif-topics', type: 'text', maxlength: 2000, placeholder: l10n.t('topics (optional, comma-separated)'), 'aria-label': l10n.t('its subscription: topics, comma-separated') });
  const add = h('button', { id: 'group-whatif-add', type: 'button' }, l10n.t('Member joins'));
  add.addEventListener('click', () => {
    const id = member.value.trim();
    const subs = topics.value.split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (id === '' || id.startsWith('+') || id.startsWith('-')) return spec.onError(l10n.t('Give the new member an id (not starting with + or -).'));
    // Taken: the fields are ready for the next member.
    member.value = '';
    topics.value = '';
    spec.onStep(subs.length ? `+${id}:${subs.join(',')}` : `+${id}`);
  });
  const remove = choiceInput('group-whatif-remove-id', {
    label: l10n.t('member to remove'),
    placeholder: l10n.t('member id'),
    missing: l10n.t('Type or pick the member that leaves.'),
    unknown: (id) => l10n.t('No member {0} is in the group after these steps.', id),
  });
  const removeBtn = h('button', { id: 'group-whatif-remove', type: 'button' }, l10n.t('Member leaves'));
  removeBtn.addEventListener('click', () => {
    const c = remove.chosen();
    if ('error' in c) return spec.onError(c.error);
    remove.input.value = '';
    spec.onStep(`-${c.id}`);
  });
  const count = h('input', { id: 'group-whatif-partitions', type: 'number', min: 1, 'aria-label': l10n.t('new partition count of the topic') });
  const grow = h('button', { id: 'group-whatif-set-partitions', type: 'button' }, l10n.t('Set partitions'));
  grow.addEventListener('click', () => {
    const n = Number(count.value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PARTITIONS) return spec.onError(l10n.t('The partition count must be an integer from 1 to {0}.', MAX_PARTITIONS));
    spec.onStep(`partitions=${n}`);
  });
  const undo = h('button', { id: 'group-whatif-undo', type: 'button' }, l10n.t('Undo'));
  undo.addEventListener('click', () => spec.onUndo());
  const redo = h('button', { id: 'group-whatif-redo', type: 'button' }, l10n.t('Redo'));
  redo.addEventListener('click', () => spec.onRedo());
  const apply = h('button', { id: 'group-whatif-apply', type: 'button' }, l10n.t('Apply to settings…'));
  apply.addEventListener('click', () => spec.onApply());
  const element = h(
    'div',
    { class: 'group-whatif-editor' },
    h('div', { class: 'row' }, h('label', { for: 'group-whatif-member' }, l10n.t('Add')), member, topics, add),
    h('div', { class: 'row' }, h('label', { for: 'group-whatif-remove-id' }, l10n.t('Remove')), remove.input, remove.list, removeBtn),
    h('div', { class: 'row' }, h('label', { for: 'group-whatif-partitions' }, l10n.t('Partitions')), count, grow),
    h('div', { class: 'row' }, undo, redo, apply),
  );
  const sync = (next: GroupWhatIfSpec): void => {
    spec = next;
    const current = next.after.members.map((m) => m.id);
    remove.set(current);
    removeBtn.disabled = current.length === 0;
    count.value = String(next.after.partitions);
    undo.disabled = next.cursor === 0;
    redo.disabled = next.cursor >= next.events.length;
    apply.disabled = !appliesAStep(next.result);
  };
  sync(first);
  return { element, sync };
}

/** Whether a group what-if has a step that was not refused: what Apply would write. */
export function appliesAStep(result: GroupWhatIfResult): boolean {
  return result.steps.some((s) => !s.error);
}

/**
 * The warning that Apply gives `n` partitions another member than the steps did (the settings keep
 * the members, not the steps: see `GroupWhatIf.applyDiffers`), nothing for none, or with null its
 * place while that is worked out.
 */
export function groupApplyDiffers(n: number | null): HTMLElement {
  const attrs = { id: 'group-whatif-apply-differs', ...(n === null ? { 'aria-busy': 'true' } : { 'data-count': n }) };
  return n ? h('p', { ...attrs, class: 'warning' }, l10n.t('Apply writes the members, not these steps: the group formed from them in one rebalance gives {0} partitions another member.', thousands(n))) : h('span', attrs);
}

/** What follows the group's editor: the steps, the partitions and keys that move, what the rebalance does. */
export function renderGroupWhatIf(spec: Pick<GroupWhatIfSpec, 'base' | 'after' | 'result'>): HTMLElement {
  const { base, after, result } = spec;
  const box = h('div', { class: 'group-whatif-result' });
  box.append(
    h(
      'ol',
      { id: 'group-whatif-steps', 'aria-label': l10n.t('applied steps') },
      // Past the listing's bound (the step's note) the moves are counted, not listed: their share.
      ...result.steps.map((s) => h('li', { class: s.error ? 'error' : '' }, s.event, ' — ' + (s.error ? l10n.t('refused: {0}', s.error) : l10n.t('partitions that change member: {0}', s.note ? pct(s.movedFraction) : s.moved.length) + (s.added.length ? l10n.t(', new: {0}', s.added.length) : '')))),
    ),
  );

  const moved = movedPartitions(base, after);
  // Not counted where the topic's partitions are too many to list (`owner` null).
  if (base.owner) {
    box.append(
      h('p', { id: 'group-whatif-moved-partitions', 'data-count': moved.length, 'data-partitions': moved.subarray(0, 2000).join(',') }, h('strong', {}, thousands(moved.length)), ' ' + l10n.t('of {0} partitions of {1} change member.', thousands(base.partitions), base.topic)),
    );
  }
  if (moved.length) {
    // Thousands of partitions can move (a member joining a range group shifts every range): a page at a time.
    const rows = pagedTable({
      id: 'group-whatif-moved-table',
      label: l10n.t('partitions that change member'),
      columns: [l10n.t('partition'), l10n.t('from'), l10n.t('to')],
      count: moved.length,
      row: (i) => [String(moved[i]), ownerId(base, moved[i]) ?? l10n.t('nobody'), ownerId(after, moved[i]) ?? l10n.t('nobody')],
      rowAttrs: (i) => ({ 'data-partition': moved[i] }),
      cellClass: ['num'],
      className: 'moved-partitions',
    });
    box.append(rows.element);
  }
  const keys = result.keys.filter((k) => k.topic === base.topic && k.moved);
  box.append(
    h('h4', {}, l10n.t('Keys that move')),
    keys.length
      ? h(
          'ul',
          { id: 'group-whatif-moved-keys', class: 'moved-keys' },
          ...keys.map((k) => h('li', { class: 'moved-key', 'data-key': k.key }, `${keyText(k.key)}: ${l10n.t('partition {0}, {1} → partition {2}, {3}', k.before.partition ?? '–', k.before.member ?? l10n.t('nobody'), k.after.partition ?? '–', k.after.member ?? l10n.t('nobody'))}`)),
        )
      : h('p', { id: 'group-whatif-moved-keys', class: 'muted' }, l10n.t('None of the shown keys changes member.')),
  );
  const last = [...result.steps].reverse().find((s) => s.rebalance);
  if (last?.rebalance) {
    box.append(
      h('h4', {}, l10n.t('What the rebalance does ({0})', last.rebalance.protocol)),
      h('p', { id: 'group-whatif-rebalance', 'data-protocol': last.rebalance.protocol }, last.rebalance.summary),
      h('ul', { class: 'key-order' }, ...last.rebalance.keyOrder.map((t) => h('li', {}, t))),
    );
  }
  for (const n of result.notes ?? []) box.append(h('p', { class: 'warning' }, n));
  return box;
}
