import { isDeepStrictEqual } from 'node:util';
import type { Fixture, FixtureTable } from '../fixture/format.js';
import { changePath, type ColumnChange } from './column-change.js';
import { rowKey } from './row-key.js';

/** A change whose recorded old value is not what the base holds. */
export interface ChangeConflict {
  path: string;
  /** What the base holds now (undefined: the row or column is gone). */
  base: unknown;
  /** What the change expected the base to hold. */
  old: unknown;
  /** What the change sets. */
  new: unknown;
}

/** The outcome of applying changes: the new fixture when nothing conflicts. */
export interface AppliedChanges {
  fixture: Fixture;
  conflicts: ChangeConflict[];
}

/**
 * Applies column changes to a copy of a base fixture after checking each old value against it (types included:
 * 1 and "1" differ). Never mutates the base: changed tables and rows are copied, the rest is shared.
 */
export function applyChanges(base: Fixture, changes: readonly ColumnChange[]): AppliedChanges {
  const conflicts: ChangeConflict[] = [];
  const tables: Record<string, FixtureTable> = { ...base.tables };
  const copied = new Set<string>();
  for (const change of changes) {
    const table = Object.hasOwn(tables, change.table) ? tables[change.table] : undefined;
    const index = table ? table.rows.findIndex((row) => rowKey(row, table.primaryKey) === change.row) : -1;
    const row = table?.rows[index];
    const path = changePath(change, table?.primaryKey ?? []);
    if (!table || !row || !(change.column in row)) {
      conflicts.push({ path, base: undefined, old: change.oldValue, new: change.value });
      continue;
    }
    if (!isDeepStrictEqual(row[change.column], change.oldValue)) {
      conflicts.push({ path, base: row[change.column], old: change.oldValue, new: change.value });
      continue;
    }
    if (!copied.has(change.table)) {
      tables[change.table] = { ...table, rows: [...table.rows] };
      copied.add(change.table);
    }
    const rows = tables[change.table]!.rows;
    rows[index] = { ...rows[index]!, [change.column]: structuredClone(change.value) };
  }
  return { fixture: { ...base, tables }, conflicts };
}

/** One line for a conflict: where, and the base, old and new values. */
export function describeConflict(conflict: ChangeConflict): string {
  if (conflict.base === undefined) return `${conflict.path}: no longer exists in the base`;
  const show = (value: unknown): string => JSON.stringify(value);
  return `${conflict.path}: base has ${show(conflict.base)}, the change expected ${show(conflict.old)} (new value ${show(conflict.new)})`;
}
