/**
 * Kafka's `UUIDSerializer`: `uuid.toString().getBytes(UTF_8)`, the canonical lower-case text
 * `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. The producer holds a `java.util.UUID`, so the key text is
 * read as `UUID.fromString` reads it (JDK 9 and later) and written back canonical: at most 36
 * characters, five dash-separated fields, each read by `Long.parseLong(field, 16)` (an optional sign,
 * Java's digits) and cut to its width (8-4-4-4-12 hex digits) by a mask, so `1-2-3-4-5` is
 * 00000001-0002-0003-0004-000000000005 and upper case comes out lower case.
 */
import { JavaNumberFormat, parseJavaLong } from './javaDigits';

/** The canonical text of the UUID `text` stands for, or a message saying why it is not one. */
export function canonicalUuid(text: string): { ok: true; text: string } | { ok: false; error: string } {
  const bad = (why: string) => ({ ok: false as const, error: `${JSON.stringify(text)} is not a UUID (${why})` });
  if (text.length > 36) return bad('more than 36 characters');
  const d1 = text.indexOf('-');
  const d2 = text.indexOf('-', d1 + 1);
  const d3 = text.indexOf('-', d2 + 1);
  const d4 = text.indexOf('-', d3 + 1);
  const d5 = text.indexOf('-', d4 + 1);
  // As UUID.fromString checks it: dash1..dash4 found and no fifth dash.
  if (d4 < 0 || d5 >= 0) return bad('it needs five fields separated by four dashes, e.g. 123e4567-e89b-12d3-a456-426614174000');
  const bounds: Array<[number, number, number]> = [
    [0, d1, 8],
    [d1 + 1, d2, 4],
    [d2 + 1, d3, 4],
    [d3 + 1, d4, 4],
    [d4 + 1, text.length, 12],
  ];
  const fields: string[] = [];
  for (const [from, to, width] of bounds) {
    let v: bigint;
    try {
      v = parseJavaLong(text, from, to, 16);
    } catch (e) {
      if (!(e instanceof JavaNumberFormat)) throw e;
      return bad(`field ${JSON.stringify(text.slice(from, to))}: ${e.message}`);
    }
    fields.push(BigInt.asUintN(width * 4, v).toString(16).padStart(width, '0'));
  }
  return { ok: true, text: fields.join('-') };
}
