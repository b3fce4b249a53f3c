import type pg from 'pg';
import type { Catalog, TableInfo } from '../../db/catalog-types.js';
import { quoteIdent } from '../../db/quote.js';
import type { CollectedRows } from '../../fixture/capture/collect-owned.js';
import { walkCampaignKeys } from '../walk-keys.js';
import { parseTupleKey, unpackKeys } from './key-ranges.js';
import {
  doomedConditions,
  outsideReferenceChecks,
  refuseOnCounts,
  refuseOutsideReferences,
  type DoomedKeys,
} from '../effects/outside-references.js';
import { resolveGameGraph } from '../../fixture/graph/game-graph.js';
import { identityColumns, needsRowAddress, ROW_ADDRESS_SQL } from '../../fixture/graph/row-identity.js';
import { keyAt, tupleOf, whereIn } from '../../fixture/capture/row-query.js';
import { dependencyOrder } from '../dependency-order.js';
import type { RegistryEntry, SharedRowRef } from '../registry.js';
import { removeUnusedSharedRows } from '../shared-rows-cleanup.js';
import { CombinedWriteFailed } from '../combined-write.js';

/** What a teardown removed. */
export interface TeardownReport {
  id: string;
  fixture: string;
  key: string;
  /** Rows deleted per table. */
  deleted: Record<string, number>;
  /** Of those, rows the SUT added (found by walking the campaign, not in the registry). */
  addedBySut: Record<string, number>;
  /** Shared rows turnkit had inserted and deleted now that no scratch campaign uses them. */
  sharedDeleted: number;
  /** Shared rows turnkit had inserted that live rows now reference: left in place. */
  sharedKept: number;
  /** The database dropped (strategy `database`, or a template). */
  droppedDatabase?: string | undefined;
}

/**
 * Deletes a remap scratch campaign inside the caller's transaction (deferrable constraints deferred, its registry
 * entry taken; `sharedUses` are the shared rows turnkit inserted that it relied on): every
 * row the seed inserted and every row the SUT added under the campaign (found by walking its owned subgraph
 * again), children before parents, then shared rows no one uses any more.
 */
export async function teardownRemap(
  client: pg.PoolClient,
  entry: RegistryEntry,
  catalog: Catalog,
  sharedUses: readonly SharedRowRef[],
  /** Delete every table's rows with one statement; a failure then says little, so callers retry table by table. */
  combined = false,
  /** Reads the campaign as the walk found it, whole rows, before anything is deleted (a rep's effects). */
  inspect?: (client: pg.PoolClient, collected: CollectedRows) => Promise<void>,
  /** Refuse on every foreign key into the doomed rows, inside the campaign's tables too (after a delete ran into one). */
  everyKey = false,
): Promise<TeardownReport> {
  const graph = resolveGameGraph({ game: entry.game, file: undefined }, catalog);
  // A campaign row the SUT deleted itself leaves what the registry recorded as all there is to delete.
  const collected = await walkCampaignKeys(client, graph, entry.rootKey, {
    wholeRows: inspect !== undefined,
    emptyWhenGone: true,
  });
  if (inspect) await inspect(client, collected);

  const owned = new Map([...graph.owned].map((name) => [name, catalog.tables.get(name)!]));
  const doomed = new Map<string, DoomedKeys>();
  const addedBySut: Record<string, number> = {};
  // Tables none of whose registered rows the walk missed (the SUT moved none out): see walkCovers.
  const walked = new Set<string>();
  for (const [name, info] of owned) {
    const table = collected.get(name)!;
    const registered = unpackKeys(entry.inserted[name] ?? []);
    const keys = new Map<string, string[]>();
    for (const key of registered) keys.set(key, parseTupleKey(key, table.identity.length));
    const addresses: string[] = [];
    let added = 0;
    let found = 0;
    for (const row of table.rows.values()) {
      if (needsRowAddress(info)) {
        addresses.push(row[info.columns.length]!);
        continue;
      }
      const key = keyAt(row, table.identity)!;
      if (!keys.has(key)) {
        // The walk prints keys as Postgres does; the registry holds what the seed wrote: compare after a cast.
        keys.set(key, tupleOf(row, table.identity)!);
        added++;
      } else found++;
    }
    if (found === registered.length) walked.add(name);
    doomed.set(name, { info, keys: [...keys.values()], addresses });
    if (added > 0) addedBySut[name] = added;
  }

  let deleted: Record<string, number>;
  if (combined) deleted = await deleteAll(client, graph, doomed, entry.id, everyKey, walked);
  else {
    await refuseOutsideReferences(client, graph, doomed, entry.id, everyKey, walked);
    deleted = await deleteTableByTable(client, owned, doomed);
  }
  // Registered keys of rows the SUT deleted itself were counted as nothing deleted; SUT additions are exact.
  for (const name of Object.keys(addedBySut)) addedBySut[name] = Math.min(addedBySut[name]!, deleted[name] ?? 0);

  const shared =
    sharedUses.length > 0 ? await removeUnusedSharedRows(client, sharedUses, catalog) : { deleted: 0, kept: 0 };
  return {
    id: entry.id,
    fixture: entry.fixture,
    key: entry.rootKey,
    deleted,
    addedBySut,
    sharedDeleted: shared.deleted,
    sharedKept: shared.kept,
  };
}

