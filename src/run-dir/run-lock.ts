import { join } from 'node:path';
import { acquireFileLock, describeOwner, type HeldLock } from '../util/process/file-lock.js';
import { shownPath } from '../util/shown-path.js';

/** The lock file inside a run directory while a run or resume writes it. */
const RUN_LOCK_FILE = 'run.lock';

/**
 * Holds a run directory while a run or resume writes it, so that a second resume of the same directory is refused
 * (naming the holder) instead of calling the SUT for the same reps again and tearing `order.jsonl`. A lock of a
 * process that is gone (a killed run) is taken over, as a marks file's is.
 */
export async function acquireRunLock(dir: string, tool: string): Promise<HeldLock> {
  const file = join(dir, RUN_LOCK_FILE);
  return acquireFileLock(
    file,
    tool,
    (owner) =>
      `${shownPath(dir)}: ${owner.tool} is writing this run (${describeOwner(owner)}); wait for it to finish, or remove ${shownPath(file)} if it is gone`,
  );
}
