/**
 * Who owns what, for drawing: each distinct owner set (one consumer, several sharing a 3.0 ring
 * point, or nobody) gets an index and a palette colour that stays the same for a consumer id
 * across views (before/after in the what-if editor), so a moved range is seen by its colour.
 */
import type { Consumer } from '../../engine/pulsar/keyShared/selector';
import { ListNumbers } from '../../engine/pulsar/keyShared/listNumbers';

/** Colours in the palette (`c0`..`c11` in media/panel.css, all `--vscode-*` variables). */
export const PALETTE_SIZE = 12;

export interface OwnerInfo {
  /** Consumer ids; empty for "nobody". */
  ids: string[];
  /** What a label or tooltip says. */
  label: string;
  /** Palette index, or -1 for nobody. */
  color: number;
  /** How many key values (of `keyValues`) this owner set holds. */
  values: number;
  /** `values` over the size of `keyValues`. */
  share: number;
}

/** Stable colours per consumer id, first come first served. Pass the same map to related views. */
export class ColorMap {
  readonly #map = new Map<string, number>();
  #next = 0;
  /** Owner lists seeded and not yet taken in (see `seed`). */
  #seeds: Array<readonly OwnerInfo[]> = [];

  colorOf(id: string): number {
    if (this.#seeds.length) this.#takeSeeds();
    let c = this.#map.get(id);
    if (c === undefined) {
      c = this.#next++ % PALETTE_SIZE;
      this.#map.set(id, c);
    }
    return c;
  }

  /**
   * Takes the colours of a view built elsewhere (the host's frame) for the consumers not coloured
   * yet, so that views built here later (a what-if's "after") colour them the same. Taken in at
   * the next `colorOf`, not now: the panel seeds from the frame it draws its first picture with,
   * and 2,000 consumers' entries were 2-5 ms of that picture, which asks for no colour here.
   */
  seed(owners: readonly OwnerInfo[]): void {
    this.#seeds.push(owners);
  }

  #takeSeeds(): void {
    for (const owners of this.#seeds.splice(0)) {
      for (const o of owners) {
        if (o.ids.length !== 1 || o.color < 0 || this.#map.has(o.ids[0])) continue;
        this.#map.set(o.ids[0], o.color);
        this.#next++;
      }
    }
  }
}

/**
 * Interns owner sets. Index 0 is always "nobody". Single consumers are looked up by identity,
 * shared sets by their ids in order.
 */
export class OwnerTable {
  readonly owners: OwnerInfo[] = [{ ids: [], label: 'nobody', color: -1, values: 0, share: 0 }];
  readonly #single = new Map<Consumer, number>();
  /** Shared sets by their consumers (a 3.0 ring of 1,000 consumers has thousands of shared points). */
  readonly #shared = new ListNumbers();

  constructor(private readonly colors: ColorMap) {}

  /** Registers consumers up front so that owners come in connection order. */
  addConsumers(consumers: readonly Consumer[]): void {
    for (const c of consumers) this.indexOfOne(c);
  }

  /** The index of one consumer (no array needed: 100,000 ring points call this). */
  indexOfOne(c: Consumer): number {
    let i = this.#single.get(c);
    if (i === undefined) {
      i = this.owners.length;
      this.owners.push({ ids: [c.id], label: c.id, color: this.colors.colorOf(c.id), values: 0, share: 0 });
      this.#single.set(c, i);
    }
    return i;
  }

  /**
   * Shared sets by identity: a view's segments and its ring hand in the same lists (which nothing
   * changes while a view is built, the table's life), found at once the second time. On the
   * bench's 3.0 ring, whose numbered names share 8,910 points, 1.3 ms of a step's 5.4 in
   * `ownerIndexes` (CPU profiles of steps 2-5, same run).
   */
  readonly #lists = new Map<readonly Consumer[], number>();

  indexOf(consumers: readonly Consumer[]): number {
    if (consumers.length === 0) return 0;
    if (consumers.length === 1) return this.indexOfOne(consumers[0]);
    let i = this.#lists.get(consumers);
    if (i === undefined) this.#lists.set(consumers, (i = this.#shareIndex(consumers)));
    return i;
  }

  #shareIndex(consumers: readonly Consumer[]): number {
    const index = this.owners.length;
    const known = this.#shared.numberOf(consumers, index);
    if (known !== index) return known;
    const ids = consumers.map((c) => c.id);
    // A shared ring point: drawn in its first consumer's colour, labelled with all of them.
    this.owners.push({ ids, label: ids.join(' + '), color: this.colors.colorOf(ids[0]), values: 0, share: 0 });
    return index;
  }
}

/**
 * The owner index of each owner-set code that `codes[0 .. count)` holds (-1 for the others), the
 * sets interned in the order their first entry comes, as one lookup per entry would. Where
 * `shared` is given, a negative entry `h` stands for the code `shared[~h]` (a ring's holders).
 *
 * For the loops over every segment or point of a 100,000-point ring: with the lookup inlined into
 * them, the owner table's code met new object shapes as what-if steps went on (a 3.0 ring's shared
 * points, a colour not given yet) and V8 threw their optimised code away, so the first steps after
 * opening spent 10-20 ms more in them than later ones. Here the calls run in a loop over the
 * distinct codes alone, and the callers' loops read an Int32Array.
 */
export function ownerIndexes(codes: Int32Array, count: number, lists: ReadonlyArray<readonly Consumer[]>, table: OwnerTable, shared?: Int32Array): Int32Array {
  const index = new Int32Array(lists.length).fill(-1);
  const order = new Int32Array(lists.length);
  let k = 0;
  for (let i = 0; i < count; i++) {
    const h = codes[i];
    const code = h >= 0 || shared === undefined ? h : shared[~h];
    if (index[code] === -1) {
      index[code] = 0;
      order[k++] = code;
    }
  }
  for (let j = 0; j < k; j++) index[order[j]] = table.indexOf(lists[order[j]]);
  return index;
}
