import type { ColumnInfo, TableInfo } from '../../db/catalog-types.js';
import { encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import type { FixtureRow } from '../../fixture/format.js';
import type { Allocations } from './allocate-keys.js';
import type { KeyPlan } from './key-plan.js';

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
  const keys = plan.get(name);
  const lookups = columns.map((column) => {
    if (!keys) return undefined;
    if (keys.allocated.has(column.name)) return keyMap.get(name)!.get(column.name)!;
    const origin = keys.derived.get(column.name);
    return origin && keyMap.get(origin.table)!.get(origin.column)!;
  });
  // Keys kept inside JSON columns: the value at each declared path takes the new key, keeping its JSON type.
  const inJson = columns.map((column) =>
    (keys?.json ?? [])
      .filter((entry) => entry.column === column.name)
      .map((entry) => ({ path: entry.path, lookup: keyMap.get(entry.origin.table)!.get(entry.origin.column)! })),
  );
  return rows.map((row) =>
    columns.map((column, i) => {
      const value = inJson[i]!.length > 0 ? withJsonKeys(row[column.name], inJson[i]!) : row[column.name];
      const text = encodeValue(value as JsonValue, column.codec);
      const lookup = lookups[i];
      return text !== null && lookup ? (lookup.get(text) ?? text) : text;
    }),
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
export function valueAt(value: unknown, path: readonly string[]): unknown {
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
