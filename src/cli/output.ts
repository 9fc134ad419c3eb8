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

  readonly write: Write = (s) => {
    if (this.format === 'table' && this.view) {
      for (const line of s.split('\n')) if (line !== '') this.#records.push(JSON.parse(line));
      return;
    }
    this.#chunks.push(s);
    this.#size += s.length;
    if (this.#size > FLUSH_AT) this.flush();
  };

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
    if (this.format === 'table' && this.view && this.#records.length > 0) this.stdout.write(this.view(this.#records, this.style));
  }
}
