import { existsSync } from 'node:fs';
import { HAND_WRITTEN_LIMIT, readInputBytes, readInputText } from '../util/read-input.js';
import { readFile } from 'node:fs/promises';
import { dirname, resolve, relative } from 'node:path';
import { TurnkitError } from '../errors.js';
import { importModule } from '../util/import-module.js';
import { parseJsonText, parseWithSchema } from '../util/json/json-source.js';
import { configSchema, type TurnkitConfig } from './schema.js';
import { parseConfigValue } from './config-issues.js';
import { sampleGameConfig } from './sample-config.js';
import { findConfigFile } from './config-file.js';
import { SAMPLE_CONFIG_SHOWN } from './config-place.js';

/** A loaded config: the parsed values plus where they came from. */
export interface LoadedConfig extends TurnkitConfig {
  /** Directory that relative paths in the config are resolved against. */
  baseDir: string;
  /** The config file, or undefined when the sample game's config was used. */
  file: string | undefined;
}

/** Options for loading a config. */
export interface LoadConfigOptions {
  /** Explicit config file (`--config`); must exist. */
  configPath?: string;
  /** Directory to search for a config file (default: the working directory). */
  cwd?: string;
}

/** Finds and loads the project's config; falls back to the sample game's config when the project has none. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = resolve(options.cwd ?? '.');
  const file = options.configPath ? resolve(cwd, options.configPath) : findConfigFile(cwd);
  if (options.configPath && !existsSync(file!)) {
    throw new TurnkitError('CONFIG', `${options.configPath}: config file not found`);
  }
  if (!file)
    return {
      ...parseWithSchema(configSchema, sampleGameConfig, SAMPLE_CONFIG_SHOWN),
      baseDir: cwd,
      file: undefined,
    };
  const shown = relative(cwd, file) || file;
  // A JSON config is read once: its text gives both the value and the lines and columns a problem names.
  const json = file.endsWith('.json') ? await readInputText(file, shown, HAND_WRITTEN_LIMIT) : undefined;
  // A module is checked the same way before Node imports it (a folder, /dev/zero, a huge file: one line, not a hang).
  if (json === undefined) await readInputBytes(file, shown, HAND_WRITTEN_LIMIT);
  const raw = json !== undefined ? parseJsonText(json, shown) : await readConfigValue(file, shown);
  // A module's text too, so that a problem names its line and column; a file that cannot be read again just has none.
  const text = json ?? (await readFile(file, 'utf8').catch(() => undefined));
  return { ...parseConfigValue(raw, text, shown, json !== undefined), baseDir: dirname(file), file };
}

/** The default export of a config module (.ts, .mts, .js, .mjs). */
async function readConfigValue(file: string, shown: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = await importModule(file);
  } catch (error) {
    throw new TurnkitError('CONFIG', describeLoadError(error, shown));
  }
  if (module.default === undefined) {
    throw new TurnkitError('CONFIG', `${shown}: no default export (write \`export default defineConfig({...})\`)`);
  }
  const value = module.default as Record<string, unknown> | undefined;
  // A .ts file outside a "type": "module" package is compiled as CommonJS: its exports arrive one level down.
  if (value && typeof value === 'object' && 'default' in value && !('game' in value)) return value.default;
  return value;
}

/** One line for a config that fails to compile or run, with esbuild's line and column when it gives them. */
function describeLoadError(error: unknown, shown: string): string {
  const message = String((error as Error)?.message ?? error);
  // esbuild: "Transform failed with 1 error:\n/abs/file.ts:3:31: ERROR: text" (its column counts from 0).
  const located = /:(\d+):(\d+): ERROR: (.*)$/m.exec(message);
  if (located) return `${shown}:${located[1]}:${Number(located[2]) + 1}: cannot load config: ${located[3]}`;
  return `${shown}: cannot load config: ${message.split('\n')[0]}`;
}
