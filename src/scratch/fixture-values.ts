import type { ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { FixtureRow } from '../fixture/format.js';
import { stringifyJsonExact } from '../fixture/json-exact.js';
import { decodeValue, encodeValue, type JsonValue } from '../fixture/value-codec.js';
import type { SerializedKeyMap } from './seed-remap.js';
import type { SeedPlan } from './seed-plan.js';

// Reading a scratch campaign's rows as the fixture's values: what `seed --check`, a rep's effects and the shared-row
// snapshots compare.

/** Decoded values as comparable text. */
export function canonical(values: readonly JsonValue[]): string {
  return stringifyJsonExact(values);
}

/** A fixture row as comparable text, through the codec so that the fixture's spelling and Postgres's agree. */
export function canonicalRow(row: FixtureRow, columns: readonly ColumnInfo[]): string {
  // Through the codec and back, so that the fixture's spelling and Postgres's compare equal (timestamps, numbers).
  return canonical(
    columns.map((column) => decodeValue(encodeValue(row[column.name] as JsonValue, column.codec), column.codec)),
  );
}

/** The seed's key map turned around: scratch key value to fixture key value, per table and column. */
export function inverseKeyMap(keyMap: SerializedKeyMap): Map<string, Map<string, string>> {
  const back = new Map<string, Map<string, string>>();
  for (const [table, columns] of Object.entries(keyMap)) {
    for (const [column, pairs] of Object.entries(columns))
      back.set(`${table}\u0000${column}`, new Map(pairs.map(([old, fresh]) => [fresh, old])));
  }
  return back;
}

/** The columns of a table that a fixture holds, in the table's order. */
export function fixtureColumns(info: TableInfo, names: readonly string[]): ColumnInfo[] {
  return info.columns.filter((column) => names.includes(column.name));
}

/**
 * How to read a scratch campaign's raw row as the fixture's values: the fixture's columns decoded, and every key
 * the seed remapped (allocated or derived through a foreign key) translated back to the fixture's value.
 */
export function fixtureValues(
  plan: SeedPlan,
  name: string,
  info: TableInfo,
  columns: readonly ColumnInfo[],
  back: Map<string, Map<string, string>>,
): (raw: readonly (string | null)[]) => JsonValue[] {
  const keys = plan.keys.get(name);
  const translate = columns.map((column) => {
    const origin = keys?.allocated.has(column.name)
      ? { table: name, column: column.name }
      : keys?.derived.get(column.name);
    return origin && back.get(`${origin.table}\u0000${origin.column}`);
  });
  // By name: the plan and the walk may hold TableInfo objects of two introspections of the same catalog.
  const indexes = columns.map((column) => info.columns.findIndex((entry) => entry.name === column.name));
  return (raw) =>
    columns.map((column, i) => {
      const text = raw[indexes[i]!] ?? null;
      return decodeValue(text !== null && translate[i] ? (translate[i]!.get(text) ?? text) : text, column.codec);
    });
}
