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

/** Why a file could not be written, in words (the code kept for searching): a full disk says so. */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  const words: Record<string, string> = {
    ENOSPC: 'no space left on the disk',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EIO: 'input/output error',
  };
  const code = error?.code;
  return code ? `${words[code] ?? 'cannot write'} (${code})` : (error?.message ?? String(error)).split('\n')[0]!;
}
