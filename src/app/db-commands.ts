import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { chooseDatabaseUrl, embeddedOptions, usingDb } from '../db/connect.js';
import {
  type EmbeddedStatus,
  embeddedStatus,
  openEmbedded,
  runningEmbeddedUrl,
  stopEmbedded,
} from '../db/embedded/embedded-server.js';
import { runSqlFile } from '../db/sql-file/run-sql-file.js';
import { migrate, migrationsFolder, type MigrateResult } from '../db/migrate.js';
import { redactUrl } from '../db/url.js';
import { TurnkitError } from '../errors.js';
import { runMigrationCommand } from '../upgrade/run-migrations.js';
import { commandEnv } from './command-context.js';

/** What `turnkit db start` found or did. */
export interface DbStartResult {
  /** The URL without the server's password. */
  displayUrl: string;
  /** False when it was running already (another command's, or a `db start` before). */
  started: boolean;
}

/**
 * Starts the project's embedded server (or finds it running) and keeps it running after this command, until
 * `turnkit db stop`: for a session of work, or a game started by hand against it.
 */
export async function dbStart(options: CommonOptions): Promise<DbStartResult> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const server = await openEmbedded({ ...embeddedOptions(config), keep: true });
  await server.close();
  // What may be printed: the URL without the server's password.
  return { displayUrl: redactUrl(server.url), started: server.started };
}

/**
 * The URL turnkit connects to: the configured server's, or the embedded server's (started and kept running when it
 * is not, so that the URL printed is ready to use), with the password removed unless `showPassword` asks for the
 * URL a SUT started by hand needs (`DATABASE_URL=$(turnkit db url --show-password)`).
 */
export async function dbUrl(options: CommonOptions, showPassword = false): Promise<{ url: string; started: boolean }> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const url = chooseDatabaseUrl(config, { ...options, env: commandEnv(options) });
  if (url) return { url: showPassword ? url : redactUrl(url), started: false };
  let full = await runningEmbeddedUrl(embeddedOptions(config));
  let started = false;
  if (!full) {
    const server = await openEmbedded({ ...embeddedOptions(config), keep: true });
    await server.close();
    full = server.url;
    started = true;
  }
  return { url: showPassword ? full : redactUrl(full), started };
}

/** What `turnkit db migrate` did: kysely migrations applied, or the game's own command run. */
export type DbMigrateResult = (MigrateResult & { command?: undefined }) | { command: string[]; folder?: undefined };

/**
 * Gives the database the game's schema: the game's own migration command when the config names one
 * (`game.migrate.command`, run with DATABASE_URL set to the database), else the kysely migrations of the project's
 * folder (`migrations`) or the sample game's.
 */
export async function dbMigrate(options: CommonOptions): Promise<DbMigrateResult> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const command = config.game.migrate?.command;
  return usingDb(config, { ...options, env: commandEnv(options) }, async (db) => {
    if (!command) return migrate(db, migrationsFolder(config));
    await runMigrationCommand(db, config, command, `${configName(config)}: game.migrate.command`);
    return { command: [...command] };
  });
}

/** Runs a SQL file (a pg_dump, a game's structure file) in the database, in one transaction, without psql. */
export async function dbLoad(
  options: CommonOptions & { file: string },
): Promise<{ file: string; statements: number; copied: number }> {
  const cwd = options.cwd ?? process.cwd();
  const path = resolve(cwd, options.file);
  const shown = relative(cwd, path) || path;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new TurnkitError('NOT_FOUND', `${shown}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  return usingDb(config, { ...options, env: commandEnv(options) }, async (db) => ({
    file: shown,
    ...(await runSqlFile(db.url, text, shown)),
  }));
}

/** Stops the embedded server (`force`: even while other turnkit commands use it). */
export async function dbStop(
  options: CommonOptions & { force?: boolean | undefined },
): Promise<{ wasRunning: boolean; stopped: boolean; users: number }> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  return stopEmbedded({ ...embeddedOptions(config), force: options.force });
}

/** The embedded server's state (running, pid, port, kept, users), without starting it. */
export async function dbStatus(options: CommonOptions): Promise<EmbeddedStatus & { stateDir: string }> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const embedded = embeddedOptions(config);
  const status = await embeddedStatus(embedded);
  const cwd = options.cwd ?? process.cwd();
  return { ...status, stateDir: relative(cwd, embedded.stateDir) || embedded.stateDir };
}

function configName(config: LoadedConfig): string {
  return config.file ? relative(config.baseDir, config.file) || config.file : 'turnkit.config';
}
