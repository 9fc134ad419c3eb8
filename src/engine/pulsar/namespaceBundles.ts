/**
 * Namespace bundles: which bundle of its namespace a topic belongs to, as the broker's
 * `NamespaceBundleFactory` / `NamespaceBundles` compute it.
 *
 * - The topic hash is the unsigned CRC-32 of the UTF-8 bytes of the resolved full topic name
 *   (`Hashing.crc32().hashString(TopicName.toString(), UTF_8).padToLong()`), 0..0xffffffff.
 * - A layout is a sorted list of boundaries b[0] = 0 < ... < b[n] = 0xffffffff; bundle i is
 *   [b[i], b[i+1]) except the last, which is closed at 0xffffffff. The lookup takes the greatest
 *   boundary <= hash (`Arrays.binarySearch`). For a hash equal to the last boundary (0xffffffff)
 *   that search lands one past the last bundle and the broker's `getBundle` would throw an
 *   index-out-of-bounds error; the bundle's own range (closed at 0xffffffff) contains it, so it is
 *   reported here in the last bundle.
 * - An equal split of n bundles is `PoliciesUtil.getBundles(n)`: steps of 2^32 / n (integer
 *   division) and a last boundary of 0xffffffff whatever the remainder, so the last bundle is the
 *   widest. The count is a Java int (1..2^31-1), so equal layouts are computed, not stored.
 * - Names are `0x%08x_0x%08x` of the bundle's lower and upper boundary, lower-case hex.
 */
import { crc32OfString } from './crc32';
import { parseTopicName, type TopicName } from './topicName';

export const FULL_LOWER_BOUND = 0x00000000;
export const FULL_UPPER_BOUND = 0xffffffff;
/** `2^32`, `PoliciesUtil`'s `MAX_BUNDLES`, which it divides by the bundle count. */
const HASH_SPACE = 0x100000000;
/** The bundle count is a Java int. */
export const MAX_BUNDLE_COUNT = 0x7fffffff;

export interface Bundle {
  index: number;
  lower: number;
  /** Exclusive, except for the last bundle, where it is 0xffffffff and inclusive. */
  upper: number;
  /** `0x00000000_0x40000000`. */
  name: string;
}

/** The boundaries of a namespace: given explicitly, or an equal split computed on demand. */
export class NamespaceBundles {
  private constructor(
    private readonly explicit: readonly number[] | undefined,
    private readonly count: number,
    private readonly seg: number,
  ) {}

  /** `PoliciesUtil.getBundles(n)`. */
  static equal(n: number): NamespaceBundles {
    if (!Number.isInteger(n) || n < 1 || n > MAX_BUNDLE_COUNT) {
      throw new RangeError(`the number of bundles must be an integer from 1 to ${MAX_BUNDLE_COUNT} (got ${n})`);
    }
    return new NamespaceBundles(undefined, n, Math.floor(HASH_SPACE / n));
  }

  /** Boundaries ascending, first 0 and last 0xffffffff (as settings parsing leaves them). */
  static fromBoundaries(boundaries: readonly number[]): NamespaceBundles {
    const ok =
      boundaries.length >= 2 &&
      boundaries[0] === FULL_LOWER_BOUND &&
      boundaries[boundaries.length - 1] === FULL_UPPER_BOUND &&
      boundaries.every((b, i) => Number.isInteger(b) && (i === 0 || b > boundaries[i - 1]));
    if (!ok) throw new RangeError('bundle boundaries must be ascending integers from 0x00000000 to 0xffffffff');
    return new NamespaceBundles([...boundaries], boundaries.length - 1, 0);
  }

  /** Number of bundles. */
  get size(): number {
    return this.count;
  }

  /** Boundary i, 0 <= i <= size. */
  boundary(i: number): number {
    if (this.explicit) return this.explicit[i];
    return i >= this.count ? FULL_UPPER_BOUND : i * this.seg;
  }

  bundle(index: number): Bundle {
    const lower = this.boundary(index);
    const upper = this.boundary(index + 1);
    return { index, lower, upper, name: bundleName(lower, upper) };
  }

