/**
 * Consumers in the order they connected. A broker lists a subscription's consumers in its
 * dispatcher's order, which is connection order only among consumers of one priority level, so
 * the order comes from each consumer's `connectedSince`: the broker's `DateFormatter` text, ISO
 * 8601 with an offset (`2024-10-21T05:39:39.077284+03:00`, `2021-06-09T17:22:29.913Z`), compared
 * to the nanosecond. Equal times keep the listed order.
 */

/** Nanoseconds since the epoch, or undefined where the text is not such a time. */
export function instantNanos(text: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?(?::?\d{2})?)$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms) || Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  let offsetSeconds = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(/:/g, '');
    offsetSeconds = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60 + Number(digits.slice(4, 6) || '0');
    if (zone[0] === '-') offsetSeconds = -offsetSeconds;
  }
  return (BigInt(ms) - BigInt(offsetSeconds) * 1000n) * 1_000_000n + BigInt(frac.padEnd(9, '0') || '0');
}

/**
 * Indexes of `items` in connection order. `order` is undefined where some time is missing or
 * unreadable: then the listed order stands, and `unreadable` names the first such item.
 */
export function connectionOrder<T>(items: readonly T[], timeOf: (t: T) => unknown): { order: number[]; unreadable?: number } {
  const times: bigint[] = [];
  for (let i = 0; i < items.length; i++) {
    const t = timeOf(items[i]);
    const n = typeof t === 'string' ? instantNanos(t) : undefined;
    if (n === undefined) return { order: items.map((_, j) => j), unreadable: i };
    times.push(n);
  }
  const order = items.map((_, i) => i);
  order.sort((a, b) => (times[a] < times[b] ? -1 : times[a] > times[b] ? 1 : a - b));
  return { order };
}
