import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Whether a program can be found as spawn would find it: a program with a slash is a path (relative to `cwd`);
 * otherwise it is looked up on PATH.
 */
export function findProgram(program: string, cwd: string, path: string | undefined): boolean {
  if (program.includes('/') || isAbsolute(program)) return isFile(resolve(cwd, program));
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && isFile(join(dir, program)));
}

// A folder of that name is not a program (spawning it fails every rep with EACCES).
function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