  /** The bundle holding `hash` (0..0xffffffff): the greatest boundary <= hash. */
  indexOf(hash: number): number {
    if (!this.explicit) return Math.min(Math.floor(hash / this.seg), this.count - 1);
    const b = this.explicit;
    let lo = 0;
    let hi = b.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (b[mid] <= hash) lo = mid;
      else hi = mid - 1;
    }
    return Math.min(lo, this.count - 1);
  }

  bundleOf(hash: number): Bundle {
    return this.bundle(this.indexOf(hash));
  }

  /** All boundaries; refuses layouts too large to list. */
  boundaries(max = 1 << 20): number[] {
    if (this.count + 1 > max) throw new RangeError(`${this.count} bundles are too many to list`);
    const out: number[] = [];
    for (let i = 0; i <= this.count; i++) out.push(this.boundary(i));
    return out;
  }
}

/** `PoliciesUtil.getBundles(n)` as a list (n must be small enough to list). */
export function equalBoundaries(n: number): number[] {
  return NamespaceBundles.equal(n).boundaries();
}

/** `String.format("0x%08x", v)` for 0..0xffffffff. */
export function hex8(v: number): string {
  return '0x' + v.toString(16).padStart(8, '0');
}

export function bundleName(lower: number, upper: number): string {
  return `${hex8(lower)}_${hex8(upper)}`;
}

/** The broker's topic hash: unsigned CRC-32 of the full name's UTF-8 bytes. */
export function topicHash(fullName: string): number {
  return crc32OfString(fullName);
}

export interface TopicBundle {
  topic: TopicName;
  hash: number;
  bundle: Bundle;
}

/** Resolves a topic name (throws `TopicNameError`), hashes it and finds its bundle in `layout`. */
export function topicBundle(name: string, layout: NamespaceBundles): TopicBundle {
  const topic = parseTopicName(name);
  const hash = topicHash(topic.fullName);
  return { topic, hash, bundle: layout.bundleOf(hash) };
}

/**
 * `Long.decode`: optional sign, then `0x`/`0X`/`#` for hex, a leading `0` for octal, else decimal;
 * the value must fit a Java long. Returns the value, or a message saying what is wrong. (Java's
 * digit parsing also accepts non-ASCII digits; only ASCII digits are taken here.)
 */
export function javaLongDecode(s: string): bigint | string {
  if (s.length === 0) return 'empty string';
  let i = 0;
  let negative = false;
  if (s[0] === '-') {
    negative = true;
    i++;
  } else if (s[0] === '+') i++;
  let radix = 10;
  if (s.startsWith('0x', i) || s.startsWith('0X', i)) {
    radix = 16;
    i += 2;
  } else if (s.startsWith('#', i)) {
    radix = 16;
    i++;
  } else if (s.startsWith('0', i) && s.length > i + 1) {
    radix = 8;
    i++;
  }
  if (s.startsWith('-', i) || s.startsWith('+', i)) return 'sign character in wrong position';
  const digits = s.slice(i);
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return `not a ${radix === 16 ? 'hex' : radix === 8 ? 'octal' : 'decimal'} number`;
  let v = 0n;
  const r = BigInt(radix);
  for (const d of digits) v = v * r + BigInt(parseInt(d, radix));
  if (negative) v = -v;
  if (v < -(1n << 63n) || v > (1n << 63n) - 1n) return 'out of the range of a Java long';
  return v;
}

/**
 * A bundle written `LOWER_UPPER` (`NamespaceBundleFactory.getBundle(namespace, range)`: both ends
 * through `Long.decode`, the upper end exclusive unless it is 0xffffffff). Throws with what is wrong.
 */
export function parseBundleRange(text: string): { lower: number; upper: number } {
  const parts = text.split('_');
  if (parts.length !== 2) throw new RangeError(`must be "LOWER_UPPER" like "0x00000000_0x40000000" (got ${JSON.stringify(text)})`);
  const ends = parts.map((p, i) => {
    const v = javaLongDecode(p);
    const which = i === 0 ? 'lower' : 'upper';
    if (typeof v === 'string') throw new RangeError(`${which} end ${JSON.stringify(p)}: ${v}`);
    if (v < 0n || v > BigInt(FULL_UPPER_BOUND)) throw new RangeError(`${which} end ${JSON.stringify(p)} is outside 0x00000000..0xffffffff`);
    return Number(v);
  });
  if (ends[0] >= ends[1]) throw new RangeError(`lower end must be below the upper end (got ${JSON.stringify(text)})`);
  return { lower: ends[0], upper: ends[1] };
}
