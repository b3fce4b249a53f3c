import type { Catalog, ColumnInfo } from '../../db/catalog-types.js';
import type { Queryable } from '../../db/introspect.js';
import type { GameConfig } from '../../config/schema.js';
import { resolveGameGraph } from '../../fixture/graph/game-graph.js';
import { decodeValue, type JsonValue } from '../../fixture/value-codec.js';
import { canonical, canonicalRow, fixtureColumns, fixtureValues } from './fixture-values.js';
import { inverseKeyMap } from '../remap/remap-rows.js';
import type { SerializedKeyMap } from '../remap/seed-remap.js';
import type { SeedPlan } from '../seed-plan.js';
import type { CollectedRows } from '../../fixture/capture/collect-owned.js';
import { walkCampaignKeys } from '../walk-keys.js';

/**
 * What the SUT changed in its scratch campaign, per table: a rep's effects (found by diffing the campaign before
 * teardown) and a rollout turn's (read from the rows written during the turn) alike.
 */
export interface EffectsSummary {
  inserted: Record<string, number>;
  updated: Record<string, number>;
  deleted: Record<string, number>;
  /**
   * The first inserted rows of each table, a few per table, in the fixture's keys: a column naming a seeded row (the
   * campaign, a parent turn) holds the fixture's value, so a record reads against its fixture whatever the scratch copy.
   */
  insertedRows: Record<string, Record<string, unknown>[]>;
  /**
   * The first updated rows of each table (ROW_LIMIT), each by its key in the fixture's terms with the columns the SUT
   * changed, before and after: what a question's expected state reads. Absent in a record written before it.
   */
  updatedRows?: Record<string, UpdatedRow[]>;
  /** The keys of the first deleted rows of each table (ROW_LIMIT), in the fixture's terms. */
  deletedRows?: Record<string, Record<string, unknown>[]>;
}

/** One row the SUT updated: its key, and each changed column's value before and after. */
export interface UpdatedRow {
  key: Record<string, unknown>;
  changed: Record<string, { before: unknown; after: unknown }>;
}

/** What happened to one table of a scratch campaign since it was seeded. */
export interface TableEffects {
  table: string;
  inserted: number;
  updated: number;
  deleted: number;
  /** The first inserted rows, in the fixture's keys (see `EffectsSummary.insertedRows`). */
  insertedRows: Record<string, JsonValue>[];
  updatedRows: UpdatedRow[];
  deletedRows: Record<string, JsonValue>[];
}

/** The most rows of one table and kind (inserted, updated, deleted) a record keeps; its counts cover the rest. */
const ROW_LIMIT = 20;

/**
 * The SUT's effects on its scratch campaign: the campaign is collected again (what it owns now, rows the SUT added
 * included), keys are mapped back to the fixture's, and rows are matched by primary key: new keys are inserted
 * rows, missing ones deleted, same key with other values updated. Tables without a key compare as multisets.
 */
export async function scratchEffects(
  client: Queryable,
  plan: SeedPlan,
  game: GameConfig,
  entry: { rootKey: string; keyMap: SerializedKeyMap },
  catalog: Catalog,
): Promise<TableEffects[]> {
  const graph = resolveGameGraph({ game, file: undefined }, catalog);
  // The teardown's walk with whole rows: a few round trips (one UNION per round) instead of one query per edge.
  // A campaign row the SUT deleted leaves every table empty: every seeded row counts as deleted.
  const collected = await walkCampaignKeys(client, graph, entry.rootKey, { wholeRows: true, emptyWhenGone: true });
  return effectsOf(collected, plan, entry.keyMap);
}

