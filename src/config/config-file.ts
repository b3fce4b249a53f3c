import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

// Which config file a folder has, in a module of its own: a command that only needs to know whether there is one
// (`turnkit demo`, for a judge named in it) learns it without loading the config's schemas.

/** Config file names looked up in the working directory, first match wins. */
export const CONFIG_FILE_NAMES = [
  'turnkit.config.ts',
  'turnkit.config.mts',
  'turnkit.config.js',
  'turnkit.config.mjs',
  'turnkit.config.json',
];

/** The config file in `cwd` that loadConfig reads, or undefined when it falls back to the sample game's config. */
export function findConfigFile(cwd: string): string | undefined {
  return CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(path));
}
