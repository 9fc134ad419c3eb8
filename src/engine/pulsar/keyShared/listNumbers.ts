/**
 * Numbers for lists of consumers by their content: lists holding the same consumers in the same
 * order get one number, the one given with the first of them. A 3.x ring keeps a list per point
 * where consumers meet, and consumers that share a name meet at every point of theirs: 500 names
 * used twice are 50,000 lists of 500 contents, which views need once each.
 */
import type { Consumer } from './selector';
import { sameItems } from '../../sameItems';

export class ListNumbers {
  /** Lists by their first two consumers (as numbers, no string keys), the rest compared element by element. */
  readonly #byLead = new Map<number, Array<{ list: readonly Consumer[]; n: number }>>();
  readonly #consumers = new Map<Consumer, number>();

  #numberOf(c: Consumer): number {
    let n = this.#consumers.get(c);
    if (n === undefined) this.#consumers.set(c, (n = this.#consumers.size));
    return n;
  }

  /** The number of a list equal to `list` (two or more consumers, not changed later), or `n`, which it then has. */
  numberOf(list: readonly Consumer[], n: number): number {
    const key = this.#numberOf(list[0]) * 2 ** 26 + this.#numberOf(list[1]);
    let candidates = this.#byLead.get(key);
    if (candidates === undefined) this.#byLead.set(key, (candidates = []));
    for (const c of candidates) if (sameItems(c.list, list)) return c.n;
    candidates.push({ list, n });
    return n;
  }
}
