/**
 * The settings file of the command line: `--config FILE`, or else the nearest
 * `.vscode/settings.json` (or `*.code-workspace`) with keyRouting settings from the current folder
 * upward. Files are read as VS Code reads them, with Microsoft's `jsonc-parser`, for its error
 * messages (the extension locates setting paths with a reader that accepts the same texts,
 * src/extension/jsoncTree.ts): comments and trailing commas are fine, a UTF-8 BOM is skipped, an
 * empty file is no settings, and a `.code-workspace` file's settings are its `settings`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { single, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { isObject } from '../engine/jsonObject';

/** The settings file to use; a discovered one is named on stderr (stdout stays pure JSON). */
export function configPath(io: CliIo, args: ParsedArgs): string {
  const given = single(args, 'config');
  if (given !== undefined) return given;
  const found = discoverSettings(io.cwd);
  io.stderr.write(`key-routing: using ${found}\n`);
  return found;
}

/**
 * The settings object in `path`. `origin` is how messages name the file (`--config FILE` when
 * the user gave it).
 */
export function readSettingsFile(path: string, origin = `--config ${path}`): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${origin}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parse(text, errors, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: true });
  } catch {
    // The parser recurses per nesting level.
    throw new UsageError(`${origin}: nested too deeply to read`);
  }
  if (errors.length > 0) {
    const e = errors[0];
    const before = text.slice(0, e.offset).split('\n');
    const where = `line ${before.length}, column ${before[before.length - 1].length + 1}`;
    throw new UsageError(`${origin}: not valid JSON at ${where}: ${errorWords(printParseErrorCode(e.error))} (comments and trailing commas are fine)`);
  }
  if (value === undefined) return {};
  if (path.endsWith('.code-workspace')) {
    const settings = isObject<unknown>(value) ? value.settings : undefined;
    return settings === undefined ? {} : settings;
  }
  return value;
}

/** `CommaExpected` → `comma expected`. */
function errorWords(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function hasKeyRouting(settings: unknown): boolean {
  return isObject<unknown>(settings) && Object.keys(settings).some((k) => k.startsWith('keyRouting.'));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function workspaceFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.code-workspace'))
      .sort()
      .map((f) => join(dir, f))
      .filter(isFile);
  } catch {
    return [];
  }
}

/**
 * From `from` upward, the first folder with a `.vscode/settings.json` that holds keyRouting
 * settings (a settings.json without any, e.g. only editor settings, is passed over), or else with
 * one `.code-workspace` file that does (folder settings come first, as in VS Code).
 */
export function discoverSettings(from: string): string {
  const passed: string[] = [];
  const found = (path: string): boolean => {
    const ok = hasKeyRouting(readSettingsFile(path, path));
    if (!ok) passed.push(path);
    return ok;
  };
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const settings = join(dir, '.vscode', 'settings.json');
    if (isFile(settings) && found(settings)) return settings;
    const workspaces = workspaceFiles(dir).filter(found);
    if (workspaces.length === 1) return workspaces[0];
    if (workspaces.length > 1) {
      throw new UsageError(`--config: several workspace files with keyRouting settings in ${dir} (${workspaces.join(', ')}); pass one with --config FILE`);
    }
    if (dirname(dir) === dir) break;
  }
  const none = passed.length > 0 ? ` (${passed.join(', ')}: no keyRouting settings)` : '';
  throw new UsageError(
    `--config: not given, and no .vscode/settings.json with keyRouting settings in ${resolve(from)} or a folder above it${none}; pass the settings file with --config FILE`,
  );
}
