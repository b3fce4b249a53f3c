import { shownPath } from '../util/shown-path.js';
import { readFileSync } from 'node:fs';
import { formatJsonPath } from '../util/json/json-source.js';
import { jsonLocator, placeOf, sourceLocator } from './issue-lines.js';

/** How messages name the built-in config used when a project has none. */
export const SAMPLE_CONFIG_SHOWN = '<sample game config>';

/**
 * The start of a message about a place in the config that only the database shows to be wrong (a table or column
 * it does not have): `turnkit.config.json:4:15: $.game.root.table`, at the key, as a schema problem reads. The config is read
 * again for the line and column, on the error path only; a file that cannot be read gives the path without them.
 */
export function configPlace(file: string | undefined, path: readonly PropertyKey[]): string {
  let text: string | undefined;
  try {
    text = file === undefined ? undefined : readFileSync(file, 'utf8');
  } catch {
    // Unreadable: the place without its line and column.
  }
  const locate =
    text === undefined ? () => undefined : file!.endsWith('.json') ? jsonLocator(text, true) : sourceLocator(text);
  return `${placeOf(configShown(file), text, locate, path)}: ${formatJsonPath(path)}`;
}

/** A config file as messages show it: relative to the working folder, or the sample config's name. */
export function configShown(file: string | undefined): string {
  return file ? shownPath(file) : SAMPLE_CONFIG_SHOWN;
}
