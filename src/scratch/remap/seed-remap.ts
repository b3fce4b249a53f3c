import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { GameConfig } from '../../config/schema.js';
import { identityColumns } from '../../fixture/graph/row-identity.js';
import { tupleKey } from '../../fixture/capture/row-query.js';
import { allocateKeys, keyLockSql } from './allocate-keys.js';
import { buildKeyMap, type KeyMap, type TextRow } from './remap-rows.js';
import { writeFixtureRows } from '../write-fixture-rows.js';
import { CombinedWriteFailed } from '../combined-write.js';
import { packKeys, type KeyList } from './key-ranges.js';
import { insertEntry, LOCK_CLASS, lockSharedRowsSql, recordSharedRows, type RegistryEntry } from '../registry.js';
import type { ProcessIdentity } from '../../util/process/process-identity.js';
import type { SeedPlan } from '../seed-plan.js';
import { TurnkitError } from '../../errors.js';
import { scratchBegin } from '../scratch-begin.js';
import { inScratchTransaction } from '../scratch-transaction.js';

/** Who a seed is for: recorded in the registry. */
export interface SeedOwner {
  game: GameConfig;
  runId: string | null;
  /** Null for a campaign seeded by hand that outlives its process. */
  owner: ProcessIdentity | null;
  fixtureSha256: string;
}

/** A new registry id: short, unique, and recognisable in `gc` reports. */
export function newScratchId(): string {
  return `scratch-${randomBytes(6).toString('hex')}`;
}

/**
 * Seeds a fixture as a new campaign in the same database, under new keys, in one transaction together with its
 * registry entry: either the whole campaign and its entry exist afterwards, or neither does.
 */
export async function seedRemap(
  db: Db,
  plan: SeedPlan,
  who: SeedOwner,
): Promise<{ entry: RegistryEntry; keyMap: SerializedKeyMap }> {
  // Checked here, not when the plan is made: a database of its own per rep copies any key as it is.
  if (plan.keyProblems.length > 0) throw new TurnkitError('FIXTURE', plan.keyProblems[0]!, plan.keyProblems);
  try {
    return await seedRemapOnce(db, plan, who, plan.oneStatement);
  } catch (error) {
    if (!(error instanceof CombinedWriteFailed)) throw error;
    // The statement was refused (a conflict, a trigger): it rolled back, and written table by table the same failure
    // names its table and row. A lost connection is reported as it is.
    if (error.refused) return seedRemapOnce(db, plan, who, false);
    const cause = error.cause as { message?: string; code?: string };
    throw new TurnkitError(
      'DATABASE',
      `${plan.file}: $.tables: seeding: ${cause.message ?? String(cause)}${cause.code ? ` [SQLSTATE ${cause.code}]` : ''}`,
    );
  }
}

async function seedRemapOnce(
  db: Db,
  plan: SeedPlan,
  who: SeedOwner,
  combined: boolean,
): Promise<{ entry: RegistryEntry; keyMap: SerializedKeyMap }> {
  const id = newScratchId();
  // Deferrable cycle edges (campaign -> current location -> campaign) are checked at commit.
  // Keys read from the live rows (a range above the maximum, short codes) are locked in the BEGIN's batch: the
  // allocation's own snapshot, taken after, then sees every seed that held the lock before.
  const begin = scratchBegin([
    ...(plan.order.deferred.length > 0 ? ['SET CONSTRAINTS ALL DEFERRED'] : []),
    ...keyLockSql(plan.keys, plan.campaignTables, LOCK_CLASS),
  ]);
  return inScratchTransaction(db, begin, async (client) => {
    const sharedTables = [...plan.tables.values()].filter(
      (planned) => planned.table.role === 'shared' || (planned.table.sharedRows?.length ?? 0) > 0,
    );

    const rowsOf = (name: string) => plan.tables.get(name)!.table.rows;
    // The shared-rows lock rides along with the key allocation: one round trip less per rep.
    const lock = sharedTables.length > 0 ? lockSharedRowsSql('shared') : undefined;
    const allocations = await allocateKeys(client, plan.keys, plan.campaignTables, { rowsOf, seed: id }, lock);
    const keyMap = buildKeyMap(plan.keys, plan.campaignTables, rowsOf, allocations);

    const { written, sharedKeys } = await writeFixtureRows(
      client,
      plan,
      keyMap,
      (table, keys) => recordSharedRows(client, table, keys),
      combined,
    );

    const entry: Omit<RegistryEntry, 'createdAt'> = {
      id,
      strategy: 'remap',
      fixture: plan.fixture.name,
      fixtureSha256: who.fixtureSha256,
      rootTable: plan.root.table,
      rootKey: keyMap.get(plan.root.table)!.get(plan.root.column)!.get(plan.root.value)!,
      game: who.game,
      runId: who.runId,
      databaseName: null,
      owner: who.owner,
      inserted: insertedKeys(plan, written),
    };
    await insertEntry(client, entry, sharedKeys);
    return { entry: { ...entry, createdAt: new Date() }, keyMap: serializeKeyMap(keyMap) };
  });
}

function insertedKeys(plan: SeedPlan, written: ReadonlyMap<string, TextRow[]>): Record<string, KeyList> {
  const inserted: Record<string, KeyList> = {};
  for (const [name, rows] of written) {
    const planned = plan.tables.get(name)!;
    const identity = identityColumns(planned.info);
    const indexes = identity.map((column) => planned.columns.findIndex((candidate) => candidate.name === column));
    // Rows without identity (or keyed by a generated column) are found again by walking the campaign.
    if (indexes.length === 0 || indexes.includes(-1)) continue;
    inserted[name] = packKeys(rows.map((row) => tupleKey(indexes.map((index) => row[index]))));
  }
  return inserted;
}

/** Old key value to new, per table and allocated column, as [old, new] pairs (JSON-friendly). */
export type SerializedKeyMap = Record<string, Record<string, [string, string][]>>;

function serializeKeyMap(keyMap: KeyMap): SerializedKeyMap {
  const out: SerializedKeyMap = {};
  for (const [table, columns] of keyMap) {
    if (columns.size === 0) continue;
    out[table] = Object.fromEntries([...columns].map(([column, map]) => [column, [...map]]));
  }
  return out;
}
