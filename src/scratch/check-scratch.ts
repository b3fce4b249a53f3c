import type { Queryable } from '../db/introspect.js';
import type { Catalog } from '../db/catalog-types.js';
import type { GameConfig } from '../config/schema.js';
import { collectOwned } from '../fixture/capture/collect-owned.js';
import { resolveGameGraph } from '../fixture/graph/game-graph.js';
import { formatJsonPath } from '../util/json/json-source.js';
import { canonical, canonicalRow, fixtureColumns, fixtureValues } from './effects/fixture-values.js';
import { inverseKeyMap } from './remap/remap-rows.js';
import type { SerializedKeyMap } from './remap/seed-remap.js';
import type { SeedPlan } from './seed-plan.js';
import { sharedRowDifferences } from './shared-row-check.js';
import { readSharedRows } from './effects/shared-snapshot.js';

/** How a scratch campaign differs from its fixture once keys are mapped back; empty when they are equal. */
export interface ScratchCheck {
  equal: boolean;
  differences: string[];
}

/**
 * Re-captures a scratch campaign and compares it with its fixture modulo key values: every remapped key is
 * translated back through the seed's key map, then each table's rows must be the same multiset, and every
 * shared row must be present under its key with the fixture's values (scrubbed columns aside).
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
    const columns = planned ? fixtureColumns(planned) : table.info.columns;
    const read = fixtureValues(plan, name, table.info, columns, back);
    const scratch = [...table.rows.values()].map((raw) => canonical(read(raw)));
    const expected =
      planned && planned.table.role !== 'shared' ? planned.table.rows.map((row) => canonicalRow(row, columns)) : [];
    compareMultisets(name, planned?.fixtureName ?? name, expected, scratch, differences);
  }

  // A live shared row keeps its own values where the fixture holds scrubbed ones: those columns cannot agree.
  const scrubbed = scrubbedColumns(plan);
  const live = await readSharedRows(client, plan, scrubbed);
  for (const [name, rows] of live) {
    const planned = plan.tables.get(name)!;
    differences.push(...sharedRowDifferences(planned, rows, fixtureColumns(planned, scrubbed.get(name))));
  }
  return { equal: differences.length === 0, differences };
}

/** The columns a fixture's scrub rules changed, by catalog table name (`users.email`, `t.settings:$.token`). */
function scrubbedColumns(plan: SeedPlan): Map<string, Set<string>> {
  const columns = new Map<string, Set<string>>();
  for (const [target, transform] of Object.entries(plan.fixture.source.scrub?.rules ?? {})) {
    if (transform === 'keep') continue;
    const base = target.split(':$')[0]!;
    for (const [name, planned] of plan.tables) {
      const prefix = `${planned.fixtureName}.`;
      if (!base.startsWith(prefix)) continue;
      const set = columns.get(name) ?? new Set<string>();
      set.add(base.slice(prefix.length));
      columns.set(name, set);
    }
  }
  return columns;
}

function compareMultisets(
  name: string,
  fixtureName: string,
  expected: string[],
  actual: string[],
  differences: string[],
): void {
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
  if (missing.length > 0)
    differences.push(
      `${at}: ${missing.length} fixture row(s) missing or different in the scratch campaign, first ${clip(missing[0]!)}`,
    );
  if (extra.length > 0)
    differences.push(
      `${at}: ${extra.length} row(s) in the scratch campaign "${name}" that the fixture does not hold, first ${clip(extra[0]!)}`,
    );
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
