/**
 * Keys, names and values shortened for one line, the same in the panel, hovers, notifications, the
 * status bar and the settings' problems.
 */

/**
 * `s` with the characters that show as nothing, as a plain space, or move the text around them
 * written as `\uXXXX`: C0 and C1 controls and DEL, the no-break, typographic and ideographic
 * spaces, the soft hyphen, zero-width and bidi format characters, the line and paragraph
 * separators, the byte order mark. A key pasted with one of them hashes elsewhere than the key it
 * looks like.
 */
export function escapeHidden(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\0-\x1f\x7f-\xa0\xad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/g, (c) => `\\u${(c.charCodeAt(0) | 65536).toString(16).slice(1)}`);
}

/** `s` cut to at most `max` UTF-16 units with an ellipsis. Never between the two halves of a
 * surrogate pair: an emoji or a rare CJK character cut in half would show as U+FFFD. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let n = max - 1;
  if ((s.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
  return `${s.slice(0, n)}…`;
}

/** A key as one line: a key with hidden characters, half a surrogate pair (which Java's encoder
 * writes as '?') or spaces at an end (or empty) is shown as a JSON string with those escaped, so
 * that what the user sees tells it apart from the key it looks like; long keys cut. */
export function keyText(label: string, max = 40): string {
  // Escaping only lengthens, and a trimmed key starts and ends otherwise: equal only if neither changed it.
  return cut(label.isWellFormed() && label && escapeHidden(label.trim()) === label ? label : escapeHidden(JSON.stringify(label)), max);
}
