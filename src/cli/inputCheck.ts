/**
 * Field checks for the `--input FILE` of `split` and `assign-chunks`: each failure is a usage error
 * naming the field, e.g. `topics[2].msgRateIn: must be a number`.
 */
import { UsageError } from './args';
import { show } from '../engine/settings';
import { isObject } from '../engine/jsonObject';

export const JAVA_INT_MIN = -0x80000000;
export const JAVA_INT_MAX = 0x7fffffff;

export function fail(path: string, message: string): never {
  throw new UsageError(`${path}: ${message}`);
}

export function record(v: unknown, path: string, what: string): Record<string, unknown> {
  if (!isObject<unknown>(v)) fail(path, `must be an object ${what} (got ${show(v)})`);
  return v;
}

export function array(v: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(v)) fail(path, `must be an array ${what} (got ${show(v)})`);
  return v;
}

export function finiteNumber(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, `must be a number (got ${show(v)})`);
  return v;
}

/** A Java int (what the broker's field is). */
export function javaInt(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < JAVA_INT_MIN || v > JAVA_INT_MAX) {
    fail(path, `must be an integer from ${JAVA_INT_MIN} to ${JAVA_INT_MAX} (got ${show(v)})`);
  }
  return v;
}

export function string(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, `must be a string (got ${show(v)})`);
  return v;
}
