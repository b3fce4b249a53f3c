import type { ColumnInfo, TableInfo } from '../../db/catalog-types.js';
import type { FixtureRow } from '../../fixture/format.js';
import { stringifyJsonExact } from '../../fixture/json-exact.js';
import { decodeValue, encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import type { PlannedTable, SeedPlan } from '../seed-plan.js';
import { columnLookups, withJsonKeys, type KeyMap } from '../remap/remap-rows.js';

// Reading a scratch campaign's rows as the fixture's values: what `seed --check`, a rep's effects and the shared-row
// snapshots compare.

/** Decoded values as comparable text. */
export function canonical(values: readonly JsonValue[]): string {
  return stringifyJsonExact(values);
}

/** A fixture row as comparable text, through the codec so that the fixture's spelling and Postgres's agree. */
export function canonicalRow(row: FixtureRow, columns: readonly ColumnInfo[]): string {
  return canonical(
    columns.map((column) => decodeValue(encodeValue(row[column.name] as JsonValue, column.codec), column.codec)),
  );
}

/** The columns of a table that a fixture holds, in the table's order, less those in `skip` (scrubbed ones). */
export function fixtureColumns(planned: PlannedTable, skip?: ReadonlySet<string>): ColumnInfo[] {
  const names = new Set(planned.table.columns.map((column) => column.name));
  return planned.info.columns.filter((column) => names.has(column.name) && !skip?.has(column.name));
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
  back: KeyMap,
): (raw: readonly (string | null)[]) => JsonValue[] {
  const { key: translate, json: inJson } = columnLookups(plan.keys.get(name), name, columns, back);
  // By name: the plan and the walk may hold TableInfo objects of two introspections of the same catalog.
  const indexes = columns.map((column) => info.columns.findIndex((entry) => entry.name === column.name));
  return (raw) =>
    columns.map((column, i) => {
      const text = raw[indexes[i]!] ?? null;
      const value = decodeValue(text !== null && translate[i] ? (translate[i]!.get(text) ?? text) : text, column.codec);
      return inJson[i]!.length > 0 ? (withJsonKeys(value, inJson[i]!) as JsonValue) : value;
    });
}

/**
 * How to show a scratch campaign's row as JSON (`to_jsonb`, a rollout turn's inserted rows) in the fixture's keys: every
 * column holding a key the seed remapped (the campaign's, a parent row's) reads as the fixture's value, through the
 * codec as a rep's effects read it; other columns, and keys the fixture never had (the row's own new id), stay.
 */
export function fixtureKeys(
  plan: SeedPlan,
  name: string,
  info: TableInfo,
  back: KeyMap,
): (row: Record<string, unknown>) => Record<string, unknown> {
  const translate = columnLookups(plan.keys.get(name), name, info.columns, back).key;
  const keyed = info.columns.flatMap((column, i) => (translate[i] ? [{ column, map: translate[i]! }] : []));
  if (keyed.length === 0) return (row) => row;
  return (row) => {
    const shown = { ...row };
    for (const { column, map } of keyed) {
      const value = row[column.name];
      if (value === null || value === undefined || typeof value === 'object') continue;
      const fixture = map.get(String(value));
      if (fixture !== undefined) shown[column.name] = decodeValue(fixture, column.codec);
    }
    return shown;
  };
}
