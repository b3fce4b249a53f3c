import { isDeepStrictEqual } from 'node:util';
import type { Fixture, FixtureRow, FixtureTable } from '../fixture/format.js';
import { formatJsonPath } from '../util/json/json-source.js';
import type { ColumnChange } from '../fixture/column-change.js';
import { describeRow, rowKey } from '../fixture/row-key.js';

/** What changed from a base fixture to an edited copy, and the changes that cannot be recorded. */
export interface FixtureDiff {
  changes: ColumnChange[];
  /** One line per change outside existing rows' column values (a renamed fixture, an added row, ...). */
  problems: string[];
}

/**
 * Diffs a base fixture against an edited copy, rows matched by primary key, as whole-column changes: a value edited
 * deep inside a jsonb column is that column's old and new value, and null to text one update. The result is written
 * as a json-diff-ts changeset (changesetOf); the matching is turnkit's own, because json-diff-ts matches keyed rows
 * through a plain object (a row keyed "__proto__" is lost) and compares every row pairwise (half a second on 5,000
 * turns). An edited copy shares unchanged row objects with the base, so most rows are told equal by reference.
 */
export function diffFixtures(base: Fixture, edited: Fixture): FixtureDiff {
  const changes: ColumnChange[] = [];
  const problems: string[] = [];
  for (const key of new Set([...Object.keys(base), ...Object.keys(edited)])) {
    if (key === 'tables') continue;
    if (!isDeepStrictEqual(base[key as keyof Fixture], edited[key as keyof Fixture]))
      problems.push(`${formatJsonPath([key])}: is not a row of a turn`);
  }
  for (const name of new Set([...Object.keys(base.tables), ...Object.keys(edited.tables)])) {
    const before = base.tables[name];
    const after = edited.tables[name];
    if (!before || !after) {
      problems.push(`${formatJsonPath(['tables', name])}: ${before ? 'removes' : 'adds'} a table`);
      continue;
    }
    if (before === after) continue;
    for (const part of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (part === 'rows') continue;
      if (!isDeepStrictEqual(before[part as keyof FixtureTable], after[part as keyof FixtureTable])) {
        problems.push(`${formatJsonPath(['tables', name, part])}: is not a row of a turn`);
      }
    }
    diffRows(name, before, after, changes, problems);
  }
  return { changes, problems };
}

function diffRows(
  name: string,
  before: FixtureTable,
  after: FixtureTable,
  changes: ColumnChange[],
  problems: string[],
): void {
  if (before.rows === after.rows) return;
  const primaryKey = before.primaryKey;
  if (primaryKey.length === 0) {
    if (!isDeepStrictEqual(before.rows, after.rows))
      problems.push(
        `${formatJsonPath(['tables', name, 'rows'])}: table ${name} has no primary key, so its rows cannot be named in a changeset`,
      );
    return;
  }
  const old = new Map<string, { row: FixtureRow; index: number }>(
    before.rows.map((row, index) => [rowKey(row, primaryKey), { row, index }]),
  );
  const matched = new Set<string>();
  after.rows.forEach((row, index) => {
    const key = rowKey(row, primaryKey);
    const match = old.get(key);
    if (!match) {
      // A row at the same place under another key is a key edit, not a new row.
      const replaced = before.rows[index];
      const replacedKey = replaced ? rowKey(replaced, primaryKey) : undefined;
      if (replacedKey !== undefined && !after.rows.some((other) => rowKey(other, primaryKey) === replacedKey)) {
        matched.add(replacedKey);
        problems.push(
          `${describeRow(name, primaryKey, replacedKey)}: its primary key changes (to ${describeRow(name, primaryKey, key)}); keys cannot change`,
        );
      } else {
        problems.push(
          `${describeRow(name, primaryKey, key)}: adds a row; a constructed fixture changes values of existing rows`,
        );
      }
      return;
    }
    matched.add(key);
    if (match.row === row) return;
    const where = describeRow(name, primaryKey, key);
    for (const column of new Set([...Object.keys(match.row), ...Object.keys(row)])) {
      if (!Object.hasOwn(row, column)) problems.push(`${where}.${column}: removes a column`);
      else if (!Object.hasOwn(match.row, column))
        problems.push(`${where}.${column}: adds a column "${column}" that ${name} does not have`);
      else if (!isDeepStrictEqual(match.row[column], row[column]))
        changes.push({ table: name, row: key, column, oldValue: match.row[column], value: row[column] });
    }
  });
  for (const [key] of old) {
    if (!matched.has(key))
      problems.push(
        `${describeRow(name, primaryKey, key)}: removes a row; a constructed fixture changes values of existing rows`,
      );
  }
}
