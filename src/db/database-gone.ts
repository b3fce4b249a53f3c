import type { Db } from './connect.js';
import { describeConnectError } from './connect.js';

/**
 * Asks the database for `SELECT 1`: undefined when it answers, else why not (one line, no secret). After a rep
 * failed, this tells a SUT or teardown failure from the database having gone away under the run (the embedded
 * server's process killed, a Postgres restart), which is the run's failure and says nothing about the SUT.
 *
 * `sinceMs`: how long ago the rep began. A server that restarted within that time is back already (a fast restart
 * takes under a second) but cut the rep's connections, the SUT's among them: that too is the database going away,
 * not a SUT error. Told from the server's own uptime (its clock against itself), so no clock skew between the
 * machines can blame the SUT.
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
