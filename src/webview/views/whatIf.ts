/**
 * The what-if editor: hypothetical steps (add or remove a consumer, change the partition count)
 * with undo and redo, the topic before and after side by side with the moved ranges emphasised,
 * the moved share, the keys that moved, the ordering note, and "Apply to settings".
 */
import { formatEvent, type TopologyEvent } from '../../engine/events';
import { MAX_PARTITIONS } from '../../engine/settings';
import type { OrderingNote } from '../../shared/view/orderingNote';
import { fullWindow, type ZoomWindow } from '../../shared/view/segments';
import type { TopicViewModel } from '../../shared/view/topicView';
import type { WhatIfViewModel } from '../../shared/view/whatIfView';
import { h } from '../dom';
import { pct, range, thousands } from '../format';
import { keyText } from '../../shared/keyText';
import { l10n } from '../l10n';
import type { WhatIfState } from '../state';
import type { Ui } from '../ui';
import type { BarMarker, BarSpec } from './barShared';
import { choiceInput, type ChoiceInput } from './choiceInput';
import type { PartitionsSpec } from './partitions';

export interface WhatIfSpec {
  topic: string;
  model: WhatIfViewModel;
  state: WhatIfState;
  width: number;
  window: ZoomWindow | undefined;
  /** Undefined while it is being worked out. */
  note: OrderingNote | { error: string } | null | undefined;
  applyStatus: string;
  ui: Ui;
  onStep(e: TopologyEvent): void;
  onUndo(): void;
  onRedo(): void;
  onClear(): void;
  onApply(): void;
  onWindow(w: ZoomWindow): void;
  onError(message: string): void;
  /** Draws a hash-range bar (SVG or canvas, as the panel decides). */
  bar(spec: BarSpec): HTMLElement;
  /** Draws a partitions row. */
  partitions(spec: PartitionsSpec): HTMLElement;
}

/**
 * The editor's controls (add and remove a consumer, set the partitions), made once per topic and
 * kept in the page from one step to the next: a step redraws what follows it, and the editor, left
 * where it is, is not styled and laid out again (nor what is typed in it lost). Its list of the
 * consumers to remove is patched by the one the step added or removed. Its buttons act on the spec
 * of the latest `sync`.
 */
export interface WhatIfEditor {
  readonly element: HTMLElement;
  /** Whether it has the controls a model needs (another editor is made where it has not). */
  fits(m: WhatIfViewModel): boolean;
  sync(spec: WhatIfSpec): void;
}

/** The controls an editor for a model has. */
function controlsOf(m: WhatIfViewModel): { consumers: boolean; sticky: boolean; partitions: boolean } {
  const sel = m.after.selector;
  return { consumers: !!(sel || m.before.selector), sticky: sel?.algorithm === 'sticky', partitions: !!m.after.partitions || m.after.system === 'kafka' };
}

