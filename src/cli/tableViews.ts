/**
 * `--format table`: how each command's JSON output (the contract's shapes, CONTRACT.md section 2)
 * is shown to people. The views read only the JSON records, so the JSON stays the one source of
 * truth; a field a view does not know (added by a later change) still gets a column in `route`.
 */
import type { AnalysisResult, ConsumerFigure, HeavyKey, PartitionFigure, Skew, TopicFigures } from '../analyze/figures';
import { percent, renderTable, tableLines, type Cell, type Column, type Style } from './table';

type Json = Record<string, unknown>;

/** Nothing to show (`null`): a dimmed dash. */
const none = (style: Style): Cell => ({ text: '-', paint: style.dim });

/** A value in a cell: strings as they are, arrays comma-joined, objects as `name=value`. */
function show(v: unknown): string {
  if (v === undefined) return '';
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(show).join(',');
  if (typeof v === 'object') return Object.entries(v as Json).map(([k, x]) => `${k}=${show(x)}`).join(' ');
  return String(v);
}

const rangeText = (r: unknown): string => (Array.isArray(r) && r.length === 2 ? `${r[0]}-${r[1]}` : show(r));

/** route: the contract's fields under readable headers, then any other field by its name. */
const ROUTE_COLUMNS: Array<[field: string, header: string, right?: boolean]> = [
  ['key', 'KEY'],
  ['topic', 'TOPIC'],
  ['partition', 'PARTITION', true],
  ['hash', 'HASH', true],
  ['stickyKeyHash', 'STICKY HASH', true],
  ['consumer', 'CONSUMER'],
  ['range', 'RANGE'],
];
/** Fields a column would only repeat: the system is the topic's. */
const ROUTE_HIDDEN = new Set(['system', 'error']);

/** One line a key (read from stdin, keys are unbounded in number): lines, not one string. */
export function routeTable(records: unknown[], style: Style): string[] {
  const rows = records as Json[];
  const known = new Set([...ROUTE_COLUMNS.map(([f]) => f), ...ROUTE_HIDDEN]);
  const extra: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!known.has(k) && !extra.includes(k)) extra.push(k);
  const columns: Column[] = [
    ...ROUTE_COLUMNS.map(([, header, right]) => ({ header, right })),
    ...extra.map((k) => ({ header: k.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase() })),
    { header: 'ERROR' },
  ];
  const cells = rows.map((r): Cell[] => [
    ...ROUTE_COLUMNS.map(([f]): Cell => {
      if (!(f in r)) return '';
      if (r[f] === null) return none(style);
      return f === 'range' ? rangeText(r[f]) : show(r[f]);
    }),
    ...extra.map((k) => show(r[k])),
    r.error === undefined ? '' : { text: show(r.error), paint: style.red },
  ]);
  return tableLines(columns, cells, style);
}

/** One line a segment (a 3.x ring has up to one a point): lines, not one string. */
export function rangesTable(records: unknown[], style: Style): string[] {
  return records.flatMap((rec, i) => {
    const r = rec as { topic: string; partition?: number; keyHashRange: [number, number]; assignments: Array<{ start: number; end: number; consumers: string[] }> };
    const [lo, hi] = r.keyHashRange;
    const space = hi - lo + 1;
    const rows = r.assignments.map((a): Cell[] => [
      String(a.start),
      String(a.end),
      String(a.end - a.start + 1),
      percent((a.end - a.start + 1) / space),
      a.consumers.length > 0 ? a.consumers.join(', ') : { text: 'nobody', paint: style.dim },
    ]);
    const head = `${i > 0 ? '\n' : ''}${style.bold(r.topic)}${r.partition !== undefined ? ` partition ${r.partition}` : ''}: key hash range ${lo}-${hi}, ${r.assignments.length} segments\n`;
    return [head, ...tableLines([{ header: 'START', right: true }, { header: 'END', right: true }, { header: 'SIZE', right: true }, { header: 'SHARE', right: true }, { header: 'CONSUMERS' }], rows, style)];
  });
}

/** At most this many ranges per cell; the rest are counted. */
const RANGES_SHOWN = 4;

function rangesCell(ranges: Array<[number, number]>): string {
  const shown = ranges.slice(0, RANGES_SHOWN).map(rangeText).join(', ');
  return ranges.length > RANGES_SHOWN ? `${shown}, ... (${ranges.length - RANGES_SHOWN} more)` : shown;
}

const size = (ranges: Array<[number, number]>): number => ranges.reduce((n, [s, e]) => n + e - s + 1, 0);

/** A route in a few words: `p3 C4`, `p2`, `C1`. */
function routeBrief(r: Json | undefined): string {
  if (!r) return '';
  if (r.error !== undefined) return `error: ${show(r.error)}`;
  const parts: string[] = [];
  if ('partition' in r) parts.push(r.partition === null ? 'p-' : `p${show(r.partition)}`);
  if ('consumer' in r) parts.push(show(r.consumer));
  return parts.join(' ');
}

