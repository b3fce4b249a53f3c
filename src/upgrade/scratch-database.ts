import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { canCreateDatabases } from '../db/backend-traits.js';
import type { Db } from '../db/connect.js';
import { urlForDatabase } from '../db/dump-schema.js';
import { embeddedUrl } from '../db/embedded.js';
import { openPglite } from '../db/pglite-open.js';
import { templateArchive } from '../db/pgdata-template.js';
import { serveGated } from '../db/gated-socket.js';
import { quoteIdent } from '../db/quote.js';
import type { SchemaSnapshot } from '../fixture/schema-snapshot.js';
import { redactUrl } from '../db/url.js';
import { scratchDatabaseName } from '../scratch/template-database.js';

/** A database of its own where fixtures are rebuilt and migrated; `db.url` is what the game's migrations get. */
export interface UpgradeDatabase {
  db: Db;
  /** Empties it again (every game schema dropped), for the next batch of fixtures. */
  reset(): Promise<void>;
  close(): Promise<void>;
  /**
   * How it was made: a database on the server, or an embedded one from the shipped empty data directory
   * (`template`) or PGlite's initdb (`initdb`, when no template fits this PGlite), with or without the contrib
   * extensions linked.
   */
  made: { how: 'server' } | { how: 'template' | 'pglite-initdb'; extensions: boolean };
}

/** How to open the upgrade database. */
export interface UpgradeDatabaseOptions {
  /**
   * Link PGlite's contrib extensions into an embedded one (default true). Only false when nothing it will run can
   * create an extension: linking them is a fifth of its start.
   */
  extensions?: boolean | undefined;
  /** The embedded data directory archive to start from (default: the shipped `empty` one, when it fits); false: initdb. */
  template?: string | false | undefined;
}

/**
 * Opens an empty database beside the project's: a new database on the user's server, or an in-memory embedded
 * one served on 127.0.0.1 (so that a migration command in another process reaches it with DATABASE_URL).
 */
export async function openUpgradeDatabase(project: Db, options: UpgradeDatabaseOptions = {}): Promise<UpgradeDatabase> {
  return canCreateDatabases(project) ? onServer(project) : inMemory(project, options);
}

async function onServer(project: Db): Promise<UpgradeDatabase> {
  const name = scratchDatabaseName('scratch', 'upgrade');
  await project.pool.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE template0`);
  const url = urlForDatabase(project.url, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  const db = dbOf('postgres', url, pool, project.env, async () => {
    await pool.end().catch(() => {});
    await project.pool.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
  return { db, reset: () => dropGameSchemas(pool), close: db.close, made: { how: 'server' } };
}

async function inMemory(project: Db, options: UpgradeDatabaseOptions): Promise<UpgradeDatabase> {
  // From the shipped initdb'd data directory rather than PGlite's initdb: about a third of the time (1.0 s against
  // 2.4-3.1 s here, 4 s against 12 s on a loaded machine), which every upgrade on the embedded database paid.
  const template = options.template === false ? undefined : (options.template ?? templateArchive('empty'));
  const extensions = options.extensions !== false;
  const pglite = await openPglite('memory://', {
    extensions,
    loadDataDir: template ? await readFile(template) : undefined,
  });
  // Served as the project's embedded database is (behind the password gate), with a password of its own that lives
  // only in this process: no other local user reaches the fixtures rebuilt here.
  const password = randomBytes(24).toString('base64url');
  const served = await serveGated(pglite, { port: 0, password, maxConnections: 16 });
  const url = embeddedUrl(served.port, password);
  // One connection, as for the project's embedded database: the socket serializes everything anyway.
  const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0, allowExitOnIdle: true });
  pool.on('error', () => {});
  const db = dbOf('embedded', url, pool, project.env, async () => {
    await pool.end().catch(() => {});
    await served.stop().catch(() => {});
    await pglite.close().catch(() => {});
  });
  return {
    db,
    reset: () => dropGameSchemas(pool),
    close: db.close,
    made: { how: template ? 'template' : 'pglite-initdb', extensions },
  };
}

function dbOf(backend: Db['backend'], url: string, pool: pg.Pool, env: Db['env'], end: () => Promise<void>): Db {
  let closed = false;
  return {
    backend,
    url,
    displayUrl: redactUrl(url),
    pool,
    embedded: undefined,
    env,
    async close() {
      if (closed) return;
      closed = true;
      await end();
    },
  };
}

// Everything a rebuild created: the user schemas (public made again, empty) and turnkit's, where kysely keeps books.
async function dropGameSchemas(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query(
    `SELECT nspname::text AS name FROM pg_namespace
     WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg\\_%'`,
  );
  for (const { name } of rows as { name: string }[]) await pool.query(`DROP SCHEMA ${quoteIdent(name)} CASCADE`);
  await pool.query('CREATE SCHEMA public');
}

/**
 * Whether an embedded upgrade database must link the contrib extensions: when a snapshot it rebuilds creates one,
 * or the project's database has one (the pending migrations, which brought it there, may create it). plpgsql is
 * always there.
 */
export async function extensionsNeeded(project: Db, snapshots: Iterable<SchemaSnapshot>): Promise<boolean> {
  for (const snapshot of snapshots)
    if (snapshot.statements.some((statement) => /^\s*CREATE\s+EXTENSION\b/i.test(statement))) return true;
  const { rows } = await project.pool.query(`SELECT 1 FROM pg_extension WHERE extname <> 'plpgsql' LIMIT 1`);
  return rows.length > 0;
}
