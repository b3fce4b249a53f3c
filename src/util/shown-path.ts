import { AsyncLocalStorage } from 'node:async_hooks';
import { relative, resolve } from 'node:path';

// The folder messages show paths from, for the work under way: the caller says it (the command line: the shell's
// folder), so that no library file asks the process where it is. Scoped per async call chain, never global: two
// operations of one process with different folders each show their own.
const shownFrom = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with the paths of its messages shown relative to `folder` (the command line passes the shell's).
 * A folder that changes nothing (the one paths are already shown from: the outer call's, else the folder Node
 * resolves relative paths against, which the command line's is) opens no scope. On Node 20 the first
 * AsyncLocalStorage.run turns on the async hooks for good, and from then on every promise the process makes pays for
 * them: about a tenth of `turnkit report RUN`'s own time (bench:start), for a scope that would change no message.
 */
export function showingPathsFrom<T>(folder: string, fn: () => T): T {
  if (resolve(folder) === resolve(shownFrom.getStore() ?? '')) return fn();
  return shownFrom.run(folder, fn);
}

/**
 * A path as shown in messages: relative to the folder the caller chose, else to the folder Node resolves relative
 * paths against (the one a relative path given to the library was relative to, so it reads back as it was given).
 */
export function shownPath(path: string): string {
  return relative(shownFrom.getStore() ?? '', path) || path;
}

/**
 * A file of a folder as shown beside it (a run's marks file): its name when it sits directly in `dir`, else its
 * shown path.
 */
export function shownInFolder(dir: string, file: string): string {
  const inside = relative(dir, file);
  return inside.includes('/') || inside.includes('\\') || inside.startsWith('..') ? shownPath(file) : inside;
}

/** Why a file could not be read, in words: "no such file", "is a folder", or the system's code. */
export function describeReadError(error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT'
    ? 'no such file'
    : error.code === 'EISDIR'
      ? 'is a folder, not a file'
      : `cannot read (${error.code})`;
}

/**
 * Why a file could not be written, in words a user acts on: a folder in the way or a file where a folder should be
 * in words alone; a full disk, a quota, a read-only file system or a refusal with the code kept for searching.
 */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  // A write that already named its file (atomic-write.ts) carries the file system's error as its cause.
  const cause = (error as { cause?: NodeJS.ErrnoException } | undefined)?.cause;
  const code = typeof cause?.code === 'string' && /^E[A-Z]+$/.test(cause.code) ? cause.code : error?.code;
  // mkdir says EEXIST, open says ENOTDIR, when a folder of the path is a file.
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a folder on its path is a file';
  if (code === 'EISDIR') return 'it is a folder';
  const words: Record<string, string> = {
    ENOSPC: 'no space left on the disk',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EIO: 'input/output error',
  };
  return code ? `${words[code] ?? 'cannot write'} (${code})` : (error?.message ?? String(error)).split('\n')[0]!;
}