export function whatIfTable(records: unknown[], style: Style): string {
  const out: string[] = [];
  for (const rec of records) {
    const r = rec as {
      steps: Array<{ event: string; lost: Record<string, Array<[number, number]>>; gained: Record<string, Array<[number, number]>>; movedFraction: number; error?: string; explain?: string[] }>;
      keys: Array<{ key: string; before: Json; after: Json; moved: boolean }>;
    };
    for (const s of r.steps) {
      if (s.error !== undefined) {
        out.push(`${style.bold(s.event)}: ${style.red(`refused: ${s.error}`)}\n`);
        continue;
      }
      out.push(`${style.bold(s.event)}: ${percent(s.movedFraction)} moved\n`);
      const rows: Cell[][] = [];
      for (const [change, map, paint] of [['lost', s.lost, style.red], ['gained', s.gained, style.green]] as const) {
        for (const [id, ranges] of Object.entries(map)) rows.push([id, { text: change, paint }, String(size(ranges)), rangesCell(ranges)]);
      }
      if (rows.length > 0) {
        out.push(renderTable([{ header: 'CONSUMER' }, { header: 'CHANGE' }, { header: 'HASHES', right: true }, { header: 'RANGES' }], rows, style));
      }
      for (const line of s.explain ?? []) out.push(`  ${line}\n`);
      out.push('\n');
    }
    if (r.keys.length > 0) {
      const rows = r.keys.map((k): Cell[] => [
        k.key,
        routeBrief(k.before),
        routeBrief(k.after),
        k.moved ? { text: 'yes', paint: style.yellow } : { text: 'no', paint: style.dim },
      ]);
      out.push(renderTable([{ header: 'KEY' }, { header: 'BEFORE' }, { header: 'AFTER' }, { header: 'MOVED' }], rows, style));
    }
  }
  return out.join('').replace(/\n+$/, '\n');
}

export function bundleTable(records: unknown[], style: Style): string {
  const rows = (records as Json[]).map((r): Cell[] => [
    show(r.topic),
    show(r.namespace),
    typeof r.hash === 'number' ? `0x${r.hash.toString(16).padStart(8, '0')}` : '',
    show(r.bundle),
    r.error === undefined ? '' : { text: show(r.error), paint: style.red },
  ]);
  return renderTable([{ header: 'TOPIC' }, { header: 'NAMESPACE' }, { header: 'HASH', right: true }, { header: 'BUNDLE' }, { header: 'ERROR' }], rows, style);
}

/** Units (partitions, consumers, bundles) shown per topic at most; the JSON has them all. */
const UNITS_SHOWN = 40;
/** Heaviest keys shown. */
const HEAVY_SHOWN = 10;

function skewText(s: Skew | null | undefined): string {
  if (!s) return '';
  const f = (x: number | null): string => (x === null ? '-' : x.toFixed(2));
  return `skew: max/mean ${f(s.maxOverMean)}, cv ${f(s.cv)}`;
}

function unitTable(label: string, units: Array<{ name: string; keys: number; keyShare: number; hashShare?: number }>, skew: Skew | null | undefined, style: Style): string {
  const rows = units.slice(0, UNITS_SHOWN).map((u): Cell[] => [
    u.name,
    String(u.keys),
    percent(u.keyShare),
    u.hashShare === undefined ? '' : percent(u.hashShare),
  ]);
  let out = renderTable([{ header: label }, { header: 'KEYS', right: true }, { header: 'KEY SHARE', right: true }, { header: 'HASH SHARE', right: true }], rows, style);
  if (units.length > UNITS_SHOWN) out += style.dim(`... ${units.length - UNITS_SHOWN} more (--format json has them all)`) + '\n';
  const sk = skewText(skew);
  return out + (sk ? `${sk}\n` : '');
}

type Figures = Pick<TopicFigures, 'partitionKeys' | 'partitionSkew' | 'consumers' | 'consumerSkew' | 'bundles' | 'bundleSkew' | 'unowned'>;

/** The tables of a topic's figures; with `before`, only those that differ from it. */
function figures(t: Figures, style: Style, before?: Figures): string {
  const changed = (a: unknown, b: unknown): boolean => !before || JSON.stringify(a) !== JSON.stringify(b);
  const parts: string[] = [];
  if (t.partitionKeys && changed(t.partitionKeys, before?.partitionKeys)) parts.push(unitTable('PARTITION', t.partitionKeys.map((p: PartitionFigure) => ({ name: String(p.partition), ...p })), t.partitionSkew, style));
  if (t.consumers && changed([t.consumers, t.unowned], [before?.consumers, before?.unowned])) {
    let s = unitTable('CONSUMER', t.consumers.map((c: ConsumerFigure) => ({ name: c.id, ...c })), t.consumerSkew, style);
    if (t.unowned) s += `${t.unowned} keys owned by nobody\n`;
    parts.push(s);
  }
  if (t.bundles && changed(t.bundles, before?.bundles)) parts.push(unitTable('BUNDLE', t.bundles.map((b) => ({ name: `${b.bundle} (p${b.partitions.join(',p')})`, keys: b.keys, keyShare: b.keyShare })), t.bundleSkew, style));
  return parts.join('\n');
}

