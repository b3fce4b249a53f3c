import type { DatabaseSettings } from '../db/database-settings.js';
import { migrationFiles, migrationsFolder } from '../db/migrate.js';
import { TurnkitError } from '../errors.js';
import type { LoadedConfig } from '../config/load.js';
import type { MigrationState } from '../fixture/capture/migration-state.js';

/**
 * Refuses an upgrade that would run migrations other than the game's: without `game.migrate.command` turnkit runs
 * the config's kysely migrations, which can upgrade only a database they built. `where`: the database as shown.
 */
export async function checkMigrationsTurnkitRuns(
  config: Pick<LoadedConfig, 'game'> & DatabaseSettings,
  live: MigrationState,
  where: string,
): Promise<void> {
  if (config.game.migrate?.command) return;
  const advice = "set game.migrate.command to the game's own migrate command (argv, run with DATABASE_URL set)";
  if (live.tool !== 'kysely')
    throw new TurnkitError(
      'CONFIG',
      `${where} is migrated by ${live.tool} (${live.table}) and game.migrate.command is not set: turnkit runs only kysely migrations itself; ${advice}`,
    );
  const folder = migrationsFolder(config);
  const names = new Set((await migrationFiles(folder).catch(() => [])).map((file) => file.name));
  const foreign = live.applied.filter((name) => !names.has(name));
  if (foreign.length > 0)
    throw new TurnkitError(
      'CONFIG',
      `${where} applied migrations that are not in ${folder} (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''}) and game.migrate.command is not set: ${advice}, or name the folder in migrations`,
    );
}
