import type pg from 'pg';
import type { Catalog, TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { RAW_TEXT_TYPES, whereIn, type RawRow } from '../fixture/capture/row-query.js';
import { dependencyOrder } from './dependency-order.js';
import { forgetSharedRow, lockSharedRows, unusedSharedRows, type SharedRowRef } from './registry.js';
import { parseTupleKey } from './remap/key-ranges.js';

/**
 * Deletes the shared rows turnkit inserted that no other scratch campaign uses and no live row references,
 * children before parents (a shared user's account row goes after the user). A row that live data now
 * references is left in place and forgotten: it belongs to the live game from then on.
 */
export async function removeUnusedSharedRows(
  client: pg.PoolClient,
  used: readonly SharedRowRef[],
  catalog: Catalog,
): Promise<{ deleted: number; kept: number }> {
  await lockSharedRows(client, 'exclusive');
  const unused = await unusedSharedRows(client, used);
  const tables = new Map(
    unused.flatMap(({ table }) => (catalog.tables.has(table) ? [[table, catalog.tables.get(table)!] as const] : [])),
  );
  const rank = new Map(
    dependencyOrderOrNames(tables)
      .reverse()
      .map((name, i) => [name, i]),
  );
  unused.sort((a, b) => (rank.get(a.table) ?? 0) - (rank.get(b.table) ?? 0));

  let deleted = 0;
  let kept = 0;
  for (const { table, key } of unused) {
    const info = catalog.tables.get(table);
    if (info && info.primaryKey.length > 0) {
      const tuple = parseTupleKey(key, info.primaryKey.length);
      const values: unknown[] = [];
      const where = whereIn(info, info.primaryKey, [tuple], values);
      const row = (
        await client.query({
          text: `SELECT * FROM ${info.from} AS t WHERE ${where}`,
          values,
          rowMode: 'array',
          types: RAW_TEXT_TYPES,
        })
      ).rows[0] as RawRow | undefined;
      if (row && (await isReferenced(client, catalog, info, row))) kept++;
      else if (row)
        deleted += (await client.query({ text: `DELETE FROM ${info.from} AS t WHERE ${where}`, values })).rowCount ?? 0;
    }
    await forgetSharedRow(client, table, key);
  }
  return { deleted, kept };
}

function dependencyOrderOrNames(tables: ReadonlyMap<string, TableInfo>): string[] {
  try {
    return dependencyOrder(tables).order;
  } catch {
    // Shared tables in a cycle that cannot be ordered: name order, and a referenced row is kept rather than lost.
    return [...tables.keys()].sort();
  }
}

/**
 * True when any row of any table points at the given row through a foreign key, whichever of its columns the key
 * references (primary key or another unique column): deleting it would fail, or cascade into live rows.
 */
async function isReferenced(client: pg.PoolClient, catalog: Catalog, parent: TableInfo, row: RawRow): Promise<boolean> {
  for (const child of catalog.tables.values()) {
    for (const fk of child.foreignKeys) {
      if (fk.references.table !== parent.name) continue;
      const values = fk.references.columns.map(
        (column) => row[parent.columns.findIndex((candidate) => candidate.name === column)] ?? null,
      );
      if (values.some((value) => value === null)) continue;
      const where = fk.columns.map(
        (column, i) =>
          `t.${quoteIdent(column)} = $${i + 1}::text::${child.columns.find((c) => c.name === column)!.type}`,
      );
      const result = await client.query({
        text: `SELECT 1 FROM ${child.from} AS t WHERE ${where.join(' AND ')} LIMIT 1`,
        values,
      });
      if ((result.rowCount ?? 0) > 0) return true;
    }
  }
  return false;
}