export function whatIfEditor(first: WhatIfSpec): WhatIfEditor {
  let spec = first;
  const { consumers, sticky, partitions } = controlsOf(first.model);
  const editor = h('section', { class: 'whatif-editor', 'aria-label': l10n.t('what-if editor') });
  let remove: ChoiceInput | undefined;
  let removeBtn: HTMLButtonElement | undefined;
  let count: HTMLInputElement | undefined;
  if (consumers) {
    const name = h('input', { id: 'whatif-name', type: 'text', placeholder: l10n.t('consumer name'), 'aria-label': l10n.t('name of the consumer to add'), maxlength: 256 });
    const ranges = h('input', { id: 'whatif-ranges', type: 'text', placeholder: '0-16383,32768-49151', 'aria-label': l10n.t('hash ranges of the consumer (STICKY)'), maxlength: 2000 });
    const add = h('button', { id: 'whatif-add', type: 'button' }, l10n.t('Add consumer'));
    const addForm = h('form', { class: 'row', 'aria-label': l10n.t('add a consumer') }, h('label', { for: 'whatif-name' }, l10n.t('Add')), name, sticky ? ranges : null, add);
    addForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const n = name.value.trim();
      if (!n) return spec.onError(l10n.t('Give the consumer a name.'));
      let step: TopologyEvent = { kind: 'connect', name: n };
      if (sticky) {
        const parsed = parseRanges(ranges.value);
        if (typeof parsed === 'string') return spec.onError(parsed);
        step = { kind: 'connect', name: n, ranges: parsed };
      }
      // Taken: the field is ready for the next name (what is typed stays where the step is refused).
      name.value = '';
      ranges.value = '';
      spec.onStep(step);
    });
    add.addEventListener('click', () => addForm.requestSubmit());
    const choice = choiceInput('whatif-remove-id', {
      label: l10n.t('consumer to remove'),
      placeholder: l10n.t('consumer id'),
      missing: l10n.t('Type or pick the consumer to remove.'),
      unknown: (id) => l10n.t('No consumer {0} is connected after these steps.', id),
    });
    remove = choice;
    removeBtn = h('button', { id: 'whatif-remove', type: 'button' }, l10n.t('Remove consumer'));
    removeBtn.addEventListener('click', () => {
      const c = choice.chosen();
      if ('error' in c) return spec.onError(c.error);
      choice.input.value = '';
      spec.onStep({ kind: 'disconnect', id: c.id });
    });
    editor.append(addForm, h('div', { class: 'row' }, h('label', { for: 'whatif-remove-id' }, l10n.t('Remove')), choice.input, choice.list, removeBtn));
  }
  if (partitions) {
    const input = h('input', { id: 'whatif-partitions', type: 'number', min: 1, max: MAX_PARTITIONS, 'aria-label': l10n.t('new partition count') });
    count = input;
    const set = h('button', { id: 'whatif-set-partitions', type: 'button' }, l10n.t('Set partitions'));
    set.addEventListener('click', () => {
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < 1 || n > MAX_PARTITIONS) return spec.onError(l10n.t('The partition count must be an integer from 1 to {0}.', MAX_PARTITIONS));
      spec.onStep({ kind: 'partitions', count: n });
    });
    editor.append(h('div', { class: 'row' }, h('label', { for: 'whatif-partitions' }, l10n.t('Partitions')), input, set));
  }
  const sync = (next: WhatIfSpec): void => {
    spec = next;
    if (remove && removeBtn) {
      const ids = next.model.after.selector?.consumers ?? [];
      remove.set(ids);
      removeBtn.disabled = ids.length === 0;
    }
    if (count) count.value = String(next.model.apply.partitions);
  };
  sync(first);
  const fits = (m: WhatIfViewModel): boolean => {
    const c = controlsOf(m);
    return c.consumers === consumers && c.sticky === sticky && c.partitions === partitions;
  };
  return { element: editor, fits, sync };
}

