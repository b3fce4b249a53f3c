import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig, resolveFromConfig } from '../config/load.js';
import { usingDb } from '../db/connect.js';
import { redactUrl } from '../db/url.js';
import { TurnkitError } from '../errors.js';
import { removeStaleTemps } from '../util/temp-names.js';
// The one import from beside: `turnkit seed` takes constructed fixtures too, and construct/ never imports scratch/.
import { loadFixture } from '../construct/load-fixture.js';
import type { ScratchCheck } from '../scratch/check-scratch.js';
import { collectGarbage, type GcOptions, type GcReport } from '../scratch/gc.js';
import type { ScratchStrategy } from '../scratch/registry.js';
import { ScratchSession } from '../scratch/scratch-session.js';
import type { StrategyChoice } from '../scratch/strategy-chooser.js';
import type { TeardownReport } from '../scratch/teardown-remap.js';

/** Options of `turnkit seed`. */
export interface SeedCommandOptions extends CommonOptions {
  fixture: string;
  /** Hears warnings (foreign keys without an index). */
  onWarning?: (message: string) => void;
  strategy?: StrategyChoice | undefined;
  /** Re-capture the scratch campaign and compare it with the fixture. */
  check?: boolean | undefined;
}

/** What `turnkit seed` made: point the game at `databaseUrl` and `key`. */
export interface SeedCommandResult {
  id: string;
  key: string;
  /** The URL with any password removed (the password stays where the user keeps it). */
  databaseUrl: string;
  fixture: string;
  strategy: ScratchStrategy;
  /** True when the embedded server stops as soon as the command exits (no `turnkit db start` running). */
  serverStopsOnExit: boolean;
  check?: ScratchCheck;
}

/**
 * Seeds a fixture file as a scratch campaign that outlives the command (no owning process: only `teardown` or
 * `gc --all` removes it). With `check`, the campaign is re-captured and compared with the fixture.
 */
export async function seedCommand(options: SeedCommandOptions): Promise<SeedCommandResult> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  // A constructed fixture is materialized first (its base's hash and every old value checked).
  const { fixture, shown, sha256 } = await loadFixture(resolve(options.cwd ?? process.cwd(), options.fixture));
  return usingDb(config, options, async (db) => {
    const session = new ScratchSession(db, {
      game: config.game,
      strategy: options.strategy,
      owner: null,
      onWarning: options.onWarning,
    });
    const scratch = await session.seed(fixture, { file: shown, sha256 }).finally(() => session.close());
    const result: SeedCommandResult = {
      id: scratch.id,
      key: scratch.key,
      databaseUrl: redactUrl(scratch.databaseUrl),
      fixture: scratch.fixture,
      strategy: scratch.strategy,
      serverStopsOnExit: db.embedded?.owner ?? false,
    };
    if (options.check) {
      result.check = await session.check(scratch, fixture).catch((error: unknown) => {
        // The campaign exists: say which, so it can be torn down.
        throw new TurnkitError(
          'DATABASE',
          `seeded ${scratch.id} (key ${scratch.key}; remove it with turnkit teardown ${scratch.id}), but the check failed: ${(error as Error).message}`,
        );
      });
    }
    return result;
  });
}

/** Options of `turnkit teardown`. */
export interface TeardownCommandOptions extends CommonOptions {
  /** Registry id, or the scratch campaign's key. */
  key: string;
}

/** Tears down one scratch campaign. */
export async function teardownCommand(options: TeardownCommandOptions): Promise<TeardownReport> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  return usingDb(config, options, (db) => new ScratchSession(db, {}).teardown(options.key));
}

/** Removes orphaned scratch campaigns, and what killed merges left in the runs folder. */
export async function gcCommand(options: CommonOptions & GcOptions): Promise<GcReport & { temps: string[] }> {
  const config = await loadConfig({ configPath: options.configPath, cwd: options.cwd });
  const report = await usingDb(config, options, (db) => collectGarbage(db, options));
  // A merge builds its run in a hidden folder beside the target (runs/QUESTION/ by default); a killed one stays.
  const runs = resolveFromConfig(config, config.paths.runs);
  const temps: string[] = [];
  for (const question of await readdir(runs, { withFileTypes: true }).catch(() => [])) {
    if (!question.isDirectory()) continue;
    for (const name of await removeStaleTemps(join(runs, question.name))) temps.push(join(runs, question.name, name));
  }
  return { ...report, temps };
}
