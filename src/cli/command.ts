/**
 * The command registry's types. Each command's file exports a `CommandSpec` (name, summary,
 * options with descriptions, examples, how to run it); `src/cli/commands.ts` lists them. Help,
 * usage lines, option checking and "did you mean" are all derived from these specs.
 */
import type { ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import type { Style } from './table';

/** Where a command prints its output: JSON text, one line per record. */
export interface Write {
  (s: string): void;
  /**
   * One record, as a line of JSON written in pieces (for a table, kept as it is): for a record
   * whose JSON can be longer than a string may be, such as a 3.x ring's ten million segments.
   */
  record(value: object): void;
}

export interface OptionSpec {
  /** The long name without dashes: `config` for `--config`. */
  name: string;
  /** The value's placeholder in help (`FILE`, `NAME`); absent for a flag. */
  value?: string;
  repeatable?: boolean;
  /** Shown without brackets in the usage line; the command itself checks it. */
  required?: boolean;
  /** One line (wrapped in help). */
  description: string;
}

export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /**
   * Arguments besides the options (e.g. keys); absent: the command takes none. `usage` is how the
   * usage line shows them (default `[NAME]...`: any number, none included).
   */
  operands?: { name: string; description: string; usage?: string };
  options: OptionSpec[];
  /** Further paragraphs for `--help` (input, output, notes). */
  details?: string[];
  /** Command lines, starting `key-routing `; a `  # ...` tail is a comment. */
  examples: string[];
  /**
   * How `--format table` shows the JSON records the command wrote (they arrive parsed, all at
   * once). Absent: the command prints JSON only and has no `--format` option.
   */
  table?: (records: unknown[], style: Style) => string | readonly string[];
  /** `io`: stdin, stderr (notes) and the working folder; stdout is `write`. */
  run: (args: ParsedArgs, write: Write, io: CliIo) => void | Promise<void>;
}
