/**
 * JSON from a broker's admin API, read with messages that say what went wrong: a file cut off
 * before its end (a copy that stopped, a pipe closed early), an HTML error page, the text a
 * `pulsar-admin` error prints, or an error answer of the REST API (`{"reason": "..."}`).
 */
import { fail, quote } from './errors';

export function parseJsonReport(text: string, source: string, what: string): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') fail(source, `is empty; expected the JSON of ${what}`);
  if (trimmed.startsWith('<')) fail(source, `is HTML (${quote(trimmed)}), not the JSON of ${what}: an error page from a proxy or a web UI?`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    // Checked only where the parser refused it: `null`, a number or a string is JSON, and the
    // check after the parse names it as JSON that is not an object.
    if (!/^[[{]/.test(trimmed)) fail(source, `is not JSON: it begins ${quote(trimmed)}; expected the JSON of ${what}`);
    const message = (e as Error).message;
    const pos = /position (\d+)/.exec(message);
    const end = body.trimEnd().length;
    if (/end of (JSON )?(data|input)/i.test(message) || (pos && Number(pos[1]) >= end)) {
      const { line, column } = lineColumn(body, end);
      fail(source, `is truncated: the JSON stops at line ${line}, column ${column} before it is complete; fetch or copy the whole output again`);
    }
    fail(source, `is not valid JSON: ${message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(source, `is JSON but not an object; expected the JSON of ${what}`);
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (typeof obj.reason === 'string' && keys.every((k) => k === 'reason' || k === 'message' || k === 'code')) {
    fail(source, `is an error answer from the broker, not ${what}: ${obj.reason}`);
  }
  return obj;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}
