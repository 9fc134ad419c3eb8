/** "Did you mean ...": the known names closest to a mistyped one. */

/** Edit distance with adjacent transpositions (`rotue` is one step from `route`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidates a typo most likely meant: those at the smallest edit distance, within a third
 * of the name's length (at least 1), or those that start with what was typed.
 */
export function suggest(typed: string, candidates: readonly string[]): string[] {
  const t = typed.toLowerCase();
  const limit = Math.max(1, Math.floor(t.length / 3));
  let best = Infinity;
  let out: string[] = [];
  for (const c of candidates) {
    const d = editDistance(t, c.toLowerCase());
    if (d > limit) continue;
    if (d < best) [best, out] = [d, [c]];
    else if (d === best) out.push(c);
  }
  if (out.length === 0 && t.length >= 2) out = candidates.filter((c) => c.toLowerCase().startsWith(t));
  return out;
}

/** `; did you mean "a" or "b"?`, or nothing. */
export function didYouMean(typed: string, candidates: readonly string[], show: (s: string) => string = (s) => s): string {
  const s = suggest(typed, candidates);
  if (s.length === 0) return '';
  return `; did you mean ${s.slice(0, -1).map(show).join(', ')}${s.length > 1 ? ' or ' : ''}${show(s[s.length - 1])}?`;
}
