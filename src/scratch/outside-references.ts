import type pg from 'pg';
import type { TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { TurnkitError } from '../errors.js';
import type { GameGraph } from '../fixture/game-graph.js';
import { identityColumns } from '../fixture/row-identity.js';
import { whereIn } from '../fixture/row-query.js';

/** A teardown refused because rows outside the campaign point into it: the campaign stays, and nothing is deleted. */
export class TeardownRefused extends TurnkitError {
  /** The refusal, naming the outside rows' tables and foreign keys. */
  constructor(message: string) {
    super('DATABASE', message);
  }
}

/** Rows a teardown is about to delete from one table: by identity, or by row address for tables without one. */
export interface DoomedKeys {
  info: TableInfo;
  keys: string[][];
  addresses: string[];
}

/**
 * Refuses a teardown when rows that are not the campaign's reference rows it would delete: rows of tables outside
 * the campaign (an excluded audit table, a shared user the game pointed at the scratch campaign), and rows of the
 * campaign's own tables that belong to another campaign (a live character cloned from a scratch one) through a
 * foreign key that would cascade into them or null them out. Deleting would fail on the foreign key, or change rows
 * that are not turnkit's. Names each such foreign key; nothing is deleted. Foreign keys that would simply fail
 * (NO ACTION, RESTRICT) inside the campaign's tables are left to the delete, which then reports them.
 */
export async function refuseOutsideReferences(
  client: pg.PoolClient,
  graph: GameGraph,
  doomed: ReadonlyMap<string, DoomedKeys>,
  id: string,
  /** Also the NO ACTION / RESTRICT keys inside the campaign's tables: asked after a delete ran into one, to name its rows. */
  everyKey = false,
): Promise<void> {
  const checks: string[] = [];
  const labels: string[] = [];
  const values: unknown[] = [];
  for (const child of graph.catalog.tables.values()) {
    const inside = graph.owned.has(child.name);
    for (const fk of child.foreignKeys) {
      const parent = doomed.get(fk.references.table);
      if (!parent || parent.keys.length === 0 || identityColumns(parent.info).length === 0) continue;
      if (inside && !everyKey && (fk.onDelete === 'no action' || fk.onDelete === 'restrict')) continue;
      const chosen = whereIn(parent.info, identityColumns(parent.info), parent.keys, values);
      // A declared reference may keep its key as text (a uuid in a text column): compared as text.
      const cast = fk.declared ? '::text' : '';
      let where =
        `(${fk.columns.map((column) => `c.${quoteIdent(column)}${cast}`).join(', ')}) IN ` +
        `(SELECT ${fk.references.columns.map((column) => `t.${quoteIdent(column)}${cast}`).join(', ')} FROM ${parent.info.from} AS t WHERE ${chosen})`;
      const own = doomed.get(child.name);
      if (own) where += ` AND NOT (${doomedCondition(own, values, 'c')})`;
      checks.push(`(SELECT count(*) FROM ${child.from} AS c WHERE ${where})::int`);
      labels.push(
        `"${child.name}" (${fk.name}${fk.onDelete === 'no action' ? '' : `, ON DELETE ${fk.onDelete.toUpperCase()}`}) point at "${parent.info.name}"`,
      );
    }
  }
  if (checks.length === 0) return;
  const counts = (await client.query({ text: `SELECT ${checks.join(', ')}`, values, rowMode: 'array' }))
    .rows[0] as number[];
  const found = labels.flatMap((label, i) => (counts[i]! > 0 ? [`${counts[i]} row(s) of ${label}`] : []));
  if (found.length === 0) return;
  throw new TeardownRefused(
    `teardown of ${id} refused: rows outside the campaign reference it: ${found.join('; ')}. turnkit deletes only the campaign's own rows: ` +
      'remove or repoint those rows (or make their table part of the game), then run the teardown again',
  );
}

/** The condition "this row of the table is one the teardown deletes" for alias `alias` (parameters appended). */
function doomedCondition(target: DoomedKeys, values: unknown[], alias: string): string {
  const parts: string[] = [];
  if (target.keys.length > 0 && identityColumns(target.info).length > 0) {
    parts.push(whereIn(target.info, identityColumns(target.info), target.keys, values, alias));
  }
  if (target.addresses.length > 0) {
    values.push(target.addresses);
    parts.push(`(${alias}.tableoid::int8::text || '/' || ${alias}.ctid::text) = ANY($${values.length}::text[])`);
  }
  return parts.length > 0 ? parts.join(' OR ') : 'false';
}
