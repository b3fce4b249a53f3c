import { Operation, type IChange } from 'json-diff-ts';
import type { Fixture } from '../fixture/format.js';
import { describeRow, embeddedKeyName } from './row-key.js';

/** One recorded change: a column of one row, its value in the base and its new value. */
export interface ColumnChange {
  table: string;
  /** The row's changeset key (see rowKey). */
  row: string;
  column: string;
  oldValue: unknown;
  value: unknown;
  /** The row key's column names as a changeset file records them (checked against the base's primary key). */
  embeddedKey?: string;
}

/** How a change's place reads in messages: `turns[id=19].narration`. */
export function changePath(
  change: Pick<ColumnChange, 'table' | 'row' | 'column'>,
  primaryKey: readonly string[],
): string {
  return `${describeRow(change.table, primaryKey, change.row)}.${change.column}`;
}

/**
 * The column changes a changeset records, or the places whose shape turnkit does not write (an added row, a change
 * nested inside a value, a key other than `tables`): a constructed fixture changes whole column values of existing
 * rows, so every change reads as table, row, column, old value, new value.
 */
export function columnChangesOf(changeset: readonly IChange[]): { changes: ColumnChange[]; problems: string[] } {
  const changes: ColumnChange[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const unsupported = (path: string, change: IChange): void => {
    problems.push(
      `$.changeset: ${path}: ${change.type} is not a change turnkit records (it changes whole column values of existing rows)`,
    );
  };
  for (const top of changeset) {
    if (top.key !== 'tables' || top.type !== 'UPDATE' || !top.changes) {
      unsupported(top.key, top);
      continue;
    }
    for (const table of top.changes) {
      if (table.type !== 'UPDATE' || !table.changes) {
        unsupported(`tables.${table.key}`, table);
        continue;
      }
      for (const part of table.changes) {
        if (part.key !== 'rows' || part.type !== 'UPDATE' || !part.changes) {
          unsupported(`tables.${table.key}.${part.key}`, part);
          continue;
        }
        for (const row of part.changes) {
          if (row.type !== 'UPDATE' || !row.changes) {
            unsupported(`${table.key}[${row.key}]`, row);
            continue;
          }
          for (const column of row.changes) {
            if (column.type !== 'UPDATE' || column.changes || !('value' in column) || !('oldValue' in column)) {
              unsupported(`${table.key}[${row.key}].${column.key}`, column);
              continue;
            }
            const where = `${table.key}[${row.key}].${column.key}`;
            if (seen.has(where)) {
              problems.push(`$.changeset: ${where}: changed twice`);
              continue;
            }
            seen.add(where);
            changes.push({
              table: table.key,
              row: row.key,
              column: column.key,
              oldValue: column.oldValue,
              value: column.value,
              embeddedKey: typeof part.embeddedKey === 'string' ? part.embeddedKey : '',
            });
          }
        }
      }
    }
  }
  return { changes, problems };
}

/** Builds the changeset file's nested form from column changes, grouped by table and row in a stable order. */
export function changesetOf(changes: readonly ColumnChange[], base: Fixture): IChange[] {
  const byTable = new Map<string, Map<string, ColumnChange[]>>();
  for (const change of changes) {
    const rows = byTable.get(change.table) ?? new Map<string, ColumnChange[]>();
    rows.set(change.row, [...(rows.get(change.row) ?? []), change]);
    byTable.set(change.table, rows);
  }
  const tables: IChange[] = [...byTable].map(([table, rows]) => ({
    type: Operation.UPDATE,
    key: table,
    changes: [
      {
        type: Operation.UPDATE,
        key: 'rows',
        embeddedKey: embeddedKeyName(base.tables[table]?.primaryKey ?? []),
        changes: [...rows].map(([row, columns]) => ({
          type: Operation.UPDATE,
          key: row,
          changes: columns.map((change) => ({
            type: Operation.UPDATE,
            key: change.column,
            value: change.value,
            oldValue: change.oldValue,
          })),
        })),
      },
    ],
  }));
  return tables.length === 0 ? [] : [{ type: Operation.UPDATE, key: 'tables', changes: tables }];
}
