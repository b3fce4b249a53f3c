import { isAbsolute, resolve } from 'node:path';
import pg from 'pg';
import { TurnkitError } from '../errors.js';
import type { DatabaseSettings } from './database-settings.js';
import type { EmbeddedOptions, EmbeddedServer } from './embedded/embedded-server.js';
import { redactUrl, scrubSecret } from './url.js';

/** Which kind of database a connection reaches. */
export type Backend = 'embedded' | 'postgres';

/** An open connection to the game database (a server of the user's or the embedded one: one code path, pg). */
export interface Db {
  backend: Backend;
  /** Full connection URL; may hold a password: never print it, use `displayUrl`. */
  url: string;
  /** The URL with any password removed. */
  displayUrl: string;
  pool: pg.Pool;
  /** The embedded server this connection keeps open, when backend is embedded (closed with the connection). */
  embedded: EmbeddedServer | undefined;
  /** The environment of the programs db/ runs (pg_dump): the opener's (the command line's), else none. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  close(): Promise<void>;
}

/** How to choose and reach the database. */
export interface OpenDbOptions {
  /** `--database-url`; wins over DATABASE_URL and the config. */
  databaseUrl?: string | undefined;
  /** Connections in turnkit's pool (default 4). */
  poolSize?: number | undefined;
  /** Use the embedded database whatever `--database-url`, DATABASE_URL or the config say (`turnkit demo`). */
  embedded?: boolean | undefined;
  /** Consult DATABASE_URL (default true, when `env` is given); a library caller passes its URL explicitly instead. */
  fromEnvironment?: boolean | undefined;
  /** The environment whose DATABASE_URL is consulted (the CLI passes the process's; db/ never reads it itself). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The uid turnkit runs as (the CLI passes the process's): as root the embedded server runs as another account. */
  uid?: number | undefined;
}

/** The real-Postgres URL to use, or undefined for the embedded database (flag, then DATABASE_URL, then config). */
export function chooseDatabaseUrl(config: DatabaseSettings, options: OpenDbOptions = {}): string | undefined {
  if (options.embedded) return undefined;
  const fromEnvironment = options.fromEnvironment === false ? undefined : options.env?.DATABASE_URL;
  return options.databaseUrl || fromEnvironment || config.database.url || undefined;
}

/** Absolute path of the embedded server's state folder (its data directory, password and users). */
export function embeddedDataDir(config: DatabaseSettings): string {
  const dir = config.database.embedded.dataDir;
  return isAbsolute(dir) ? dir : resolve(config.baseDir, dir);
}

/** The embedded server's options for a project. */
export function embeddedOptions(config: DatabaseSettings, options: Pick<OpenDbOptions, 'uid'> = {}): EmbeddedOptions {
  return { stateDir: embeddedDataDir(config), port: config.database.embedded.port, uid: options.uid ?? currentUid() };
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
  // Loaded only here: a run against the user's server never starts the embedded one.
  const { openEmbedded } = await import('./embedded/embedded-server.js');
  const embedded = await openEmbedded(embeddedOptions(config, options));
  try {
    return withEnv(await connectPool(embedded.url, 'embedded', embedded, options.poolSize), options.env);
  } catch (error) {
    await embedded.close().catch(() => {});
    throw error;
  }
}

function withEnv(db: Db, env: OpenDbOptions['env']): Db {
  if (env !== undefined) db.env = env;
  return db;
}

// The uid decides who runs the embedded server; reading it touches nothing of the process.
function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
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
  // Idle clients never keep the process alive (a library caller that forgets close() still exits).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
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

/**
 * Whether the server goes away once this connection closes: an embedded server this process's commands alone use,
 * not kept by `turnkit db start` (a URL printed for a game to use is then good only while the command runs).
 */
export function serverStopsOnClose(db: Pick<Db, 'embedded'>): boolean {
  return db.embedded !== undefined && !db.embedded.kept;
}

/** A one-line, secret-free description of a connection failure. */
export function describeConnectError(error: unknown, url: string): string {
  const err = error as NodeJS.ErrnoException & { errors?: unknown[] };
  const message = err?.message || (err?.errors?.[0] as Error | undefined)?.message || err?.code || String(error);
  return scrubSecret(message.split('\n')[0] ?? '', url);
}
