/**
 * `--format table` for the Kafka group commands: `assignment` (owners by partition) and
 * `what-if --group` (partitions and keys that change member, what the rebalance does). Like the
 * other views they read only the JSON records.
 */
import { percent, renderTable, type Cell, type Style } from './table';

interface OwnerChange {
  topic: string;
  partition: number;
  from: string | null;
  to: string | null;
}

interface Place {
  partition: number | null;
  member: string | null;
  note?: string;
  error?: string;
}

interface KeyMove {
  key: string;
  topic: string;
  before: Place;
  after: Place;
  moved?: boolean;
}

interface GroupWhatIfRecord {
  group: string;
  assignor: string;
  protocol: string;
  notes?: string[];
  steps: Array<{ event: string; error?: string; moved: OwnerChange[]; added: OwnerChange[]; movedFraction: number; note?: string; rebalance?: { summary: string; keyOrder: string[] } }>;
  keys: KeyMove[];
}

const member = (m: string | null, style: Style): Cell => (m === null ? { text: 'nobody', paint: style.dim } : m);
const place = (p: Place): string => {
  if (p.error !== undefined) return `error: ${p.error}`;
  if (p.partition === null) return 'no fixed partition';
  return `p${p.partition} ${p.member ?? 'nobody'}`;
};

/** `what-if --group` writes a record with `group` and `protocol`; the topic what-if does not. */
export function isGroupWhatIf(records: unknown[]): boolean {
  const r = records[0] as Record<string, unknown> | undefined;
  return r !== undefined && typeof r.group === 'string' && 'protocol' in r;
}

export function groupWhatIfTable(records: unknown[], style: Style): string {
  const out: string[] = [];
  for (const r of records as GroupWhatIfRecord[]) {
    out.push(`${style.bold(`group ${r.group}`)} (${r.assignor}, ${r.protocol})\n`);
    for (const n of r.notes ?? []) out.push(`  ${style.dim(n)}\n`);
    for (const s of r.steps) {
      if (s.error !== undefined) {
        out.push(`${style.bold(s.event)}: ${style.red(`refused: ${s.error}`)}\n\n`);
        continue;
      }
      // Past the listing's bound (the note) the moves are counted, not listed: the share says it.
      const changed = s.note ? `${percent(s.movedFraction)} of the partitions changed owner` : `${s.moved.length} partitions changed owner (${percent(s.movedFraction)})`;
      out.push(`${style.bold(s.event)}: ${changed}${s.added.length ? `, ${s.added.length} new` : ''}\n`);
      if (s.note) out.push(`  ${style.dim(s.note)}\n`);
      const rows = [...s.moved, ...s.added].map((c): Cell[] => [c.topic, String(c.partition), member(c.from, style), member(c.to, style)]);
      if (rows.length > 0) out.push(renderTable([{ header: 'TOPIC' }, { header: 'PARTITION', right: true }, { header: 'FROM' }, { header: 'TO' }], rows, style));
      if (s.rebalance) for (const line of [s.rebalance.summary, ...s.rebalance.keyOrder]) out.push(`  ${line}\n`);
      out.push('\n');
    }
    if (r.keys.length > 0) {
      const rows = r.keys.map((k): Cell[] => [k.key, k.topic, place(k.before), place(k.after), k.moved ? { text: 'yes', paint: style.yellow } : { text: 'no', paint: style.dim }]);
      out.push(renderTable([{ header: 'KEY' }, { header: 'TOPIC' }, { header: 'BEFORE' }, { header: 'AFTER' }, { header: 'MOVED' }], rows, style));
    }
  }
  return out.join('').replace(/\n+$/, '\n');
}

export function assignmentTable(records: unknown[], style: Style): string {
  const out: string[] = [];
  for (const r of records as Array<{ group: string; assignor: string; owners: Record<string, Array<string | null>>; observed?: boolean; note?: string }>) {
    out.push(`${style.bold(`group ${r.group}`)} (${r.assignor}${r.observed ? ', observed' : ''})\n`);
    if (r.note) out.push(`  ${style.dim(r.note)}\n`);
    const rows: Cell[][] = [];
    for (const [topic, owners] of Object.entries(r.owners)) owners.forEach((m, p) => rows.push([topic, String(p), member(m, style)]));
    out.push(renderTable([{ header: 'TOPIC' }, { header: 'PARTITION', right: true }, { header: 'MEMBER' }], rows, style));
  }
  return out.join('');
}
