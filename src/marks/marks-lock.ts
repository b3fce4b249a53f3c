import { hostname } from 'node:os';
import { open, readFile, rm } from 'node:fs/promises';
import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';

/** Who holds a marks file: written into its lock file. */
export interface MarksLockOwner {
  pid: number;
  host?: string | undefined;
  /** What holds it (`turnkit view`, `turnkit mark`). */
  tool: string;
  since: string;
}

/** A held lock on a marks file; release it in `finally` (or `await using`). */
export interface MarksLock {
  readonly file: string;
  release(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The lock file beside a marks file: marks.csv → marks.csv.lock. */
export function lockFileOf(marksFile: string): string {
  return `${marksFile}.lock`;
}

/**
 * Takes the lock on a marks file so that a second viewer or terminal marker on the same file is refused instead of
 * overwriting marks it never saw. A lock left by a process of this host that is gone is taken over.
 */
export async function acquireMarksLock(marksFile: string, tool: string): Promise<MarksLock> {
  const file = lockFileOf(marksFile);
  const mine: MarksLockOwner = { pid: process.pid, host: hostname(), tool, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
      } finally {
        await handle.close();
      }
      return heldLock(file, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = await readOwner(file);
      if (owner && isAlive(owner)) {
        throw new TurnkitError(
          'EXISTS',
          `${shownPath(marksFile)}: being marked by ${owner.tool} (pid ${owner.pid}${owner.host ? ` on ${owner.host}` : ''}, since ${owner.since}); close it first, or remove ${shownPath(file)} if it is gone`,
        );
      }
      // Stale (its process is gone) or unreadable (torn by a crash): the next attempt takes it over.
      await rm(file, { force: true });
    }
  }
  throw new TurnkitError('EXISTS', `${shownPath(marksFile)}: its lock ${shownPath(file)} could not be taken`);
}

function heldLock(file: string, mine: MarksLockOwner): MarksLock {
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    // Only our own lock is removed: a lock taken over after we were thought gone belongs to another.
    const owner = await readOwner(file);
    if (owner && owner.pid === mine.pid && owner.since === mine.since) await rm(file, { force: true });
  };
  return { file, release, [Symbol.asyncDispose]: release };
}

async function readOwner(file: string): Promise<MarksLockOwner | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<MarksLockOwner>;
    if (typeof value.pid !== 'number') return undefined;
    return {
      pid: value.pid,
      host: value.host,
      tool: value.tool ?? 'another turnkit',
      since: value.since ?? 'an unknown time',
    };
  } catch {
    return undefined;
  }
}

function isAlive(owner: MarksLockOwner): boolean {
  // A lock of another host cannot be checked from here: it is taken to be held.
  if (owner.host !== undefined && owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
