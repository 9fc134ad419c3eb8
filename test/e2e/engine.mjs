// What the browser suites expect, worked out by the engine (dist/engine.js) on a workspace's
// settings as they are on disk at the moment of the check; never a figure read from the UI first.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './codeServer.mjs';

/** The built engine library. */
export const engine = () => createRequire(import.meta.url)(join(root, 'dist/engine.js'));

/**
 * The workspace's `.vscode/settings.json`, parsed. VS Code may be in the middle of writing it
 * (after "Apply" or "Add Topic"): a text that does not parse yet is read again until it does.
 */
export function readSettings(workspace) {
  const file = join(workspace, '.vscode/settings.json');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; ; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      if (i >= 40) throw new Error(`${file} does not parse: ${e.message}`);
      Atomics.wait(pause, 0, 0, 50); // the callers are synchronous; the file is written within milliseconds
    }
  }
}

/** The engine's topology of the workspace's settings; settings with problems are an error. */
export function topology(workspace) {
  const e = engine();
  const { settings, problems } = e.parseSettings(readSettings(workspace));
  if (problems.length) throw new Error(`the workspace settings have problems: ${problems[0].path}: ${problems[0].message}`);
  return new e.Topology(settings, []);
}

/** The engine's route of a text key on one topic. */
export const route = (workspace, topic, key) => topology(workspace).topic(topic).route(engine().stringKey(key));

/**
 * The engine's routes of a text key on every topic, in settings order; a Kafka topic that
 * `keyRouting.kafkaGroups` consume adds `groups` (the member of each group owning the partition).
 */
export function routes(workspace, key) {
  const t = topology(workspace);
  return t.topics.map((topic) => {
    const r = topic.route(engine().stringKey(key));
    return { ...r, ...engine().groupRouteFields(t.groups, r) };
  });
}

/** Throws unless `text` contains every fragment. */
export function assertContains(text, fragments, what) {
  const missing = fragments.filter((f) => !text.includes(f));
  if (missing.length) throw new Error(`${what} lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}; it reads: ${JSON.stringify(text)}`);
}

/**
 * What the group's rebalance moves when member `id` leaves, from the engine partition by partition
 * (the group's owners before, a copy's after): moved and total partition counts, and the takers as
 * the side bar's toast names them: `id +count`, the most first, nobody (`nobody`, as the display
 * language says it) last, five at most and then `more(n)`.
 */
export function memberLeaves(t, g, id, nobody = 'nobody', more = (n) => `(and ${n} more; see the Key Routing output)`) {
  const after = g.clone();
  if (!after.apply({ kind: 'leave', id }).ok) throw new Error(`the engine refuses -${id}`);
  const gains = new Map();
  let moved = 0;
  let total = 0;
  for (const x of g.config.topics) {
    for (let p = 0; p < t.topic(x).partitions; p++, total++) {
      const [a, b] = [g.ownerOf(x, p), after.ownerOf(x, p)];
      if (a === null || a === b) continue;
      moved++;
      gains.set(b, (gains.get(b) ?? 0) + 1);
    }
  }
  const order = [...gains].sort(([a, m], [b, n]) => (a === null) - (b === null) || n - m || (a < b ? -1 : 1));
  const named = order.slice(0, 5).map(([m, k]) => `${m ?? nobody} +${k}`).join(', ');
  return { moved, total, gains: order.length > 5 ? `${named} ${more(order.length - 5)}` : named };
}
