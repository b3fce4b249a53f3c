import { relative } from 'node:path';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig } from '../config/load.js';
import { TurnkitError } from '../errors.js';
import { chooseDatabaseUrl, embeddedDataDir, usingDb } from '../db/connect.js';
import { embeddedUrl, openEmbedded, type EmbeddedServer } from '../db/embedded.js';
import { migrate, migrationsFolder, type MigrateResult } from '../db/migrate.js';
import { lockOwnerAlive, lockPathFor, readLock } from '../db/server-lock.js';
import { readServerPassword } from '../db/server-password.js';
import { redactUrl } from '../db/url.js';
import { commandEnv } from './command-context.js';

/** Starts the embedded server (or finds the one another turnkit process runs) for `turnkit db start`. */
export async function dbStart(options: CommonOptions): Promise<EmbeddedServer & { displayUrl: string }> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const server = await openEmbedded({ dataDir: embeddedDataDir(config), port: config.database.embedded.port });
  // What may be printed: the URL without the server's password.
  return Object.assign(server, { displayUrl: redactUrl(server.url) });
}

/**
 * The URL turnkit connects to: the running embedded server's, or the configured server's, with the password removed
 * unless `showPassword` asks for the URL a SUT started by hand needs (`DATABASE_URL=$(turnkit db url --show-password)`).
 */
export async function dbUrl(options: CommonOptions, showPassword = false): Promise<string> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const url = chooseDatabaseUrl(config, { ...options, env: commandEnv(options) });
  if (url) return showPassword ? url : redactUrl(url);
  const dataDir = embeddedDataDir(config);
  const lock = await readLock(lockPathFor(dataDir));
  if (!lock || !lockOwnerAlive(lock) || !lock.port) {
    throw new TurnkitError(
      'NOT_FOUND',
      `no embedded database is running for ${relative(process.cwd(), dataDir) || dataDir} (start one with: turnkit db start)`,
    );
  }
  const full = embeddedUrl(lock.port, await readServerPassword(dataDir));
  return showPassword ? full : redactUrl(full);
}

/** Applies the game's migrations (the project's folder, or the sample game's). */
export async function dbMigrate(options: CommonOptions): Promise<MigrateResult> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  return usingDb(config, { ...options, env: commandEnv(options) }, (db) => migrate(db, migrationsFolder(config)));
}

/** Asks the process that runs the embedded server to stop, and waits until it has closed the data directory. */
export async function dbStop(options: CommonOptions): Promise<{ pid: number } | undefined> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const lockPath = lockPathFor(embeddedDataDir(config));
  const lock = await readLock(lockPath);
  if (!lock || !lockOwnerAlive(lock)) return undefined;
  process.kill(lock.pid, 'SIGTERM');
  for (let waited = 0; waited < 15_000; waited += 100) {
    const current = await readLock(lockPath);
    if (!current || current.pid !== lock.pid || !lockOwnerAlive(lock)) return { pid: lock.pid };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new TurnkitError('DATABASE', `process ${lock.pid} did not stop within 15 s`);
}
