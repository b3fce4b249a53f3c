import type { Queryable } from '../../db/introspect.js';
import { selectRowsWhereIn } from '../../fixture/capture/row-query.js';
import { decodeValue, encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import { canonical, fixtureColumns } from './fixture-values.js';
import type { SeedPlan } from '../seed-plan.js';
import type { FixtureRow, FixtureTable } from '../../fixture/format.js';

/** The shared rows a scratch campaign stands on, as they are at one moment: table to key to row text. */
export type SharedSnapshot = Map<string, Map<string, string>>;

/**
 * Reads the shared rows a fixture names (the player's user row, other campaigns' rows it references) as they are
 * in the database now. Taken before and after the SUT, the two show what the SUT changed outside its campaign.
 * `skip` leaves columns out, per table (the scrubbed ones, when checking against a scrubbed fixture).
 */
export async function readSharedRows(
  client: Queryable,
  plan: SeedPlan,
  skip: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<SharedSnapshot> {
  const snapshot: SharedSnapshot = new Map();
  for (const [name, planned] of plan.tables) {
    const sharedRows = sharedRowsOf(planned.table);
    if (sharedRows.length === 0 || planned.info.primaryKey.length === 0) continue;
    const columns = fixtureColumns(planned, skip.get(name));
    const pk = planned.info.primaryKey.map((key) => planned.info.columns.find((column) => column.name === key)!);
    const tuples = sharedRows.map((row) =>
      pk.map((column) => encodeValue(row[column.name] as JsonValue, column.codec) ?? ''),
    );
    const live = await selectRowsWhereIn(client, planned.info, planned.info.primaryKey, tuples);
    const rows = new Map<string, string>();
    for (const raw of live) {
      const key = pk.map((column) => raw[planned.info.columns.indexOf(column)] ?? '').join(',');
      rows.set(
        key,
        canonical(
          columns.map((column) => decodeValue(raw[planned.info.columns.indexOf(column)] ?? null, column.codec)),
        ),
      );
    }
    snapshot.set(name, rows);
  }
  return snapshot;
}

/** The shared rows a fixture table holds: a shared table's rows, or the `sharedRows` of a campaign's table. */
export function sharedRowsOf(table: FixtureTable): FixtureRow[] {
  return table.role === 'shared' ? table.rows : (table.sharedRows ?? []);
}

/** What changed between two snapshots, one line per row: `users[1]: changed`, `users[1]: deleted`. */
export function compareSharedRows(before: SharedSnapshot, after: SharedSnapshot): string[] {
  const lines: string[] = [];
  for (const [table, rows] of before) {
    const now = after.get(table) ?? new Map<string, string>();
    for (const [key, text] of rows) {
      if (!now.has(key)) lines.push(`${table}[${key}]: deleted (a shared row, outside the campaign)`);
      else if (now.get(key) !== text) lines.push(`${table}[${key}]: changed (a shared row, outside the campaign)`);
    }
  }
  return lines;
}
