/**
 * Kafka's `DoubleSerializer`: `Double.doubleToLongBits(value)` big-endian, 8 bytes. `doubleToLongBits`
 * writes every NaN as the canonical 0x7ff8000000000000; -0.0 keeps its sign bit.
 *
 * The key text is read as Java's `Double.parseDouble` reads it (FloatingDecimal): surrounding
 * characters up to U+0020 trimmed; an optional sign; `NaN`, `Infinity`, a decimal number (digits
 * with an optional point, at least one digit, an optional exponent `e`/`E` with digits), or a
 * hexadecimal one (`0x1.8p1`: the binary exponent is required); then one optional `f`/`F`/`d`/`D`.
 * Every number is rounded to the nearest double, ties to even.
 */

const DECIMAL = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?$/;
const HEX = /^([+-]?)0[xX](?:([0-9a-fA-F]+)\.?|([0-9a-fA-F]*)\.([0-9a-fA-F]+))[pP]([+-]?[0-9]+)[fFdD]?$/;

/** The value Java's `Double.parseDouble(text)` returns, or null where it throws NumberFormatException. */
export function parseJavaDouble(text: string): number | null {
  // String.trim(): every char <= ' ' at either end.
  let a = 0;
  let b = text.length;
  while (a < b && text.charCodeAt(a) <= 0x20) a++;
  while (b > a && text.charCodeAt(b - 1) <= 0x20) b--;
  const s = text.slice(a, b);
  const unsigned = s.startsWith('+') || s.startsWith('-') ? s.slice(1) : s;
  if (unsigned === 'NaN') return NaN;
  if (unsigned === 'Infinity') return s.startsWith('-') ? -Infinity : Infinity;
  const hex = HEX.exec(s);
  if (hex) return hexValue(hex[1] === '-', hex[2] ?? hex[3] + hex[4], hex[2] !== undefined ? 0 : hex[4].length, hex[5]);
  if (!DECIMAL.test(s)) return null;
  // The grammar is checked: JavaScript's own reader rounds decimal text correctly (as Java does).
  return Number(/[fFdD]$/.test(s) ? s.slice(0, -1) : s);
}

/** ±M * 2^(exp - 4 * fractionDigits), rounded to the nearest double (ties to even). */
function hexValue(negative: boolean, digits: string, fractionDigits: number, exponent: string): number {
  const m = BigInt('0x' + (digits === '' ? '0' : digits));
  const sign = negative ? -1 : 1;
  if (m === 0n) return sign * 0;
  // An exponent beyond any double's reach only decides between infinity and zero.
  const expClamped = Math.max(-100_000, Math.min(100_000, Number(BigInt(exponent))));
  const e2 = expClamped - 4 * fractionDigits;
  const bits = m.toString(2).length;
  // The value lies in [2^top, 2^(top+1)); keep 53 bits, or fewer below the normal range.
  const top = bits - 1 + e2;
  const unit = Math.max(top - 52, -1074);
  let q: bigint;
  if (e2 >= unit) q = m << BigInt(e2 - unit);
  else {
    const shift = unit - e2;
    if (shift > bits + 1) q = 0n;
    else {
      const s = BigInt(shift);
      q = m >> s;
      const rest = m & ((1n << s) - 1n);
      const half = 1n << (s - 1n);
      if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
    }
  }
  // q < 2^54 is exact as a double; the power of two scales it exactly (or overflows to infinity).
  return sign * Number(q) * 2 ** unit;
}

/** `DoubleSerializer`: the IEEE 754 bits big-endian, NaN canonical. */
export function doubleBytes(v: number): Uint8Array {
  const out = new Uint8Array(8);
  if (Number.isNaN(v)) {
    out[0] = 0x7f;
    out[1] = 0xf8;
    return out;
  }
  new DataView(out.buffer).setFloat64(0, v, false);
  return out;
}
