import type { Queryable } from '../db/introspect.js';
import type { Db } from '../db/connect.js';
import { inTransaction } from '../db/transaction.js';
import type { GameConfig } from '../config/schema.js';
import type { ProcessIdentity } from '../util/process/process-identity.js';
import type { KeyList } from './remap/key-ranges.js';
import { TurnkitError } from '../errors.js';

/** Advisory lock class of turnkit (`tk`): the first half of every advisory lock key it takes; the second names what is locked. */
export const LOCK_CLASS = 0x746b;
/** Serializes creating the registry tables (CREATE TABLE IF NOT EXISTS races with itself). */
const LOCK_REGISTRY_DDL = 1;
/** Seeds take it shared, teardowns that may delete shared rows take it exclusive. */
const LOCK_SHARED_ROWS = 2;

/** Which strategy made a scratch campaign. */
export type StrategyName = 'remap' | 'database';
/** What a registry entry stands for: a scratch campaign, or a template database a run clones them from. */
type EntryKind = StrategyName | 'template';

/** One registry entry: a scratch campaign that exists until its teardown. */
export interface RegistryEntry {
  id: string;
  strategy: EntryKind;
  fixture: string;
  fixtureSha256: string;
  rootTable: string;
  /** The scratch campaign's root key (new under remap, the fixture's own in a database of its own). */
  rootKey: string;
  /** The game config at seed time, so a teardown from another directory (or gc) walks the same tables. */
  game: GameConfig;
  runId: string | null;
  /** The database of its own (strategy `database`). */
  databaseName: string | null;
  /** Null for a campaign seeded by hand (`turnkit seed`): no process owns it, only teardown or gc --all removes it. */
  owner: ProcessIdentity | null;
  createdAt: Date;
  /** New identity tuples inserted per table, as text (JSON arrays for composite keys), integer runs packed. */
  inserted: Record<string, KeyList>;
}

const DDL = `
CREATE SCHEMA IF NOT EXISTS turnkit;
CREATE TABLE IF NOT EXISTS turnkit.scratch_campaigns (
  id text PRIMARY KEY,
  strategy text NOT NULL,
  fixture text NOT NULL,
  fixture_sha256 text NOT NULL,
  root_table text NOT NULL,
  root_key text NOT NULL,
  game jsonb NOT NULL,
  run_id text,
  database_name text,
  owner_pid integer,
  owner_host text,
  owner_started_at timestamptz,
  owner_start_ticks text,
  owner_pid_namespace text,
  created_at timestamptz NOT NULL DEFAULT now(),
  inserted jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS turnkit.scratch_shared_rows (
  table_name text NOT NULL,
  key text NOT NULL,
  PRIMARY KEY (table_name, key)
);
CREATE TABLE IF NOT EXISTS turnkit.scratch_shared_uses (
  scratch_id text NOT NULL REFERENCES turnkit.scratch_campaigns (id) ON DELETE CASCADE,
  table_name text NOT NULL,
  key text NOT NULL,
  PRIMARY KEY (scratch_id, table_name, key)
);
CREATE INDEX IF NOT EXISTS scratch_shared_uses_row ON turnkit.scratch_shared_uses (table_name, key);
-- Registries made before these columns changed.
ALTER TABLE turnkit.scratch_campaigns ADD COLUMN IF NOT EXISTS owner_pid_namespace text;
ALTER TABLE turnkit.scratch_campaigns DROP COLUMN IF EXISTS key_map;
-- A seed's key lists (5,000 cuids are 150 kB) stored as they are: compressing them cost a seed more than the bytes
-- saved, and they are written once and read once. Last, so that registryIsCurrent can look for it.
ALTER TABLE turnkit.scratch_campaigns ALTER COLUMN inserted SET STORAGE EXTERNAL;
-- A SUT shares the game's database (and often its role): its DELETE FROM turnkit.scratch_campaigns would orphan every
-- campaign in flight for good. Only turnkit's own statements, which set turnkit.registry_write in their transaction,
-- may delete or change an entry. Last, so that registryIsCurrent can look for it.
CREATE OR REPLACE FUNCTION turnkit.guard_scratch_campaigns() RETURNS trigger LANGUAGE plpgsql AS $guard$
BEGIN
  IF coalesce(current_setting('turnkit.registry_write', true), '') <> 'on' THEN
    RAISE EXCEPTION 'turnkit.scratch_campaigns is turnkit''s registry of scratch campaigns: only turnkit removes entries (turnkit teardown, turnkit gc)';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$guard$;
DROP TRIGGER IF EXISTS scratch_campaigns_guard ON turnkit.scratch_campaigns;
CREATE TRIGGER scratch_campaigns_guard BEFORE UPDATE OR DELETE ON turnkit.scratch_campaigns
  FOR EACH ROW EXECUTE FUNCTION turnkit.guard_scratch_campaigns();
DROP TRIGGER IF EXISTS scratch_campaigns_guard_truncate ON turnkit.scratch_campaigns;
CREATE TRIGGER scratch_campaigns_guard_truncate BEFORE TRUNCATE ON turnkit.scratch_campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION turnkit.guard_scratch_campaigns();
`;

