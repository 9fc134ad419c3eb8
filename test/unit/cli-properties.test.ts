// Property: no command line makes `key-routing` fail inside. Users and scripts type anything, so a
// run takes a command (or a misspelt one), options of that command or of another (or unknown ones)
// with values from what users write (topic and consumer names, events, formats, numbers at and past
// their bounds, file names) or arbitrary text, and keys; with a full settings file. Each must end
// with exit 0, or with exit 2 and a last line on stderr that names what is wrong: never exit 1, the
// internal error with a stack. The same holds further down for `import` on damaged broker reports
// (whose output the other commands must then take), a settings file damaged as text, and
// `analyze` on any input. (FC_SEED=N replays a run.)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { COMMANDS } from '../../src/cli/commands';
import { commandOptions } from '../../src/cli/help';
import { cliText } from './cliRun';
import { scratchDir } from './scratch';
import { fullSettings } from './fixtures/fullSettings';
import { mutate, mutationArb } from './jsonMutation';
import { propertyRuns } from './helpers';

const dir = scratchDir('key-routing-cli-props-');
const config = join(dir, 'settings.json');
writeFileSync(config, JSON.stringify(fullSettings()));
// Found without --config too: the nearest .vscode/settings.json from the working folder up.
mkdirSync(join(dir, '.vscode'));
writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(fullSettings()));
writeFileSync(join(dir, 'keys.txt'), 'user-1\nuser-2\n\n客户-😀\n');
writeFileSync(join(dir, 'broken.json'), '{"keyRouting.topics": [');

const TOPICS = ['orders', 'typed', 'bytes', 'persistent://public/default/split', 'ring3', 'persistent://public/default/ring4', 'sticky', 'nope'];
const EVENTS = ['+x', '-C1', '-w#2', '-x', '+m9', '+m9:orders', '+m9:bytes,orders', '-m1', '-u2', '+E3:1-5', '+E3:65000-65536', '+E3:0-0', 'partitions=1', 'partitions=5', 'partitions=0', 'partitions=2147483647', 'partitions=-1', '+', '-', '+x:5-1', '+x:1-2,2-3'];
const FILES = [config, join(dir, 'keys.txt'), join(dir, 'broken.json'), join(dir, 'missing.json'), dir];

