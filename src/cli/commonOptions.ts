/** Options several commands share, described once (a command may override a field, e.g. `required`). */
import type { OptionSpec } from './command';

export const CONFIG: OptionSpec = {
  name: 'config',
  value: 'FILE',
  description:
    'The settings: a settings.json (comments and trailing commas as VS Code allows) or a .code-workspace file. Default: the nearest .vscode/settings.json with keyRouting settings from the current folder upward.',
};

export const TOPIC: OptionSpec = {
  name: 'topic',
  value: 'NAME',
  description: 'One topic: its configured name, or the end of it where that is unambiguous (payments for persistent://public/default/payments).',
};

export const KEY_FORMAT: OptionSpec = {
  name: 'key-format',
  value: 'utf8|hex',
  description: 'utf8 (default): a key is its text. hex: a key is its bytes in hex, so any bytes can be given.',
};

export const THEN: OptionSpec = {
  name: 'then',
  value: 'EVENT',
  repeatable: true,
  description:
    'A change, applied in order after the configured consumers connected: +NAME (a consumer connects), +NAME:START-END,... (STICKY ranges), -ID (disconnects), partitions=N (needs --topic).',
};

export const GROUP: OptionSpec = {
  name: 'group',
  value: 'NAME',
  description: 'A Kafka consumer group of keyRouting.kafkaGroups, by name.',
};

/** Added to every command that has a table view (see `CommandSpec.table`). */
export const FORMAT: OptionSpec = {
  name: 'format',
  value: 'table|json',
  description: 'table: aligned columns for people (the default on a terminal). json: JSON for scripts (the default otherwise).',
};

/** Every command takes these. */
export const HELP: OptionSpec = { name: 'help', description: 'Show this help.' };

export const KEYS_OPERAND = {
  name: 'KEY',
  description: 'Keys to route. Without any, keys are read from stdin, one per line. Put -- before a key that starts with -.',
};
