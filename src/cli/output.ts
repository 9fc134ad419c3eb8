/**
 * Standard output for the CLI: JSON lines for scripts or a table for people, written so that a
 * reader that stops early (`key-routing route ... | head -1`) ends the run quietly: stdout's
 * `write` throws `PipeClosed` there (see src/cli.ts for the process's stdout).
 */
import { UsageError } from './args';
import type { TextSink } from './cliIo';
import type { CommandSpec, Write } from './command';
import { COLOUR, PLAIN, wantColour, type Style } from './table';

/** Thrown where stdout's reader has gone: the run ends with exit 0 and no message. */
export class PipeClosed extends Error {
  constructor() {
    super('stdout closed');
  }
}

export type Format = 'json' | 'table';

/** `--format`, defaulting to a table on a terminal and JSON otherwise. */
export function chooseFormat(given: string | undefined, terminal: boolean): Format {
  if (given === undefined) return terminal ? 'table' : 'json';
  if (given === 'json' || given === 'table') return given;
  throw new UsageError(`--format must be table or json (got ${JSON.stringify(given)})`);
}

export function outputStyle(env: Readonly<Record<string, string | undefined>>, terminal: boolean): Style {
  return wantColour(env, terminal) ? COLOUR : PLAIN;
}

/** Output held back at most this long (in characters) before it is written. */
const FLUSH_AT = 1 << 16;

/**
 * What a command writes. JSON is passed on in blocks of about 64 KB (and before each blocking read
 * of stdin: `main` calls `flush` there); for a table the JSON records are kept and shown at the end.
 */
export class Output {
  #chunks: string[] = [];
  #size = 0;
  readonly #records: unknown[] = [];

  constructor(
    private readonly format: Format,
    private readonly stdout: TextSink,
    private readonly style: Style,
    private readonly view?: CommandSpec['table'],
  ) {}

  readonly write: Write = Object.assign(
    (s: string) => {
      if (this.format === 'table' && this.view) {
        for (const line of s.split('\n')) if (line !== '') this.#records.push(JSON.parse(line));
        return;
      }
      this.#text(s);
    },
    {
      record: (value: object) => {
        if (this.format === 'table' && this.view) this.#records.push(value);
        else {
          writeJson(value, (s) => this.#text(s));
          this.#text('\n');
        }
      },
    },
  );

  #text(s: string): void {
    this.#chunks.push(s);
    this.#size += s.length;
    if (this.#size > FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.#chunks.length === 0) return;
    const text = this.#chunks.join('');
    this.#chunks = [];
    this.#size = 0;
    this.stdout.write(text);
  }

  /** Writes what is left: the pending JSON, or the table of every record. */
  end(): void {
    this.flush();
    if (this.format !== 'table' || !this.view || this.#records.length === 0) return;
    const table = this.view(this.#records, this.style);
    if (typeof table === 'string') this.stdout.write(table);
    else {
      for (const s of table) this.#text(s);
      this.flush();
    }
  }
}

/** Arrays longer than this are written this many elements at a time. */
const ELEMENTS_AT_ONCE = 1000;

/**
 * `JSON.stringify(value)` handed to `out` in pieces: a long array a block of elements at a time,
 * and an object a property at a time, so that no piece is longer than its largest block. For
 * plain data (what the commands write): no `toJSON`, cycles or sparse arrays.
 */
export function writeJson(value: unknown, out: (s: string) => void): void {
  if (Array.isArray(value)) {
    if (value.length <= ELEMENTS_AT_ONCE) {
      out(JSON.stringify(value));
      return;
    }
    out('[');
    for (let i = 0; i < value.length; i += ELEMENTS_AT_ONCE) {
      out((i > 0 ? ',' : '') + JSON.stringify(value.slice(i, i + ELEMENTS_AT_ONCE)).slice(1, -1));
    }
    out(']');
    return;
  }
  if (value === null || typeof value !== 'object') {
    out(JSON.stringify(value));
    return;
  }
  out('{');
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    // JSON.stringify leaves these properties out.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    out(`${first ? '' : ','}${JSON.stringify(k)}:`);
    first = false;
    writeJson(v, out);
  }
  out('}');
}
