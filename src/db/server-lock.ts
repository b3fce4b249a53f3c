import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { writeFileAtomic } from '../util/atomic-write.js';

/** What the lock file next to the embedded data directory says about the process that owns it. */
export interface ServerLock {
  pid: number;
  host: string;
  /** Port of the owner's socket server; null while the owner is still starting. */
  port: number | null;
  startedAt: string;
}

/** Path of the lock file that guards an embedded data directory. */
export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/[\\/]+$/, '')}.lock`;
}

/** Tries to take the lock; returns true when this process now owns the data directory. */
export async function tryTakeLock(path: string): Promise<boolean> {
  try {
    // 'wx' fails if the file exists: creating it is the atomic test-and-set.
    const handle = await open(path, 'wx', 0o600);
    const lock: ServerLock = { pid: process.pid, host: hostname(), port: null, startedAt: new Date().toISOString() };
    await handle.writeFile(JSON.stringify(lock));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Reads the lock file; undefined when it is missing or unreadable (an owner mid-write). */
export async function readLock(path: string): Promise<ServerLock | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as ServerLock;
  } catch {
    return undefined;
  }
}

/** Records the owner's port once its socket server listens. */
export async function publishPort(path: string, port: number): Promise<void> {
  const lock = await readLock(path);
  await writeFileAtomic(path, JSON.stringify({ ...lock, pid: process.pid, host: hostname(), port }), { mode: 0o600 });
}

/** Removes the lock if it still belongs to this process. */
export async function releaseLock(path: string): Promise<void> {
  const lock = await readLock(path);
  if (lock?.pid === process.pid && lock.host === hostname()) await rm(path, { force: true });
}

/** True when the lock's owner process is still running (on another host we cannot tell, so assume yes). */
export function lockOwnerAlive(lock: ServerLock): boolean {
  if (lock.host !== hostname()) return true;
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a lock whose owner is gone. */
export async function removeStaleLock(path: string): Promise<void> {
  await rm(path, { force: true });
}
