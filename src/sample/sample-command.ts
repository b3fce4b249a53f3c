import type { CommonOptions } from '../config/common-options.js';
import { loadConfig } from '../config/load.js';
import { usingDb } from '../db/connect.js';
import { migrate, migrationsFolder } from '../db/migrate.js';
import { TurnkitError } from '../errors.js';
import { createSampleCampaign } from './create-sample.js';

/** Options of `turnkit sample`. */
export interface SampleCommandOptions extends CommonOptions {
  turns: number;
  seed?: number | undefined;
}

/** Migrates the sample game's schema if needed and inserts one sample campaign; returns its key. */
export async function sample(options: SampleCommandOptions): Promise<{ campaign: string; turns: number }> {
  if (!Number.isInteger(options.turns) || options.turns < 1) {
    throw new TurnkitError('USAGE', `--turns must be a positive whole number, got ${options.turns}`);
  }
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const campaign = await usingDb(config, options, async (db) => {
    await migrate(db, migrationsFolder(config));
    return createSampleCampaign(db, { turns: options.turns, seed: options.seed });
  });
  return { campaign, turns: options.turns };
}
