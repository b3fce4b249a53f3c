import type { ColumnInfo, TableInfo } from '../../db/catalog-types.js';
import type { FixtureRow } from '../../fixture/format.js';
import { stringifyJsonExact } from '../../fixture/json-exact.js';
import { decodeValue, encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import type { SerializedKeyMap } from '../remap/seed-remap.js';
import type { SeedPlan } from '../seed-plan.js';
import { withJsonKeys } from '../remap/remap-rows.js';

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
  const translate = keyTranslations(plan, name, columns, back);
  const inJson = jsonTranslations(plan, name, columns, back);
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
  back: Map<string, Map<string, string>>,
): (row: Record<string, unknown>) => Record<string, unknown> {
  const translate = keyTranslations(plan, name, info.columns, back);
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

// For each column, the keys kept inside it (declared `table.column->path`) with their scratch-to-fixture values.
function jsonTranslations(
  plan: SeedPlan,
  name: string,
  columns: readonly ColumnInfo[],
  back: Map<string, Map<string, string>>,
): { path: string[]; lookup: Map<string, string> }[][] {
  const json = plan.keys.get(name)?.json ?? [];
  return columns.map((column) =>
    json
      .filter((entry) => entry.column === column.name)
      .map((entry) => ({
        path: entry.path,
        lookup: back.get(`${entry.origin.table}\u0000${entry.origin.column}`) ?? new Map(),
      })),
  );
}

// For each column, the scratch-to-fixture values of the key it holds (allocated by the seed or derived through a
// foreign key), or undefined for a column the seed left alone.
function keyTranslations(
  plan: SeedPlan,
  name: string,
  columns: readonly ColumnInfo[],
  back: Map<string, Map<string, string>>,
): (Map<string, string> | undefined)[] {
  const keys = plan.keys.get(name);
  return columns.map((column) => {
    const origin = keys?.allocated.has(column.name)
      ? { table: name, column: column.name }
      : keys?.derived.get(column.name);
    return origin && back.get(`${origin.table}\u0000${origin.column}`);
  });
}
