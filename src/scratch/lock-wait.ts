import type pg from 'pg';
import type { Db } from '../db/connect.js';
import { TurnkitError } from '../errors.js';

/** How long a teardown waits for a lock before it gives up and names the holder (a SUT's leftover transaction). */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

/** Postgres' SQLSTATE for a lock wait that passed `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** A backend another one waits for: its pid and what pg_stat_activity says of it. */
export interface Blocker {
  pid: number;
  application: string;
  state: string;
}

/**
 * Watches a connection's lock waits while it works: every `everyMs`, `pg_blocking_pids` of its backend; the first
 * time another backend blocks it, `onWaiting` hears who. `blockers()` gives the last ones seen.
 */
export async function watchLockWaits(
  db: Db,
  client: pg.PoolClient,
  onWaiting: ((blockers: Blocker[]) => void) | undefined,
  everyMs = 100,
): Promise<{ blockers(): Blocker[]; stop(): void }> {
  let seen: Blocker[] = [];
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  let told = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    db.pool
      .query<{ pid: number; application: string | null; state: string | null }>(
        `SELECT a.pid, a.application_name AS application, a.state
           FROM unnest(pg_blocking_pids($1)) AS b(pid) JOIN pg_stat_activity a ON a.pid = b.pid ORDER BY a.pid`,
        [pid],
      )
      .then(({ rows }) => {
        if (rows.length === 0) return;
        seen = rows.map((row) => ({ pid: row.pid, application: row.application ?? '', state: row.state ?? '' }));
        if (!told) onWaiting?.(seen);
        told = true;
      })
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return { blockers: () => seen, stop: () => clearInterval(timer) };
}

/** `backend pid 4242 (psql, idle in transaction)`: the holders as messages name them. */
export function describeBlockers(blockers: readonly Blocker[]): string {
  if (blockers.length === 0) return 'another backend (gone before it could be named)';
  return blockers
    .map(
      (b) =>
        `backend pid ${b.pid}${b.application || b.state ? ` (${[b.application, b.state].filter(Boolean).join(', ')})` : ''}`,
    )
    .join(', ');
}

/** Whether an error is a lock wait that passed `lock_timeout`. */
export function isLockTimeout(error: unknown): boolean {
  // A combined write hands the server's error on as its cause.
  for (let at = error, depth = 0; at && depth < 3; at = (at as { cause?: unknown }).cause, depth++)
    if ((at as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return true;
  return false;
}

/** The one-line error of a teardown that gave up on a lock: the campaign, the wait, the holder, what to do. */
export function lockTimeoutError(
  campaign: string,
  fixture: string,
  ms: number,
  blockers: readonly Blocker[],
): TurnkitError {
  const pids = blockers.map((b) => b.pid);
  return new TurnkitError(
    'DATABASE',
    `scratch campaign ${campaign} (${fixture}): teardown waited ${ms / 1_000} s for a lock held by ${describeBlockers(blockers)}; end that session${pids.length > 0 ? ` (SELECT pg_terminate_backend(${pids[0]}))` : ''}, then run turnkit gc`,
  );
}
