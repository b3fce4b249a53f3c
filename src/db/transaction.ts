import type pg from 'pg';
import type { Db } from './connect.js';

/** What a transaction's `begin` returned: one result per statement when it is several (node-postgres's array). */
export type BeginResult = pg.QueryResult | pg.QueryResult[];

/**
 * Runs `fn` on one connection inside a transaction opened with `begin` (e.g. a REPEATABLE READ READ ONLY
 * snapshot): commits when it returns, rolls back when it throws, and always returns the connection to the pool
 * (or, when the server dropped it, discards it). `fn` also gets what `begin` returned: a `begin` of several
 * statements (one simple query, one round trip) may end with a read of its own (`readScratch`'s write horizon).
 */
export async function inTransaction<T>(
  db: Db,
  begin: string,
  fn: (client: pg.PoolClient, opened: BeginResult) => Promise<T>,
): Promise<T> {
  const client = await db.pool.connect();
  // A checked-out client whose server goes away emits 'error'; the pending query rejects with it anyway, and an
  // unheard 'error' event would crash the process.
  const ignore = (): void => {};
  client.on('error', ignore);
  let broken = false;
  try {
    const opened = (await client.query(begin)) as BeginResult;
    const result = await fn(client, opened);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // The original error matters, not a failed rollback on a broken connection.
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}
