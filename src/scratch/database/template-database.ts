import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../db/connect.js';
import type { Queryable } from '../../db/introspect.js';
import { dumpSchema, urlForDatabase } from '../../db/dump-schema.js';
import { schemaStatements } from '../../fixture/capture/schema-ddl.js';
import { quoteIdent, quoteLiteral } from '../../db/quote.js';
import { describeConnectError } from '../../db/connect.js';
import { TurnkitError } from '../../errors.js';
import type { SeedPlan } from '../seed-plan.js';
import { advanceSequence, writeFixtureRows } from '../write-fixture-rows.js';

/** A name for a database turnkit creates: a prefix that says what it is and random hex (63 bytes at most). */
export function scratchDatabaseName(kind: 'tpl' | 'scratch', hint: string): string {
  return `turnkit_${kind}_${hint.replace(/[^a-z0-9]/g, '').slice(0, 16)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Builds a template database holding the game schema (copied from the connected database: `templateSchema`) and the
 * fixture's rows with their keys unchanged; sequences are moved past the fixture's keys so the SUT's own inserts
 * do not collide. The connection to it is closed afterwards: Postgres clones only a template no one is connected to.
 */
export async function buildTemplate(db: Db, plan: SeedPlan, name: string): Promise<void> {
  const schema = await templateSchema(db);
  // template0 takes any encoding and locale: give the copy the source's, so text sorts and compares the same.
  const source = (
    await db.pool.query(
      `SELECT pg_encoding_to_char(encoding) AS encoding, datcollate, datctype FROM pg_database WHERE datname = current_database()`,
    )
  ).rows[0] as { encoding: string; datcollate: string; datctype: string };
  await db.pool.query(
    `CREATE DATABASE ${quoteIdent(name)} TEMPLATE template0 ENCODING ${quoteLiteral(source.encoding)} ` +
      `LC_COLLATE ${quoteLiteral(source.datcollate)} LC_CTYPE ${quoteLiteral(source.datctype)}`,
  );
  const client = new pg.Client({ connectionString: urlForDatabase(db.url, name) });
  client.on('error', () => {});
  try {
    await client.connect().catch((error: unknown) => {
      throw new TurnkitError(
        'DATABASE',
        `cannot connect to the template database ${name}: ${describeConnectError(error, db.url)}`,
      );
    });
    for (const statement of schema) await client.query(statement);
    // pg_dump's preamble empties search_path; the rows below use qualified names, but the session should be normal.
    await client.query('RESET search_path');
    await client.query('BEGIN');
    await client.query('SET CONSTRAINTS ALL DEFERRED');
    await writeFixtureRows(client, plan, new Map(), async () => {});
    await advanceSequences(client, plan);
    await client.query('COMMIT');
  } catch (error) {
    await client.end().catch(() => {});
    await dropDatabase(db.pool, name).catch(() => {});
    throw error;
  }
  await client.end();
}

/**
 * The game schema's DDL: pg_dump's where a pg_dump that can read this server is on PATH (it knows every kind of
 * object), else turnkit's own reader of the catalog (fixture/capture/schema-ddl.ts, as schema snapshots use): the embedded
 * server ships no pg_dump, and a client older than the server refuses to dump it.
 */
async function templateSchema(db: Db): Promise<string[]> {
  try {
    return [await dumpSchema(db.url, db.env)];
  } catch (error) {
    if (!(error instanceof TurnkitError)) throw error;
    return (await schemaStatements(db.pool)).statements;
  }
}

/** One `ALTER DATABASE ... SET` of the source database (a TimeZone or search_path the game relies on). */
export interface DatabaseSetting {
  name: string;
  value: string;
}

/**
 * The source database's own settings, which Postgres does not copy with a template: read once per template, as
 * they do not change during a run, and given to every clone.
 */
export async function readDatabaseSettings(db: Queryable): Promise<DatabaseSetting[]> {
  const settings = await db.query(
    `SELECT split_part(c, '=', 1) AS name, substr(c, strpos(c, '=') + 1) AS value
     FROM pg_db_role_setting AS s, unnest(s.setconfig) AS c
     WHERE s.setrole = 0 AND s.setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return settings.rows as DatabaseSetting[];
}

/**
 * Creates a database as a copy of the template with the source's settings: one statement when it has none (the
 * usual case), two when it has some (CREATE DATABASE runs alone; the settings go in one string after it).
 */
export async function cloneDatabase(
  db: Queryable,
  template: string,
  name: string,
  settings: readonly DatabaseSetting[],
): Promise<void> {
  await db.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
  if (settings.length === 0) return;
  await db.query(
    settings
      .map(
        (setting) =>
          `ALTER DATABASE ${quoteIdent(name)} SET ${quoteIdent(setting.name)} = ${settingValue(setting.name, setting.value)}`,
      )
      .join(';\n'),
  );
}

/** Settings that hold a list (`search_path = a, b`): each element is its own literal, as pg_dumpall writes them. */
const LIST_SETTINGS = new Set([
  'search_path',
  'temp_tablespaces',
  'local_preload_libraries',
  'session_preload_libraries',
]);

function settingValue(name: string, value: string): string {
  if (!LIST_SETTINGS.has(name.toLowerCase())) return quoteLiteral(value);
  return value
    .split(',')
    .map((element) => quoteLiteral(element.trim()))
    .join(', ');
}

/** Drops a database turnkit created, disconnecting whoever is still connected (the SUT may linger). */
export async function dropDatabase(db: Queryable, name: string): Promise<void> {
  await db.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}

/**
 * Drops a database of a registry entry whose process may have died while it was being created: the server finishes
 * a CREATE DATABASE whose client is gone, and a DROP ... IF EXISTS before that commit would find nothing and leave
 * the database behind for good. So first wait (up to `waitMs`) for any CREATE DATABASE of that name still running.
 * Backends of other roles may hide their query text: then there is nothing to wait for that can be seen.
 */
export async function dropOrphanDatabase(db: Queryable, name: string, waitMs = 60_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const running = await db.query(
      `SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()
         AND query ~* '^\\s*CREATE\\s+DATABASE' AND strpos(query, $1) > 0 LIMIT 1`,
      [quoteIdent(name)],
    );
    if (running.rows.length === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await dropDatabase(db, name);
}

async function advanceSequences(client: pg.Client, plan: SeedPlan): Promise<void> {
  for (const { info } of plan.tables.values())
    for (const column of info.columns)
      await advanceSequence(client, info, column, `SELECT max(${quoteIdent(column.name)})::bigint FROM ${info.from}`);
}
