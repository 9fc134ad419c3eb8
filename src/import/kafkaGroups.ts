/**
 * `key-routing import kafka-groups`: the text of `kafka-consumer-groups.sh --describe` (one group
 * or `--all-groups`) into `keyRouting.kafkaGroups` entries with the owners of every partition as
 * `observed.owners`, plus `keyRouting.topics` entries for topics the settings do not have.
 *
 * Views it reads (ConsumerGroupCommand; several may be pasted into one file):
 * - `--describe` / `--offsets`: GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG
 *   CONSUMER-ID HOST CLIENT-ID, one row per owned partition (members with the most partitions
 *   first) and one per partition with a committed offset but no owner (CONSUMER-ID `-`). Before
 *   Kafka 2.0 a member without partitions had a row with TOPIC and PARTITION `-`.
 * - `--members [--verbose]`: GROUP CONSUMER-ID [GROUP-INSTANCE-ID] HOST CLIENT-ID #PARTITIONS
 *   [ASSIGNMENT]: every member, those without partitions too; ASSIGNMENT as `t(0,1)`, `t:0,1` or,
 *   from Kafka 3.7-3.9, `(0,1)` without the topic.
 * - `--state`: GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS: the assignor.
 * - the tool's messages: "Consumer group 'g' has no active members.", "Warning: Consumer group
 *   'g' is rebalancing.", "Error: Consumer group 'g' does not exist.", "Error: Executing consumer
 *   group command failed due to ...".
 * Join order is not in the output: members are listed in the order they first appear.
 */
import { ASSIGNOR_NAMES, MAX_LISTED_PARTITIONS } from '../engine/kafka/consumerGroup';
import { KAFKA_GROUPS, TOPICS } from '../engine/settings';
import { cutRow, headerColumns, splitRow, type Column, type Row } from './consoleTable';
import { fail, quote } from './errors';
import { existingEntry, type Imported, type ImportOptions } from './options';

