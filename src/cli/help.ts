/** Help text, made from the command specs, and the version. */
import { version } from '../../package.json';
import type { CommandSpec, OptionSpec } from './command';
import { FORMAT, HELP } from './commonOptions';

export const VERSION = version;

const WIDTH = 80;

/** Words wrapped to WIDTH columns: the first line starts with `first`, the others with `indent` blanks. */
function wrap(text: string, indent: number, first = ' '.repeat(indent)): string {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent);
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** `  NAME        description` rows, descriptions lined up and wrapped. */
function definitions(rows: Array<[string, string]>): string[] {
  const col = Math.min(26, Math.max(...rows.map(([n]) => n.length)) + 4);
  return rows.map(([name, text]) => {
    const head = `  ${name}`;
    return head.length + 2 > col ? `${head}\n${wrap(text, col)}` : wrap(text, col, head.padEnd(col));
  });
}

/** The options a command accepts: its own, `--format` where it has a table view, and `--help`. */
export function commandOptions(spec: CommandSpec): OptionSpec[] {
  return [...spec.options, ...(spec.table ? [FORMAT] : []), HELP];
}

export function usageLine(spec: CommandSpec): string {
  const parts: string[] = [];
  for (const o of [...spec.options, ...(spec.table ? [FORMAT] : [])]) {
    const text = `--${o.name}${o.value ? ` ${o.value}` : ''}`;
    parts.push((o.required ? text : `[${text}]`) + (o.repeatable ? '...' : ''));
  }
  if (spec.operands) parts.push(spec.operands.usage ?? `[${spec.operands.name}]...`);
  // Wrapped between options, never inside one.
  const lines = [`usage: key-routing ${spec.name}`];
  for (const p of parts) {
    if (lines[lines.length - 1].length + 1 + p.length > WIDTH) lines.push(`    ${p}`);
    else lines[lines.length - 1] += ` ${p}`;
  }
  return lines.join('\n');
}

export function commandHelp(spec: CommandSpec): string {
  const out: string[] = [wrap(`key-routing ${spec.name}: ${spec.summary[0].toLowerCase()}${spec.summary.slice(1)}`, 2, ''), '', usageLine(spec), ''];
  if (spec.operands) out.push('arguments:', ...definitions([[spec.operands.usage ?? `${spec.operands.name}...`, spec.operands.description]]), '');
  out.push('options:', ...definitions(commandOptions(spec).map((o) => [`--${o.name}${o.value ? ` ${o.value}` : ''}`, o.description])));
  for (const d of spec.details ?? []) out.push('', wrap(d, 0, ''));
  out.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return out.join('\n') + '\n';
}

export function generalHelp(commands: readonly CommandSpec[]): string {
  return [
    wrap(`key-routing ${VERSION}: where does a message key go? Kafka partitions, Pulsar Key_Shared consumers, hash ranges and namespace bundles, computed as the real clients and brokers compute them.`, 0, ''),
    '',
    'usage: key-routing COMMAND [options] [arguments]',
    '',
    'commands:',
    ...definitions(commands.map((c) => [c.name, c.summary])),
    '',
    wrap(
      'Settings come from --config FILE, or else the nearest .vscode/settings.json with keyRouting settings from the current folder upward. Output is a table on a terminal and JSON otherwise (--format table|json) for route, ranges, what-if, assignment, bundle, analyze and compare; the other commands print JSON. A usage or settings error exits 2 with one line on stderr.',
      0,
      '',
    ),
    '',
    '`key-routing help COMMAND` or `key-routing COMMAND --help` shows its options and examples,',
    '`key-routing --version` the version.',
  ].join('\n') + '\n';
}
