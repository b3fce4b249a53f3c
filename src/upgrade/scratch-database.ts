import pg from 'pg';
import type { Db } from '../db/connect.js';
import { urlForDatabase } from '../db/dump-schema.js';
import { quoteIdent } from '../db/quote.js';
import { redactUrl } from '../db/url.js';
import { scratchDatabaseName } from '../scratch/database/template-database.js';
import { createOwnedDatabase } from '../scratch/database/owned-databases.js';

/** A database of its own where fixtures are rebuilt and migrated; `db.url` is what the game's migrations get. */
export interface UpgradeDatabase {
  db: Db;
  /** Empties it again (every game schema dropped), for the next batch of fixtures. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens an empty database beside the project's, on the same server (the user's, or the embedded one): a migration
 * command in another process reaches it with DATABASE_URL.
 */
export async function openUpgradeDatabase(project: Db): Promise<UpgradeDatabase> {
  const name = scratchDatabaseName('scratch', 'upgrade');
  // Its comment names this process: gc drops it if the process is killed before `close` does.
  await createOwnedDatabase(project.pool, name, 'upgrade');
  const url = urlForDatabase(project.url, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  let closed = false;
  const db: Db = {
    backend: project.backend,
    url,
    displayUrl: redactUrl(url),
    pool,
    embedded: undefined,
    env: project.env,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end().catch(() => {});
      await project.pool.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    },
  };
  return { db, reset: () => dropGameSchemas(pool), close: db.close };
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
