/**
 * `key-routing`: the engine without VS Code. Output is JSON for scripts or a table for people;
 * exit 2 on a usage or configuration error, with one line on stderr naming the option or setting.
 * The commands are listed in `src/cli/commands.ts`, each described by the spec its file exports.
 * `main` runs one command line against the `CliIo` it is given (src/cli.ts gives it the process's).
 */
import { findCommand, parseArgs, UsageError } from './args';
import type { CliIo, CliStdin } from './cliIo';
import { COMMANDS } from './commands';
import type { CommandSpec } from './command';
import { commandHelp, commandOptions, generalHelp, VERSION } from './help';
import { chooseFormat, Output, outputStyle, PipeClosed } from './output';
import { didYouMean } from './suggest';

function lookup(name: string): CommandSpec {
  const spec = COMMANDS.find((c) => c.name === name);
  if (spec) return spec;
  const names = COMMANDS.map((c) => c.name);
  throw new UsageError(`unknown command ${JSON.stringify(name)}${didYouMean(name, names)} (commands: ${names.join(', ')})`);
}

/** Options that take a value in any command: needed to find the command among the arguments. */
const takesValue = (name: string): boolean => COMMANDS.some((c) => commandOptions(c).some((o) => o.name === name && o.value !== undefined));

/**
 * Runs one command line; resolves to the exit code: 0, 2 for a usage or configuration error, 1 for
 * an internal error (its stack on stderr). Never exits the process.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    io.stderr.write(`key-routing: internal error: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  let output: Output | undefined;
  try {
    const at = findCommand(argv, takesValue);
    if (at < 0) {
      if (argv.includes('--version') || argv.includes('-V')) io.stdout.write(`key-routing ${VERSION}\n`);
      else if (argv.includes('--help') || argv.includes('-h')) io.stdout.write(generalHelp(COMMANDS));
      else {
        io.stderr.write(generalHelp(COMMANDS));
        return 2;
      }
      return 0;
    }
    const name = argv[at];
    const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
    if (name === 'help') {
      const topic = rest.find((a) => !a.startsWith('-'));
      io.stdout.write(topic === undefined ? generalHelp(COMMANDS) : commandHelp(lookup(topic)));
      return 0;
    }
    const spec = lookup(name);
    // Help is shown whatever else the line holds (a typo there is often why help was asked for).
    const flags = rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length);
    if (flags.includes('--help') || flags.includes('-h')) {
      io.stdout.write(commandHelp(spec));
      return 0;
    }
    const version = { name: 'version', description: '' };
    const args = parseArgs(rest, { command: spec.name, options: [...commandOptions(spec), version], operands: spec.operands !== undefined });
    if (args.options.has('version')) {
      io.stdout.write(`key-routing ${VERSION}\n`);
      return 0;
    }
    const format = spec.table ? chooseFormat(args.options.get('format')?.[0], io.stdout.isTTY) : 'json';
    const out = (output = new Output(format, io.stdout, outputStyle(io.env, io.stdout.isTTY), spec.table));
    // Before each read of stdin that may block, the output held back so far is written.
    const stdin: CliStdin = {
      isTTY: io.stdin.isTTY,
      read: (buf) => {
        out.flush();
        return io.stdin.read(buf);
      },
      text: () => io.stdin.text(),
      source: () => io.stdin.source(),
    };
    await spec.run(args, out.write, { stdin, stdout: io.stdout, stderr: io.stderr, env: io.env, cwd: io.cwd });
    out.end();
    return 0;
  } catch (e) {
    if (e instanceof PipeClosed) return 0;
    try {
      output?.end();
    } catch (e2) {
      if (!(e2 instanceof PipeClosed)) throw e2;
    }
    if (e instanceof UsageError) {
      io.stderr.write(`key-routing: ${oneLine(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * The message on one line, as the contract promises: a message that quotes the input (JSON.parse
 * cites the text around the error) may hold its line breaks, which are shown escaped.
 */
function oneLine(message: string): string {
  return message.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
