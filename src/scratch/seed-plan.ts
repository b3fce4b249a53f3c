import { TurnkitError } from '../errors.js';
import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';
import { checkAgainstCatalog } from '../fixture/graph/check-catalog.js';
import { findTable } from '../fixture/graph/catalog-lookup.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';
import { encodeValue, type JsonValue } from '../fixture/value-codec.js';
import type { Fixture, FixtureTable } from '../fixture/format.js';
import { formatJsonPath } from '../util/json/json-source.js';
import { dependencyOrder, type DependencyOrder } from './dependency-order.js';
import { planKeys, type KeyPlan } from './remap/key-plan.js';
import { insertColumns } from './remap/remap-rows.js';

/** One fixture table matched to the live catalog. */
export interface PlannedTable {
  /** The table's name in the fixture (its rows live there). */
  fixtureName: string;
  info: TableInfo;
  table: FixtureTable;
  /** What the seed writes: the fixture's columns minus generated ones, in catalog order. */
  columns: ColumnInfo[];
}

/** Everything a seed of one fixture needs that does not change from rep to rep: worked out once per run. */
export interface SeedPlan {
  fixture: Fixture;
  file: string;
  /** Every fixture table by catalog name. */
  tables: Map<string, PlannedTable>;
  /** Root and owned tables by catalog name: the ones whose keys change. */
  campaignTables: Map<string, TableInfo>;
  keys: KeyPlan;
  /** Why a remap cannot copy this fixture (a key no column of which can take fresh values); empty when it can. */
  keyProblems: string[];
  order: DependencyOrder;
  /** Catalog name of the root table and the fixture's root key value as Postgres text. */
  root: { table: string; column: string; value: string };
  /**
   * Write every table with one statement. Off when the game has triggers on these tables: in one statement the
   * tables are written in no defined order, and a trigger that reads another table could see it still empty.
   */
  oneStatement: boolean;
}

/**
 * Matches a fixture to the live catalog and works out the keys and the insert order. Schema drift (a table or
 * column the database lacks, a type that changed, a NOT NULL column the fixture cannot fill) is an error listing
 * every problem, before anything is written.
 */
export function planSeed(
  fixture: Fixture,
  catalog: Catalog,
  file: string,
  /** Unique columns ('table.column') whose captured values scratch copies keep (game.unique: keep). */
  keep: ReadonlySet<string> = new Set(),
): SeedPlan {
  const problems = checkAgainstCatalog(fixture, catalog, file);
  const tables = new Map<string, PlannedTable>();
  for (const [fixtureName, table] of Object.entries(fixture.tables)) {
    const info = findTable(catalog, fixtureName);
    if (!info) continue;
    const names = table.columns.map((column) => column.name);
    for (const column of info.columns) {
      const fillable =
        column.nullable || column.default !== null || column.identity !== null || column.generated !== null;
      if (!names.includes(column.name) && !fillable) {
        problems.push(
          `${file}: ${formatJsonPath(['tables', fixtureName])}: column "${info.name}"."${column.name}" is NOT NULL without a default in the database and missing from the fixture`,
        );
      }
    }
    tables.set(info.name, { fixtureName, info, table, columns: insertColumns(info, names) });
  }
  if (problems.length > 0) {
    throw new TurnkitError(
      'FIXTURE',
      problems.length === 1 ? problems[0]! : `${problems[0]} (and ${problems.length - 1} more problems)`,
      problems,
    );
  }

  const rootInfo = findTable(catalog, fixture.source.root.table);
  const rootPlanned = rootInfo && tables.get(rootInfo.name);
  if (!rootInfo || !rootPlanned || rootPlanned.table.role !== 'root' || rootPlanned.table.rows.length !== 1) {
    throw new TurnkitError(
      'FIXTURE',
      `${file}: ${formatJsonPath(['source', 'root'])}: the fixture must hold exactly one row of its root table "${fixture.source.root.table}"`,
    );
  }
  const rootColumn = rootInfo.columns.find((column) => column.name === fixture.source.root.key)!;
  const rootValue = encodeValue(rootPlanned.table.rows[0]![rootColumn.name] as JsonValue, rootColumn.codec);
  if (rootValue === null)
    throw new TurnkitError(
      'FIXTURE',
      `${file}: ${formatJsonPath(['tables', rootPlanned.fixtureName, 'rows', 0, rootColumn.name])}: the root key is null`,
    );

  const campaignTables = new Map(
    [...tables].filter(([, planned]) => planned.table.role !== 'shared').map(([name, planned]) => [name, planned.info]),
  );
  const withFile = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof TurnkitError) throw new TurnkitError(error.code, `${file}: ${error.message}`);
      throw error;
    }
  };
  const { keys, problems: keyProblems } = planKeys(campaignTables, keep);
  const order = withFile(() => dependencyOrder(new Map([...tables].map(([name, planned]) => [name, planned.info]))));
  return {
    fixture,
    file,
    tables,
    campaignTables,
    keys,
    keyProblems: keyProblems.map((problem) => `${file}: ${problem}`),
    order,
    root: { table: rootInfo.name, column: rootColumn.name, value: rootValue },
    oneStatement: true,
  };
}

/**
 * Refuses a fixture that the game config would not tear down completely: teardown walks the campaign the config
 * describes, so the fixture's root must be the config's root, and every table the fixture owns must be owned
 * under the config too (not excluded, not shared, reachable from the root).
 */
export function checkPlanAgainstGame(plan: SeedPlan, graph: GameGraph): void {
  const where = (path: (string | number)[]): string => `${plan.file}: ${formatJsonPath(path)}`;
  if (plan.root.table !== graph.root.name || plan.root.column !== graph.rootKey.name) {
    throw new TurnkitError(
      'CONFIG',
      `${where(['source', 'root'])}: the fixture's campaigns are "${plan.root.table}".${plan.root.column} but the game config's root is ` +
        `"${graph.root.name}".${graph.rootKey.name}: seed it with the config it was captured with`,
    );
  }
  for (const [name, planned] of plan.tables) {
    if (planned.table.role === 'shared' || graph.owned.has(name)) continue;
    throw new TurnkitError(
      'CONFIG',
      `${where(['tables', planned.fixtureName])}: "${name}" is owned in the fixture but not part of a campaign under the game config ` +
        `(excluded, shared, or not reachable from "${graph.root.name}"), so a teardown would not find its rows`,
    );
  }
}

/** True when any of the tables has a trigger of the game's own (not a foreign key's). */
export async function hasGameTriggers(db: Queryable, tables: Iterable<TableInfo>): Promise<boolean> {
  const result = await db.query(
    `SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE NOT tgisinternal AND tgrelid IN (SELECT to_regclass(x) FROM unnest($1::text[]) AS x)) AS found`,
    [[...tables].map((info) => info.sql)],
  );
  return result.rows[0]?.found === true;
}
