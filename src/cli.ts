/**
 * `key-routing`: the engine without VS Code. Output is JSON for scripts or a table for people;
 * exit 2 on a usage or configuration error, with one line on stderr naming the option or setting.
 * The commands are listed in `src/cli/commands.ts`, each described by the spec its file exports.
 */
import { findCommand, parseArgs, UsageError } from './cli/args';
import { COMMANDS } from './cli/commands';
import type { CommandSpec } from './cli/command';
import { commandHelp, commandOptions, generalHelp, VERSION } from './cli/help';
import { chooseFormat, Output, PipeClosed, writeStdout } from './cli/output';
import { didYouMean } from './cli/suggest';

function lookup(name: string): CommandSpec {
  const spec = COMMANDS.find((c) => c.name === name);
  if (spec) return spec;
  const names = COMMANDS.map((c) => c.name);
  throw new UsageError(`unknown command ${JSON.stringify(name)}${didYouMean(name, names)} (commands: ${names.join(', ')})`);
}

/** Options that take a value in any command: needed to find the command among the arguments. */
const takesValue = (name: string): boolean => COMMANDS.some((c) => commandOptions(c).some((o) => o.name === name && o.value !== undefined));

export async function main(argv: string[]): Promise<number> {
  let output: Output | undefined;
  try {
    const at = findCommand(argv, takesValue);
    if (at < 0) {
      if (argv.includes('--version') || argv.includes('-V')) writeStdout(`key-routing ${VERSION}\n`);
      else if (argv.includes('--help') || argv.includes('-h')) writeStdout(generalHelp(COMMANDS));
      else {
        process.stderr.write(generalHelp(COMMANDS));
        return 2;
      }
      return 0;
    }
    const name = argv[at];
    const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
    if (name === 'help') {
      const topic = rest.find((a) => !a.startsWith('-'));
      writeStdout(topic === undefined ? generalHelp(COMMANDS) : commandHelp(lookup(topic)));
      return 0;
    }
    const spec = lookup(name);
    // Help is shown whatever else the line holds (a typo there is often why help was asked for).
    const flags = rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length);
    if (flags.includes('--help') || flags.includes('-h')) {
      writeStdout(commandHelp(spec));
      return 0;
    }
    const version = { name: 'version', description: '' };
    const args = parseArgs(rest, { command: spec.name, options: [...commandOptions(spec), version], operands: spec.operands !== undefined });
    if (args.options.has('version')) {
      writeStdout(`key-routing ${VERSION}\n`);
      return 0;
    }
    output = new Output(spec.table ? chooseFormat(args.options.get('format')?.[0]) : 'json', spec.table);
    await spec.run(args, output.write);
    output.end();
    return 0;
  } catch (e) {
    if (e instanceof PipeClosed) return 0;
    try {
      output?.end();
    } catch (e2) {
      if (!(e2 instanceof PipeClosed)) throw e2;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`key-routing: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

// A reader of stderr that goes away (`2>&1 | head`) must not turn notes into a crash.
process.stderr.on('error', () => {});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`key-routing: internal error: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
