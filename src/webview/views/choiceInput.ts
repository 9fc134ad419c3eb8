/**
 * A text field offering ids from a long list (a subscription's 2,000 consumers, a group's
 * members), typed or picked from its <datalist>. A what-if step adds or removes one id; a <select>
 * of that size measured every option again on each change (13-19 ms of layout in the panel at a
 * fixed width, 36 ms sized to its widest option) and again whenever it was put into a new tree
 * (20 ms). A datalist is never laid out: its options change for free, and typing filters them.
 */
import { h } from '../dom';

export interface ChoiceInput {
  readonly input: HTMLInputElement;
  readonly list: HTMLDataListElement;
  /** The choices offered: the list patched by one option where one was added or removed. */
  set(values: readonly string[]): void;
  /** The id typed, trimmed, when it is one of the choices; else what is wrong with it. */
  chosen(): { id: string } | { error: string };
}

export function choiceInput(id: string, attrs: { label: string; placeholder: string; missing: string; unknown: (id: string) => string }): ChoiceInput {
  const list = h('datalist', { id: `${id}-choices` });
  const input = h('input', { id, type: 'text', list: `${id}-choices`, placeholder: attrs.placeholder, 'aria-label': attrs.label, maxlength: 256, autocomplete: 'off' });
  let values: string[] = [];
  /** The values the list's options hold; null until the field is first focused (see below). */
  let listed: string[] | null = null;
  // The options are made when the field is first focused, which comes before any list opens: a
  // panel drawn again with each step (a group's what-if) makes none unless someone picks.
  input.addEventListener('focus', () => {
    if (listed !== null) return;
    list.replaceChildren(...values.map(option));
    listed = values;
  });
  return {
    input,
    list,
    set(next) {
      values = next.slice();
      if (listed === null) return;
      if (!patch(list, listed, values)) list.replaceChildren(...values.map(option));
      listed = values;
    },
    chosen() {
      const v = input.value.trim();
      if (v === '') return { error: attrs.missing };
      return values.includes(v) ? { id: v } : { error: attrs.unknown(v) };
    },
  };
}

function option(value: string): HTMLOptionElement {
  return h('option', { value });
}

/** Makes `el`'s options (those of `old`) those of `next` where `optionEdit` finds one edit; false otherwise. */
function patch(el: HTMLDataListElement, old: readonly string[], next: readonly string[]): boolean {
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
