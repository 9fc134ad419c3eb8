/** A small argv parser: `--name value`, `--name=value`, repeatable options collected in order. */

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string | undefined;
  options: Map<string, string[]>;
}

export function parseArgs(argv: string[], known: Record<string, { repeatable?: boolean; flag?: boolean }>): ParsedArgs {
  const options = new Map<string, string[]>();
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      if (command !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(a)}`);
      command = a;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    const spec = known[name];
    if (!spec) throw new UsageError(`unknown option --${name}`);
    let value: string;
    if (spec.flag) value = 'true';
    else if (eq >= 0) value = a.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
      value = argv[++i];
    }
    const list = options.get(name) ?? [];
    if (list.length > 0 && !spec.repeatable) throw new UsageError(`--${name} given twice`);
    list.push(value);
    options.set(name, list);
  }
  return { command, options };
}

export function single(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}

export function required(args: ParsedArgs, name: string): string {
  const v = single(args, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}