/** The assignors keyRouting.kafkaGroups knows, as the group's settings name them. */
export const ASSIGNORS = ASSIGNOR_NAMES;
const GROUP_STATES = ['Unknown', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Empty', 'Assigning', 'Reconciling', 'NotReady'];
/** Kafka topic names: letters, digits, '.', '_' and '-'. */
const TOPIC_NAME = /^[A-Za-z0-9._-]+$/;

interface Group {
  name: string;
  members: string[];
  /** topic -> partition -> member (null: a committed offset but no owner). */
  owners: Map<string, Map<number, string | null>>;
  /** Partitions listed as `(0,1)` without a topic, per member (Kafka 3.7-3.9 --members --verbose). */
  untitled: Map<string, number[]>;
  strategy?: string;
  empty: boolean;
  rebalancing: boolean;
}

export function importKafkaGroups(text: string, opts: ImportOptions): Imported {
  const src = opts.source;
  if (opts.assignor !== undefined && !(ASSIGNORS as readonly string[]).includes(opts.assignor)) {
    fail('--assignor', `must be one of ${ASSIGNORS.join(', ')} (got ${JSON.stringify(opts.assignor)})`);
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.every((l) => l.trim() === '')) fail(src, 'is empty; expected the output of kafka-consumer-groups.sh --describe');
  const groups = new Map<string, Group>();
  const group = (name: string): Group => {
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { name, members: [], owners: new Map(), untitled: new Map(), empty: false, rebalancing: false }));
    return g;
  };
  const notes: string[] = [];
  const missing: string[] = [];
  const errors: string[] = [];
  let columns: Column[] | undefined;
  let view: 'offsets' | 'members' | 'state' | undefined;

  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.replace(/\s+$/, '');
    const t = line.trim();
    if (t === '') {
      columns = undefined;
      return;
    }
    let m: RegExpExecArray | null;
    if ((m = /^(?:Error: )?(?:The )?[Cc]onsumer group '(.*)' does not exist\.$/.exec(t)) || (m = /^Error: '(.*)' does not exist\.$/.exec(t))) {
      missing.push(m[1]);
      columns = undefined;
      return;
    }
    if ((m = /^Consumer group '(.*)' has no active members\.$/.exec(t))) {
      group(m[1]).empty = true;
      columns = undefined;
      return;
    }
    if ((m = /^Warning: Consumer group '(.*)' is rebalancing\.$/.exec(t))) {
      group(m[1]).rebalancing = true;
      columns = undefined;
      return;
    }
    if (/^Error: /.test(t) || /^Exception in thread /.test(t) || /^[a-z]+(\.[a-zA-Z_$]+)+(Exception|Error)\b/.test(t)) {
      errors.push(t);
      columns = undefined;
      return;
    }
    if (/^\s*at [\w$.]+\(/.test(line) || /^\.\.\. \d+ more$/.test(t)) return;
    const labels = t.split(/\s+/);
    if (labels[0] === 'GROUP' || (labels[0] === 'TOPIC' && labels.includes('CONSUMER-ID'))) {
      const cols = headerColumns(line);
      const has = (l: string) => cols.some((c) => c.label === l);
      if (labels[0] !== 'GROUP') fail(src, `line ${lineNo}: this table has no GROUP column (kafka-consumer-groups.sh before Kafka 2.0 left it out); describe the group with a newer tool, which names the group on every row`);
      if (has('TOPIC') && has('PARTITION') && has('CONSUMER-ID')) view = 'offsets';
      else if (has('CONSUMER-ID') && has('#PARTITIONS')) view = 'members';
      else if (has('COORDINATOR (ID)') && has('STATE')) view = 'state';
      else fail(src, `line ${lineNo}: ${quote(t)} is not a header of kafka-consumer-groups.sh --describe (offsets, --members or --state)`);
      columns = cols;
      return;
    }
    if (!columns || !view) {
      if (/^Topic:\s*\S+\s+(TopicId|PartitionCount)/.test(t) || /^Topic:\s*\S+\s+Partition:/.test(t)) {
        fail(src, 'is the output of kafka-topics.sh --describe, not of kafka-consumer-groups.sh --describe; import it as kafka-topics');
      }
      return;
    }
    if (view === 'state') {
      const s = /^(.*?)\s+(\S+:\d+)\s+\((-?\d+)\)\s+(\S*)\s+(\S+)\s+(\d+)$/.exec(t);
      if (!s || !GROUP_STATES.includes(s[5])) fail(src, `line ${lineNo}: ${quote(t)} is not a row of the --state view (GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS)`);
      const g = group(s[1]);
      if (s[4] !== '' && s[5] !== 'Empty' && s[5] !== 'Dead') g.strategy = s[4];
      if (s[5] === 'Empty') g.empty = true;
      return;
    }
    const row = readRow(columns, line, lineNo, view, src);
    const g = group(row.cells.get('GROUP')!);
    const member = row.cells.get('CONSUMER-ID')!;
    if (view === 'offsets') {
      const topic = row.cells.get('TOPIC')!;
      const partition = row.cells.get('PARTITION')!;
      if (topic === '-' && partition === '-') {
        if (member !== '-') addMember(g, member);
        return;
      }
      if (member !== '-') addMember(g, member);
      setOwner(g, topic, Number(partition), member === '-' ? null : member, src, lineNo);
      return;
    }
    addMember(g, member);
    const assignment = row.cells.get('ASSIGNMENT');
    if (assignment !== undefined) readAssignment(g, member, assignment, src, lineNo);
  });

  if (groups.size === 0) {
    if (missing.length > 0) fail(src, `the output says the consumer group ${missing.map((x) => `'${x}'`).join(', ')} does not exist`);
    if (errors.length > 0) fail(src, `is an error message, not a group description: ${quote(errors[0], 200)}`);
    const words = lines.map((l) => l.trim()).filter((l) => l !== '');
    if (words.every((l) => /^\S+$/.test(l))) {
      fail(src, 'looks like the output of kafka-consumer-groups.sh --list (group names only); describe them with --describe --group NAME or --describe --all-groups');
    }
    fail(src, 'has no kafka-consumer-groups.sh --describe table (a header line GROUP TOPIC PARTITION ... CONSUMER-ID HOST CLIENT-ID)');
  }
  for (const x of missing) notes.push(`the output says consumer group '${x}' does not exist: left out`);
  for (const e of errors) notes.push(`the output also holds an error message: ${quote(e, 200)}`);

  const out: Imported = { topics: [], groups: [], notes };
  const topicCounts = new Map<string, number>();
  const lists: Array<[string, Array<string | null>]> = [];
  for (const g of groups.values()) {
    resolveUntitled(g, src);
    if (g.rebalancing) notes.push(`consumer group '${g.name}' was rebalancing when described: its owners may be partial`);
    const topics = [...g.owners.keys()].filter((topic) => g.members.length === 0 || [...g.owners.get(topic)!.values()].some((o) => o !== null));
    for (const topic of g.owners.keys()) {
      if (!topics.includes(topic)) notes.push(`consumer group '${g.name}' has committed offsets on ${topic} but no member owns any of its partitions: left out of the group's topics (its members do not seem to subscribe to it)`);
    }
    if (topics.length === 0) {
      if (g.members.length > 0) fail(src, `lists the members of consumer group '${g.name}' but none of their partitions: import the --describe (offsets) view, or --members --verbose`);
      notes.push(`consumer group '${g.name}' has no members and no committed offsets: left out`);
      continue;
    }
    const owners: Record<string, Array<string | null>> = {};
    for (const topic of topics) {
      const count = topicCount(topic, g, opts, topicCounts, notes, src);
      const list: Array<string | null> = new Array(count).fill(null);
      for (const [p, m] of g.owners.get(topic)!) list[p] = m;
      lists.push([topic, (owners[topic] = list)]);
    }
    const base = existingEntry(opts.base, KAFKA_GROUPS, g.name);
    const entry: Record<string, unknown> = { name: g.name, assignor: assignorOf(g, opts, base, notes), topics, members: g.members.map((id) => ({ id })) };
    entry.observed = opts.at !== undefined ? { at: opts.at, owners } : { owners };
    out.groups.push(entry);
  }
  // A later group may show a higher partition of a topic: every group's owners cover the final count.
  for (const [topic, list] of lists) while (list.length < topicCounts.get(topic)!) list.push(null);
  for (const [topic, count] of topicCounts) {
    const base = existingEntry(opts.base, TOPICS, topic);
    if (base && base.partitions === count) continue;
    out.topics.push(base ? { ...base, partitions: count } : { name: topic, system: 'kafka', partitions: count });
  }
  return out;
}

