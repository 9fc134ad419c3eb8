/**
 * Java's digit rules, for reading a typed key as Java reads it: `Character.digit(char, radix)` and
 * `Long.parseLong(s, begin, end, radix)` (which `Integer.parseInt`, `Short.parseShort` and
 * `UUID.fromString` rely on).
 *
 * `Character.digit` accepts more than ASCII: every Unicode decimal digit (category Nd, e.g. '٣',
 * '３') has its digit value, and the fullwidth Latin letters 'Ａ'..'Ｚ', 'ａ'..'ｚ' count as 10..35
 * like 'A'..'Z'. Only UTF-16 code units are looked at (a surrogate half is no digit), so only the
 * Basic Multilingual Plane's digits count. (Unicode keeps each run of Nd digits contiguous and in
 * order 0..9, which is how a digit's value is found here; JDK 17's Unicode 13 and the engine's
 * newer Unicode agree on the BMP's digits.)
 */

const ND = /^\p{Nd}$/u;

/** `Character.digit(c, radix)` for a UTF-16 code unit: the digit value, or -1. */
export function javaDigit(c: number, radix: number): number {
  let v = -1;
  if (c >= 0x30 && c <= 0x39) v = c - 0x30;
  else if (c >= 0x41 && c <= 0x5a) v = c - 0x41 + 10;
  else if (c >= 0x61 && c <= 0x7a) v = c - 0x61 + 10;
  else if (c >= 0xff21 && c <= 0xff3a) v = c - 0xff21 + 10;
  else if (c >= 0xff41 && c <= 0xff5a) v = c - 0xff41 + 10;
  else if (c >= 0x80 && (c < 0xd800 || c > 0xdfff) && ND.test(String.fromCharCode(c))) {
    // The run of Nd digits holding c starts at its zero: count back to it.
    let zero = c;
    while (zero > 0 && ND.test(String.fromCharCode(zero - 1))) zero--;
    v = (c - zero) % 10;
  }
  return v < radix ? v : -1;
}

/** Why `parseLong` refused the text (Java's NumberFormatException, in words). */
export class JavaNumberFormat extends Error {}

/**
 * `Long.parseLong(s, begin, end, radix)`: an optional '+' or '-', then at least one digit of the
 * radix (as `Character.digit` reads them), the value within a Java long. Throws JavaNumberFormat.
 */
export function parseJavaLong(s: string, begin: number, end: number, radix: number): bigint {
  if (begin >= end) throw new JavaNumberFormat('no digits');
  let i = begin;
  let negative = false;
  const first = s.charCodeAt(i);
  if (first === 0x2d || first === 0x2b) {
    negative = first === 0x2d;
    i++;
    if (i === end) throw new JavaNumberFormat('a sign without digits');
  }
  const r = BigInt(radix);
  let v = 0n;
  for (; i < end; i++) {
    const d = javaDigit(s.charCodeAt(i), radix);
    if (d < 0) throw new JavaNumberFormat(`${JSON.stringify(s[i])} is not a digit`);
    v = v * r + BigInt(d);
    // Past 2^63 no further digit can bring it back into range.
    if (v > 0x8000000000000000n) throw new JavaNumberFormat('out of range');
  }
  if (negative) v = -v;
  if (v > 0x7fffffffffffffffn) throw new JavaNumberFormat('out of range');
  return v;
}
