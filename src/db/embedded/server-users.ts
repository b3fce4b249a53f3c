import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../../util/process/process-identity.js';

// Which turnkit processes use the embedded server, so that the last one out stops a server started on demand and
// none stops it under another. One file per use in STATE/users/, named by the pid; a killed turnkit's file is
// recognised by its dead pid and dropped. `turnkit db start` leaves STATE/kept: then only `db stop` stops it.

/** Registers this process as a user of the server; returns what `leave` takes. */
export async function joinUsers(stateDir: string): Promise<string> {
  const dir = join(stateDir, 'users');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${process.pid}.${randomBytes(4).toString('hex')}`);
  await writeFile(file, '', { mode: 0o600 });
  return file;
}

/** Removes one registration. */
export async function leaveUsers(entry: string): Promise<void> {
  await rm(entry, { force: true });
}

/** How many live processes use the server; the files of dead ones are removed on the way. */
export async function liveUsers(stateDir: string): Promise<number> {
  const dir = join(stateDir, 'users');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let live = 0;
  for (const name of names) {
    const pid = Number(name.split('.')[0]);
    if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) live++;
    else await rm(join(dir, name), { force: true });
  }
  return live;
}

/** Whether `turnkit db start` asked to keep the server running after its commands end. */
export function isKept(stateDir: string): boolean {
  return existsSync(join(stateDir, 'kept'));
}

/** Marks the server as kept (`db start`) or not (`db stop`). */
export async function setKept(stateDir: string, kept: boolean): Promise<void> {
  const file = join(stateDir, 'kept');
  if (kept) await writeFile(file, `${new Date().toISOString()}\n`, { mode: 0o600 });
  else await rm(file, { force: true });
}
