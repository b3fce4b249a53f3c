import type { Db } from '../../src/db/connect.js';

/** A checksum of every row of every user table outside turnkit's own schema, by table: equal means untouched. */
export async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await db.pool.query(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'turnkit') AND n.nspname NOT LIKE 'pg_%'
    ORDER BY 1`);
  const sums: Record<string, string> = {};
  for (const { name } of tables as { name: string }[]) {
    const { rows } = await db.pool.query(
      `SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS sum FROM ONLY ${name} AS t`,
    );
    sums[name] = rows[0].sum;
  }
  return sums;
}

/** Row counts of turnkit's registry tables (all zero when nothing is left behind). */
export async function registryCounts(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.pool.query(`
    SELECT (SELECT count(*) FROM turnkit.scratch_campaigns)::int AS campaigns,
           (SELECT count(*) FROM turnkit.scratch_shared_rows)::int AS shared_rows,
           (SELECT count(*) FROM turnkit.scratch_shared_uses)::int AS shared_uses`);
  return rows[0];
}
