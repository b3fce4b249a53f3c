import type { ColumnInfo, TableInfo } from '../../db/catalog-types.js';
import { encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import type { FixtureRow } from '../../fixture/format.js';
import type { Allocations } from './allocate-keys.js';
import type { KeyOrigin, KeyPlan, TableKeys } from './key-plan.js';
import type { SerializedKeyMap } from './seed-remap.js';

/** A row ready to insert: one Postgres text value (or null) per insert column. */
export type TextRow = (string | null)[];

/** Old key value to new, per table and allocated column. */
export type KeyMap = Map<string, Map<string, Map<string, string>>>;

/** The columns a seed writes: every column the fixture holds, except generated ones (the database computes them). */
export function insertColumns(info: TableInfo, fixtureColumns: readonly string[]): ColumnInfo[] {
  const wanted = new Set(fixtureColumns);
  return info.columns.filter((column) => wanted.has(column.name) && column.generated === null);
}

/** Pairs each allocated column's old values with the newly allocated ones. */
export function buildKeyMap(
  plan: KeyPlan,
  tables: ReadonlyMap<string, TableInfo>,
  rowsOf: (table: string) => readonly FixtureRow[],
  allocations: Allocations,
): KeyMap {
  const keyMap: KeyMap = new Map();
  for (const [name, keys] of plan) {
    const perColumn = new Map<string, Map<string, string>>();
    keyMap.set(name, perColumn);
    const info = tables.get(name)!;
    const rows = rowsOf(name);
    for (const column of keys.allocated.keys()) {
      const codec = info.columns.find((candidate) => candidate.name === column)!.codec;
      const fresh = allocations.get(name)!.get(column)!;
      const map = new Map<string, string>();
      rows.forEach((row, i) => {
        const old = encodeValue(row[column] as JsonValue, codec);
        if (old !== null) map.set(old, fresh[i]!);
      });
      perColumn.set(column, map);
    }
  }
  return keyMap;
}

/**
 * Encodes a table's fixture rows for insertion with every remapped column rewritten: allocated columns take their
 * new value, derived ones the new value of the key they point at. A reference to a row outside the campaign (a
 * shared row) finds no new value and keeps its own.
 */
export function remapRows(
  name: string,
  columns: readonly ColumnInfo[],
  rows: readonly FixtureRow[],
  plan: KeyPlan,
  keyMap: KeyMap,
): TextRow[] {
  const { key, json } = columnLookups(plan.get(name), name, columns, keyMap, true);
  return rows.map((row) =>
    columns.map((column, i) => {
      const value = json[i]!.length > 0 ? withJsonKeys(row[column.name], json[i]!) : row[column.name];
      const text = encodeValue(value as JsonValue, column.codec);
      const lookup = key[i];
      return text !== null && lookup ? (lookup.get(text) ?? text) : text;
    }),
  );
}

/** Per column, a key value's lookup and those of the keys kept inside it (declared JSON paths). */
export interface ColumnLookups {
  /** The lookup of the key the column holds (allocated, or derived through a foreign key); undefined: left alone. */
  key: (ReadonlyMap<string, string> | undefined)[];
  json: { path: string[]; lookup: ReadonlyMap<string, string> }[][];
}

/**
 * How each column's keys translate through `keyMap`: the seed's (fixture value to scratch value) or its inverse
 * (`inverseKeyMap`, scratch to fixture), so writing a campaign and reading it back follow the same keys. `complete`:
 * the map was built from this plan (the seed's), so a planned key without a lookup is a bug, and it throws rather
 * than write the fixture's own key into the game; a recorded map read back may lack a column that allocated nothing.
 */
export function columnLookups(
  keys: TableKeys | undefined,
  name: string,
  columns: readonly ColumnInfo[],
  keyMap: KeyMap,
  complete = false,
): ColumnLookups {
  const lookup = (origin: KeyOrigin | undefined) => {
    const found = origin && keyMap.get(origin.table)?.get(origin.column);
    if (origin && !found && complete)
      throw new Error(`${name}: the seed's key map has no ${origin.table}.${origin.column} (a planned key)`);
    return found;
  };
  return {
    key: columns.map((column) =>
      lookup(keys?.allocated.has(column.name) ? { table: name, column: column.name } : keys?.derived.get(column.name)),
    ),
    json: columns.map((column) =>
      (keys?.json ?? []).flatMap((entry) => {
        const found = entry.column === column.name ? lookup(entry.origin) : undefined;
        return found ? [{ path: entry.path, lookup: found }] : [];
      }),
    ),
  };
}

/** The seed's key map turned around: scratch key value to fixture key value, per table and column. */
export function inverseKeyMap(keyMap: SerializedKeyMap): KeyMap {
  return new Map(
    Object.entries(keyMap).map(([table, columns]) => [
      table,
      new Map(
        Object.entries(columns).map(([column, pairs]) => [column, new Map(pairs.map(([old, fresh]) => [fresh, old]))]),
      ),
    ]),
  );
}

/**
 * A JSON value with the key at each path replaced by its new value (a number stays a number where the new key is
 * one); a path that leads nowhere, or to a key outside the campaign (a shared row's), leaves the value as it is.
 */
export function withJsonKeys(
  value: unknown,
  references: readonly { path: readonly string[]; lookup: ReadonlyMap<string, string> }[],
): unknown {
  let result = value;
  for (const { path, lookup } of references) {
    const found = valueAt(result, path);
    if (typeof found !== 'string' && typeof found !== 'number') continue;
    const fresh = lookup.get(String(found));
    if (fresh === undefined) continue;
    const typed = typeof found === 'number' && /^-?\d+$/.test(fresh) ? Number(fresh) : fresh;
    result = replacedAt(result, path, typed);
  }
  return result;
}

/** The value at a path of object keys inside a JSON value, or undefined. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function replacedAt(value: unknown, path: readonly string[], fresh: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return fresh;
  const object = value as Record<string, unknown>;
  return { ...object, [key]: replacedAt(object[key], rest, fresh) };
}
