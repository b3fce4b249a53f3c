import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A process that holds something (a scratch campaign, a lock, a database of its own): enough to tell later whether
 * it is still alive.
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** When the process started (approximate, from its uptime). */
  startedAt: Date;
  /** The kernel's start time of the process in clock ticks since boot (Linux), which tells a reused pid apart. */
  startTicks: string | null;
  /** The pid namespace (Linux): two containers on one host name do not see each other's pids. */
  pidNamespace: string | null;
}

/** The identity of the running process. */
export function currentProcess(): ProcessIdentity {
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000),
    startTicks: startTicksOf(process.pid),
    pidNamespace: pidNamespace(),
  };
}

/** Whether the recorded process still runs: only knowable on this host; `unknown` elsewhere. */
export function processState(
  owner: Pick<ProcessIdentity, 'pid' | 'host' | 'startTicks' | 'pidNamespace'>,
): 'alive' | 'gone' | 'unknown' {
  if (owner.host !== hostname()) return 'unknown';
  // Same host name, other pid namespace (a container): its pids mean nothing here.
  if (owner.pidNamespace !== null && owner.pidNamespace !== pidNamespace()) return 'unknown';
  if (!processAlive(owner.pid)) return 'gone';
  // A live pid with another start time is a new process that reused the number.
  const ticks = startTicksOf(owner.pid);
  if (owner.startTicks !== null && ticks !== null && ticks !== owner.startTicks) return 'gone';
  return 'alive';
}

/** True when a process of that pid exists (EPERM: it does, but is another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function startTicksOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which may itself hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}
