import { relative } from 'node:path';

/** A path as shown in messages: relative to the working folder. */
export function shownPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** Why a file could not be read, in words: "no such file", "is a folder", or the system's code. */
export function describeReadError(error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT'
    ? 'no such file'
    : error.code === 'EISDIR'
      ? 'is a folder, not a file'
      : `cannot read (${error.code})`;
}
