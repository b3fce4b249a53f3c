import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The variable every process turnkit starts carries, with a value of its own per run: what `setsid` or a double fork
 * takes out of the process group still inherits it, so the run's leftovers can be found (Linux: /proc) and ended.
 */
export const PROCESS_TAG_VARIABLE = 'TURNKIT_PROCESS_TAG';

/** A fresh tag for one run of a program. */
export function newProcessTag(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The pids of this user's processes whose environment holds the tag (Linux; none elsewhere, or where /proc cannot
 * be read). A process that cleared its environment (`env -i`) cannot be found this way.
 */
function taggedProcesses(tag: string): number[] {
  const marker = Buffer.from(`${PROCESS_TAG_VARIABLE}=${tag}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      // The environment as it was at exec, NUL-separated; unreadable for other users' processes (skipped).
      if (readFileSync(`/proc/${entry}/environ`).includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found;
}

/** Sends SIGKILL to every process holding the tag; returns how many were found. */
export function killTagged(tag: string): number {
  const pids = taggedProcesses(tag);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}
