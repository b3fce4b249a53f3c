import type { Db } from './connect.js';

/**
 * Vacuums the given tables (quoted, schema-qualified SQL names), one statement each and outside any transaction
 * (VACUUM refuses to run inside one). A plain VACUUM, not FULL: it takes no lock that blocks reads or writes, makes the
 * dead tuples' space reusable (so the files stop growing) and truncates the empty pages at a table's end, which is
 * where a torn-down scratch campaign's rows were; ANALYZE with it keeps the planner's row counts in step, as
 * autovacuum would. Returns how long it took.
 */
export async function vacuumTables(db: Pick<Db, 'pool'>, tables: Iterable<string>): Promise<number> {
  const started = performance.now();
  for (const table of tables) await db.pool.query(`VACUUM (ANALYZE) ${table}`);
  return performance.now() - started;
}
