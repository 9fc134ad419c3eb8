/**
 * `key-routing`: the engine without VS Code. Output is JSON; exit 2 on a usage or configuration
 * error, with one line on stderr naming the option or setting.
 */
import { parseArgs, UsageError } from './cli/args';
import { routeCommand } from './cli/route';
import { rangesCommand } from './cli/ranges';
import { bundleCommand } from './cli/bundle';
import { splitCommand } from './cli/split';
import { assignChunksCommand } from './cli/assignChunks';
import { whatIfCommand } from './cli/whatIf';
import { compareCommand } from './cli/compare';
import { orderingCommand } from './cli/ordering';
import { analyzeCommand } from './cli/analyze';
import { importCli } from './cli/import';

const OPTIONS = {
  config: {},
  topic: {},
  'key-format': {},
  then: { repeatable: true },
  input: {},
  algorithm: {},
  column: {},
  field: {},
  help: { flag: true },
  explain: { flag: true },
  generation: {},
};

type Command = (args: ReturnType<typeof parseArgs>, write: (s: string) => void) => void | Promise<void>;

const COMMANDS: Record<string, Command> = {
  route: routeCommand,
  ranges: rangesCommand,
  bundle: bundleCommand,
  split: splitCommand,
  'assign-chunks': assignChunksCommand,
  'what-if': whatIfCommand,
  compare: compareCommand,
  ordering: orderingCommand,
  analyze: analyzeCommand,
};

const USAGE = `usage: key-routing COMMAND [options]
  route   --config FILE [--topic NAME] [--key-format utf8|hex] [--then EVENT]...   keys on stdin
  ranges  --config FILE --topic NAME [--then EVENT]...
  bundle  --config FILE                                                  topic names on stdin
  split   --algorithm range_equally_divide|topic_count_equally_divide|specified_positions_divide|flow_or_qps_equally_divide --input FILE
  assign-chunks --input FILE
  what-if --config FILE --topic NAME --then EVENT [--then EVENT]... [--key-format utf8|hex] [--explain]   keys on stdin (optional)
  compare --config FILE --topic NAME --then EVENT        the change under AUTO_SPLIT, consistent hashing 3.0/4.0 and STICKY
  ordering --input SCENARIO.json [--generation 3.0|3.1|4.0]   what each consumer may receive next after a change, and why
  analyze --config FILE [--topic NAME] [--column N|NAME | --field NAME] [--key-format utf8|hex] [--then EVENT]... [--input FILE]   keys on stdin or --input
  import pulsar-stats|kafka-groups|kafka-topics FILE [--config FILE] [--topic NAME] [--subscription NAME] [--assignor NAME]   settings with the cluster's reported state
EVENT: +NAME | +NAME:START-END,... | -ID | partitions=N`;

export async function main(argv: string[]): Promise<number> {
  const chunks: string[] = [];
  let size = 0;
  const write = (s: string): void => {
    chunks.push(s);
    size += s.length;
    if (size > 1 << 16) flush();
  };
  const flush = (): void => {
    if (chunks.length) process.stdout.write(chunks.join(''));
    chunks.length = 0;
    size = 0;
  };
  try {
    // import takes positional KIND and FILE, and options of its own.
    if (argv[0] === 'import') {
      importCli(argv.slice(1), write);
      flush();
      return 0;
    }
    const args = parseArgs(argv, OPTIONS);
    if (args.options.has('help') || args.command === undefined) {
      process.stdout.write(USAGE + '\n');
      return args.command === undefined && !args.options.has('help') ? 2 : 0;
    }
    const command = COMMANDS[args.command];
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(args.command)}; commands: ${Object.keys(COMMANDS).join(', ')}`);
    await command(args, write);
    flush();
    return 0;
  } catch (e) {
    flush();
    if (e instanceof UsageError) {
      process.stderr.write(`key-routing: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`key-routing: internal error: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
