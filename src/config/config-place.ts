import { shownPath } from '../util/shown-path.js';
import { readFileSync } from 'node:fs';
import { distance } from 'fastest-levenshtein';
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

/**
 * ` (did you mean "X"?)` for a name the database does not have: a known name that differs only in case or schema
 * prefix, else the closest by edit distance when it is close enough to be a typo; empty when nothing is near.
 */
export function didYouMean(name: string, known: readonly string[]): string {
  const bare = (value: string): string => value.toLowerCase().replace(/^public\./, '');
  const same = known.find((candidate) => bare(candidate) === bare(name) || bare(candidate).endsWith(`.${bare(name)}`));
  if (same) return ` (did you mean "${same}"?)`;
  // A name cut short or ended differently ("turn_no" for "turn_number") is a typo edit distance would miss: the one
  // known name that shares more than half of it as a prefix.
  const shared = (candidate: string): number => {
    let at = 0;
    while (at < name.length && bare(candidate)[at] === bare(name)[at]) at++;
    return at;
  };
  const prefixed = known.filter((candidate) => shared(candidate) >= 4 && shared(candidate) * 2 > name.length);
  if (prefixed.length === 1) return ` (did you mean "${prefixed[0]}"?)`;
  if (known.length === 0) return '';
  // The nearest by edit distance; of equals, the one closest in length ("siad" is "said" swapped, not "id").
  const scored = known.map((candidate) => ({
    candidate,
    edits: distance(bare(name), bare(candidate)),
    length: Math.abs(candidate.length - name.length),
  }));
  const best = scored.sort((a, b) => a.edits - b.edits || a.length - b.length)[0]!;
  // A third of the name's length (at least two edits): "campains" finds "campaigns", "xyz" finds nothing.
  return best.edits <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean "${best.candidate}"?)` : '';
}
