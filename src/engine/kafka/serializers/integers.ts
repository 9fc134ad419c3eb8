/**
 * Kafka's `ShortSerializer`, `IntegerSerializer` and `LongSerializer`: the value big-endian in two's
 * complement, 2, 4 or 8 bytes. The key text is read as `Short.parseShort` / `Integer.parseInt` /
 * `Long.parseLong` read decimal text (an optional sign, Java's digits, no spaces, no fraction).
 */
import { JavaNumberFormat, parseJavaLong } from './javaDigits';

export interface IntegerType {
  /** The Java type's name in messages. */
  name: 'short' | 'int' | 'long';
  article: 'a' | 'an';
  bytes: 2 | 4 | 8;
  min: bigint;
  max: bigint;
}

export const SHORT: IntegerType = { name: 'short', article: 'a', bytes: 2, min: -0x8000n, max: 0x7fffn };
export const INT: IntegerType = { name: 'int', article: 'an', bytes: 4, min: -0x80000000n, max: 0x7fffffffn };
export const LONG: IntegerType = { name: 'long', article: 'a', bytes: 8, min: -0x8000000000000000n, max: 0x7fffffffffffffffn };

/** The decimal text as the type's value, or a message saying why it is not one. */
export function parseInteger(text: string, type: IntegerType): bigint | string {
  let v: bigint;
  try {
    v = parseJavaLong(text, 0, text.length, 10);
  } catch (e) {
    if (!(e instanceof JavaNumberFormat)) throw e;
    return notA(text, type);
  }
  return v < type.min || v > type.max ? notA(text, type) : v;
}

function notA(text: string, type: IntegerType): string {
  return `${JSON.stringify(text)} is not ${type.article} ${type.name} (${type.min}..${type.max})`;
}

/** `v` big-endian in two's complement, `n` bytes. */
export function bigEndian(v: bigint, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = BigInt.asUintN(n * 8, v);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}
