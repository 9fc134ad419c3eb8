/**
 * A report that cannot be imported. The message names the file (or source) and what is wrong,
 * in one line; nothing is written to the settings from a report that failed.
 */
export class ImportError extends Error {}

/** Throws an ImportError whose message starts with the source's name. */
export function fail(source: string, message: string): never {
  throw new ImportError(`${source}: ${message}`);
}

/** A quote of input text for a message: its first line, at most `max` characters. */
export function quote(text: string, max = 60): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return JSON.stringify(line.length > max ? line.slice(0, max - 3) + '...' : line);
}
