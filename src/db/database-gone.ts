import type { Db } from './connect.js';
import { describeConnectError } from './connect.js';

/**
 * Why the database went away under a failed rep (one line, no secret), or undefined when it answers: the run's
 * failure, not the SUT's. A server that restarted within `sinceMs` (the rep's age) cut the rep's connections too;
 * told from the server's own uptime, so no clock skew between machines can blame the SUT.
 */
export async function databaseGone(db: Db, sinceMs?: number): Promise<string | undefined> {
  try {
    const { rows } = await db.pool.query<{ up: number | null }>(
      'SELECT extract(epoch FROM now() - pg_postmaster_start_time())::float8 AS up',
    );
    const up = rows[0]?.up;
    if (sinceMs !== undefined && typeof up === 'number' && up * 1000 < sinceMs)
      return `the server restarted ${up.toFixed(1)} s ago, cutting its connections`;
    return undefined;
  } catch (error) {
    return describeConnectError(error, db.url);
  }
}
