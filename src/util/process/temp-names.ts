import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { processState } from './process-identity.js';

// `.NAME.PID.RAND.tmp`: hidden, beside its target (so a rename is atomic), and naming the process that made it.
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** A temporary path beside `path` (same folder, so renaming it onto `path` is atomic), named after this process. */
export function tempSibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

// The one "is this process alive" check; a temp name records only the pid, so a reused pid keeps its file for now.
function pidAlive(pid: number): boolean {
  return processState({ pid, host: hostname(), startTicks: null, pidNamespace: null }) !== 'gone';
}

/**
 * Removes the temporary files and folders (`.NAME.PID.RAND.tmp`) that a killed turnkit process left in `dir`: only
 * those whose process is gone, so a write under way in another process is never touched. Returns their names.
 */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = Number(TEMP_NAME.exec(name)?.[1]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid);
  });
  for (const name of stale) await rm(join(dir, name), { recursive: true, force: true });
  return stale;
}
