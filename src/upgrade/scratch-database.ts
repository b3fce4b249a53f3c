import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { canCreateDatabases } from '../db/backend-traits.js';
import type { Db } from '../db/connect.js';
import { urlForDatabase } from '../db/dump-schema.js';
import { embeddedUrl } from '../db/embedded.js';
import { openPglite } from '../db/pglite-open.js';
import { serveGated } from '../db/gated-socket.js';
import { quoteIdent } from '../db/quote.js';
import { redactUrl } from '../db/url.js';
import { scratchDatabaseName } from '../scratch/template-database.js';

/** A database of its own where fixtures are rebuilt and migrated; `db.url` is what the game's migrations get. */
export interface UpgradeDatabase {
  db: Db;
  /** Empties it again (every game schema dropped), for the next batch of fixtures. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens an empty database beside the project's: a new database on the user's server, or an in-memory embedded
 * one served on 127.0.0.1 (so that a migration command in another process reaches it with DATABASE_URL).
 */
export async function openUpgradeDatabase(project: Db): Promise<UpgradeDatabase> {
  return canCreateDatabases(project) ? onServer(project) : inMemory(project);
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
  return { db, reset: () => dropGameSchemas(pool), close: db.close };
}

async function inMemory(project: Db): Promise<UpgradeDatabase> {
  const pglite = await openPglite('memory://');
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
  return { db, reset: () => dropGameSchemas(pool), close: db.close };
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
