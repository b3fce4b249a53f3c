import type { Queryable } from '../db/introspect.js';
import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { GameConfig } from '../config/schema.js';
import { collectOwned } from '../fixture/collect-owned.js';
import { resolveGameGraph } from '../fixture/game-graph.js';
import { selectRowsWhereIn } from '../fixture/row-query.js';
import { decodeValue, encodeValue, type JsonValue } from '../fixture/value-codec.js';
import { stringifyJsonExact } from '../fixture/json-exact.js';
import type { FixtureRow } from '../fixture/format.js';
import { formatJsonPath } from '../util/json-source.js';
import type { SerializedKeyMap } from './seed-remap.js';
import type { SeedPlan } from './seed-plan.js';

/** How a scratch campaign differs from its fixture once keys are mapped back; empty when they are equal. */
export interface ScratchCheck {
  equal: boolean;
  differences: string[];
}

/**
 * Re-captures a scratch campaign and compares it with its fixture modulo key values: every remapped key is
 * translated back through the seed's key map, then each table's rows must be the same multiset, and every
 * shared row must be present with the fixture's values.
 */
export async function checkScratch(
  client: Queryable,
  plan: SeedPlan,
  game: GameConfig,
  entry: { rootKey: string; keyMap: SerializedKeyMap },
  catalog: Catalog,
): Promise<ScratchCheck> {
  const graph = resolveGameGraph({ game, file: undefined }, catalog);
  const collected = await collectOwned(client, graph, entry.rootKey);
  const back = inverseKeyMap(entry.keyMap);
  const differences: string[] = [];

  for (const [name, table] of collected) {
    const planned = plan.tables.get(name);
    const columns = planned ? fixtureColumns(planned.info, planned.table.columns.map((column) => column.name)) : table.info.columns;
    const keys = plan.keys.get(name);
    const translate = columns.map((column) => {
      const origin = keys?.allocated.has(column.name) ? { table: name, column: column.name } : keys?.derived.get(column.name);
      return origin && back.get(`${origin.table}\u0000${origin.column}`);
    });
    const indexes = columns.map((column) => table.info.columns.indexOf(column));
    const scratch = [...table.rows.values()].map((raw) =>
      canonical(columns.map((column, i) => {
        const text = raw[indexes[i]!] ?? null;
        return decodeValue(text !== null && translate[i] ? (translate[i]!.get(text) ?? text) : text, column.codec);
      })),
    );
    const expected = planned && planned.table.role !== 'shared' ? planned.table.rows.map((row) => canonicalRow(row, columns)) : [];
    compareMultisets(name, planned?.fixtureName ?? name, expected, scratch, differences);
  }

  for (const planned of plan.tables.values()) {
    const sharedRows = planned.table.role === 'shared' ? planned.table.rows : (planned.table.sharedRows ?? []);
    if (sharedRows.length === 0 || planned.info.primaryKey.length === 0) continue;
    const columns = fixtureColumns(planned.info, planned.table.columns.map((column) => column.name));
    const pk = planned.info.primaryKey.map((key) => planned.info.columns.find((column) => column.name === key)!);
    const tuples = sharedRows.map((row) => pk.map((column) => encodeValue(row[column.name] as JsonValue, column.codec) ?? ''));
    const live = await selectRowsWhereIn(client, planned.info, planned.info.primaryKey, tuples);
    const indexes = columns.map((column) => planned.info.columns.indexOf(column));
    const present = live.map((raw) => canonical(columns.map((column, i) => decodeValue(raw[indexes[i]!] ?? null, column.codec))));
    const expected = sharedRows.map((row) => canonicalRow(row, columns));
    const missing = expected.filter((row) => !present.includes(row));
    if (missing.length > 0) differences.push(`${formatJsonPath(['tables', planned.fixtureName])}: ${missing.length} shared row(s) absent or different in the database`);
  }
  return { equal: differences.length === 0, differences };
}

/** The columns of a table that a fixture holds, in the table's order. */
export function fixtureColumns(info: TableInfo, names: readonly string[]): ColumnInfo[] {
  return info.columns.filter((column) => names.includes(column.name));
}

/** The seed's key map turned around: scratch key value to fixture key value, per table and column. */
export function inverseKeyMap(keyMap: SerializedKeyMap): Map<string, Map<string, string>> {
  const back = new Map<string, Map<string, string>>();
  for (const [table, columns] of Object.entries(keyMap)) {
    for (const [column, pairs] of Object.entries(columns)) back.set(`${table}\u0000${column}`, new Map(pairs.map(([old, fresh]) => [fresh, old])));
  }
  return back;
}

/** A fixture row as comparable text, through the codec so that the fixture's spelling and Postgres's agree. */
export function canonicalRow(row: FixtureRow, columns: readonly ColumnInfo[]): string {
  // Through the codec and back, so that the fixture's spelling and Postgres's compare equal (timestamps, numbers).
  return canonical(columns.map((column) => decodeValue(encodeValue(row[column.name] as JsonValue, column.codec), column.codec)));
}

/** Decoded values as comparable text. */
export function canonical(values: readonly JsonValue[]): string {
  return stringifyJsonExact(values);
}

function compareMultisets(name: string, fixtureName: string, expected: string[], actual: string[], differences: string[]): void {
  const counts = new Map<string, number>();
  for (const row of expected) counts.set(row, (counts.get(row) ?? 0) + 1);
  const extra: string[] = [];
  for (const row of actual) {
    const left = counts.get(row) ?? 0;
    if (left > 0) counts.set(row, left - 1);
    else extra.push(row);
  }
  const missing = [...counts].flatMap(([row, count]) => Array<string>(count).fill(row));
  const at = formatJsonPath(['tables', fixtureName]);
  if (missing.length > 0) differences.push(`${at}: ${missing.length} fixture row(s) missing or different in the scratch campaign, first ${clip(missing[0]!)}`);
  if (extra.length > 0) differences.push(`${at}: ${extra.length} row(s) in the scratch campaign "${name}" that the fixture does not hold, first ${clip(extra[0]!)}`);
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
