import type { Catalog } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';
import type { BeginResult } from '../db/transaction.js';
import type { Fixture } from '../fixture/format.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';
import type { TableEffects } from './effects/scratch-effects.js';
import type { RegistryEntry } from './registry.js';
import type { SeedPlan } from './seed-plan.js';
import type { SeedOwner, SerializedKeyMap } from './remap/seed-remap.js';
import type { SharedSnapshot } from './effects/shared-snapshot.js';
import type { TeardownReport } from './remap/teardown-remap.js';

/** Where a campaign is read: its registry id and the database the SUT connects to. */
export interface CampaignAddress {
  id: string;
  databaseUrl: string;
}

/** A campaign as its strategy seeded it: its registry entry, and the fixture's key values mapped to its own. */
export interface SeededCampaign extends CampaignAddress {
  entry: RegistryEntry;
  keyMap: SerializedKeyMap;
}

/** What a SUT changed: per table of its campaign, and the shared rows it stands on as they were at the end. */
export interface CampaignEffects {
  tables: TableEffects[];
  shared: SharedSnapshot;
  /** Rows of live campaigns written while the SUT ran (given a horizon), one line each. */
  outside?: string[];
}

/** What the session knows of a campaign: its fixture's plan, the game graph and catalog it is walked with. */
export interface CampaignContext {
  fixture: Fixture;
  plan: SeedPlan;
  graph: GameGraph;
  catalog: Catalog;
  /** Reads what the SUT changed by walking the campaign again (where the teardown has no walk of its own). */
  walkEffects: SnapshotRead<CampaignEffects>;
}

/** What a rep reads before its SUT runs: the shared rows, and the write horizon where campaigns share a database. */
export interface BeforeSut {
  shared: SharedSnapshot;
  horizon?: string;
}

/** A read of a campaign in one snapshot; `opened` is the BEGIN's result, with that of the statement sent along. */
export type SnapshotRead<T> = (client: Queryable, opened: BeginResult) => Promise<T>;

/** A teardown's options: read what the SUT changed first; with `horizon`, also other campaigns' rows written since. */
export interface TeardownOptions {
  effects?: boolean;
  horizon?: string | undefined;
}

/**
 * One way of making scratch campaigns (`remap`: new keys in the same database; `database`: a clone of a template
 * database per rep). The session plans, caches and chooses; a strategy seeds, reads and tears down.
 */
export interface ScratchStrategy {
  /** Work done once per fixture before its first seed (a template): not part of a rep's cost, which auto compares. */
  setUp?(fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<void>;
  /** Seeds a new campaign; `ahead`: the fixture's next rep uses this strategy too (work for it may begin now). */
  seed(fixture: Fixture, plan: SeedPlan, who: SeedOwner, ahead: boolean): Promise<SeededCampaign>;
  /** Reads a campaign in one snapshot; `first` (no parameters) goes with the BEGIN, its result in `opened`. */
  read<T>(campaign: CampaignAddress, read: SnapshotRead<T>, first?: string): Promise<T>;
  /** What the campaign looks like before its SUT runs, to compare with after. */
  beforeSut(campaign: CampaignAddress, fixture: Fixture, plan: SeedPlan): Promise<BeforeSut>;
  /** Removes the campaign; with `effects`, first reads what the SUT changed. */
  teardown(
    campaign: SeededCampaign,
    context: CampaignContext,
    options: TeardownOptions,
  ): Promise<TeardownReport & { effects?: CampaignEffects }>;
  /** Resolves once the work the strategy does behind the reps has ended. */
  idle?(): Promise<void>;
  /** Removes what the strategy keeps between reps. */
  close?(): Promise<void>;
}
