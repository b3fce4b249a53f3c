import type { Db } from './connect.js';
import { describeConnectError } from './connect.js';

/**
 * Asks the database for `SELECT 1`: undefined when it answers, else why not (one line, no secret). After a rep
 * failed, this tells a SUT or teardown failure from the database having gone away under the run (the embedded
 * server's process killed, a Postgres restart), which is the run's failure and says nothing about the SUT.
 */
export async function databaseGone(db: Db): Promise<string | undefined> {
  try {
    await db.pool.query('SELECT 1');
    return undefined;
  } catch (error) {
    return describeConnectError(error, db.url);
  }
}
