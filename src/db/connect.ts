import { isAbsolute, resolve } from 'node:path';
import pg from 'pg';
import { TurnkitError } from '../errors.js';
import type { DatabaseSettings } from './database-settings.js';
import { openEmbedded, type EmbeddedOptions, type EmbeddedServer } from './embedded.js';
import { templateArchive, type PgdataTemplateKind } from './pgdata-template.js';
import { redactUrl, scrubSecret } from './url.js';

/** Which kind of database a connection reaches. */
export type Backend = 'embedded' | 'postgres';

/** An open connection to the game database (real or embedded, one code path: pg through a socket). */
export interface Db {
  backend: Backend;
  /** Full connection URL; may hold a password: never print it, use `displayUrl`. */
  url: string;
  /** The URL with any password removed. */
  displayUrl: string;
  pool: pg.Pool;
  /** The embedded server when backend is embedded. */
  embedded: EmbeddedServer | undefined;
  /** The environment of the programs db/ runs (pg_dump): the opener's (the command line's), else none. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  close(): Promise<void>;
}

/** How to choose and reach the database. */
export interface OpenDbOptions {
  /** `--database-url`; wins over DATABASE_URL and the config. */
  databaseUrl?: string | undefined;
  /** Connections to a real server (default 4; the embedded database always has one). */
  poolSize?: number | undefined;
  /** Use the embedded database whatever `--database-url`, DATABASE_URL or the config say (`turnkit demo`). */
  embedded?: boolean | undefined;
  /** The caller handles SIGINT/SIGTERM and closes the database itself (a run that stops gracefully). */
  leaveSignals?: boolean | undefined;
  /** Consult DATABASE_URL (default true, when `env` is given); a library caller passes its URL explicitly instead. */
  fromEnvironment?: boolean | undefined;
  /** The environment whose DATABASE_URL is consulted (the CLI passes the process's; db/ never reads it itself). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * What a new embedded data directory starts from (default `empty`); `sample` has the sample game's schema
   * migrated already, for data directories that hold the sample game only (`turnkit demo`, tests).
   */
  template?: PgdataTemplateKind | undefined;
  /** When this process starts the embedded server: load PGlite's contrib extensions (default true; embedded.ts). */
  extensions?: boolean | undefined;
  /** Hears, as this process closes the embedded server it owns, how many other connections it waits for first. */
  onGuests?: ((connections: number) => void) | undefined;
}

/** The real-Postgres URL to use, or undefined for the embedded database (flag, then DATABASE_URL, then config). */
export function chooseDatabaseUrl(config: DatabaseSettings, options: OpenDbOptions = {}): string | undefined {
  if (options.embedded) return undefined;
  const fromEnvironment = options.fromEnvironment === false ? undefined : options.env?.DATABASE_URL;
  return options.databaseUrl || fromEnvironment || config.database.url || undefined;
}

/** Absolute path of the embedded data directory. */
export function embeddedDataDir(config: DatabaseSettings): string {
  const dir = config.database.embedded.dataDir;
  return isAbsolute(dir) ? dir : resolve(config.baseDir, dir);
}

/** Connects to the configured database, starting the embedded one when no URL is given. */
export async function openDb(config: DatabaseSettings, options: OpenDbOptions = {}): Promise<Db> {
  const url = chooseDatabaseUrl(config, options);
  if (url && !/^postgres(ql)?:\/\//.test(url)) {
    // A libpq "host=... password=..." string would be misread as a socket path; never echo it, it may hold a secret.
    throw new TurnkitError(
      'BAD_INPUT',
      'the database URL must start with postgres:// or postgresql:// (key=value connection strings are not supported)',
    );
  }
  if (url) return withEnv(await connectPool(url, 'postgres', undefined, options.poolSize), options.env);
  return withEnv(
    await connectEmbedded({
      dataDir: embeddedDataDir(config),
      port: config.database.embedded.port,
      handleSignals: !options.leaveSignals,
      // A project with migrations of its own is not the sample game, whatever it asks for.
      template: templateArchive(config.migrations ? 'empty' : (options.template ?? 'empty')),
      extensions: options.extensions,
      onGuests: options.onGuests,
    }),
    options.env,
  );
}

function withEnv(db: Db, env: OpenDbOptions['env']): Db {
  if (env !== undefined) db.env = env;
  return db;
}

/** Opens (or joins) the embedded database at a data directory and connects turnkit's one-connection pool to it. */
export async function connectEmbedded(options: EmbeddedOptions): Promise<Db> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const embedded = await openEmbedded(options);
    try {
      return await connectPool(embedded.url, 'embedded', embedded);
    } catch (error) {
      await embedded.close();
      // A guest that found the owner's port just as the owner closed: the lock goes next, and this process may
      // take it. An owner that cannot connect to itself has a real problem.
      if (embedded.owner || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs `fn` with an open database and closes it afterwards, whatever happens. */
export async function usingDb<T>(
  config: DatabaseSettings,
  options: OpenDbOptions,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  const db = await openDb(config, options);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function connectPool(
  url: string,
  backend: Backend,
  embedded: EmbeddedServer | undefined,
  poolSize = 4,
): Promise<Db> {
  const displayUrl = redactUrl(url);
  // pglite-socket serializes everything and blocks on open transactions: one connection avoids self-deadlock. Kept
  // open while idle (a SUT may think for a minute): the embedded server's owner stays up while a guest's connection is
  // open, and a guest whose idle connection closed could see it go; idle clients never keep the process alive.
  const single = backend === 'embedded';
  const idle = single ? { idleTimeoutMillis: 0, allowExitOnIdle: true } : {};
  // The owner of the embedded server reaches it in memory; its SUTs (and guests) still connect to `url`.
  const inProcess = embedded?.connectInProcess;
  const pool = new pg.Pool({
    connectionString: url,
    max: single ? 1 : poolSize,
    connectionTimeoutMillis: 10_000,
    ...idle,
    ...(inProcess ? { stream: inProcess } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new TurnkitError('DATABASE', `cannot connect to ${displayUrl}: ${describeConnectError(error, url)}`);
  }
  let closed = false;
  return {
    backend,
    url,
    displayUrl,
    pool,
    embedded,
    async close() {
      if (closed) return;
      closed = true;
      if (!pool.ended) await pool.end().catch(() => {});
      await embedded?.close();
    },
  };
}

/** A one-line, secret-free description of a connection failure. */
export function describeConnectError(error: unknown, url: string): string {
  const err = error as NodeJS.ErrnoException & { errors?: unknown[] };
  const message = err?.message || (err?.errors?.[0] as Error | undefined)?.message || err?.code || String(error);
  return scrubSecret(message.split('\n')[0] ?? '', url);
}
