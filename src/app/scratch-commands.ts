import type { CommonOptions } from '../config/common-options.js';
import type { GcOptions, GcReport } from '../scratch/gc.js';
import {
  gc,
  seed,
  teardown,
  type SeedInput,
  type SeedResult,
  type TeardownInput,
} from '../scratch/scratch-operations.js';
import type { TeardownReport } from '../scratch/teardown-remap.js';
import { commandContext } from './command-context.js';

/** Options of `turnkit seed`. */
export interface SeedCommandOptions extends CommonOptions, SeedInput {}

/** What `turnkit seed` made: point the game at `databaseUrl` and `key`. */
export type SeedCommandResult = SeedResult;

/** `turnkit seed`: see `seed`; the fixture's path is relative to `cwd`. */
export async function seedCommand(options: SeedCommandOptions): Promise<SeedCommandResult> {
  return seed(await commandContext(options), options);
}

/** Options of `turnkit teardown`. */
export interface TeardownCommandOptions extends CommonOptions, TeardownInput {}

/** `turnkit teardown`: tears down one scratch campaign. */
export async function teardownCommand(options: TeardownCommandOptions): Promise<TeardownReport> {
  return teardown(await commandContext(options), options);
}

/** `turnkit gc`: removes orphaned scratch campaigns, and what killed merges left in the runs folder. */
export async function gcCommand(options: CommonOptions & GcOptions): Promise<GcReport & { temps: string[] }> {
  return gc(await commandContext(options), options);
}
