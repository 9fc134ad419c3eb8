/**
 * CSV export of an analysis (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote
 * or line break quoted with doubled quotes). One long table that spreadsheets pivot easily:
 *
 *   section,topic,scenario,name,keys,key_share,hash_share,exact
 *
 * - section: partition | consumer | unowned | bundle | heavy_key
 * - scenario: before, or after (the what-if); empty for heavy keys
 * - name: the partition number, consumer id, bundle name, or the key (hex where not text)
 * - hash_share: the unit's share of the hash space (partitions, consumers); empty elsewhere
 * - exact: heavy keys only: whether the count is exact (else it is a lower bound)
 */
import type { AnalysisResult, TopologyFigures } from './figures';

const HEADER = ['section', 'topic', 'scenario', 'name', 'keys', 'key_share', 'hash_share', 'exact'];

export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function row(fields: Array<string | number | boolean | null | undefined>): string {
  return fields.map(csvField).join(',') + '\r\n';
}

function topologyRows(topic: string, scenario: string, f: TopologyFigures, total: number): string {
  let out = '';
  for (const p of f.partitionKeys ?? []) out += row(['partition', topic, scenario, p.partition, p.keys, p.keyShare, p.hashShare, null]);
  for (const c of f.consumers ?? []) out += row(['consumer', topic, scenario, c.id, c.keys, c.keyShare, c.hashShare, null]);
  if (f.unowned !== undefined) out += row(['unowned', topic, scenario, null, f.unowned, total > 0 ? f.unowned / total : 0, null, null]);
  for (const b of f.bundles ?? []) out += row(['bundle', topic, scenario, b.bundle, b.keys, b.keyShare, null, null]);
  return out;
}

export function toCsv(result: AnalysisResult): string {
  let out = row(HEADER);
  const total = result.input.keys;
  for (const t of result.topics) {
    out += topologyRows(t.topic, 'before', t, total);
    if (t.after) out += topologyRows(t.topic, 'after', t.after, total);
  }
  for (const k of result.heavyKeys.keys) out += row(['heavy_key', null, null, k.key, k.count, k.keyShare, null, k.exact]);
  return out;
}
