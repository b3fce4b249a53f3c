import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Migration, MigrationProvider } from 'kysely';
import { TurnkitError } from '../errors.js';
import { importModule } from '../util/import-module.js';
import { PACKAGE_ROOT, RUNS_BUILT } from '../version.js';
import type { DatabaseSettings } from './database-settings.js';
import type { Db } from './connect.js';

/** turnkit's bookkeeping (kysely's migration tables among it) lives here, out of the game's schema. */
const TURNKIT_SCHEMA = 'turnkit';

/**
 * The sample game's migrations shipped with turnkit: compiled to dist/migrations/ when built, the sources under tsx.
 */
export const SAMPLE_MIGRATIONS_DIR = join(PACKAGE_ROOT, RUNS_BUILT ? 'dist' : '', 'migrations');

/** What `migrate` did. */
export interface MigrateResult {
  folder: string;
  applied: string[];
}

/** Loads migration files (.ts through tsx, .js/.mjs natively) from a folder, in name order. */
class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folder: string) {}

  /** Reads the folder's migrations keyed by file name without extension. */
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const { name, file } of await migrationFiles(this.folder)) {
      const module = await importModule(join(this.folder, file));
      if (typeof module.up !== 'function')
        throw new TurnkitError('CONFIG', `${join(this.folder, file)}: a migration must export up(db)`);
      migrations[name] = module as unknown as Migration;
    }
    return migrations;
  }
}

/** A folder's migration files in name order, each with its migration name (the file name without extension). */
export async function migrationFiles(folder: string): Promise<{ name: string; file: string }[]> {
  return (await readdir(folder))
    .filter((file) => /\.(m?js|m?ts)$/.test(file) && !/\.d\.m?ts$/.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.(m?js|m?ts)$/, ''), file }));
}

/** The migrations folder a project uses: its configured one, or the sample game's. */
export function migrationsFolder(config: DatabaseSettings): string {
  return config.migrations ? resolve(config.baseDir, config.migrations) : SAMPLE_MIGRATIONS_DIR;
}

/** Applies every pending migration of the game schema. */
export async function migrate(db: Db, folder: string): Promise<MigrateResult> {
  const { error, results } = await (await folderMigrator(db, folder)).migrateToLatest();
  if (error) throw migrationFailure(folder, error, results);
  return { folder, applied: (results ?? []).map((result) => result.migrationName) };
}

/** Applies the next pending migration of the game schema only; returns its name, or undefined when none is left. */
export async function migrateOneUp(db: Db, folder: string): Promise<string | undefined> {
  const { error, results } = await (await folderMigrator(db, folder)).migrateUp();
  if (error) throw migrationFailure(folder, error, results);
  return results?.[0]?.migrationName;
}

/** kysely's migrator over a folder of migrations, on the Db's pool, keeping its table in turnkit's schema. */
async function folderMigrator(db: Db, folder: string): Promise<import('kysely').Migrator> {
  if (!existsSync(folder)) throw new TurnkitError('CONFIG', `${folder}: migrations folder not found`);
  // kysely (about 1,000 modules) loads only where migrations run. The instance is not destroyed: that would end the
  // pool, which belongs to the Db and closes with it.
  const { Kysely, Migrator, PostgresDialect } = await import('kysely');
  return new Migrator({
    db: new Kysely<any>({ dialect: new PostgresDialect({ pool: db.pool }) }),
    provider: new FolderMigrationProvider(folder),
    migrationTableSchema: TURNKIT_SCHEMA,
  });
}

/** A failed migration as the error to throw: the migration's file and the database's message. */
function migrationFailure(
  folder: string,
  error: unknown,
  results: readonly import('kysely').MigrationResult[] | undefined,
): TurnkitError {
  const failed = results?.find((result) => result.status === 'Error');
  const message = error instanceof Error ? error.message : String(error);
  return new TurnkitError(
    'DATABASE',
    `${failed ? join(folder, failed.migrationName) : folder}: migration failed: ${message}`,
  );
}
