import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optionEdit } from '../../src/webview/views/choiceInput';

/** `old` with the edit made, as a choice list makes it on its options. */
function applied(old: string[], next: string[], e: { insert?: number; remove?: number }): string[] {
  const out = old.slice();
  if (e.insert !== undefined) out.splice(e.insert, 0, next[e.insert]);
  if (e.remove !== undefined) out.splice(e.remove, 1);
  return out;
}

test('optionEdit finds the one option a what-if step adds or removes, wherever it is', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `c-${i}`);
  for (let at = 0; at <= ids.length; at++) {
    const added = [...ids.slice(0, at), 'new', ...ids.slice(at)];
    const e = optionEdit(ids, added);
    assert.deepEqual(e, { insert: at });
    assert.deepEqual(applied(ids, added, e!), added);
  }
  for (let at = 0; at < ids.length; at++) {
    const removed = ids.filter((_, i) => i !== at);
    const e = optionEdit(ids, removed);
    assert.ok(e && e.remove !== undefined);
    assert.deepEqual(applied(ids, removed, e), removed);
  }
  assert.deepEqual(optionEdit(ids, ids.slice()), {});
  assert.deepEqual(optionEdit([], ['a']), { insert: 0 });
  assert.deepEqual(optionEdit(['a'], []), { remove: 0 });
});

test('optionEdit gives up (the options are made again) on anything but one insertion or removal', () => {
  assert.equal(optionEdit(['a', 'b', 'c'], ['a', 'x', 'c']), null);
  assert.equal(optionEdit(['a', 'b', 'c'], ['b', 'a', 'c']), null);
  assert.equal(optionEdit(['a', 'b', 'c'], ['a']), null);
  assert.equal(optionEdit(['a'], ['x', 'a', 'y']), null);
  assert.equal(optionEdit(['a', 'b'], ['a', 'x', 'c']), null);
  // Duplicate names: the result is still the new list.
  const old = ['a', 'a', 'b'];
  const next = ['a', 'a', 'a', 'b'];
  assert.deepEqual(applied(old, next, optionEdit(old, next)!), next);
});
