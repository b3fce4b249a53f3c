import { parse as parseArrayLiteral } from 'postgres-array';
import type { Queryable } from '../db/introspect.js';
import { quoteIdent } from '../db/quote.js';
import { TurnkitError } from '../errors.js';
import {
  addRow,
  distinctTuples,
  emptyCollected,
  keyColumnsOf,
  rootGuards,
  selectRoot,
  type CollectedRows,
} from '../fixture/capture/collect-owned.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';
import { needsRowAddress, ROW_ADDRESS_SQL } from '../fixture/graph/row-identity.js';
import { columnIndexes, guardClause, RAW_TEXT_TYPES, whereIn, type RawRow } from '../fixture/capture/row-query.js';
import { rootKeyPlace } from '../fixture/graph/root-key-place.js';
import { reachesThrough } from '../fixture/graph/spine-edges.js';

/**
 * Walks a campaign's owned subgraph like capture does (same ownership rules, same root guards), but reads only
 * the columns that identify rows and that child foreign keys point at, and asks for every foreign key of a round
 * in one query (a UNION ALL), so a teardown costs a few round trips whatever the schema's width. Rows come back
 * in the usual raw shape with every other value NULL.
 */
export async function walkCampaignKeys(
  db: Queryable,
  graph: GameGraph,
  rootValue: string,
  options: WalkOptions = {},
): Promise<CollectedRows> {
  const keep = options.wholeRows ? wholeRows(graph) : keyColumnsOf(graph);
  const collected: CollectedRows = new Map();
  for (const name of graph.owned) collected.set(name, emptyCollected(graph.catalog.tables.get(name)!));
  const rootRows =
    rootIsItsKey(graph) && !options.wholeRows
      ? [rootFromKey(graph, rootValue)]
      : await selectRoot(db, graph, rootValue);
  if (rootRows.length === 0 && options.emptyWhenGone) return collected;
  if (rootRows.length === 0)
    throw new TurnkitError('NOT_FOUND', `campaign ${rootValue}: no row in "${graph.root.name}"`);
  if (rootRows.length > 1)
    throw new TurnkitError(
      'CONFIG',
      `${rootKeyPlace(graph)}: ${rootRows.length} rows of "${graph.root.name}" have key ${rootValue}; the key must be unique`,
    );
  addRow(collected.get(graph.root.name)!, rootRows[0]!);

  let frontier = new Map<string, RawRow[]>([[graph.root.name, rootRows]]);
  while (frontier.size > 0) {
    const parts: string[] = [];
    const targets: Target[] = [];
    const values: unknown[] = [];
    for (const [parentName, parentRows] of frontier) {
      const parent = graph.catalog.tables.get(parentName)!;
      for (const { child, fk } of graph.childEdges.get(parentName) ?? []) {
        if (!collected.has(child.name) || child.name === graph.root.name) continue;
        if (!reachesThrough(graph, child.name, fk.name)) continue;
        const tuples = distinctTuples(parentRows, columnIndexes(parent, fk.references.columns));
        if (tuples.length === 0) continue;
        const columns = child.columns
          .filter((column) => keep.get(child.name)!.has(column.name))
          .map((column) => column.name);
        const address = needsRowAddress(child);
        const select = [...columns.map((name) => `t.${quoteIdent(name)}::text`), ...(address ? [ROW_ADDRESS_SQL] : [])];
        const where =
          whereIn(child, fk.columns, tuples, values) +
          guardClause(child, rootGuards(graph, child, rootRows[0]!), values);
        parts.push(
          `SELECT ${targets.length}::int AS edge, ARRAY[${select.join(', ')}] AS k FROM ${child.from} AS t WHERE ${where}`,
        );
        const all = child.columns.map((column) => column.name);
        targets.push({
          table: child.name,
          width: all.length,
          positions: columns.map((name) => all.indexOf(name)),
          address,
        });
      }
    }
    if (parts.length === 0) break;
    const result = await db.query({
      text: parts.join('\nUNION ALL\n'),
      values,
      rowMode: 'array',
      types: RAW_TEXT_TYPES,
    });
    const next = new Map<string, RawRow[]>();
    for (const [edge, literal] of result.rows as [string, string][]) {
      const target = targets[Number(edge)]!;
      const row = rebuildRow(target, parseArrayLiteral(literal) as (string | null)[]);
      if (!addRow(collected.get(target.table)!, row)) continue;
      const list = next.get(target.table);
      if (list) list.push(row);
      else next.set(target.table, [row]);
    }
    frontier = next;
  }
  return collected;
}

/** Options of a walk. */
export interface WalkOptions {
  /** Read every column, not only keys: the same few round trips, for reading a whole campaign (a rep's effects). */
  wholeRows?: boolean;
  /** The campaign row gone (the SUT deleted it, and so every row under it): every table empty, not NOT_FOUND. */
  emptyWhenGone?: boolean;
}

function wholeRows(graph: GameGraph): Map<string, Set<string>> {
  return new Map(
    [...graph.owned].map((name) => [
      name,
      new Set(graph.catalog.tables.get(name)!.columns.map((column) => column.name)),
    ]),
  );
}

/**
 * True when the root row's key is all a walk needs of it: it is the primary key, and every foreign key into the
 * root table points at it. Then the key the registry holds stands in for the row, and a round trip is saved.
 */
function rootIsItsKey(graph: GameGraph): boolean {
  const key = graph.rootKey.name;
  if (graph.root.primaryKey.length !== 1 || graph.root.primaryKey[0] !== key) return false;
  return (graph.childEdges.get(graph.root.name) ?? []).every(
    ({ fk }) => fk.references.columns.length === 1 && fk.references.columns[0] === key,
  );
}

function rootFromKey(graph: GameGraph, rootValue: string): RawRow {
  const row: RawRow = graph.root.columns.map(() => null);
  row[graph.root.columns.indexOf(graph.rootKey)] = rootValue;
  return row;
}

/** One foreign key of a round: the table it reaches and where the selected keys go in a raw row. */
interface Target {
  table: string;
  width: number;
  positions: number[];
  address: boolean;
}

function rebuildRow(target: Target, values: (string | null)[]): RawRow {
  const row: RawRow = new Array<string | null>(target.width).fill(null);
  for (let i = 0; i < target.positions.length; i++) row[target.positions[i]!] = values[i] ?? null;
  if (target.address) row.push(values[target.positions.length] ?? null);
  return row;
}
