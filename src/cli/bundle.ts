/**
 * `key-routing bundle --config FILE`: for each topic name on stdin, the namespace bundle the broker
 * puts it in. One JSON line per input line: `{"topic", "namespace", "hash", "bundle"}` with `topic`
 * the resolved full name the broker hashes; a name that does not resolve, or whose namespace is not
 * configured, gives `{"topic": <line>, "error": ...}` and the run goes on.
 */
import { type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { inputLines, loadSettings } from './io';
import { configPath } from './settingsFile';
import { namespaceBundles, NAMESPACES } from '../engine/settings';
import { topicBundle, type NamespaceBundles } from '../engine/pulsar/namespaceBundles';
import { parseTopicName, TopicNameError } from '../engine/pulsar/topicName';
import type { CommandSpec } from './command';
import { CONFIG } from './commonOptions';
import { bundleTable } from './tableViews';

export function bundleCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const settings = loadSettings(io, configPath(io, args));
  const layouts = new Map<string, NamespaceBundles>();
  for (const ns of settings.namespaces) layouts.set(ns.name, namespaceBundles(ns));
  const configured = settings.namespaces.length > 0 ? settings.namespaces.map((n) => n.name).join(', ') : 'none';
  const decoder = new TextDecoder();
  for (const line of inputLines(io, args, 'topic names')) {
    const text = decoder.decode(line);
    let namespace: string;
    try {
      namespace = parseTopicName(text).namespace;
    } catch (e) {
      if (!(e instanceof TopicNameError)) throw e;
      write(JSON.stringify({ topic: text, error: e.message }) + '\n');
      continue;
    }
    const layout = layouts.get(namespace);
    if (!layout) {
      write(
        JSON.stringify({
          topic: text,
          namespace,
          error: `namespace ${JSON.stringify(namespace)} is not configured in ${NAMESPACES} (configured: ${configured})`,
        }) + '\n',
      );
      continue;
    }
    const r = topicBundle(text, layout);
    write(JSON.stringify({ topic: r.topic.fullName, namespace, hash: r.hash, bundle: r.bundle.name }) + '\n');
  }
}

export const bundleSpec: CommandSpec = {
  name: 'bundle',
  summary: 'The namespace bundle each Pulsar topic falls in.',
  operands: { name: 'TOPIC', description: 'Topic names (persistent://tenant/ns/name; a short name means persistent://public/default/NAME). Without any, stdin, one per line.' },
  options: [CONFIG],
  details: ['JSON: one line per topic, {"topic", "namespace", "hash", "bundle"}; a name that does not resolve, or whose namespace is not configured, gives {"topic", "error"}.'],
  examples: ['key-routing bundle persistent://public/default/orders', 'key-routing bundle < topics.txt'],
  table: bundleTable,
  run: bundleCommand,
};
