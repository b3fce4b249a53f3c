import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Db } from '../db/connect.js';
import type { Catalog } from '../db/catalog-types.js';
import { introspect } from '../db/introspect.js';
import type { GameConfig } from '../config/schema.js';
import { TurnkitError } from '../errors.js';
import { serializeDocument, type Fixture } from '../fixture/format.js';
import { resolveGameGraph, type GameGraph } from '../fixture/graph/game-graph.js';
import { withDeclaredReferences } from '../fixture/graph/declared-references.js';
import { currentProcess, type ProcessIdentity } from '../util/process/process-identity.js';
import type { ScratchCheck } from './check-scratch.js';
import { scratchEffects } from './effects/scratch-effects.js';
import { readSharedRows, type SharedSnapshot } from './effects/shared-snapshot.js';
import { describeUnindexed, unindexedForeignKeys } from './foreign-key-indexes.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from './lock-wait.js';
import { readFacts, type FactQuery, type FactValue } from './read-facts.js';
import { ensureRegistry, findEntryIds, getEntry, notInRegistry, type StrategyName } from './registry.js';
import type { BeforeSut, CampaignEffects, ScratchStrategy, SnapshotRead, TeardownOptions } from './scratch-strategy.js';
import { checkPlanAgainstGame, hasGameTriggers, planSeed, type SeedPlan } from './seed-plan.js';
import { StrategyChooser, type StrategyChoice } from './strategy-chooser.js';
import type { DatabaseStrategy } from './database/database-strategy.js';
import { shapeTextKeys } from './remap/allocate-keys.js';
import { resolveSequences } from './remap/key-plan.js';
import { RemapStrategy } from './remap/remap-strategy.js';
import type { SerializedKeyMap } from './remap/seed-remap.js';
import type { TeardownReport } from './remap/teardown-remap.js';

/** How scratch campaigns are made and whose they are. */
export interface ScratchOptions {
  /** The game config (root, turns, shared, excluded), required to seed: teardown walks the campaign with it. */
  game?: GameConfig;
  /** The config file the game came from, for messages that name a place in it (undefined: the sample game's). */
  configFile?: string | undefined;
  /** `remap` (default): new keys in the same database; `database`: a clone of a template database per rep;
   * `auto`: per fixture, whichever measured faster. */
  strategy?: StrategyChoice | undefined;
  /** The run the campaigns belong to (recorded in the registry). */
  runId?: string | null;
  /** The owning process; null for a campaign seeded by hand that must outlive its process. Default: this process. */
  owner?: ProcessIdentity | null;
  /** Hears warnings (once per session: foreign keys without an index that make teardown slow). */
  onWarning?: (message: string) => void;
  /** How long a teardown waits for a lock (a SUT's leftover transaction) before it fails naming the holder. */
  lockTimeoutMs?: number | undefined;
  /** Hears, once per teardown, that it is waiting for a lock and on which backend. */
  onLockWait?: ((message: string) => void) | undefined;
}

/** Where a fixture came from, for error messages and the registry. */
export interface FixtureSource {
  /** The file path shown in errors. */
  file?: string;
  /** sha256 of the file's bytes; computed from the fixture when absent. */
  sha256?: string;
}

/** What registry ids look like (`scratch-` or `template-` and 12 hex digits); anything else is a campaign key. */
const REGISTRY_ID = /^(scratch|template)-[0-9a-f]{12}$/;

/** A seeded scratch campaign: point the SUT at `databaseUrl` and `key`; always `teardown()` in a `finally`. */
export interface ScratchCampaign {
  /** Registry id (`scratch-...`). */
  id: string;
  /** The campaign's root key in the scratch campaign. */
  key: string;
  /** Where the SUT connects; may hold a password: never print it. */
  databaseUrl: string;
  strategy: StrategyName;
  fixture: string;
  /** Key values of the fixture mapped to the scratch campaign's, per table and allocated column (`remap`). */
  keyMap: SerializedKeyMap;
  /**
   * Removes the campaign; with `effects`, first reads what the SUT changed, in the same transaction (remap), and with
   * `horizon` (from `beforeSut`) also the rows of other campaigns written since. A database of its own (`database`)
   * is dropped behind the rep, its registry entry deleted after the drop: `session.idle()` or `close()` waits for it.
   */
  teardown(options?: TeardownOptions): Promise<TeardownReport & { effects?: CampaignEffects }>;
}

