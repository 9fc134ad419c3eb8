/** `--topic NAME`: a configured topic by its name, or by the end of it where that is unambiguous. */
import { UsageError } from './args';
import { didYouMean } from './suggest';

/**
 * The configured name `given` stands for: the name itself, else the one name ending in
 * `/given` (`payments`, or `default/payments`, for `persistent://public/default/payments`).
 * Several such names, or none, are a usage error naming them (or the topics there are).
 */
export function resolveTopicName(given: string, names: readonly string[], configPath: string): string {
  if (names.includes(given)) return given;
  const matches = given === '' ? [] : names.filter((n) => n.endsWith('/' + given));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(`--topic ${given} is ambiguous in ${configPath}: ${matches.map((m) => JSON.stringify(m)).join(', ')}; give the full name`);
  }
  const short = names.map((n) => n.slice(n.lastIndexOf('/') + 1));
  const hint = didYouMean(given, [...new Set([...names, ...short])], (s) => JSON.stringify(s));
  const list = names.map((n) => JSON.stringify(n)).join(', ') || 'none';
  throw new UsageError(`--topic: no topic named ${JSON.stringify(given)} in ${configPath}${hint} (topics: ${list})`);
}
