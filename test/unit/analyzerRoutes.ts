import type { KeyAnalyzer } from '../../src/analyze/analyzer';
import { KEY_ERROR } from '../../src/analyze/topicRouting';

/**
 * Where the analyzer's last key went on each topic (the partition, or null for a non-partitioned
 * topic; the consumer id, or null), before or under the what-if: for comparing with `route` key by key.
 */
export function lastRoutes(a: KeyAnalyzer, which: 'before' | 'after' = 'before'): Array<{ topic: string; partition: number | null; consumer: string | null; error?: true }> {
  const counters = which === 'before' ? a.before : a.after;
  if (counters === null) return [];
  return counters.map((c) => ({
    topic: c.topic.name,
    partition: c.partition < 0 ? null : c.partition,
    ...(c.partition === KEY_ERROR ? { error: true as const } : {}),
    consumer: c.consumer < 0 ? null : c.consumers[c.consumer].id,
  }));
}