async function deleteTableByTable(
  client: pg.PoolClient,
  owned: ReadonlyMap<string, TableInfo>,
  doomed: ReadonlyMap<string, DoomedKeys>,
): Promise<Record<string, number>> {
  const order = dependencyOrder(owned);
  for (const { table, fk } of order.nulled) {
    const target = doomed.get(table)!;
    const set = fk.columns.map((column) => `${quoteIdent(column)} = NULL`).join(', ');
    await runWhere(client, target, `UPDATE ${target.info.from} AS t SET ${set}`);
  }
  const deleted: Record<string, number> = {};
  for (const name of [...order.order].reverse()) {
    const count = await runWhere(client, doomed.get(name)!, `DELETE FROM ${doomed.get(name)!.info.from} AS t`);
    if (count > 0) deleted[name] = count;
  }
  return deleted;
}

/**
 * Deletes every doomed row with one statement (a data-modifying CTE per table): foreign keys are checked when the
 * statement ends, when children and parents are all gone, so no order and no cycle-breaking is needed. The same
 * statement counts the rows outside the campaign that point into it (its subqueries read the rows as they were
 * before it): when there are any, the teardown refuses and the caller's transaction rolls the delete back. One
 * round trip and one copy of each key list, where a check first and a delete after sent both twice.
 */
async function deleteAll(
  client: pg.PoolClient,
  graph: ReturnType<typeof resolveGameGraph>,
  doomed: ReadonlyMap<string, DoomedKeys>,
  id: string,
  everyKey: boolean,
  walked: ReadonlySet<string>,
): Promise<Record<string, number>> {
  const parts: string[] = [];
  const names: string[] = [];
  const values: unknown[] = [];
  const where = doomedConditions(doomed, values);
  for (const [name, target] of doomed) {
    if (target.keys.length === 0 && target.addresses.length === 0) continue;
    parts.push(`d${parts.length} AS (DELETE FROM ${target.info.from} AS t WHERE ${where.any(name, 't')} RETURNING 1)`);
    names.push(name);
  }
  const { checks, labels } = outsideReferenceChecks(graph, doomed, where, everyKey, walked);
  if (parts.length === 0 && checks.length === 0) return {};
  const counts = names.map((_, i) => `(SELECT count(*) FROM d${i})::int`);
  const text = `${parts.length > 0 ? `WITH ${parts.join(',\n')} ` : ''}SELECT ${[...counts, ...checks].join(', ')}`;
  let row: number[];
  try {
    row = (await client.query({ text, values, rowMode: 'array' })).rows[0] as number[];
  } catch (error) {
    throw new CombinedWriteFailed(error);
  }
  refuseOnCounts(id, labels, row.slice(names.length));
  return Object.fromEntries(names.flatMap((name, i) => (row[i]! > 0 ? [[name, row[i]!]] : [])));
}

async function runWhere(client: pg.PoolClient, target: DoomedKeys, statement: string): Promise<number> {
  let count = 0;
  if (target.keys.length > 0) {
    const values: unknown[] = [];
    const where = whereIn(target.info, identityColumns(target.info), target.keys, values);
    count += (await client.query({ text: `${statement} WHERE ${where}`, values })).rowCount ?? 0;
  }
  if (target.addresses.length > 0) {
    const result = await client.query({
      text: `${statement} WHERE ${ROW_ADDRESS_SQL} = ANY($1::text[])`,
      values: [target.addresses],
    });
    count += result.rowCount ?? 0;
  }
  return count;
}