/** What follows the editor: the steps, before and after, the moved share and keys, the ordering note, Apply. */
export function renderWhatIf(spec: WhatIfSpec): HTMLElement {
  const { model: m, state } = spec;
  const root = h('section', { class: 'whatif', 'aria-label': l10n.t('what-if result') });

  // Steps, with undo and redo.
  const steps = h('ol', { id: 'whatif-steps', 'aria-label': l10n.t('hypothetical steps') });
  state.events.forEach((e, i) => {
    const applied = i < state.cursor;
    const step = applied ? m.steps[i] : undefined;
    steps.append(
      h(
        'li',
        { class: `step${applied ? '' : ' undone'}${step?.error ? ' refused' : ''}`, 'data-fraction': step?.movedFraction ?? '' },
        h('code', {}, formatEvent(e)),
        step ? (step.error ? ` refused by the broker: ${step.error}` : ` moved ${pct(step.movedFraction)}${e.kind === 'partitions' ? ' of the keys' : ' of the key hashes'}`) : ' (undone)',
      ),
    );
  });
  const undo = h('button', { id: 'whatif-undo', type: 'button', class: 'secondary', disabled: state.cursor === 0, title: l10n.t('Undo the last step') }, l10n.t('Undo'));
  const redo = h('button', { id: 'whatif-redo', type: 'button', class: 'secondary', disabled: state.cursor >= state.events.length, title: l10n.t('Redo the next step') }, l10n.t('Redo'));
  const clear = h('button', { id: 'whatif-clear', type: 'button', class: 'secondary', disabled: state.events.length === 0 }, l10n.t('Clear'));
  undo.addEventListener('click', spec.onUndo);
  redo.addEventListener('click', spec.onRedo);
  clear.addEventListener('click', spec.onClear);
  root.append(h('div', { class: 'steps' }, state.events.length ? steps : h('p', { class: 'muted' }, l10n.t('No steps yet: add or remove a consumer, or change the partition count.')), h('div', { class: 'row' }, undo, redo, clear)));

  // Before and after.
  const half = Math.max(160, Math.floor((spec.width - 24) / 2));
  const side = (label: string, v: TopicViewModel, id: string): HTMLElement => {
    const col = h('div', { class: 'side', 'data-side': id }, h('h3', {}, label));
    if (v.selector) {
      const segs = v.selector.segments;
      const window = spec.window ?? fullWindow(segs.space);
      col.append(
        spec.bar({
          id,
          label: `${label}: key hash ranges`,
          model: segs,
          window,
          width: half,
          markers: markersOf(v),
          moved: m.movedRanges,
          ring: v.selector.ring,
          onWindow: spec.onWindow,
          warm: false,
          ui: spec.ui,
        }),
      );
    }
    if (v.partitions && (!v.selector || m.before.partitions?.count !== m.after.partitions?.count)) {
      const movedPartitions = new Set(m.keys.filter((k) => k.moved && k.after.partition !== null).map((k) => (id === 'before' ? k.before.partition : k.after.partition) as number));
      col.append(
        spec.partitions({
          id: `${id}-partitions`,
          label: `${label}: ${v.partitions.count} partitions`,
          count: v.partitions.count,
          width: half,
          marks: v.markers.map((k) => ({ n: k.n, label: k.label, partition: k.route.partition })),
          emphasise: movedPartitions,
          ui: spec.ui,
        }),
      );
    }
    return col;
  };
  root.append(h('div', { class: 'sides' }, side(l10n.t('Before'), m.before, 'before'), side(l10n.t('After'), m.after, 'after')));

  // Figures.
  const movedKeys = m.keys.filter((k) => k.moved);
  const figures = h('div', { class: 'figures' });
  if (m.movedFraction !== null) {
    figures.append(
      h(
        'p',
        { id: 'whatif-moved-share', 'data-fraction': m.movedFraction },
        h('strong', {}, pct(m.movedFraction)),
        ` of the key hashes change owner from before to after${m.movedRanges.length ? ` (${m.movedRanges.length} range${m.movedRanges.length > 1 ? 's' : ''}, marked under the bars)` : ''}.`,
      ),
    );
  }
  figures.append(
    h(
      'p',
      { id: 'whatif-moved-key-share', 'data-fraction': m.movedKeyFraction ?? '' },
      m.keys.length ? l10n.t('{0} of {1} shown keys move ({2}).', movedKeys.length, m.keys.length, pct(m.movedKeyFraction ?? 0)) : l10n.t('Add keys to see which of them move.'),
    ),
  );
  if (movedKeys.length) {
    figures.append(
      h(
        'ul',
        { id: 'whatif-moved-keys', 'aria-label': l10n.t('keys that moved') },
        ...movedKeys.map((k) =>
          h('li', { class: 'moved-key', 'data-key': k.key }, h('span', { class: 'key' }, keyText(k.key)), ': ', describeRoute(k.before), ' → ', describeRoute(k.after)),
        ),
      ),
    );
  }
  root.append(figures);

  // The ordering note: filled in after the first paint (it runs the ordering simulation).
  root.append(spec.note === undefined ? h('div', { id: 'whatif-ordering', class: 'ordering', role: 'note', 'aria-busy': 'true' }, h('h3', {}, l10n.t('Ordering')), h('p', { class: 'muted' }, 'Working out what the broker holds back…')) : renderOrderingNote(spec.note));

  // Apply.
  const changed = state.cursor > 0 && m.steps.slice(0, state.cursor).some((s) => !s.error);
  const apply = h('button', { id: 'whatif-apply', type: 'button', disabled: !changed }, l10n.t('Apply to settings…'));
  apply.addEventListener('click', spec.onApply);
  const count = m.apply.partitions > 0 ? `the partition count (${m.apply.partitions})` : '';
  const what = m.apply.consumers ? `the ${thousands(m.apply.consumers.length)} consumers connected after the steps, in connection order${count ? `, and ${count}` : ''}` : count;
  root.append(
    h(
      'div',
      { class: 'apply' },
      apply,
      changed ? h('span', { class: 'muted' }, ` Writes ${what} to the workspace settings, after you confirm.`) : null,
      m.applyCheck ? h('p', { id: 'whatif-apply-differs', 'aria-busy': 'true', class: 'muted' }, 'Checking whether the settings would give the same layout…') : renderApplyDiffers(m.applyDiffers),
      h('p', { id: 'whatif-apply-status', role: 'status' }, spec.applyStatus),
    ),
  );
  return root;
}

