import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';

/** A run's folder name: the UTC time to the millisecond, sortable and free of ":" (Windows). */
export function runStamp(now: Date): string {
  return now.toISOString().replace(/:/g, '-');
}

/**
 * Creates `runs/QUESTION/STAMP[SUFFIX]/` with mode 0700 (a shard's suffix is `-shard-I-of-N`; a shard of a named
 * run uses the name instead of the time). The folder is never reused: an existing one is an error, and nothing in
 * it is touched.
 */
export async function createRunDir(
  runsRoot: string,
  questionId: string,
  now: Date,
  suffix = '',
  name?: string,
): Promise<string> {
  const parent = join(runsRoot, questionId);
  const dir = join(parent, `${name ?? runStamp(now)}${suffix}`);
  try {
    await mkdir(parent, { recursive: true, mode: 0o700 });
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new TurnkitError('EXISTS', `${shownPath(dir)}: a run directory of that name exists; runs are never reused`);
    throw new TurnkitError('IO', `${shownPath(dir)}: ${describeWriteError(error as NodeJS.ErrnoException)}`);
  }
  return dir;
}

/**
 * Writes a file of a run (mode 0600, atomically: a reader sees the old bytes or the new ones). `durable: false`
 * skips the fsync for rep files: a rep lost to a power cut is missing, and `--resume` runs it again.
 */
export async function writeRunFile(
  dir: string,
  relative: string,
  content: string,
  options: { durable?: boolean } = {},
): Promise<void> {
  const path = join(dir, relative);
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, content, { mode: 0o600, durable: options.durable ?? true });
  } catch (error) {
    // A full disk names the file it stopped at (the atomic write left the old bytes or nothing).
    throw new TurnkitError('IO', `${shownPath(path)}: ${describeWriteError(error as NodeJS.ErrnoException)}`);
  }
}

/** A fixture name as a file name inside the run (names are already restricted to letters, digits, ".", "_", "-"). */
export function repFileBase(fixture: string, rep: number): string {
  return join('reps', fixture, `rep-${String(rep).padStart(2, '0')}`);
}