/** What users put after each kind of option (by the value's placeholder in help), and any text at all. */
const POOLS: Record<string, string[]> = {
  FILE: FILES,
  NAME: [...TOPICS, 'billing', 'uni', 'seen', 's', 'range', 'sticky', 'cooperative-sticky', 'uniform', 'key', 'nope'],
  EVENT: EVENTS,
  'N|NAME': ['0', '1', '2', 'key', 'nope'],
  N: ['0', '1', '2', '3', '5', 'x'],
  ALG: ['range_equally_divide', 'topic_count_equally_divide', 'specified_positions_divide', 'flow_or_qps_equally_divide', 'nope'],
};
const poolOf = (placeholder: string): string[] => POOLS[placeholder] ?? placeholder.split('|');
const ODD = ['', ' ', '0', '-1', '65536', '2147483648', '1e9', '0x10', '用户', '\ud800', '--', '-x'];
const valueArb = (placeholder: string) =>
  fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...poolOf(placeholder)) }, { weight: 1, arbitrary: fc.constantFrom(...ODD) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

const OPERANDS: Record<string, string[]> = {
  KEY: ['user-1', '', '客户-😀', '00ff', 'zz', '\ud800x', '-', 'a'.repeat(300)],
  TOPIC: [...TOPICS, 'persistent://public/default/x', 'tenant/ns/t', 'non-persistent://a/b/c', '://'],
  KIND: ['pulsar-stats', 'kafka-groups', 'kafka-topics', 'nope', ...FILES],
};

const allOptions = COMMANDS.flatMap((c) => commandOptions(c)).filter((o) => o.name !== 'help');

/** One command line: a command, then options (each non-repeatable one at most once, mostly the command's own), operands. */
const lineArb = fc.oneof({ weight: 19, arbitrary: fc.constantFrom(...COMMANDS) }, { weight: 1, arbitrary: fc.constant(undefined) }).chain((spec) => {
  const own = spec ? commandOptions(spec).filter((o) => o.name !== 'help') : [];
  const operands = spec?.operands ? OPERANDS[spec.operands.name.split(' ')[0]] ?? OPERANDS.KEY : ['x'];
  return fc
    .tuple(
      fc.uniqueArray(fc.nat(own.length + 2), { maxLength: 5 }),
      fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
      fc.array(fc.oneof(fc.constantFrom(...operands), fc.string({ maxLength: 6 })), { maxLength: spec?.operands ? 3 : 1 }),
    )
    .chain(([picks, foreign, args]) => {
      // A pick past the command's own options is another command's (usually refused).
      const chosen = picks.map((p, i) => (p < own.length ? own[p] : allOptions[foreign[i] % allOptions.length]));
      return fc.tuple(...chosen.map((o) => (o.value === undefined ? fc.constant(undefined) : valueArb(o.value)))).map((values) => {
        const argv = [spec?.name ?? 'rout'];
        chosen.forEach((o, i) => argv.push(`--${o.name}`, ...(values[i] === undefined ? [] : [values[i] as string])));
        return [...argv, ...args];
      });
    });
});

describe('properties: the command line', () => {
  test('any command line ends with exit 0, or exit 2 and a line naming what is wrong; never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(lineArb, async (argv) => {
        const r = await cliText(argv, 'user-1\n', { cwd: dir });
        const said = `${JSON.stringify(argv)} -> exit ${r.code}: ${r.stderr.slice(0, 400)}`;
        assert.ok(r.code === 0 || r.code === 2, said);
        if (r.code !== 2 || r.stderr.startsWith('key-routing ')) return; // no command: the general help
        // The error is the last line (notes such as the settings file found come before it); no stack.
        assert.match(r.stderr.trimEnd().split('\n').at(-1)!, /^key-routing: \S/, said);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
      }),
      propertyRuns(300),
    );
  });

  // The reports `import` reads, damaged: a Pulsar stats JSON changed in one to three places, a
  // kafka-consumer-groups.sh / kafka-topics.sh text with lines dropped, repeated or cut, or words
  // replaced. The import must end with exit 0 or with exit 2 and a line naming what is wrong, and
  // settings it prints must be settings the other commands take.
  const DATA = join(__dirname, '../../../test/unit/data/observed');
  const reports = readdirSync(DATA).filter((f) => !f.startsWith('bad-'));
  const stats = reports.filter((f) => f.startsWith('pulsar-')).map((f) => JSON.parse(readFileSync(join(DATA, f), 'utf8')));
  const texts = reports.filter((f) => f.startsWith('kafka-')).map((f) => ({ kind: f.startsWith('kafka-groups') ? 'kafka-groups' : 'kafka-topics', text: readFileSync(join(DATA, f), 'utf8') }));

  const textEditArb = fc.record({ line: fc.nat(), kind: fc.constantFrom('drop', 'repeat', 'cut', 'word'), at: fc.nat(), word: fc.oneof(fc.constantFrom('-', '0', '-1', '2147483648', 'null', '', 'STABLE', 'Partition:', 'Topic:', 'GROUP'), fc.string({ maxLength: 8 })) });

  function editText(text: string, edits: Array<{ line: number; kind: string; at: number; word: string }>): string {
    const lines = text.split('\n');
    for (const e of edits) {
      const i = e.line % lines.length;
      if (e.kind === 'drop') lines.splice(i, 1);
      else if (e.kind === 'repeat') lines.splice(i, 0, lines[i]);
      else if (e.kind === 'cut') lines[i] = lines[i].slice(0, e.at % (lines[i].length + 1));
      else {
        const words = lines[i].split(/(\s+)/);
        words[(e.at % Math.max(1, Math.ceil(words.length / 2))) * 2] = e.word;
        lines[i] = words.join('');
      }
      if (lines.length === 0) lines.push('');
    }
    return lines.join('\n');
  }

  const importArb = fc.oneof(
    fc.record({ report: fc.nat(stats.length - 1), mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) }).map(({ report, mutations }) => {
      const value = structuredClone(stats[report]);
      for (const m of mutations) mutate(value, m);
      return { kind: 'pulsar-stats', input: JSON.stringify(value) };
    }),
    fc.record({ report: fc.nat(texts.length - 1), edits: fc.array(textEditArb, { minLength: 1, maxLength: 4 }) }).map(({ report, edits }) => ({
      kind: texts[report].kind,
      input: editText(texts[report].text, edits),
    })),
  );

  test('import: any damaged report ends with exit 0 or exit 2 and a line naming what is wrong; what it prints, route, ranges and assignment take', async () => {
    await fc.assert(
      fc.asyncProperty(importArb, async ({ kind, input }) => {
        const r = await cliText(['import', kind, '-', '--topic', 'persistent://public/default/imported'], input, { cwd: dir });
        const said = `import ${kind} -> exit ${r.code}: ${r.stderr.slice(0, 400)}\n${input.slice(0, 2000)}`;
        assert.ok(r.code === 0 || r.code === 2, said);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
        if (r.code === 2) {
          assert.match(r.stderr.trimEnd().split('\n').at(-1)!, /^key-routing: \S/, said);
          return;
        }
        const settings = join(dir, 'imported.json');
        writeFileSync(settings, r.stdout);
        const printed = JSON.parse(r.stdout);
        const uses = [
          ['route', 'user-1', ''],
          ...(printed['keyRouting.topics'] ?? []).filter((t: { subscription?: unknown }) => t.subscription).map((t: { name: string }) => ['ranges', '--topic', t.name]),
          ...(printed['keyRouting.kafkaGroups'] ?? []).map((g: { name: string }) => ['assignment', '--group', g.name]),
        ];
        for (const [command, ...rest] of uses) {
          const used = await cliText([command, '--config', settings, ...rest], '', { cwd: dir });
          assert.equal(used.code, 0, `${command} ${rest.join(' ')} on what import printed -> exit ${used.code}: ${used.stderr}\n${said}`);
        }
      }),
      propertyRuns(200),
    );
  });

  // settings.json as text, damaged by hand: characters cut out, JSON punctuation and comments put in.
  const settingsText = JSON.stringify(fullSettings(), null, 2);
  const textCutArb = fc.record({ at: fc.nat(), length: fc.nat(40), insert: fc.constantFrom('', '{', '}', '[', ']', '"', ',', ':', '//', '/*', '*/', '\n', '\ufeff', 'null', '1e400', '"\\u', '0x1') });

  test('a settings file damaged as text: route ends with exit 0 or exit 2 and a line naming the file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(textCutArb, { minLength: 1, maxLength: 3 }), async (cuts) => {
        let text = settingsText;
        for (const c of cuts) {
          const at = c.at % (text.length + 1);
          text = text.slice(0, at) + c.insert + text.slice(at + c.length);
        }
        const file = join(dir, 'damaged.json');
        writeFileSync(file, text);
        const r = await cliText(['route', '--config', file, 'user-1', ''], '', { cwd: dir });
        const said = `route -> exit ${r.code}: ${r.stderr.slice(0, 400)}\n${text}`;
        assert.ok(r.code === 0 || r.code === 2, said);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
        if (r.code === 2) assert.match(r.stderr.trimEnd().split('\n').at(-1)!, /^key-routing: \S/, said);
      }),
      propertyRuns(200),
    );
  });

  // analyze on any input: lines of keys, CSV with quotes, JSON Lines, or any bytes at all, read as
  // text, hex, a column or a field.
  const lineOfInputArb = fc.oneof(
    fc.constantFrom('user-1', '', 'a,b,"c,d"', '"unclosed', '{"key":"k1","n":1}', '{"key":', '{"key":null}', '{"key":{"a":1}}', '00ff', 'zz', 'key\tvalue', '\ufeffuser', '客户-😀', '\r'),
    fc.string({ maxLength: 20 }),
  );
  const analyzeArb = fc.record({
    lines: fc.array(lineOfInputArb, { maxLength: 12 }),
    raw: fc.option(fc.uint8Array({ maxLength: 64 })),
    how: fc.constantFrom([], ['--column', '1'], ['--column', '2'], ['--column', 'key'], ['--field', 'key'], ['--field', 'n'], ['--key-format', 'hex'], ['--column', '1', '--key-format', 'hex']),
    then: fc.constantFrom([], ['--then', '+x'], ['--topic', 'orders', '--then', 'partitions=9']),
  });

  test('analyze on any input, read any way: exit 0 or exit 2 and a line naming what is wrong', async () => {
    await fc.assert(
      fc.asyncProperty(analyzeArb, async ({ lines, raw, how, then }) => {
        const file = join(dir, 'input.txt');
        writeFileSync(file, raw ?? lines.join('\n'));
        const r = await cliText(['analyze', '--config', config, '--input', file, ...how, ...then], '', { cwd: dir });
        const said = `analyze ${[...how, ...then].join(' ')} -> exit ${r.code}: ${r.stderr.slice(0, 400)}\n${JSON.stringify(raw ? [...raw] : lines)}`;
        assert.ok(r.code === 0 || r.code === 2, said);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
        if (r.code === 2) assert.match(r.stderr.trimEnd().split('\n').at(-1)!, /^key-routing: \S/, said);
        else JSON.parse(r.stdout);
      }),
      propertyRuns(150),
    );
  });
});