/**
 * The condition that lets a statement of turnkit's delete registry entries past the guard: it sets
 * turnkit.registry_write for its own transaction before the first row is touched (an InitPlan, run once).
 */
const REGISTRY_WRITE = `(SELECT set_config('turnkit.registry_write', 'on', true)) = 'on'`;

/** Creates the registry tables in the `turnkit` schema when they are missing; safe to call from many processes. */
export async function ensureRegistry(db: Db): Promise<void> {
  if (await registryIsCurrent(db.pool)) return;
  await inTransaction(db, 'BEGIN', async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK_REGISTRY_DDL]);
    // Checked again under the lock: another process may have just made it, and DDL on a registry in use would take
    // locks that deadlock with running teardowns.
    if (await registryIsCurrent(client)) return;
    await client.query(DDL);
  });
}

/** True when the registry exists with its newest change (the guard against a SUT's deletes, the DDL's last step). */
async function registryIsCurrent(db: Queryable): Promise<boolean> {
  const result = await db.query(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_trigger
       WHERE tgrelid = to_regclass('turnkit.scratch_campaigns') AND tgname = 'scratch_campaigns_guard_truncate')
     AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute
       WHERE attrelid = to_regclass('turnkit.scratch_campaigns') AND attname = 'inserted' AND attstorage = 'e') AS present`,
  );
  return result.rows[0]?.present === true;
}

/** Takes the shared-rows lock for the rest of the transaction: `shared` for seeds, exclusive for teardowns. */
export async function lockSharedRows(db: Queryable, mode: 'shared' | 'exclusive'): Promise<void> {
  await db.query(`SELECT ${lockSharedRowsSql(mode)}`);
}

/** The expression that takes the shared-rows lock, to fold into another statement. */
export function lockSharedRowsSql(mode: 'shared' | 'exclusive'): string {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  return `${fn}(${LOCK_CLASS}, ${LOCK_SHARED_ROWS})`;
}

/**
 * Records a scratch campaign (in the seed's own transaction, so both exist or neither does), and in the same
 * statement which of the shared rows it relies on turnkit inserted (`sharedKeys`: table to primary keys).
 */
export async function insertEntry(
  db: Queryable,
  entry: Omit<RegistryEntry, 'createdAt'>,
  sharedKeys: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<void> {
  const tables = [...sharedKeys].flatMap(([table, keys]) => keys.map(() => table));
  const keys = [...sharedKeys.values()].flat();
  await db.query(
    `WITH entry AS (
       INSERT INTO turnkit.scratch_campaigns (id, strategy, fixture, fixture_sha256, root_table, root_key, game, run_id, database_name,
         owner_pid, owner_host, owner_started_at, owner_start_ticks, owner_pid_namespace, inserted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id)
     INSERT INTO turnkit.scratch_shared_uses (scratch_id, table_name, key)
     SELECT entry.id, s.table_name, s.key FROM entry, turnkit.scratch_shared_rows AS s
     WHERE (s.table_name, s.key) IN (SELECT * FROM unnest($16::text[], $17::text[]))`,
    [
      entry.id,
      entry.strategy,
      entry.fixture,
      entry.fixtureSha256,
      entry.rootTable,
      entry.rootKey,
      JSON.stringify(entry.game),
      entry.runId,
      entry.databaseName,
      entry.owner?.pid ?? null,
      entry.owner?.host ?? null,
      entry.owner?.startedAt ?? null,
      entry.owner?.startTicks ?? null,
      entry.owner?.pidNamespace ?? null,
      JSON.stringify(entry.inserted),
      tables,
      keys,
    ],
  );
}

/** Every registered scratch campaign, oldest first, without the (large) key lists. */
export async function listEntries(db: Queryable): Promise<RegistryEntry[]> {
  return (await db.query(`${SELECT_SUMMARIES} ORDER BY created_at, id`)).rows.map(toEntry);
}

/** A shared row turnkit inserted, named by table and primary key text. */
export interface SharedRowRef {
  table: string;
  key: string;
}

/**
 * Removes a remap campaign's entry and returns it with the shared rows it used, in one statement inside the
 * teardown's transaction: the delete locks the entry (a second teardown of the same campaign waits, then finds
 * nothing), and a rollback puts it back.
 */
export async function takeRemapEntry(
  db: Queryable,
  id: string,
): Promise<(RegistryEntry & { sharedUses: SharedRowRef[] }) | undefined> {
  const result = await db.query(
    `DELETE FROM turnkit.scratch_campaigns AS c WHERE id = $1 AND strategy = 'remap' AND ${REGISTRY_WRITE}
     RETURNING ${SUMMARY_COLUMNS}, inserted,
       ARRAY(SELECT json_build_array(u.table_name, u.key)::text FROM turnkit.scratch_shared_uses AS u WHERE u.scratch_id = c.id) AS shared_uses`,
    [id],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  const uses = (row.shared_uses as string[]).map((text) => JSON.parse(text) as [string, string]);
  return { ...toEntry(row), sharedUses: uses.map(([table, key]) => ({ table, key })) };
}

/** Registry ids of entries named by id, or of remap campaigns named by their root key. */
export async function findEntryIds(db: Queryable, idOrKey: string): Promise<string[]> {
  const result = await db.query(
    `SELECT id FROM turnkit.scratch_campaigns WHERE id = $1 OR (strategy = 'remap' AND root_key = $1) ORDER BY id`,
    [idOrKey],
  );
  return result.rows.map((row) => row.id as string);
}

/** The error for a campaign `asked` for (by id or key) that the registry does not hold. */
export function notInRegistry(asked: string): TurnkitError {
  return new TurnkitError('NOT_FOUND', `no scratch campaign "${asked}" in the registry (torn down already?)`);
}

/** One entry by id, without its key lists. */
export async function getEntry(db: Queryable, id: string): Promise<RegistryEntry | undefined> {
  return (await db.query(`${SELECT_SUMMARIES} WHERE id = $1`, [id])).rows.map(toEntry)[0];
}

/** Removes an entry (its shared-row uses go with it). */
export async function deleteEntry(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM turnkit.scratch_campaigns WHERE id = $1 AND ${REGISTRY_WRITE}`, [id]);
}

