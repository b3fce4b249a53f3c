import type { Queryable } from '../../db/introspect.js';
import { quoteIdent } from '../../db/quote.js';
import type { GameGraph } from '../../fixture/graph/game-graph.js';
import type { Fixture } from '../../fixture/format.js';
import { identityColumns, needsRowAddress } from '../../fixture/graph/row-identity.js';

/** The most rows named per rep: the count says the rest. */
const NAMED = 10;

/**
 * The write horizon now, as a 32-bit transaction id: a row whose `xmin` is at or past it was inserted or updated by
 * a transaction that began after this moment. Read before the SUT runs, in the same snapshot as the shared rows.
 */
export async function readWriteHorizon(client: Queryable): Promise<string> {
  const { rows } = await client.query<{ h: string }>(WRITE_HORIZON_SQL);
  return rows[0]!.h;
}

/** The statement `readWriteHorizon` sends (no parameters), for a simple query of several statements to end with. */
export const WRITE_HORIZON_SQL = `SELECT (pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296)::text AS h`;

/** The horizon from the results of a simple query whose last statement is `WRITE_HORIZON_SQL`. */
export function horizonFrom(results: { rows: unknown[] } | readonly { rows: unknown[] }[]): string {
  const last = Array.isArray(results) ? results.at(-1)! : (results as { rows: unknown[] });
  return (last.rows[0] as { h: string }).h;
}

/**
 * Rows of the game's owned tables that a transaction begun after `horizon` inserted or updated, and that belong to
 * no scratch campaign: a SUT that wrote to a live campaign (a wrong campaign_id in a WHERE). Read inside the
 * teardown's transaction, before its deletes, with one statement (the registry's campaigns and the rows in one
 * snapshot). Rows are told apart by their foreign key to the root table (the campaign they name), so tables without
 * one are not checked, nor are deletions (a deleted row leaves no `xmin`). Each table is scanned once: this is the
 * rep's cost. One line per row, `turns[5]: written during the rep (a row of campaign 1, outside the scratch campaign)`.
 */
export async function outsideWrites(
  client: Queryable,
  graph: GameGraph,
  rootKey: string,
  horizon: string,
  fixture?: Fixture,
): Promise<string[]> {
  const values: unknown[] = [horizon, rootKey];
  const scratchRoots = `(coalesce((SELECT array_agg(root_key) FROM turnkit.scratch_campaigns WHERE strategy = 'remap'), '{}'::text[]) || $2::text)`;
  // Wraparound-safe "xmin is at or past the horizon"; 0-2 are the frozen and bootstrap ids, older than anything.
  const written = `t.xmin::text::bigint > 2 AND ((t.xmin::text::bigint - $1::bigint) % 4294967296 + 4294967296) % 4294967296 < 2147483648`;
  const parts: string[] = [];
  for (const name of graph.owned) {
    const table = graph.catalog.tables.get(name)!;
    if (needsRowAddress(table)) continue;
    const key = identityColumns(table)
      .map((column) => `t.${quoteIdent(column)}::text`)
      .join(` || ',' || `);
    let campaign: string | undefined;
    if (name === graph.root.name) campaign = `t.${quoteIdent(graph.rootKey.name)}::text`;
    else {
      const fk = table.foreignKeys.find(
        (candidate) =>
          candidate.references.table === graph.root.name &&
          candidate.references.columns.length === 1 &&
          candidate.references.columns[0] === graph.rootKey.name,
      );
      if (fk) campaign = `t.${quoteIdent(fk.columns[0]!)}::text`;
    }
    if (!campaign) continue;
    values.push(name);
    parts.push(`(SELECT $${values.length}::text AS tbl, ${key} AS k, ${campaign} AS campaign FROM ${table.from} AS t
      WHERE ${written} AND ${campaign} IS NOT NULL AND ${campaign} <> ALL(${scratchRoots}) LIMIT ${NAMED + 1})`);
  }
  // Shared tables: a row written during the rep that the fixture does not hold (a user the SUT signed up). Teardown
  // deletes only the campaign's rows, so it stays; the fixture's own shared rows are compared apart (run-rep.ts).
  for (const name of graph.shared) {
    const table = graph.catalog.tables.get(name)!;
    if (needsRowAddress(table)) continue;
    const columns = identityColumns(table);
    const key = columns.map((column) => `t.${quoteIdent(column)}::text`).join(` || ',' || `);
    const held = fixture ? heldKeys(fixture, name, columns) : [];
    values.push(name, held);
    parts.push(`(SELECT $${values.length - 1}::text AS tbl, ${key} AS k, NULL::text AS campaign FROM ${table.from} AS t
      WHERE ${written} AND ${key} <> ALL($${values.length}::text[]) LIMIT ${NAMED + 1})`);
  }
  if (parts.length === 0) return [];
  const { rows } = await client.query<{ tbl: string; k: string; campaign: string | null }>({
    text: parts.join('\nUNION ALL\n'),
    values,
  });
  const lines = rows
    .slice(0, NAMED)
    .map((row) =>
      row.campaign === null
        ? `${row.tbl}[${row.k}]: written during the rep (a shared row the fixture does not hold; teardown leaves it in place)`
        : `${row.tbl}[${row.k}]: written during the rep (a row of campaign ${row.campaign}, outside the scratch campaign)`,
    );
  if (rows.length > NAMED) lines.push(`and more rows outside the scratch campaign written during the rep`);
  return lines;
}

// The keys of a table's rows the fixture holds as shared (its own table or an owned table's sharedRows), as the
// statement spells a row's key: its identity columns as text, joined by commas.
function heldKeys(fixture: Fixture, name: string, columns: readonly string[]): string[] {
  const table = Object.entries(fixture.tables).find(([tableName]) => tableName === name)?.[1];
  if (!table) return [];
  const rows = table.role === 'shared' ? table.rows : (table.sharedRows ?? []);
  return rows.map((row) => columns.map((column) => String(row[column])).join(','));
}
