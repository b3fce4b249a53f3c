import { acquireFileLock, describeOwner, type HeldLock } from '../util/process/file-lock.js';
import { shownPath } from '../util/shown-path.js';

/** A held lock on a marks file; release it in `finally` (or `await using`). */
export type MarksLock = HeldLock;

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
  return acquireFileLock(
    file,
    tool,
    (owner) =>
      `${shownPath(marksFile)}: being marked by ${owner.tool} (${describeOwner(owner)}); close it first, or remove ${shownPath(file)} if it is gone`,
  );
}
