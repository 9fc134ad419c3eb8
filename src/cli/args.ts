/**
 * The argument parser: `--name value`, `--name=value`, flags, repeatable options collected in
 * order, operands (e.g. keys) anywhere after the command, `--` before operands that start with
 * `-`. Each command accepts only its own options; a typo gets a suggestion.
 */
import type { OptionSpec } from './command';
import { didYouMean } from './suggest';

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string | undefined;
  options: Map<string, string[]>;
  /** Arguments that are not options, after the command (keys, topic names). */
  operands: string[];
}

/** `-h` and `-V` are the only short options, as in most tools. */
const SHORT: Record<string, string> = { '-h': 'help', '-V': 'version' };

/**
 * Where the command name is: the first argument that is neither an option nor an option's value
 * (`key-routing --config F route` works as well as `key-routing route --config F`).
 */
export function findCommand(argv: readonly string[], takesValue: (name: string) => boolean): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return -1;
    if (a.startsWith('--')) {
      if (!a.includes('=') && takesValue(a.slice(2))) i++;
      continue;
    }
    if (a.startsWith('-') && a !== '-') continue;
    return i;
  }
  return -1;
}

export interface ParseSpec {
  command: string;
  options: readonly OptionSpec[];
  /** Whether operands are accepted (keys, names); else an operand is a usage error. */
  operands: boolean;
}

export function parseArgs(argv: readonly string[], spec: ParseSpec): ParsedArgs {
  const known = new Map(spec.options.map((o) => [o.name, o]));
  const options = new Map<string, string[]>();
  const operands: string[] = [];
  const add = (name: string, value: string): void => {
    const list = options.get(name) ?? [];
    if (list.length > 0 && !known.get(name)?.repeatable) throw new UsageError(`--${name} given twice`);
    list.push(value);
    options.set(name, list);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      operands.push(...argv.slice(i + 1));
      break;
    }
    if (SHORT[a] !== undefined && known.has(SHORT[a])) {
      add(SHORT[a], 'true');
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (!a.startsWith('--')) {
      const hint = spec.operands ? ' (put -- before an argument that starts with -)' : '';
      throw new UsageError(`${spec.command}: unknown option ${a}${hint}`);
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    const o = known.get(name);
    if (!o) {
      const names = [...known.keys()];
      throw new UsageError(
        `${spec.command}: unknown option --${name}${didYouMean(name, names, (n) => `--${n}`)} (key-routing ${spec.command} --help lists its options)`,
      );
    }
    if (o.value === undefined) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      add(name, 'true');
    } else if (eq >= 0) add(name, a.slice(eq + 1));
    else {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value (${o.value})`);
      add(name, argv[++i]);
    }
  }
  if (operands.length > 0 && !spec.operands) {
    throw new UsageError(`${spec.command} takes no arguments (got ${JSON.stringify(operands[0])}); key-routing ${spec.command} --help shows its options`);
  }
  return { command: spec.command, options, operands };
}

export function single(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}

export function required(args: ParsedArgs, name: string): string {
  const v = single(args, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}
