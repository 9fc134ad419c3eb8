/**
 * `key-routing import kafka-topics`: the text of `kafka-topics.sh --describe` into Kafka topic
 * entries with their partition counts and topic ids. TopicCommand prints, per topic,
 * `Topic: t<TAB>TopicId: id<TAB>PartitionCount: n<TAB>ReplicationFactor: r<TAB>Configs: ...`
 * (TopicId only where the topic has one, i.e. not the zero UUID; before Kafka 2.4 without the
 * space after each colon), then one `<TAB>Topic: t<TAB>Partition: p<TAB>Leader: ...` line per
 * partition. Entries the settings already have keep their other settings (the partitioner).
 */
import { TOPICS } from '../engine/settings';
import { fail, quote } from './errors';
import { existingEntry, type Imported, type ImportOptions } from './options';

const HEADER = /^Topic:\s*(\S+)\s+(?:TopicId:\s*(\S+)\s+)?PartitionCount:\s*(\d+)\s+ReplicationFactor:\s*(\d+)/;
const PARTITION = /^Topic:\s*(\S+)\s+Partition:\s*(\d+)\s+Leader:/;
/** A topic id as Kafka prints it: 16 bytes, URL-safe base64 without padding. */
const TOPIC_ID = /^[A-Za-z0-9_-]{22}$/;

export function importKafkaTopics(text: string, opts: ImportOptions): Imported {
  const src = opts.source;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.every((l) => l.trim() === '')) fail(src, 'is empty; expected the output of kafka-topics.sh --describe');
  const found = new Map<string, { partitions: number; topicId?: string; line: number; listed: Set<number>; deleting: boolean }>();
  const orphans: string[] = [];
  lines.forEach((raw, i) => {
    const t = raw.trim();
    if (t === '') return;
    let m = HEADER.exec(t);
    if (m) {
      const [, name, topicId, count] = m;
      if (topicId !== undefined && !TOPIC_ID.test(topicId)) fail(src, `line ${i + 1}: TopicId ${quote(topicId)} is not a Kafka topic id (22 characters of URL-safe base64)`);
      const partitions = Number(count);
      // An int32 in Kafka: a count past it is not Kafka's, and the settings would refuse it.
      if (!(partitions > 0 && partitions < 2 ** 31)) fail(src, `line ${i + 1}: ${name} has PartitionCount ${count}; a Kafka topic has 1 to 2147483647 partitions`);
      if (found.has(name)) fail(src, `line ${i + 1}: ${name} is described twice`);
      found.set(name, { partitions, topicId, line: i + 1, listed: new Set(), deleting: /\bMarkedForDeletion:\s*true\b/.test(t) });
      return;
    }
    m = PARTITION.exec(t);
    if (m) {
      const topic = found.get(m[1]);
      if (!topic) orphans.push(m[1]);
      else topic.listed.add(Number(m[2]));
      return;
    }
    if (/^Error while executing topic command\s*:/.test(t) || /^Exception in thread /.test(t)) fail(src, `is an error message, not a topic description: ${quote(t, 200)}`);
    if (/^GROUP\s+/.test(t) || /has no active members\.$/.test(t)) {
      fail(src, 'is the output of kafka-consumer-groups.sh, not of kafka-topics.sh --describe; import it as kafka-groups');
    }
    // WARNING lines and config dumps are the tool's chatter; anything else is not its output.
    if (!/^(WARNING|WARN|INFO)\b/.test(t) && !/^\s/.test(raw) && found.size === 0) {
      fail(src, `line ${i + 1}: ${quote(t)} is not a line of kafka-topics.sh --describe (Topic: NAME TopicId: ... PartitionCount: N ...)`);
    }
  });
  if (found.size === 0) {
    if (orphans.length > 0) {
      fail(src, 'lists partitions but no topic line (Topic: NAME ... PartitionCount: N): --under-replicated-partitions and the other report options print only some partitions; describe the topics without them');
    }
    fail(src, 'has no kafka-topics.sh --describe output (lines "Topic: NAME<TAB>TopicId: ...<TAB>PartitionCount: N")');
  }
  const notes: string[] = [];
  const topics = [...found].map(([name, t]) => {
    const extra = [...t.listed].filter((p) => p >= t.partitions);
    if (extra.length > 0) fail(src, `line ${t.line}: ${name} has PartitionCount ${t.partitions} but a line for partition ${extra[0]}`);
    if (t.listed.size > 0 && t.listed.size < t.partitions) notes.push(`${name}: ${t.partitions - t.listed.size} of its ${t.partitions} partitions have no line in the output; PartitionCount is taken`);
    if (t.deleting) notes.push(`${name} is marked for deletion`);
    const base = existingEntry(opts.base, TOPICS, name);
    if (base && base.system !== 'kafka') fail(src, `describes Kafka topic ${name}, which the settings have as a ${JSON.stringify(base.system)} topic`);
    const entry: Record<string, unknown> = base ? { ...base } : { name, system: 'kafka' };
    entry.partitions = t.partitions;
    if (t.topicId !== undefined) entry.topicId = t.topicId;
    return entry;
  });
  return { topics, groups: [], notes };
}
