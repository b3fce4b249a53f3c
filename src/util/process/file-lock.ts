import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { TurnkitError } from '../../errors.js';
import { lenientJson } from '../json/json-source.js';
import { describeWriteError, shownPath } from '../shown-path.js';
import { currentProcess, processState } from './process-identity.js';

/** Who holds a lock file: written into it. */
export interface LockOwner {
  pid: number;
  host?: string | undefined;
  /** What holds it (`turnkit view`, `turnkit run`). */
  tool: string;
  since: string;
  /** The holder's start time in clock ticks (Linux): a pid reused by another process after a kill -9 is told apart. */
  startTicks?: string | null | undefined;
  /** The holder's pid namespace (Linux): a lock of another container on the same host name cannot be checked. */
  pidNamespace?: string | null | undefined;
}

/** A held lock file; release it in `finally` (or `await using`). */
export interface HeldLock {
  readonly file: string;
  release(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Takes a lock file (created exclusively, owner-only), so that a second process about to write what it guards is
 * refused. A lock left by a process of this host that is gone (killed, crashed) is taken over; a live holder's lock
 * makes `refusal(owner)` the error, which names the holder.
 */
export async function acquireFileLock(
  file: string,
  tool: string,
  refusal: (owner: LockOwner) => string,
): Promise<HeldLock> {
  const self = currentProcess();
  const mine: LockOwner = {
    pid: self.pid,
    host: self.host,
    tool,
    since: new Date().toISOString(),
    startTicks: self.startTicks,
    pidNamespace: self.pidNamespace,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
      } catch (error) {
        // A full disk can refuse the owner's line after the file was made: no empty lock is left behind (it would
        // read as torn and be taken over, but a lock nobody holds is no lock), and the error names the folder.
        await handle.close();
        await rm(file, { force: true });
        throw new TurnkitError(
          'IO',
          `${shownPath(dirname(file))}: ${describeWriteError(error as NodeJS.ErrnoException)}`,
        );
      }
      await handle.close();
      return heldLock(file, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = await readOwner(file);
      if (owner && isAlive(owner)) throw new TurnkitError('EXISTS', refusal(owner));
      // Unreadable a moment after it was made: its holder is still writing its line (open, then write), not gone.
      if (!owner && (await ageMs(file)) < 5_000)
        throw new TurnkitError('EXISTS', refusal({ pid: 0, tool: 'another process', since: 'just now' }));
      // Stale (its process is gone) or unreadable for long (torn by a crash): the next attempt takes it over.
      await rm(file, { force: true });
    }
  }
  throw new TurnkitError('EXISTS', `${shownPath(file)}: this lock could not be taken`);
}

/** `pid 12 on host-a, since 2026-...`: the holder as a refusal names it. */
export function describeOwner(owner: LockOwner): string {
  return `pid ${owner.pid}${owner.host ? ` on ${owner.host}` : ''}, since ${owner.since}`;
}

function heldLock(file: string, mine: LockOwner): HeldLock {
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

// Read leniently: a lock file that does not read is being written (open, then write) or was torn by a crash.
async function readOwner(file: string): Promise<LockOwner | undefined> {
  const value = lenientJson(await readFile(file, 'utf8').catch(() => '')) as Partial<LockOwner> | null | undefined;
  if (typeof value?.pid !== 'number') return undefined;
  return {
    pid: value.pid,
    host: value.host,
    tool: value.tool ?? 'another turnkit',
    since: value.since ?? 'an unknown time',
    startTicks: typeof value.startTicks === 'string' ? value.startTicks : null,
    pidNamespace: typeof value.pidNamespace === 'string' ? value.pidNamespace : null,
  };
}

async function ageMs(file: string): Promise<number> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

// The one "is this process alive" check (util/process-identity.ts): a lock of another host or container cannot be
// checked from here and is taken to be held; a pid reused since the holder died is not the holder.
function isAlive(owner: LockOwner): boolean {
  return (
    processState({
      pid: owner.pid,
      host: owner.host ?? hostname(),
      startTicks: owner.startTicks ?? null,
      pidNamespace: owner.pidNamespace ?? null,
    }) !== 'gone'
  );
}