function readRow(columns: Column[], line: string, lineNo: number, view: 'offsets' | 'members', src: string): Row {
  const valid = (r: Row | undefined): r is Row => {
    if (!r) return false;
    const id = r.cells.get('CONSUMER-ID');
    if (!r.cells.get('GROUP') || !id || /\s/.test(id)) return false;
    if (view === 'members') return /^\d+$/.test(r.cells.get('#PARTITIONS') ?? '');
    const p = r.cells.get('PARTITION') ?? '';
    const topic = r.cells.get('TOPIC') ?? '';
    return (p === '-' && topic === '-') || (/^\d+$/.test(p) && TOPIC_NAME.test(topic));
  };
  const cut = cutRow(columns, line, lineNo);
  if (valid(cut)) return cut;
  const split = splitRow(columns, line, lineNo);
  if (valid(split)) return split;
  const what = view === 'offsets' ? 'GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID' : 'GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS';
  fail(src, `line ${lineNo}: ${quote(line)} is not a row of the table above it (${what})`);
}

function addMember(g: Group, id: string): void {
  if (!g.members.includes(id)) g.members.push(id);
}

function setOwner(g: Group, topic: string, partition: number, member: string | null, src: string, line: number): void {
  // The owners are written one per partition, and the group holds them so: partition 99,999,999
  // ran the import out of memory (a real topic with 200,000 partitions is already far past Kafka's
  // own advice, and past what the engine lists and the panel counts partition by partition).
  if (!Number.isSafeInteger(partition) || partition >= MAX_LISTED_PARTITIONS) fail(src, `line ${line}: partition ${partition} is out of range (0-199999)`);
  let byPartition = g.owners.get(topic);
  if (!byPartition) g.owners.set(topic, (byPartition = new Map()));
  const before = byPartition.get(partition);
  if (before !== undefined && before !== null && member !== null && before !== member) {
    fail(src, `line ${line}: ${topic} partition ${partition} of group '${g.name}' is owned by ${before} and by ${member}; a partition has one owner in a group`);
  }
  if (before === undefined || before === null) byPartition.set(partition, member);
}

