import type { Queryable } from '../db/introspect.js';
import type { ColumnInfo, TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { RAW_TEXT_TYPES, type RawRow } from '../fixture/capture/row-query.js';
import type { TextRow } from './remap/remap-rows.js';

/** How a bulk insert treats rows already present. */
export interface BulkInsertOptions {
  /** Columns written as NULL now and set by `bulkUpdate` later (a cycle that is not deferrable). */
  nullColumns?: ReadonlySet<string>;
  /**
   * Skip rows whose primary key is already present (shared rows). Returns, per row, its primary key values as
   * text followed by 'true' when this statement inserted it, 'false' when it was there already.
   */
  onlyAbsent?: boolean;
}

/**
 * Inserts rows with one statement and one parameter, whatever the row count: the rows travel as one JSON array
 * that `json_populate_recordset` turns into the table's row type (each value through its type's input function).
 * node-postgres silently wraps past 65,535 bind parameters, so one parameter per value is never an option.
 */
export async function bulkInsert(
  db: Queryable,
  info: TableInfo,
  columns: readonly ColumnInfo[],
  rows: readonly TextRow[],
  options: BulkInsertOptions = {},
): Promise<RawRow[]> {
  if (rows.length === 0) return [];
  const insert = insertFromR(info, columns, options.nullColumns);
  const source = recordsetR(info, 1);
  let text = `${insert} FROM ${source}`;
  if (options.onlyAbsent && info.primaryKey.length > 0) {
    // Every row's key in Postgres's own text, and whether this statement inserted it: the registry tracks both.
    const key = info.primaryKey.map(quoteIdent);
    const returned = info.primaryKey.map((column) => `r.${quoteIdent(column)}::text`);
    text = `WITH r AS MATERIALIZED (SELECT * FROM ${source}),
      ins AS (${insert} FROM r ON CONFLICT (${key.join(', ')}) DO NOTHING RETURNING ${key.join(', ')})
      SELECT ${returned.join(', ')}, EXISTS (SELECT 1 FROM ins WHERE ${key.map((column) => `ins.${column} = r.${column}`).join(' AND ')})::text
      FROM r`;
  } else if (options.onlyAbsent) {
    // No key to conflict on: a row counts as present when an identical one exists.
    const same = columns
      .map((column) => `t.${quoteIdent(column.name)} IS NOT DISTINCT FROM r.${quoteIdent(column.name)}`)
      .join(' AND ');
    text += ` WHERE NOT EXISTS (SELECT 1 FROM ${info.from} AS t WHERE ${same})`;
  }
  const result = await db.query({ text, values: [rowsAsJson(columns, rows)], rowMode: 'array', types: RAW_TEXT_TYPES });
  return (result.rows ?? []) as RawRow[];
}

/** Sets the columns a bulk insert left NULL, matching rows by primary key; same rows, same single JSON parameter. */
export async function bulkUpdate(
  db: Queryable,
  info: TableInfo,
  columns: readonly ColumnInfo[],
  rows: readonly TextRow[],
  set: readonly string[],
): Promise<void> {
  if (rows.length === 0 || set.length === 0) return;
  const assignments = set.map((column) => `${quoteIdent(column)} = r.${quoteIdent(column)}`);
  const match = info.primaryKey.map((column) => `t.${quoteIdent(column)} = r.${quoteIdent(column)}`);
  const text = `UPDATE ${info.from} AS t SET ${assignments.join(', ')} FROM ${recordsetR(info, 1)} WHERE ${match.join(' AND ')}`;
  await db.query({ text, values: [rowsAsJson(columns, rows)] });
}

/** The rows as a JSON array of objects; json and jsonb values go in as nested JSON, everything else as its text. */
export function rowsAsJson(columns: readonly ColumnInfo[], rows: readonly TextRow[]): string {
  const names = columns.map((column) => column.name);
  const nested = columns.flatMap((column, i) => (column.codec.kind === 'json' ? [i] : []));
  // One native JSON.stringify of plain objects: a hand-built string per value cost a 5,000-turn seed a tenth of its
  // time. A column named __proto__ needs objects without a prototype (slower), or its values would be dropped.
  const bare = names.includes('__proto__');
  const objects = rows.map((row) => {
    const object: Record<string, string | null> = bare ? Object.create(null) : {};
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i] ?? null;
    return object;
  });
  if (nested.length === 0) return JSON.stringify(objects);
  // json values are spliced in as they are (parsing them could round big numbers and drop duplicate keys): a
  // placeholder string per value, replaced after.
  const raw: string[] = [];
  for (const [r, row] of rows.entries())
    for (const i of nested) {
      const value = row[i];
      if (value === null || value === undefined) continue;
      objects[r]![names[i]!] = `\u0000${raw.length}`;
      raw.push(value);
    }
  return JSON.stringify(objects).replace(/"\\u0000(\d+)"/g, (_, n: string) => raw[Number(n)]!);
}

/** One table's rows for a combined write. */
export interface TableRows {
  info: TableInfo;
  columns: readonly ColumnInfo[];
  rows: readonly TextRow[];
}

/**
 * Inserts every table's rows with one statement (one data-modifying CTE per table, one JSON parameter each): one
 * round trip for the whole campaign. Foreign keys are checked when the statement ends, when every row is there,
 * so neither the table order nor a cycle between tables matters.
 */
export async function bulkInsertAll(db: Queryable, tables: readonly TableRows[]): Promise<void> {
  const parts: string[] = [];
  const values: string[] = [];
  for (const { info, columns, rows } of tables) {
    if (rows.length === 0) continue;
    values.push(rowsAsJson(columns, rows));
    parts.push(`w${parts.length} AS (${insertFromR(info, columns)} FROM ${recordsetR(info, values.length)})`);
  }
  if (parts.length === 0) return;
  await db.query({ text: `WITH ${parts.join(',\n')} SELECT 1`, values });
}

// The insert of the columns' values from rows `r` (those in `nulled` as NULL), to follow with `FROM`.
function insertFromR(info: TableInfo, columns: readonly ColumnInfo[], nulled?: ReadonlySet<string>): string {
  const names = columns.map((column) => quoteIdent(column.name));
  const select = columns.map((column, i) => (nulled?.has(column.name) ? 'NULL' : `r.${names[i]}`));
  const overriding = columns.some((column) => column.identity === 'always') ? ' OVERRIDING SYSTEM VALUE' : '';
  return `INSERT INTO ${info.sql} (${names.join(', ')})${overriding} SELECT ${select.join(', ')}`;
}

// Parameter $n, a JSON array of rows, as rows `r` of the table's type.
function recordsetR(info: TableInfo, n: number): string {
  return `json_populate_recordset(NULL::${info.sql}, $${n}::json) AS r`;
}
