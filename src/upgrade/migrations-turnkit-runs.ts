import type { DatabaseSettings } from '../db/database-settings.js';
import { migrationFiles, migrationsFolder } from '../db/migrate.js';
import { TurnkitError } from '../errors.js';
import type { LoadedConfig } from '../config/load.js';
import type { MigrationState } from '../fixture/capture/migration-state.js';

/**
 * Refuses an upgrade that would run migrations other than the game's: with no `game.migrate.command`, turnkit runs
 * the kysely migrations of the config's folder (the sample game's when none is named), which can upgrade only a
 * database those very migrations built. A database migrated by another tool, or by kysely migrations that are not
 * the folder's, would otherwise be "upgraded" by the sample game's migrations and its fixtures rewritten with a
 * migration record that is not theirs.
 * @param where the database as shown to the user (its URL without password)
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
