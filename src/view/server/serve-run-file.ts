import { realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { resolve } from 'node:path';

/**
 * The real path of a file inside a run directory, or undefined when the path leaves it (`..`, an absolute path, a
 * symbolic link pointing out) or names no regular file: the viewer serves the files of the runs it was given, only.
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