/** The effects found in a campaign's rows as a whole-row walk read them (the teardown's, when it is asked to). */
export function effectsOf(collected: CollectedRows, plan: SeedPlan, keyMap: SerializedKeyMap): TableEffects[] {
  const back = inverseKeyMap(keyMap);
  const effects: TableEffects[] = [];
  const seen = new Set<string>();
  for (const [name, table] of collected) {
    seen.add(name);
    const planned = plan.tables.get(name);
    const { columns, before } = planned ? fixtureSide(plan, name) : { columns: table.info.columns, before: [] };
    const read = fixtureValues(plan, name, table.info, columns, back);
    const rows = [...table.rows.values()];
    const now = rows.map((raw) => read(raw));
    // Whole decoded rows only for the few inserted ones a record shows, in the fixture's terms: a key the seed
    // remapped (the campaign's, a parent turn's) reads as the fixture's value, so the row reads against the fixture.
    const fixtureIndex = new Map(columns.map((column, j) => [column.name, j]));
    const sample = (index: number): Record<string, JsonValue> =>
      Object.fromEntries(
        table.info.columns.map((column, i) => {
          const j = fixtureIndex.get(column.name);
          return [column.name, j === undefined ? decodeValue(rows[index]![i] ?? null, column.codec) : now[index]![j]!];
        }),
      );
    const keyIndexes = table.info.primaryKey.map((key) => columns.findIndex((column) => column.name === key));
    const result = noTableEffects(name);
    if (keyIndexes.length > 0 && keyIndexes.every((index) => index >= 0)) {
      const keyOf = (values: readonly JsonValue[]): string => canonical(keyIndexes.map((index) => values[index]!));
      const keyObject = (values: readonly JsonValue[]): Record<string, JsonValue> =>
        Object.fromEntries(keyIndexes.map((index) => [columns[index]!.name, values[index]!]));
      const old = new Map(before.map((row) => [keyOf(row.values), row]));
      const keysNow = new Set<string>();
      now.forEach((values, index) => {
        const key = keyOf(values);
        keysNow.add(key);
        const previous = old.get(key);
        if (previous === undefined) {
          result.inserted++;
          if (result.insertedRows.length < ROW_LIMIT) result.insertedRows.push(sample(index));
        } else if (previous.text !== canonical(values)) {
          result.updated++;
          if (result.updatedRows.length < ROW_LIMIT) {
            const changed: UpdatedRow['changed'] = {};
            columns.forEach((column, j) => {
              if (canonical([previous.values[j]!]) !== canonical([values[j]!]))
                changed[column.name] = { before: previous.values[j]!, after: values[j]! };
            });
            result.updatedRows.push({ key: keyObject(values), changed });
          }
        }
      });
      for (const [key, row] of old) {
        if (keysNow.has(key)) continue;
        result.deleted++;
        if (result.deletedRows.length < ROW_LIMIT) result.deletedRows.push(keyObject(row.values));
      }
    } else {
      const counts = new Map<string, number>();
      for (const { text } of before) counts.set(text, (counts.get(text) ?? 0) + 1);
      now.forEach((values, index) => {
        const text = canonical(values);
        const left = counts.get(text) ?? 0;
        if (left > 0) counts.set(text, left - 1);
        else {
          result.inserted++;
          if (result.insertedRows.length < ROW_LIMIT) result.insertedRows.push(sample(index));
        }
      });
      result.deleted = [...counts.values()].reduce((sum, count) => sum + count, 0);
    }
    if (result.inserted + result.updated + result.deleted > 0) effects.push(result);
  }
  for (const [name, planned] of plan.tables) {
    if (seen.has(name) || planned.table.role === 'shared' || planned.table.rows.length === 0) continue;
    effects.push({ ...noTableEffects(name), deleted: planned.table.rows.length });
  }
  return effects;
}

function noTableEffects(table: string): TableEffects {
  return { table, inserted: 0, updated: 0, deleted: 0, insertedRows: [], updatedRows: [], deletedRows: [] };
}

/** A fixture table's side of the comparison: its columns, and each row's values (for its key) and canonical text. */
interface FixtureSide {
  columns: ColumnInfo[];
  before: { values: JsonValue[]; text: string }[];
}

const fixtureSides = new WeakMap<SeedPlan, Map<string, FixtureSide>>();

// The same for every rep of a fixture, and most of what comparing costs (each value through the codec twice): once
// per plan. On the embedded database it ran inside the teardown's transaction, holding turnkit's one connection.
function fixtureSide(plan: SeedPlan, name: string): FixtureSide {
  let tables = fixtureSides.get(plan);
  if (!tables) fixtureSides.set(plan, (tables = new Map()));
  let side = tables.get(name);
  if (!side) {
    const planned = plan.tables.get(name)!;
    const columns = fixtureColumns(planned);
    const rows = planned.table.role !== 'shared' ? planned.table.rows : [];
    const before = rows.map((row) => ({
      values: columns.map((column) => (row[column.name] ?? null) as JsonValue),
      text: canonicalRow(row, columns),
    }));
    tables.set(name, (side = { columns, before }));
  }
  return side;
}
