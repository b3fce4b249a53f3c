import { showingPathsFrom } from '../util/shown-path.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { redactUrl } from '../db/url.js';
import { TurnkitError } from '../errors.js';
import { serverStopsOnClose } from '../db/connect.js';
import { inputDir, inputPath, withProjectDb, type ProjectContext } from '../project/project-context.js';
import { removeStaleTemps } from '../util/process/temp-names.js';
// `turnkit seed` takes constructed fixtures too: the loader (fixture/) materializes them.
import { loadFixture } from '../fixture/load-fixture.js';
import type { ScratchCheck } from './check-scratch.js';
import { collectGarbage, type GcOptions, type GcReport } from './gc.js';
import type { StrategyName } from './registry.js';
import { ScratchSession } from './scratch-session.js';
import type { StrategyChoice } from './strategy-chooser.js';
import type { TeardownReport } from './remap/teardown-remap.js';

/** What to seed: a fixture file as a scratch campaign that outlives the call. */
export interface SeedInput {
  fixture: string;
  /** Hears warnings (foreign keys without an index); the project's `onWarning` when absent. */
  onWarning?: ((message: string) => void) | undefined;
  strategy?: StrategyChoice | undefined;
  /** Re-capture the scratch campaign and compare it with the fixture. */
  check?: boolean | undefined;
  /** Keep the password in `databaseUrl` (the author asked for it: the embedded server's is in no file they keep). */
  showPassword?: boolean | undefined;
}

/** What `seed` made: point the game at `databaseUrl` and `key`. */
export interface SeedResult {
  id: string;
  key: string;
  /** The URL with any password removed (the password stays where the user keeps it), unless `showPassword`. */
  databaseUrl: string;
  /** True when `databaseUrl` had a password that was left out. */
  passwordLeftOut: boolean;
  fixture: string;
  strategy: StrategyName;
  /** True when the embedded server stops as soon as the command exits (no `turnkit db start` running). */
  serverStopsOnExit: boolean;
  check?: ScratchCheck;
}

/**
 * Seeds a fixture file as a scratch campaign that outlives the call (no owning process: only `teardown` or
 * `gc --all` removes it). With `check`, the campaign is re-captured and compared with the fixture.
 * @example
 * const { id, key } = await seed(project, { fixture: 'fixtures/meridian-turn-23.json' });
 */
export async function seed(project: ProjectContext, input: SeedInput): Promise<SeedResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    // A constructed fixture is materialized first (its base's hash and every old value checked).
    const { fixture, shown, sha256 } = await loadFixture(inputPath(project, input.fixture));
    return withProjectDb(project, async (db) => {
      const session = new ScratchSession(db, {
        game: project.config.game,
        configFile: project.config.file,
        strategy: input.strategy,
        owner: null,
        onWarning: input.onWarning ?? project.onWarning,
      });
      const scratch = await session.seed(fixture, { file: shown, sha256 }).finally(() => session.close());
      const result: SeedResult = {
        id: scratch.id,
        key: scratch.key,
        databaseUrl: input.showPassword ? scratch.databaseUrl : redactUrl(scratch.databaseUrl),
        passwordLeftOut: !input.showPassword && redactUrl(scratch.databaseUrl) !== scratch.databaseUrl,
        fixture: scratch.fixture,
        strategy: scratch.strategy,
        serverStopsOnExit: serverStopsOnClose(db),
      };
      if (input.check) {
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
  });
}

/** Which scratch campaign to tear down. */
export interface TeardownInput {
  /** Registry id, or the scratch campaign's key. */
  key: string;
  /** How long to wait for a lock before failing, naming the holder. Default 30 s. */
  lockTimeoutMs?: number | undefined;
  /** Hears that the teardown waits for a lock, and on which backend. */
  onLockWait?: ((message: string) => void) | undefined;
}

/**
 * Tears down one scratch campaign.
 * @example
 * await teardown(project, { key: seeded.id });
 */
export async function teardown(project: ProjectContext, input: TeardownInput): Promise<TeardownReport> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    return withProjectDb(project, (db) =>
      new ScratchSession(db, { lockTimeoutMs: input.lockTimeoutMs, onLockWait: input.onLockWait }).teardown(input.key),
    );
  });
}

/**
 * Removes orphaned scratch campaigns, and what killed merges left in the runs folder.
 * @example
 * const { removed } = await gc(project, {});
 */
export async function gc(project: ProjectContext, input: GcOptions = {}): Promise<GcReport & { temps: string[] }> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const report = await withProjectDb(project, (db) => collectGarbage(db, input));
    // A merge builds its run in a hidden folder beside the target (runs/QUESTION/ by default); a killed one stays.
    const runs = project.paths.runs;
    const temps: string[] = [];
    for (const question of await readdir(runs, { withFileTypes: true }).catch(() => [])) {
      if (!question.isDirectory()) continue;
      for (const name of await removeStaleTemps(join(runs, question.name))) temps.push(join(runs, question.name, name));
    }
    return { ...report, temps };
  });
}
