import type { Queryable } from '../db/introspect.js';
import { quoteIdent } from '../db/quote.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';

/** A foreign key that a teardown deletes through with no index on its referencing columns. */
export interface UnindexedForeignKey {
  table: string;
  columns: string[];
  references: string;
  constraint: string;
  /** The statement that fixes it. */
  fix: string;
}

/**
 * Finds the foreign keys into the campaign's own tables whose referencing columns lead no index. Postgres
 * indexes only the referenced side: deleting each parent row then scans the whole child table, and a teardown
 * (which deletes every parent row of a campaign) becomes quadratic in the table's size.
 */
export async function unindexedForeignKeys(db: Queryable, graph: GameGraph): Promise<UnindexedForeignKey[]> {
  const indexes = await leadingIndexColumns(db);
  const found: UnindexedForeignKey[] = [];
  for (const parent of graph.owned) {
    for (const { child, fk } of graph.childEdges.get(parent) ?? []) {
      // A declared reference has no constraint behind it: Postgres checks nothing, and scans nothing, on a delete.
      if (fk.declared) continue;
      const wanted = new Set(fk.columns);
      const covered = (indexes.get(`${child.schema}.${child.table}`) ?? []).some(
        (columns) =>
          columns.length >= wanted.size && columns.slice(0, wanted.size).every((column) => wanted.has(column)),
      );
      if (covered) continue;
      found.push({
        table: child.name,
        columns: fk.columns,
        references: parent,
        constraint: fk.name,
        fix: `CREATE INDEX ON ${child.sql} (${fk.columns.map(quoteIdent).join(', ')});`,
      });
    }
  }
  return found;
}

/** One line per unindexed foreign key: what it costs and the statement that fixes it. */
export function describeUnindexed(found: readonly UnindexedForeignKey[]): string[] {
  return found.map(
    (fk) =>
      `"${fk.table}" (${fk.columns.join(', ')}) references "${fk.references}" with no index: every row a teardown deletes from ` +
      `"${fk.references}" makes Postgres scan all of "${fk.table}"; fix: ${fk.fix}`,
  );
}

async function leadingIndexColumns(db: Queryable): Promise<Map<string, string[][]>> {
  const result = await db.query(`
    SELECT n.nspname AS schema, c.relname AS table,
           ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND i.indpred IS NULL`);
  const byTable = new Map<string, string[][]>();
  for (const row of result.rows as { schema: string; table: string; columns: string[] | string }[]) {
    const columns = Array.isArray(row.columns) ? row.columns : row.columns.slice(1, -1).split(',').filter(Boolean);
    const key = `${row.schema}.${row.table}`;
    byTable.set(key, [...(byTable.get(key) ?? []), columns]);
  }
  return byTable;
}
