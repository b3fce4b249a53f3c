import type pg from 'pg';
import type { Db } from './connect.js';

/**
 * Runs `fn` on one connection inside a transaction opened with `begin` (e.g. a REPEATABLE READ READ ONLY
 * snapshot): commits when it returns, rolls back when it throws, and always returns the connection to the pool.
 */
export async function inTransaction<T>(db: Db, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // The original error matters, not a failed rollback on a broken connection.
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
