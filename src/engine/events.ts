/**
 * Topology events as the CLI and the what-if editor write them (CONTRACT.md):
 * `+NAME`, `+NAME:0-16383,32768-49151` (STICKY ranges), `-ID`, `partitions=N`.
 */
import type { HashRange } from './pulsar/keyShared/selector';

export type TopologyEvent =
  | { kind: 'connect'; name: string; ranges?: HashRange[] }
  | { kind: 'disconnect'; id: string }
  | { kind: 'partitions'; count: number };

export function parseEvent(text: string): TopologyEvent {
  if (text.startsWith('+')) {
    const body = text.slice(1);
    const m = /^(.*):(\d+-\d+(?:,\d+-\d+)*)$/s.exec(body);
    if (m) {
      const ranges = m[2].split(',').map((r) => r.split('-').map(Number) as unknown as HashRange);
      if (m[1] === '') throw new Error(`event ${JSON.stringify(text)}: the consumer name is empty`);
      // The settings' bound (the Java client's check lets the end reach 65536).
      if (ranges.some((r) => r[1] > 65536)) throw new Error(`event ${JSON.stringify(text)}: a range ends at 65536 at most`);
      return { kind: 'connect', name: m[1], ranges };
    }
    if (body === '') throw new Error(`event ${JSON.stringify(text)}: the consumer name is empty`);
    return { kind: 'connect', name: body };
  }
  if (text.startsWith('-')) {
    if (text.length === 1) throw new Error(`event "-": the consumer id is empty`);
    return { kind: 'disconnect', id: text.slice(1) };
  }
  const p = /^partitions=(\d+)$/.exec(text);
  if (p) {
    const count = Number(p[1]);
    // Both systems hold partition counts in a Java int.
    if (count > 0x7fffffff) throw new Error(`event ${JSON.stringify(text)}: a partition count is at most 2147483647 (a Java int)`);
    return { kind: 'partitions', count };
  }
  throw new Error(`event ${JSON.stringify(text)}: expected +NAME, +NAME:START-END,..., -ID or partitions=N`);
}

export function formatEvent(e: TopologyEvent): string {
  switch (e.kind) {
    case 'connect':
      return e.ranges ? `+${e.name}:${e.ranges.map(([s, t]) => `${s}-${t}`).join(',')}` : `+${e.name}`;
    case 'disconnect':
      return `-${e.id}`;
    case 'partitions':
      return `partitions=${e.count}`;
  }
}
