import type pg from 'pg';
import type { ForeignKeyInfo, TableInfo } from '../../db/catalog-types.js';
import { quoteIdent } from '../../db/quote.js';
import { TurnkitError } from '../../errors.js';
import type { GameGraph } from '../../fixture/graph/game-graph.js';
import { identityColumns } from '../../fixture/graph/row-identity.js';
import { whereIn } from '../../fixture/capture/row-query.js';
import { reachesThrough } from '../../fixture/graph/spine-edges.js';

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
  /** Tables whose doomed rows the walk found, every one (see walkCovers). */
  walked: ReadonlySet<string> = new Set(),
): Promise<void> {
  const values: unknown[] = [];
  const where = doomedConditions(doomed, values);
  const { checks, labels } = outsideReferenceChecks(graph, doomed, where, everyKey, walked);
  if (checks.length === 0) return;
  const counts = (await client.query({ text: `SELECT ${checks.join(', ')}`, values, rowMode: 'array' }))
    .rows[0] as number[];
  refuseOnCounts(id, labels, counts);
}

/** SQL conditions naming a teardown's doomed rows under an alias; each table's parameters are pushed once. */
export interface DoomedConditions {
  /** The table's doomed rows by identity (undefined when it has no identity or none is doomed by key). */
  byKey(name: string, alias: string): string | undefined;
  /** The table's doomed rows by identity or by row address ('false' when none). */
  any(name: string, alias: string): string;
}

/**
 * Conditions over `doomed` whose parameters go into `values` the first time a table is named: the delete of a
 * campaign and the check for outside references in one statement share one copy of each key list.
 */
export function doomedConditions(doomed: ReadonlyMap<string, DoomedKeys>, values: unknown[]): DoomedConditions {
  const keyAt = new Map<string, number>();
  const addressAt = new Map<string, number>();
  const byKey = (name: string, alias: string): string | undefined => {
    const target = doomed.get(name);
    const columns = target ? identityColumns(target.info) : [];
    if (!target || target.keys.length === 0 || columns.length === 0) return undefined;
    let first = keyAt.get(name);
    if (first === undefined) {
      first = values.length;
      keyAt.set(name, first);
      return whereIn(target.info, columns, target.keys, values, alias);
    }
    // The same text over parameters already pushed: whereIn numbers them from the array's length.
    return whereIn(target.info, columns, [], new Array(first), alias);
  };
  const any = (name: string, alias: string): string => {
    const target = doomed.get(name);
    const parts: string[] = [];
    const keys = byKey(name, alias);
    if (keys) parts.push(keys);
    if (target && target.addresses.length > 0) {
      let at = addressAt.get(name);
      if (at === undefined) {
        values.push(target.addresses);
        at = values.length;
        addressAt.set(name, at);
      }
      parts.push(`(${alias}.tableoid::int8::text || '/' || ${alias}.ctid::text) = ANY($${at}::text[])`);
    }
    return parts.length > 0 ? parts.join(' OR ') : 'false';
  };
  return { byKey, any };
}

/**
 * The counts that tell a teardown to refuse (see refuseOutsideReferences): one scalar subquery per foreign key into
 * the doomed rows, each with the label that names it. Inside the delete's own statement they read the rows as they
 * were before it, like every part of one statement.
 */
export function outsideReferenceChecks(
  graph: GameGraph,
  doomed: ReadonlyMap<string, DoomedKeys>,
  where: DoomedConditions,
  everyKey: boolean,
  walked: ReadonlySet<string> = new Set(),
): { checks: string[]; labels: string[] } {
  const checks: string[] = [];
  const labels: string[] = [];
  for (const child of graph.catalog.tables.values()) {
    const inside = graph.owned.has(child.name);
    for (const fk of child.foreignKeys) {
      const parent = doomed.get(fk.references.table);
      if (!parent) continue;
      if (inside && !everyKey && (fk.onDelete === 'no action' || fk.onDelete === 'restrict')) continue;
      if (walked.has(fk.references.table) && walkCovers(graph, child, fk)) continue;
      const chosen = where.byKey(fk.references.table, 't');
      if (!chosen) continue;
      // A declared reference may keep its key as text (a uuid in a text column): compared as text.
      const cast = fk.declared ? '::text' : '';
      let condition =
        `(${fk.columns.map((column) => `c.${quoteIdent(column)}${cast}`).join(', ')}) IN ` +
        `(SELECT ${fk.references.columns.map((column) => `t.${quoteIdent(column)}${cast}`).join(', ')} FROM ${parent.info.from} AS t WHERE ${chosen})`;
      if (doomed.has(child.name)) condition += ` AND NOT (${where.any(child.name, 'c')})`;
      checks.push(`(SELECT count(*) FROM ${child.from} AS c WHERE ${condition})::int`);
      labels.push(
        `"${child.name}" (${fk.name}${fk.onDelete === 'no action' ? '' : `, ON DELETE ${fk.onDelete.toUpperCase()}`}) point at "${parent.info.name}"`,
      );
    }
  }
  return { checks, labels };
}

/**
 * True when the walk of a campaign reads every row that points at one of its rows through this foreign key: an
 * owned table the walk reaches through it, with no root guard but the key itself (a guard would leave out rows of
 * another campaign, which are what the check is for). Then, once every doomed row of the referenced table was
 * walked, every row pointing at one is doomed too and the check would count nothing: the teardown of a campaign
 * whose children all hang off it asks no check at all.
 */
function walkCovers(graph: GameGraph, child: TableInfo, fk: ForeignKeyInfo): boolean {
  if (!graph.owned.has(child.name) || child.name === graph.root.name || fk.declared) return false;
  if (!(graph.childEdges.get(fk.references.table) ?? []).some((edge) => edge.fk === fk)) return false;
  if (!reachesThrough(graph, child.name, fk.name)) return false;
  return child.foreignKeys.every((other) => other === fk || other.references.table !== graph.root.name);
}

/** Throws TeardownRefused naming the foreign keys whose count is above zero. */
export function refuseOnCounts(id: string, labels: readonly string[], counts: readonly number[]): void {
  const found = labels.flatMap((label, i) => (counts[i]! > 0 ? [`${counts[i]} row(s) of ${label}`] : []));
  if (found.length === 0) return;
  throw new TeardownRefused(
    `teardown of ${id} refused: rows outside the campaign reference it: ${found.join('; ')}. turnkit deletes only the campaign's own rows: ` +
      'remove or repoint those rows (or make their table part of the game), then run the teardown again',
  );
}
