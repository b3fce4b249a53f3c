import { isDeepStrictEqual } from 'node:util';
import { TurnkitError } from '../errors.js';
import type { Fixture, FixtureRow } from '../fixture/format.js';
import { formatJsonPath } from '../util/json/json-source.js';
import { tableNamed } from '../fixture/row-key.js';

/**
 * Applies a patch file's new values to a copy of a fixture. A patch maps table names to rows; each row names itself
 * by its primary key columns (typed exactly as in the fixture: a bigint key is the string "19", an integer key the
 * number 19) and gives new values for other columns:
 *
 *   { "turns": [ { "id": "19", "narration": "You ride the lift up ..." } ] }
 */
export function applyPatch(base: Fixture, patch: unknown, file: string): Fixture {
  const problems: string[] = [];
  const fail = (path: (string | number)[], message: string): void => {
    problems.push(`${file}: ${formatJsonPath(path)}: ${message}`);
  };
  const edited: Fixture = { ...base, tables: { ...base.tables } };
  if (!isPlainObject(patch) || Object.keys(patch).length === 0) {
    throw new TurnkitError(
      'BAD_INPUT',
      `${file}: $: expected an object of table names to rows, like {"turns": [{"id": "19", "narration": "..."}]}`,
    );
  }
  for (const [tableName, rows] of Object.entries(patch)) {
    const table = tableNamed(base, tableName);
    if (!table) {
      fail([tableName], `no table "${tableName}" in ${base.name}`);
      continue;
    }
    if (!Array.isArray(rows)) {
      fail([tableName], 'expected an array of rows');
      continue;
    }
    if (table.primaryKey.length === 0) {
      fail([tableName], `${tableName} has no primary key, so its rows cannot be named`);
      continue;
    }
    const copy = { ...table, rows: [...table.rows] };
    const named = new Map<number, number>();
    rows.forEach((patchRow: unknown, i) => {
      if (!isPlainObject(patchRow)) return fail([tableName, i], 'expected a row object');
      const missingKey = table.primaryKey.filter((column) => !(column in patchRow));
      if (missingKey.length > 0)
        return fail(
          [tableName, i],
          `name the row by its primary key (${table.primaryKey.join(', ')}); missing ${missingKey.join(', ')}`,
        );
      const index = copy.rows.findIndex((row) =>
        table.primaryKey.every((column) => isDeepStrictEqual(row[column], patchRow[column])),
      );
      if (index < 0)
        return fail(
          [tableName, i],
          `no row with ${describeKey(table.primaryKey, patchRow)} in ${tableName}${typeHint(copy.rows, table.primaryKey, patchRow)}`,
        );
      if (named.has(index))
        return fail([tableName, i], `names the same row as ${formatJsonPath([tableName, named.get(index)!])}`);
      named.set(index, i);
      const columns = new Set(table.columns.map((column) => column.name));
      const unknown = Object.keys(patchRow).filter((column) => !columns.has(column));
      if (unknown.length > 0) return fail([tableName, i, unknown[0]!], `${tableName} has no column "${unknown[0]}"`);
      copy.rows[index] = { ...copy.rows[index]!, ...structuredClone(patchRow) };
    });
    edited.tables[tableName] = copy;
  }
  if (problems.length > 0) throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  return edited;
}

function describeKey(primaryKey: readonly string[], row: FixtureRow): string {
  return primaryKey.map((column) => `${column} = ${JSON.stringify(row[column])}`).join(', ');
}

// 19 and "19" are different keys; when only the type is off, say which one the fixture uses.
function typeHint(rows: readonly FixtureRow[], primaryKey: readonly string[], patchRow: FixtureRow): string {
  const loose = rows.find((row) => primaryKey.every((column) => String(row[column]) === String(patchRow[column])));
  return loose ? ` (the fixture has ${describeKey(primaryKey, loose)}: keys match by type too)` : '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
