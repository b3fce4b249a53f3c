import type { Queryable } from '../../db/introspect.js';
import { quoteIdent } from '../../db/quote.js';
import type { GameGraph } from '../../fixture/graph/game-graph.js';
import type { Fixture } from '../../fixture/format.js';
import { identityColumns, needsRowAddress } from '../../fixture/graph/row-identity.js';
import { sharedRowsOf } from './shared-snapshot.js';
import { rowKeySql, writtenSince } from './write-horizon.js';

/** The most rows named per rep: the count says the rest. */
const NAMED = 10;

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
  const written = writtenSince('$1');
  const parts: string[] = [];
  for (const name of graph.owned) {
    const table = graph.catalog.tables.get(name)!;
    if (needsRowAddress(table)) continue;
    const key = rowKeySql(identityColumns(table));
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
    const key = rowKeySql(columns);
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
  return (table ? sharedRowsOf(table) : []).map((row) => columns.map((column) => String(row[column])).join(','));
}