/** ASSIGNMENT of --members --verbose: `-`, `t(0,1), u(2)`, `t:0,1`, or `(0,1)` without the topic. */
function readAssignment(g: Group, member: string, text: string, src: string, line: number): void {
  if (text === '-' || text === '') return;
  const re = /([A-Za-z0-9._-]*)\(([\d,\s]*)\)|([A-Za-z0-9._-]+):(\d+(?:,\d+)*)/g;
  let consumed = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    consumed += m[0];
    const topic = m[1] ?? m[3];
    const parts = (m[2] ?? m[4]).split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number);
    if (topic === '') g.untitled.set(member, [...(g.untitled.get(member) ?? []), ...parts]);
    else for (const p of parts) setOwner(g, topic, p, member, src, line);
  }
  if (consumed.replace(/[\s,]/g, '') !== text.replace(/[\s,]/g, '')) fail(src, `line ${line}: ASSIGNMENT ${quote(text)} is not a list of topic(partitions)`);
}

/** Partitions listed without their topic belong to the group's only topic, if it has one. */
function resolveUntitled(g: Group, src: string): void {
  if (g.untitled.size === 0) return;
  const topics = [...g.owners.keys()];
  if (topics.length !== 1) {
    fail(src, `the ASSIGNMENT column of group '${g.name}' lists partitions without their topic (as kafka-consumer-groups.sh of Kafka 3.7 to 3.9 prints them) and the group has ${topics.length === 0 ? 'no topic named elsewhere' : `several topics (${topics.join(', ')})`}: import the --describe (offsets) view instead`);
  }
  for (const [member, parts] of g.untitled) for (const p of parts) setOwner(g, topics[0], p, member, src, 0);
}

/** A topic's partition count: the settings' where they have it (raised if the output shows more), else highest listed + 1. */
function topicCount(topic: string, g: Group, opts: ImportOptions, counts: Map<string, number>, notes: string[], src: string): number {
  // A loop, not Math.max(...partitions): 130,000 listed partitions overflowed the stack as arguments.
  let highest = 0;
  for (const p of g.owners.get(topic)!.keys()) highest = Math.max(highest, p + 1);
  const base = existingEntry(opts.base, TOPICS, topic);
  if (base && base.system !== 'kafka') fail(src, `lists Kafka topic ${topic}, which the settings have as a ${JSON.stringify(base.system)} topic`);
  const configured = typeof base?.partitions === 'number' ? base.partitions : undefined;
  const known = counts.get(topic);
  let count = Math.max(known ?? 0, configured ?? 0, highest);
  if (configured !== undefined && highest > configured && known === undefined) {
    notes.push(`${topic}: the output shows partition ${highest - 1}, so the topic has at least ${highest} partitions; the settings said ${configured}`);
  }
  if (configured === undefined && known === undefined) {
    notes.push(`${topic} is not in the settings: added with ${highest} partitions, the highest the output shows + 1 (import kafka-topics.sh --describe for the exact count)`);
  }
  count = Math.max(count, highest);
  // The settings' count sizes the owners list, as a listed partition does (setOwner).
  if (count > MAX_LISTED_PARTITIONS) fail(src, `${topic} has ${count} partitions in the settings: out of range (1-200000)`);
  counts.set(topic, count);
  return count;
}

function assignorOf(g: Group, opts: ImportOptions, base: Record<string, unknown> | undefined, notes: string[]): string {
  if (opts.assignor !== undefined) return opts.assignor;
  if (g.strategy !== undefined) {
    if ((ASSIGNORS as readonly string[]).includes(g.strategy)) {
      if (g.strategy === 'range') notes.push(`consumer group '${g.name}': assignment strategy "range" is taken as the classic protocol's RangeAssignor; a group.protocol=consumer group's "range" is the server-side assignor, give --assignor server-range`);
      return g.strategy;
    }
    notes.push(`consumer group '${g.name}' uses assignment strategy ${JSON.stringify(g.strategy)}, which is not modelled: give --assignor`);
  }
  if (typeof base?.assignor === 'string') return base.assignor;
  return 'range';
}
