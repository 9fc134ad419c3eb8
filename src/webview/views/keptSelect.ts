/**
 * A <select> with one option per consumer or member (2,000 of them at production scale), kept from
 * one drawing of the page to the next. The page is drawn whole on every what-if step, and making
 * thousands of option elements again was the larger part of a step's DOM work; a step adds or
 * removes one consumer, so the kept element is patched by that one option instead. The option
 * the user had chosen stays chosen where it is still there.
 *
 * Only for selects without listeners of their own (the caller reads `value` when its button is
 * pressed): the same element goes into each new drawing. `key` tells apart selects of one id
 * kept for several topics.
 */
import { h } from '../dom';

const kept = new Map<string, { values: readonly string[]; el: HTMLSelectElement }>();

export function keptSelect(id: string, label: string, values: readonly string[], key = id): HTMLSelectElement {
  const prev = kept.get(key);
  const el = prev?.el ?? h('select', { id, 'aria-label': label });
  el.setAttribute('aria-label', label);
  if (!prev || !patch(el, prev.values, values)) el.replaceChildren(...values.map(option));
  kept.set(key, { values: values.slice(), el });
  return el;
}

function option(value: string): HTMLOptionElement {
  return h('option', { value }, value);
}

/** Makes `el`'s options (those of `old`) those of `next` where `optionEdit` finds one edit; false otherwise. */
function patch(el: HTMLSelectElement, old: readonly string[], next: readonly string[]): boolean {
  if (el.options.length !== old.length) return false;
  const edit = optionEdit(old, next);
  if (edit === null) return false;
  if (edit.insert !== undefined) el.insertBefore(option(next[edit.insert]), el.options[edit.insert] ?? null);
  else if (edit.remove !== undefined) el.options[edit.remove].remove();
  return true;
}

/**
 * How `next` differs from `old`: not at all (`{}`), by one value inserted at `insert`, or by the
 * value at `remove` taken out; null for anything else.
 */
export function optionEdit(old: readonly string[], next: readonly string[]): { insert?: number; remove?: number } | null {
  let p = 0;
  const n = Math.min(old.length, next.length);
  while (p < n && old[p] === next[p]) p++;
  if (old.length === next.length) return p === n ? {} : null;
  if (next.length === old.length + 1 && sameFrom(old, p, next, p + 1)) return { insert: p };
  if (old.length === next.length + 1 && sameFrom(old, p + 1, next, p)) return { remove: p };
  return null;
}

function sameFrom(a: readonly string[], i: number, b: readonly string[], j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}
