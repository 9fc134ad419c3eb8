/**
 * Changes to a JSON value for properties that feed the product hand-edited or damaged data
 * (settings, broker reports): one place of the value, chosen by `at`, gets an arbitrary JSON value
 * or one at a boundary, loses its key (or its array entry), or is repeated.
 */
import fc from 'fast-check';

export type Path = Array<string | number>;

/** Every place in a JSON value, the root excluded. */
export function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...at, i]), pathsOf(x, [...at, i], out)));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([...at, k]), pathsOf(x, [...at, k], out));
  return out;
}

/** Values at the edges of what settings and reports allow (counts, slots, int32), and past them. */
const EDGE = [0, -1, 1, 2, 1.5, 65535, 65536, 2147483647, 2147483648, -2147483648, 1e308, '', ' ', 'x', '0x', '\u0000', '\ud800', '用户', null, true, [], {}, [[]], [[1, 0]], [[0, 65535]], [[-1, 5]]];

export type Mutation = { kind: 'set'; at: number; value: unknown } | { kind: 'drop'; at: number } | { kind: 'repeat'; at: number };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.oneof(fc.constantFrom(...EDGE), fc.jsonValue({ maxDepth: 3 })) }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
);

/** Applies the mutation, in place, at one of the value's places (`at` modulo their count). */
export function mutate(value: object, m: Mutation): void {
  const paths = pathsOf(value);
  if (paths.length === 0) return;
  const path = paths[m.at % paths.length];
  let parent: any = value;
  for (const p of path.slice(0, -1)) parent = parent[p];
  const last = path[path.length - 1];
  if (m.kind === 'set') parent[last] = structuredClone(m.value);
  else if (m.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (Array.isArray(parent)) parent.splice(last as number, 0, structuredClone(parent[last as number]));
  else parent[last] = [structuredClone(parent[last])];
}