/**
 * Seeds and tears down scratch campaigns on one database, keeping what does not change between reps (the
 * catalog, each fixture's plan, its template database) so that a rep costs only its writes. `close()` drops the
 * templates.
 */
export class ScratchSession {
  private catalog: Catalog | undefined;
  private readonly plans = new WeakMap<Fixture, { plan: SeedPlan; sha256: string }>();
  private readonly remap: RemapStrategy;
  // Loaded on first use: most runs never clone a database, and turnkit run's start-up pays for every module it loads.
  private database: Promise<DatabaseStrategy> | undefined;
  private readonly chooser: StrategyChooser<Fixture>;
  private indexesChecked = false;
  private graph: GameGraph | undefined;
  /** Every warning this session gave. */
  readonly warnings: string[] = [];

  /** Opens a session on an open database. */
  constructor(
    readonly db: Db,
    readonly options: ScratchOptions,
  ) {
    this.chooser = new StrategyChooser(options.strategy ?? 'remap');
    const lockMs = Math.max(1, Math.round(options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
    this.remap = new RemapStrategy(db, lockMs, options.onLockWait);
  }

  private databaseStrategy(): Promise<DatabaseStrategy> {
    this.database ??= import('./database/database-strategy.js').then(
      ({ DatabaseStrategy }) =>
        new DatabaseStrategy(this.db, (message) => {
          this.warnings.push(message);
          this.options.onWarning?.(message);
        }),
    );
    return this.database;
  }

  private async strategy(name: StrategyName): Promise<ScratchStrategy> {
    return name === 'remap' ? this.remap : this.databaseStrategy();
  }

  /** The strategies this session has used so far (the database one is loaded on first use). */
  private async loadedStrategies(): Promise<ScratchStrategy[]> {
    return [this.remap, ...(this.database ? [await this.database] : [])];
  }

  /** Seeds the fixture as a new scratch campaign. */
  async seed(fixture: Fixture, source: FixtureSource = {}): Promise<ScratchCampaign> {
    const game = this.options.game;
    if (!game) throw new TurnkitError('USAGE', 'seeding needs the game config (ScratchOptions.game)');
    const { plan, sha256 } = await this.prepare(fixture, source);
    const graph = (this.graph ??= resolveGameGraph({ game, file: this.options.configFile }, this.catalog!));
    checkPlanAgainstGame(plan, graph);
    if (!this.indexesChecked) {
      this.indexesChecked = true;
      for (const message of describeUnindexed(await unindexedForeignKeys(this.db.pool, graph))) {
        this.warnings.push(message);
        this.options.onWarning?.(message);
      }
    }
    const owner = this.options.owner === undefined ? currentProcess() : this.options.owner;
    const who = { game, runId: this.options.runId ?? null, owner, fixtureSha256: sha256 };
    // A fixture that a remap cannot copy (a key with no column to freshen) goes to a database of its own under auto.
    const name = this.chooser.next(fixture, plan.keyProblems.length === 0);
    const strategy = await this.strategy(name);
    await strategy.setUp?.(fixture, plan, who);
    const started = performance.now();
    // Work for the next rep (a clone made ahead) is begun only when that rep will use this strategy too.
    const seeded = await strategy.seed(fixture, plan, who, this.chooser.next(fixture) === name);
    const seedMs = performance.now() - started;
    const catalog = this.catalog!;
    const walk = walkEffects(plan, game, { key: seeded.entry.rootKey, keyMap: seeded.keyMap }, catalog);
    const context = { fixture, plan, graph, catalog, walkEffects: walk };
    return {
      id: seeded.id,
      key: seeded.entry.rootKey,
      databaseUrl: seeded.databaseUrl,
      strategy: name,
      fixture: seeded.entry.fixture,
      keyMap: seeded.keyMap,
      teardown: async (options = {}) => {
        const begun = performance.now();
        const report = await strategy.teardown(seeded, context, options);
        this.chooser.record(fixture, name, seedMs + performance.now() - begun);
        return report;
      },
    };
  }

  /** Checks a fixture against the database and plans its seed without writing anything. */
  async prepare(fixture: Fixture, source: FixtureSource = {}): Promise<{ plan: SeedPlan; sha256: string }> {
    const file = source.file ?? `${fixture.name}.json`;
    const cached = this.plans.get(fixture);
    // Without a file named (beforeSut, sharedRows), any plan of this fixture will do: re-planning under the default
    // name would also evict the rep's own, and the next seed would plan a third time.
    if (cached && (source.file === undefined || cached.plan.file === file)) return cached;
    await this.ready();
    // The game's declared references are keys to remap like foreign keys (the same catalog teardown walks).
    const game = this.options.game;
    const catalog = game
      ? withDeclaredReferences(this.catalog!, { game, file: this.options.configFile })
      : this.catalog!;
    const plan = await planSeedOrStale(
      this.db,
      game,
      fixture,
      () => planSeed(fixture, catalog, file, keptUniqueColumns(game)),
      file,
    );
    await resolveSequences(this.db.pool, plan.keys, plan.campaignTables);
    shapeTextKeys(plan.keys, plan.campaignTables, (name) => plan.tables.get(name)!.table.rows);
    plan.oneStatement = !(await hasGameTriggers(this.db.pool, plan.campaignTables.values()));
    const prepared = {
      plan,
      sha256: source.sha256 ?? createHash('sha256').update(serializeDocument(fixture)).digest('hex'),
    };
    this.plans.set(fixture, prepared);
    return prepared;
  }

  /** Tears down a scratch campaign by registry id, or a remap campaign by its root key. */
  async teardown(idOrKey: string): Promise<TeardownReport> {
    await this.ready();
    if (REGISTRY_ID.test(idOrKey)) return this.teardownById(idOrKey, idOrKey);
    const ids = await findEntryIds(this.db.pool, idOrKey);
    if (ids.length > 1)
      throw new TurnkitError(
        'BAD_INPUT',
        `"${idOrKey}" names ${ids.length} scratch campaigns (${ids.join(', ')}): pass a registry id`,
      );
    return this.teardownById(ids[0] ?? idOrKey, idOrKey);
  }

  // A remap campaign is taken from the registry inside its teardown's transaction; any other entry has a database.
  private async teardownById(id: string, asked: string): Promise<TeardownReport> {
    const report = await this.remap.teardownEntry(id, asked, this.catalog!);
    if (report) return report;
    const entry = await getEntry(this.db.pool, id);
    if (!entry) throw notInRegistry(asked);
    return (await this.databaseStrategy()).teardownEntry(entry);
  }

  /**
   * Re-captures a scratch campaign and compares it with its fixture modulo key values (`turnkit seed --check`;
   * the tests use the same function). A clone is read through a connection of its own.
   */
  async check(scratch: ScratchCampaign, fixture: Fixture): Promise<ScratchCheck> {
    const game = this.options.game;
    if (!game) throw new TurnkitError('USAGE', 'checking needs the game config (ScratchOptions.game)');
    const { plan } = await this.prepare(fixture);
    const catalog = await this.currentCatalog();
    const entry = { rootKey: scratch.key, keyMap: scratch.keyMap };
    const { checkScratch } = await import('./check-scratch.js');
    return (await this.strategy(scratch.strategy)).read(scratch, (client) =>
      checkScratch(client, plan, game, entry, catalog),
    );
  }

  /**
   * What the SUT changed in a scratch campaign since it was seeded (read before teardown): per table of the
   * campaign, and the shared rows it stands on as they are now (compare with `sharedRows` from before the SUT).
   * One snapshot for both.
   */
  async effects(scratch: ScratchCampaign, fixture: Fixture): Promise<CampaignEffects> {
    const game = this.options.game;
    if (!game) throw new TurnkitError('USAGE', 'effects need the game config (ScratchOptions.game)');
    const { plan } = await this.prepare(fixture);
    const catalog = await this.currentCatalog();
    return (await this.strategy(scratch.strategy)).read(scratch, walkEffects(plan, game, scratch, catalog));
  }

  /**
   * What a rep reads before its SUT runs, in one snapshot: the shared rows the campaign stands on (to compare with
   * after) and, for a campaign in the shared database (remap), the write horizon that tells the rows written since.
   */
  async beforeSut(scratch: ScratchCampaign, fixture: Fixture): Promise<BeforeSut> {
    const { plan } = await this.prepare(fixture);
    return (await this.strategy(scratch.strategy)).beforeSut(scratch, fixture, plan);
  }

  /** The shared rows a scratch campaign stands on, as they are now (before the SUT, to compare with after). */
  async sharedRows(scratch: ScratchCampaign, fixture: Fixture): Promise<SharedSnapshot> {
    const { plan } = await this.prepare(fixture);
    return (await this.strategy(scratch.strategy)).read(scratch, (client) => readSharedRows(client, plan));
  }

  /**
   * A question's facts as the scratch campaign holds them now, in one read-only snapshot, each under a time limit
   * (read-facts.ts): before the SUT, for the case file and the checks, and after it, to see what it changed.
   */
  async readFacts(
    scratch: ScratchCampaign,
    facts: Readonly<Record<string, FactQuery>>,
  ): Promise<Record<string, FactValue>> {
    return (await this.strategy(scratch.strategy)).read(scratch, (client) => readFacts(client, facts, scratch.key));
  }

  /**
   * Drops the template databases this session built and the clones it made ahead, waits for the drops of torn-down
   * clones (a run calls it once at its end, every rep settled).
   */
  async close(): Promise<void> {
    await Promise.all((await this.loadedStrategies()).map((strategy) => strategy.close?.()));
  }

  /**
   * Resolves once the database strategy's work behind the reps has ended: the clones made ahead for the next reps,
   * and the drops of torn-down ones (a campaign's `teardown()` returns before its database is gone).
   */
  async idle(): Promise<void> {
    await Promise.all((await this.loadedStrategies()).map((strategy) => strategy.idle?.()));
  }

  /** The catalog as this session sees it (introspected once). */
  async currentCatalog(): Promise<Catalog> {
    await this.ready();
    return this.catalog!;
  }

  private ready(): Promise<void> {
    // One introspection however many reps start at once: plans and teardowns must share one catalog's objects.
    this.readying ??= (async () => {
      await ensureRegistry(this.db);
      this.catalog = await introspect(this.db.pool);
    })().catch((error: unknown) => {
      this.readying = undefined;
      throw error;
    });
    return this.readying;
  }

  private readying: Promise<void> | undefined;
}

/** What the SUT changed, read by walking the campaign again: its tables and the shared rows, in one snapshot. */
function walkEffects(
  plan: SeedPlan,
  game: GameConfig,
  campaign: { key: string; keyMap: SerializedKeyMap },
  catalog: Catalog,
): SnapshotRead<CampaignEffects> {
  const entry = { rootKey: campaign.key, keyMap: campaign.keyMap };
  return async (client) => ({
    tables: await scratchEffects(client, plan, game, entry, catalog),
    shared: await readSharedRows(client, plan),
  });
}

/** The unique columns the game config keeps as captured in scratch copies (`game.unique`: 'table.column': 'keep'). */
function keptUniqueColumns(game: GameConfig | undefined): Set<string> {
  const rules = game?.unique ?? {};
  return new Set(Object.entries(rules).flatMap(([column, rule]) => (rule === 'keep' ? [column] : [])));
}

// A fixture whose schema drifted because the game migrated since its capture: said, with the command that upgrades
// it, before the list of drift.
async function planSeedOrStale(
  db: Db,
  game: ScratchOptions['game'],
  fixture: Fixture,
  plan: () => SeedPlan,
  file: string,
): Promise<SeedPlan> {
  try {
    return plan();
  } catch (error) {
    if (!(error instanceof TurnkitError) || error.code !== 'FIXTURE' || !game) throw error;
    // Only a plan that failed asks whether the fixture is behind the schema: the migration code loads for that.
    const { staleAdvice } = await import('../fixture/turns/fixture-standing.js');
    const advice = await staleAdvice(db.pool, { game }, [{ file, fixture }]).catch(() => []);
    if (advice.length === 0) throw error;
    throw new TurnkitError('FIXTURE', `${advice[0]}; ${advice[1]!.replace(/^upgrade it with: /, 'run: ')}`, [
      ...advice,
      ...error.problems,
    ]);
  }
}
