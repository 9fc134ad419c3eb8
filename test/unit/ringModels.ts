/**
 * One-change-at-a-time models of the brokers' ring data structures, written from the broker's
 * description (ALGORITHMS.md), not from the engine: the engine's batched, column-based ring
 * selectors are checked against them by ringBatches.test.ts and properties.test.ts.
 */
import { ringPointHash3 } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import { ringPointHash4 } from '../../src/engine/pulsar/keyShared/consistentHashing4';
import type { Consumer, Segment } from '../../src/engine/pulsar/keyShared/selector';

export const ids = (list: readonly Consumer[]) => list.map((c) => c.id).join('+');

/** 3.x: TreeMap<hash, List<Consumer>>, each list sorted by name after every add (stable). */
export class Ring3Model {
  readonly map = new Map<number, Consumer[]>();
  constructor(readonly points: number) {}
  add(c: Consumer): void {
    for (let i = 0; i < this.points; i++) {
      const h = ringPointHash3(c.name, i);
      const list = this.map.get(h);
      if (!list) this.map.set(h, [c]);
      else if (!list.includes(c)) {
        list.push(c);
        list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
    }
  }
  remove(c: Consumer): void {
    for (let i = 0; i < this.points; i++) {
      const h = ringPointHash3(c.name, i);
      const list = this.map.get(h);
      if (!list) continue;
      const rest = list.filter((x) => x !== c);
      if (rest.length) this.map.set(h, rest);
      else this.map.delete(h);
    }
  }
  sorted(): Array<[number, Consumer[]]> {
    return [...this.map].sort((a, b) => a[0] - b[0]);
  }
  /** The ceiling point's list (wrapping to the first), then `list[h % size]`; `pts` is `sorted()`. */
  select(h: number, pts: Array<[number, Consumer[]]>): Consumer | null {
    if (pts.length === 0) return null;
    const list = (pts.find(([p]) => p >= h) ?? pts[0])[1];
    return list[h % list.length];
  }
}

/** 4.x: TreeMap<hash, {selected, colliding FIFO}>, name indexes from the lowest free one. */
export class Ring4Model {
  readonly map = new Map<number, { selected: Consumer; colliding: Consumer[] }>();
  private readonly used = new Map<string, Set<number>>();
  private readonly index = new Map<Consumer, number>();
  constructor(readonly points: number) {}
  add(c: Consumer): void {
    const used = this.used.get(c.name) ?? new Set<number>();
    this.used.set(c.name, used);
    let k = 0;
    while (used.has(k)) k++;
    used.add(k);
    this.index.set(c, k);
    for (let i = 0; i < this.points; i++) {
      const h = ringPointHash4(c.name, k, i);
      const e = this.map.get(h);
      if (!e) this.map.set(h, { selected: c, colliding: [] });
      else e.colliding.push(c);
    }
  }
  remove(c: Consumer): void {
    const k = this.index.get(c);
    if (k === undefined) return;
    for (let i = 0; i < this.points; i++) {
      const h = ringPointHash4(c.name, k, i);
      const e = this.map.get(h);
      if (!e) continue;
      if (e.selected === c) {
        const next = e.colliding.shift();
        if (next === undefined) this.map.delete(h);
        else e.selected = next;
      } else e.colliding = e.colliding.filter((x) => x !== c);
    }
    this.index.delete(c);
    this.used.get(c.name)!.delete(k);
  }
  sorted(): Array<[number, Consumer, Consumer[]]> {
    return [...this.map].sort((a, b) => a[0] - b[0]).map(([p, e]) => [p, e.selected, [...e.colliding]]);
  }
  /** The ceiling point's selected consumer (wrapping to the first); `pts` is `sorted()`. */
  select(h: number, pts: Array<[number, Consumer, Consumer[]]>): Consumer | null {
    if (!Number.isInteger(h) || h < 1 || h > 65535) return null;
    if (pts.length === 0) return null;
    return (pts.find(([p]) => p >= h) ?? pts[0])[1];
  }
}

/** Segments from a model's sorted points: each point owns up to itself, the top wraps to the first. */
export function modelSegments(points: Array<[number, readonly Consumer[]]>, lo: number, hi: number): Segment[] {
  const out: Segment[] = [];
  const push = (start: number, end: number, consumers: readonly Consumer[]) => {
    if (start > end) return;
    const last = out[out.length - 1];
    if (last && last.end + 1 === start && ids(last.consumers) === ids(consumers) && last.consumers.every((c, i) => c === consumers[i])) last.end = end;
    else out.push({ start, end, consumers: [...consumers] });
  };
  let start = lo;
  for (const [p, list] of points) {
    push(start, p, list);
    start = p + 1;
  }
  if (points.length) push(start, hi, points[0][1]);
  return out;
}