/** Records shared rows a seed inserted (they were absent): turnkit deletes them again when no one uses them. */
export async function recordSharedRows(db: Queryable, table: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(
    `INSERT INTO turnkit.scratch_shared_rows (table_name, key) SELECT $1, k FROM unnest($2::text[]) AS k ON CONFLICT DO NOTHING`,
    [table, keys],
  );
}

/** Of the given shared rows, those no scratch campaign uses any more: candidates to delete. */
export async function unusedSharedRows(db: Queryable, rows: readonly SharedRowRef[]): Promise<SharedRowRef[]> {
  if (rows.length === 0) return [];
  const result = await db.query(
    `SELECT r.table_name, r.key FROM unnest($1::text[], $2::text[]) AS r(table_name, key)
     WHERE NOT EXISTS (SELECT 1 FROM turnkit.scratch_shared_uses AS u WHERE u.table_name = r.table_name AND u.key = r.key)
     ORDER BY 1, 2`,
    [rows.map((row) => row.table), rows.map((row) => row.key)],
  );
  return result.rows.map((row) => ({ table: row.table_name as string, key: row.key as string }));
}

/** Forgets a shared row turnkit inserted (deleted now, or adopted by the live game). */
export async function forgetSharedRow(db: Queryable, table: string, key: string): Promise<void> {
  await db.query('DELETE FROM turnkit.scratch_shared_rows WHERE table_name = $1 AND key = $2', [table, key]);
}

const SUMMARY_COLUMNS = `id, strategy, fixture, fixture_sha256, root_table, root_key, game, run_id, database_name,
  owner_pid, owner_host, owner_started_at, owner_start_ticks, owner_pid_namespace, created_at`;

/** Entries without their (large) key lists. */
const SELECT_SUMMARIES = `SELECT ${SUMMARY_COLUMNS}, '{}'::jsonb AS inserted FROM turnkit.scratch_campaigns`;

function toEntry(row: Record<string, any>): RegistryEntry {
  return {
    id: row.id,
    strategy: row.strategy,
    fixture: row.fixture,
    fixtureSha256: row.fixture_sha256,
    rootTable: row.root_table,
    rootKey: row.root_key,
    game: row.game,
    runId: row.run_id,
    databaseName: row.database_name,
    owner:
      row.owner_pid === null
        ? null
        : {
            pid: row.owner_pid,
            host: row.owner_host,
            startedAt: new Date(row.owner_started_at),
            startTicks: row.owner_start_ticks,
            pidNamespace: row.owner_pid_namespace,
          },
    createdAt: new Date(row.created_at),
    inserted: row.inserted,
  };
}
