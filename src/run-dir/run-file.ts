import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';

/**
 * The real path of a file inside a run directory, or undefined when the path leaves it (`..`, an absolute path, a
 * symbolic link pointing out) or names no regular file: every reader of a run directory goes by this one rule.
 */
export async function fileInRun(runDir: string, relative: string): Promise<string | undefined> {
  if (relative.includes('\0')) return undefined;
  try {
    const root = await realpath(runDir);
    const path = await realpath(resolve(root, relative));
    if (!path.startsWith(root + sep)) return undefined;
    return (await stat(path)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a text file of a run directory (a rubric, a case file, a rep), by the rule of `fileInRun`: a symbolic link
 * that leads out of the run directory is refused with an error naming it, so that no report or page embeds
 * `/etc/passwd`; a missing file fails as a missing file does (ENOENT), for the caller's own fallback.
 */
export async function readRunText(runDir: string, relative: string): Promise<string> {
  const inside = await fileInRun(runDir, relative);
  if (inside !== undefined) return readFile(inside, 'utf8');
  const path = join(runDir, relative);
  const real = await realpath(path).catch(() => undefined);
  const root = await realpath(runDir).catch(() => runDir);
  // Missing, or a folder or other file inside the run: read as it is, for the error that says so.
  if (real === undefined || real.startsWith(root + sep)) {
    if ((await lstat(path).catch(() => undefined))?.isSymbolicLink() !== true || real !== undefined)
      return readFile(path, 'utf8');
  }
  throw new TurnkitError(
    'BAD_INPUT',
    `${shownPath(path)}: a symbolic link that leads out of the run directory; refused`,
  );
}

/** A `.catch` for a run file with a fallback: a refusal (a link out) stays an error, anything else is the fallback. */
export function orFallback<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof TurnkitError) throw error;
    return fallback;
  };
}
