import type { ColumnInfo } from '../db/catalog-types.js';
import type { FixtureRow } from '../fixture/format.js';
import { parseJsonExact } from '../fixture/json-exact.js';
import { encodeValue, type JsonValue } from '../fixture/value-codec.js';
import { formatJsonPath } from '../util/json/json-source.js';
import { canonical, canonicalRow } from './effects/fixture-values.js';
import type { PlannedTable } from './seed-plan.js';
import { sharedRowsOf } from './effects/shared-snapshot.js';

/**
 * How a fixture's shared rows compare with the database's, as `--check` reports them: the rows absent from the
 * database, and the rows present under the fixture's key whose columns hold something else, each named by its
 * place in the fixture and the columns that differ. Values are never shown: a shared row is a player's or an
 * account's, and the database's side was never scrubbed. `live` is the database's rows by key (`readSharedRows`),
 * `columns` the ones compared (the scrubbed ones left out, since the fixture holds their scrubbed values).
 */
export function sharedRowDifferences(
  planned: PlannedTable,
  live: ReadonlyMap<string, string>,
  columns: readonly ColumnInfo[],
): string[] {
  const { info, table, fixtureName } = planned;
  const field = table.role === 'shared' ? 'rows' : 'sharedRows';
  const rows = sharedRowsOf(table);
  const pk = info.primaryKey.map((key) => info.columns.find((column) => column.name === key)!);
  const absent: string[] = [];
  const changed: string[] = [];
  const present = new Set(live.values());
  rows.forEach((row, index) => {
    const place = `${field}[${index}]`;
    const key = pk.map((column) => encodeValue(row[column.name] as JsonValue, column.codec) ?? '').join(',');
    const found = live.get(key);
    // A key Postgres spells otherwise than the fixture (a timestamp key, say) is not found by its text: the row
    // is there when its values are.
    if (found === undefined) {
      if (!present.has(canonicalRow(row, columns))) absent.push(place);
    } else if (found !== canonicalRow(row, columns))
      changed.push(`${place} (${differingColumns(row, found, columns)})`);
  });
  const at = formatJsonPath(['tables', fixtureName]);
  const problems: string[] = [];
  if (absent.length > 0)
    problems.push(`${at}: ${absent.length} shared row(s) absent from the database: ${list(absent)}`);
  // seed never overwrites a shared row that is already there (other campaigns may stand on it): the scratch
  // campaign stands on the database's row, which holds other values than the one the fixture was captured with.
  if (changed.length > 0)
    problems.push(
      `${at}: ${changed.length} shared row(s) the database holds with other values: ${list(changed)}; seed uses a shared row already in the database as it is, so the scratch campaign stands on the database's row, not the fixture's (a fixture captured from another database, or the row changed since)`,
    );
  return problems;
}

// The fixture's columns whose value the database's row does not hold; the two sides read as the check reads them.
function differingColumns(row: FixtureRow, live: string, columns: readonly ColumnInfo[]): string {
  const values = parseJsonExact(live) as JsonValue[];
  const names = columns
    .filter((column, i) => canonicalRow(row, [column]) !== canonical([values[i] ?? null]))
    .map((column) => column.name);
  return names.length > 0 ? names.join(', ') : 'its values';
}

function list(places: readonly string[]): string {
  return places.length > 3 ? `${places.slice(0, 3).join(', ')} and ${places.length - 3} more` : places.join(', ');
}