function markersOf(v: TopicViewModel): BarMarker[] {
  return v.markers.flatMap((k) => (k.slot === null ? [] : [{ n: k.n, label: k.label, value: k.slot, hash: k.route.stickyKeyHash ?? k.slot, consumer: k.route.consumer ?? null, arc: k.arc }]));
}

function describeRoute(r: { partition: number | null; consumer?: string | null; range?: [number, number] | null; system: string }): string {
  const parts: string[] = [];
  if (r.partition !== null) parts.push(`p${r.partition}`);
  if (r.system === 'pulsar' && r.consumer !== undefined) parts.push(r.consumer ? `${r.consumer} ${range(r.range)}` : 'nobody');
  return parts.join(' ') || '–';
}

/** `0-16383,32768-49151` into ranges, or what is wrong. */
export function parseRanges(text: string): Array<[number, number]> | string {
  const t = text.trim();
  if (!t) return 'STICKY consumers need hash ranges, e.g. 0-16383,32768-49151.';
  const out: Array<[number, number]> = [];
  for (const part of t.split(',')) {
    const mm = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(part);
    if (!mm) return `"${part.trim()}" is not a range like 0-16383.`;
    const s = Number(mm[1]);
    const e = Number(mm[2]);
    if (s > 65535 || e > 65535) return `"${part.trim()}": hashes go from 0 to 65535.`;
    out.push([s, e]);
  }
  return out;
}

/** The warning that the settings "Apply" writes would give another layout, or nothing. */
export function renderApplyDiffers(share: number | null): HTMLElement {
  if (!share) return h('span', { id: 'whatif-apply-differs' });
  return h(
    'p',
    { id: 'whatif-apply-differs', class: 'warning' },
    `Rebuilt from those settings (consumers connecting in that order), ${pct(share)} of the key hashes would be owned differently than after these steps: the broker's layout depends on the order consumers joined and left.`,
  );
}

export function renderOrderingNote(note: OrderingNote | { error: string } | null): HTMLElement {
  const box = h('div', { id: 'whatif-ordering', class: 'ordering', role: 'note' }, h('h3', {}, l10n.t('Ordering')));
  if (note === null) {
    box.append(h('p', { class: 'muted' }, l10n.t('No steps yet.')));
  } else if ('error' in note) {
    box.append(h('p', { class: 'error' }, l10n.t('The ordering simulation cannot run this: {0}', note.error)));
  } else {
    if (note.assumption) box.append(h('p', { class: 'muted' }, note.assumption));
    for (const s of note.steps) box.append(h('div', { class: 'ordering-step' }, h('code', {}, s.event), h('ul', {}, ...s.lines.map((l) => h('li', {}, l)))));
  }
  return box;
}