export function analyzeTable(records: unknown[], style: Style): string {
  const out: string[] = [];
  for (const rec of records) {
    const r = rec as AnalysisResult;
    const i = r.input;
    out.push(`${i.keys} keys from ${i.lines} lines (${i.bytes} bytes)${r.problems.count ? `, ${r.problems.count} lines without a key` : ''}${r.status !== 'complete' ? ` (${r.status})` : ''}\n`);
    for (const p of r.problems.first.slice(0, 5)) out.push(style.red(`  line ${p.line}: ${p.message}`) + '\n');
    for (const e of r.whatIf?.events ?? []) if (e.error !== undefined) out.push(style.red(`  --then ${e.event}: ${e.topic}: ${e.error}`) + '\n');
    for (const t of r.topics) {
      const parts = t.system === 'kafka' || t.partitions > 0 ? `${t.partitions} partitions` : 'non-partitioned';
      out.push(`\n${style.bold(t.topic)} (${t.system}, ${parts})\n`, figures(t, style));
      if (t.after) {
        out.push(`\nafter ${(r.whatIf?.events ?? []).map((e) => e.event).join(' ')}: ${t.after.movedKeys} keys moved (${percent(t.after.movedShare)})\n`, figures(t.after, style, t));
      }
    }
    const h = r.heavyKeys;
    if (h.keys.length > 0) {
      const rows = h.keys.slice(0, HEAVY_SHOWN).map((k): Cell[] => [
        k.format === 'hex' ? `${k.key} (hex)` : k.key,
        k.exact ? String(k.count) : `>=${k.count}`,
        percent(k.keyShare),
        (k.routes ?? []).map((x) => heavyRoute(x)).join('; '),
      ]);
      out.push(`\n${style.bold('heaviest keys')}${h.exact ? '' : ' (counts marked >= are lower bounds)'}\n`);
      out.push(renderTable([{ header: 'KEY' }, { header: 'COUNT', right: true }, { header: 'SHARE', right: true }, { header: 'ROUTES' }], rows, style));
    }
  }
  return out.join('');
}

/** `payments p2 C3`, and `-> p2 C5` where the events move it. */
function heavyRoute(x: NonNullable<HeavyKey['routes']>[number]): string {
  const before = routeBrief(x as unknown as Json);
  const after = x.after ? routeBrief(x.after as unknown as Json) : before;
  return `${x.topic.slice(x.topic.lastIndexOf('/') + 1)} ${before}${after !== before ? ` -> ${after}` : ''}`;
}

interface StrategyRecord {
  label: string;
  refused: Array<{ name: string; error: string }>;
  movedFraction: number;
  consumersLosing: number;
  before: { maxOverMean: number | null; unowned: number };
  after: { maxOverMean: number | null; unowned: number };
  error?: string;
  note?: string;
}

/**
 * compare: a row per strategy (the share of key hashes that moves, how many consumers lose some,
 * the busiest consumer's share over the mean and the share nobody owns, before and after), then
 * the consumers each strategy's broker refused and its note.
 */
export function compareTable(records: unknown[], style: Style): string {
  const out: string[] = [];
  for (const rec of records as Array<{ topic: string; event: string; strategies: StrategyRecord[] }>) {
    const ratio = (v: number | null): Cell => (v === null ? none(style) : v.toFixed(3));
    const rows = rec.strategies.map((s): Cell[] => [
      s.label,
      s.error === undefined ? percent(s.movedFraction) : none(style),
      s.error === undefined ? String(s.consumersLosing) : none(style),
      ratio(s.before.maxOverMean),
      ratio(s.after.maxOverMean),
      percent(s.before.unowned),
      percent(s.after.unowned),
      s.error === undefined ? '' : { text: s.error, paint: style.red },
    ]);
    out.push(`${style.bold(rec.topic)}: ${rec.event} under each strategy\n`);
    out.push(
      renderTable(
        [
          { header: 'STRATEGY' },
          { header: 'MOVED', right: true },
          { header: 'LOSING', right: true },
          { header: 'MAX/MEAN BEFORE', right: true },
          { header: 'AFTER', right: true },
          { header: 'UNOWNED BEFORE', right: true },
          { header: 'AFTER', right: true },
          { header: 'ERROR' },
        ],
        rows,
        style,
      ),
    );
    for (const s of rec.strategies) {
      // Consumers refused for the same reason on one line (without ranges STICKY refuses them all).
      const byError = new Map<string, string[]>();
      for (const r of s.refused) byError.set(r.error, [...(byError.get(r.error) ?? []), r.name]);
      for (const [error, names] of byError) out.push(`  ${s.label}: ${style.red(`${names.join(', ')} refused: ${error}`)}\n`);
      if (s.note) out.push(`  ${s.label}: ${style.dim(s.note)}\n`);
    }
  }
  return out.join('');
}
