/**
 * Keys, names and values shortened for one line, the same in the panel, hovers, notifications, the
 * status bar and the settings' problems.
 */

/** `s` cut to at most `max` UTF-16 units with an ellipsis. Never between the two halves of a
 * surrogate pair: an emoji or a rare CJK character cut in half would show as U+FFFD. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let n = max - 1;
  if ((s.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
  return `${s.slice(0, n)}…`;
}

/** A key as one line: with control characters or spaces at an end (or empty) it is shown as a JSON
 * string, so that what the user sees tells the key apart from its neighbours; long keys cut. */
export function keyText(label: string, max = 40): string {
  // eslint-disable-next-line no-control-regex
  return cut(/[\u0000-\u001f\u007f\u2028\u2029]/.test(label) || label.trim() !== label || label === '' ? JSON.stringify(label) : label, max);
}
