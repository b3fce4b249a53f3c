import type pg from 'pg';
import type { ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';
import { tupleKey } from '../fixture/capture/row-query.js';
import { bulkInsert, bulkInsertAll, bulkUpdate } from './bulk-write.js';
import { remapRows, type KeyMap, type TextRow } from './remap/remap-rows.js';
import type { PlannedTable, SeedPlan } from './seed-plan.js';
import { describeRowWriteError } from './write-error.js';
import { CombinedWriteFailed } from './combined-write.js';

/** What a write of a fixture's rows produced. */
export interface WrittenRows {
  /** The rows written per campaign table, as inserted (keys already rewritten). */
  written: Map<string, TextRow[]>;
  /** Every shared row's primary key (Postgres text) per table, inserted now or present before. */
  sharedKeys: Map<string, string[]>;
}

/**
 * Writes a fixture's rows in dependency order inside the caller's transaction: shared rows only where absent,
 * campaign rows with keys rewritten through `keyMap` (an empty map keeps them), one statement per table, and
 * the non-deferrable cycle edges set afterwards. `onSharedInserted` hears which shared rows were absent.
 */
export async function writeFixtureRows(
  client: pg.PoolClient | pg.Client,
  plan: SeedPlan,
  keyMap: KeyMap,
  onSharedInserted: (table: string, keys: string[]) => Promise<void>,
  /** Write the campaign's tables with one statement; a failure then says little, so callers retry table by table. */
  combined = false,
): Promise<WrittenRows> {
  const nulledColumns = new Map<string, Set<string>>();
  for (const { table, fk } of plan.order.nulled) {
    const set = nulledColumns.get(table) ?? new Set();
    fk.columns.forEach((column) => set.add(column));
    nulledColumns.set(table, set);
  }
  const written = new Map<string, TextRow[]>();
  const sharedKeys = new Map<string, string[]>();
  const insertShared = async (
    planned: PlannedTable,
    rows: PlannedTable['table']['rows'],
    rowsKey: string,
  ): Promise<void> => {
    const text = remapRows(planned.info.name, planned.columns, rows, new Map(), new Map());
    const result = await write(
      plan,
      planned,
      'seeding shared rows of',
      () => bulkInsert(client, planned.info, planned.columns, text, { onlyAbsent: true }),
      rowsKey,
    );
    // A shared table without a primary key cannot be told apart row by row: such rows are never deleted again.
    if (planned.info.primaryKey.length === 0) return;
    const width = planned.info.primaryKey.length;
    const keys = result.map((row) => tupleKey(row.slice(0, width)));
    const inserted = result.flatMap((row, i) => (row[width] === 'true' ? [keys[i]!] : []));
    await advanceSequencePast(client, planned.info, inserted);
    await onSharedInserted(planned.info.name, inserted);
    sharedKeys.set(planned.info.name, [...(sharedKeys.get(planned.info.name) ?? []), ...keys]);
  };

  for (const name of plan.order.order) {
    const planned = plan.tables.get(name)!;
    if (planned.table.role === 'shared') {
      await insertShared(planned, planned.table.rows, 'rows');
      continue;
    }
    if (planned.table.sharedRows?.length) await insertShared(planned, planned.table.sharedRows, 'sharedRows');
    // An empty key map keeps every key as the fixture has it (a database of its own).
    const rows = remapRows(name, planned.columns, planned.table.rows, keyMap.size > 0 ? plan.keys : new Map(), keyMap);
    written.set(name, rows);
    if (!combined) {
      await write(plan, planned, 'seeding', () =>
        bulkInsert(client, planned.info, planned.columns, rows, { nullColumns: nulledColumns.get(name) }),
      );
    }
  }
  if (combined) {
    const tables = [...written].map(([name, rows]) => ({
      info: plan.tables.get(name)!.info,
      columns: plan.tables.get(name)!.columns,
      rows,
    }));
    await bulkInsertAll(client, tables).catch((error: unknown) => {
      throw new CombinedWriteFailed(error);
    });
    return { written, sharedKeys };
  }
  for (const [name, columns] of nulledColumns) {
    const planned = plan.tables.get(name)!;
    await write(plan, planned, 'seeding', () =>
      bulkUpdate(client, planned.info, planned.columns, written.get(name) ?? [], [...columns]),
    );
  }
  return { written, sharedKeys };
}

async function write<T>(
  plan: SeedPlan,
  planned: PlannedTable,
  action: string,
  fn: () => Promise<T>,
  rowsKey = 'rows',
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const rows = rowsKey === 'rows' ? planned.table.rows : (planned.table.sharedRows ?? []);
    throw describeRowWriteError(error, action, planned.fixtureName, plan.file, rows, rowsKey);
  }
}

/**
 * A shared row inserted with its captured key (a user absent here) must not be handed out again by the table's own
 * sequence: the live game's next insert would collide with it. Moves the sequence forward past the key, never back.
 */
async function advanceSequencePast(client: Queryable, info: TableInfo, keys: readonly string[]): Promise<void> {
  const key =
    info.primaryKey.length === 1 ? info.columns.find((column) => column.name === info.primaryKey[0]) : undefined;
  if (!key || keys.length === 0 || !['int', 'bigint'].includes(key.codec.kind)) return;
  await advanceSequence(client, info, key, 'SELECT max(k::bigint) FROM unnest($4::text[]) AS k', [keys]);
}

/**
 * Moves a column's sequence (its own, or the one its nextval() default names: maybe shared by several tables) forward
 * to `max`, a query over `values` from $4 on, never back; nothing for a column without one.
 */
export async function advanceSequence(
  client: Queryable,
  info: TableInfo,
  column: ColumnInfo,
  max: string,
  values: unknown[] = [],
): Promise<void> {
  const named = /\bnextval\s*\(\s*'((?:[^']|'')+)'/i.exec(column.default ?? '')?.[1]?.replace(/''/g, "'") ?? null;
  if (column.identity === null && named === null) return;
  await client.query(
    `SELECT setval(s, m) FROM (SELECT coalesce(pg_get_serial_sequence($1, $2)::regclass, $3::regclass) AS s,
       (${max}) AS m) AS x
     WHERE s IS NOT NULL AND m IS NOT NULL AND m > coalesce(pg_sequence_last_value(s), 0)`,
    [info.sql, column.name, named, ...values],
  );
}
