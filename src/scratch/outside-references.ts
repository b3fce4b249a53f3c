import type pg from 'pg';
import type { TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { TurnkitError } from '../errors.js';
import type { GameGraph } from '../fixture/game-graph.js';
import { identityColumns } from '../fixture/row-identity.js';
import { whereIn } from '../fixture/row-query.js';

/** Rows a teardown is about to delete from one table, by identity. */
export interface DoomedKeys {
  info: TableInfo;
  keys: string[][];
}

/**
 * Refuses a teardown when rows outside the campaign (an excluded audit table, a shared users row the game pointed
 * at the scratch campaign) reference rows it would delete: deleting would fail on the foreign key, or cascade into
 * or null out rows that are not turnkit's. Names each such foreign key; nothing is deleted.
 */
export async function refuseOutsideReferences(client: pg.PoolClient, graph: GameGraph, doomed: ReadonlyMap<string, DoomedKeys>, id: string): Promise<void> {
  const found: string[] = [];
  for (const child of graph.catalog.tables.values()) {
    if (graph.owned.has(child.name)) continue;
    for (const fk of child.foreignKeys) {
      const parent = doomed.get(fk.references.table);
      if (!parent || parent.keys.length === 0 || identityColumns(parent.info).length === 0) continue;
      const values: unknown[] = [];
      const chosen = whereIn(parent.info, identityColumns(parent.info), parent.keys, values);
      const text =
        `SELECT count(*)::int AS n FROM ${child.from} AS c WHERE (${fk.columns.map((column) => `c.${quoteIdent(column)}`).join(', ')}) IN ` +
        `(SELECT ${fk.references.columns.map((column) => `t.${quoteIdent(column)}`).join(', ')} FROM ${parent.info.from} AS t WHERE ${chosen})`;
      const n = (await client.query({ text, values })).rows[0].n as number;
      if (n > 0) found.push(`${n} row(s) of "${child.name}" (${fk.name}) point at "${parent.info.name}"`);
    }
  }
  if (found.length === 0) return;
  throw new TurnkitError(
    'DATABASE',
    `teardown of ${id} refused: rows outside the campaign reference it: ${found.join('; ')}. turnkit deletes only the campaign's own rows: ` +
      'remove or repoint those rows (or make their table part of the game), then run the teardown again',
  );
}
