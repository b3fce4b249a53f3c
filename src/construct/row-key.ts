import type { Fixture, FixtureRow, FixtureTable } from '../fixture/format.js';

/**
 * The name of a row in a changeset: its primary key value as text, or a JSON array for a composite key. A table's
 * key column holds one type, and a fixture with both 1 and "1" as keys is refused as a duplicate, so within one
 * table the text names exactly one row; matching is also checked against the row's typed values.
 */
export function rowKey(row: FixtureRow, primaryKey: readonly string[]): string {
  if (primaryKey.length === 1) return keyText(row[primaryKey[0]!]);
  return JSON.stringify(primaryKey.map((column) => row[column] ?? null));
}

/** The `embeddedKey` recorded for a table's rows: the key column, or the key columns joined by commas. */
export function embeddedKeyName(primaryKey: readonly string[]): string {
  return primaryKey.join(',');
}

/** How a row reads in messages: `turns[id=19]`, `decks[campaign_id=1,deck_number=2]`. */
export function describeRow(table: string, primaryKey: readonly string[], key: string): string {
  if (primaryKey.length === 1) return `${table}[${primaryKey[0]}=${key}]`;
  let values: unknown[];
  try {
    values = JSON.parse(key) as unknown[];
  } catch {
    return `${table}[${key}]`;
  }
  return `${table}[${primaryKey.map((column, i) => `${column}=${keyText(values[i])}`).join(',')}]`;
}

/** A table of a fixture by a name from outside (a patch, a changeset): own tables only, never "constructor". */
export function tableNamed(fixture: Fixture, name: string): FixtureTable | undefined {
  return Object.hasOwn(fixture.tables, name) ? fixture.tables[name] : undefined;
}

/** Finds the one row of a table named by a changeset key. */
export function findRow(table: FixtureTable, key: string): FixtureRow | undefined {
  return table.rows.find((row) => rowKey(row, table.primaryKey) === key);
}

function keyText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
