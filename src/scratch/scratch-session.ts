import { createHash } from 'node:crypto';
import { readFacts, type FactQuery, type FactValue } from './read-facts.js';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Db } from '../db/connect.js';
import type { Catalog } from '../db/catalog-types.js';
import { introspect } from '../db/introspect.js';
import type { BeginResult } from '../db/transaction.js';
import type { GameConfig } from '../config/schema.js';
import { TurnkitError } from '../errors.js';
import { serializeDocument, type Fixture } from '../fixture/format.js';
import { resolveGameGraph, type GameGraph } from '../fixture/graph/game-graph.js';
import { CAPTURE_SETTINGS } from '../fixture/value-codec.js';
import { withDeclaredReferences } from '../fixture/graph/declared-references.js';
import { staleAdvice } from '../fixture/turns/fixture-standing.js';
import { describeUnindexed, unindexedForeignKeys } from './foreign-key-indexes.js';
import { checkScratch, type ScratchCheck } from './check-scratch.js';
import { effectsOf, scratchEffects, type TableEffects } from './effects/scratch-effects.js';
import type { CollectedRows } from '../fixture/capture/collect-owned.js';
import { readSharedRows, type SharedSnapshot } from './effects/shared-snapshot.js';
import { outsideWrites } from './effects/outside-writes.js';
import { horizonFrom, WRITE_HORIZON_SQL } from './effects/write-horizon.js';
import type { Queryable } from '../db/introspect.js';
import { currentProcess, type ProcessIdentity } from '../util/process/process-identity.js';
import {
  deleteEntry,
  ensureRegistry,
  findEntryIds,
  getEntry,
  takeRemapEntry,
  type RegistryEntry,
  type ScratchStrategy,
} from './registry.js';
import { checkPlanAgainstGame, hasGameTriggers, planSeed, type SeedPlan } from './seed-plan.js';
import { resolveSequences } from './remap/key-plan.js';
import { shapeTextKeys } from './remap/allocate-keys.js';
import { seedRemap, type SerializedKeyMap } from './remap/seed-remap.js';
import { CombinedWriteFailed } from './combined-write.js';
import { scratchBegin } from './scratch-begin.js';
import { inScratchTransaction } from './scratch-transaction.js';
import { StrategyChooser, type StrategyChoice } from './strategy-chooser.js';
import { dropOrphanDatabase } from './database/template-database.js';
import { databaseTeardownReport, TemplatePool } from './database/template-pool.js';
import { teardownRemap, type TeardownReport } from './remap/teardown-remap.js';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  describeBlockers,
  isLockTimeout,
  lockTimeoutError,
  watchLockWaits,
  type Blocker,
} from './lock-wait.js';

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

/** SQLSTATE of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

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
  strategy: ScratchStrategy;
  fixture: string;
  /** Key values of the fixture mapped to the scratch campaign's, per table and allocated column (`remap`). */
  keyMap: SerializedKeyMap;
  /**
   * Removes the campaign; with `effects`, first reads what the SUT changed, in the same transaction (remap), and with
   * `horizon` (from `beforeSut`) also the rows of other campaigns written since. A database of its own (`database`)
   * is dropped behind the rep, its registry entry deleted after the drop: `session.idle()` or `close()` waits for it.
   */
  teardown(options?: {
    effects?: boolean;
    horizon?: string | undefined;
  }): Promise<TeardownReport & { effects?: CampaignEffects }>;
}

/** What a SUT changed: per table of its campaign, and the shared rows it stands on as they were at the end. */
export interface CampaignEffects {
  tables: TableEffects[];
  shared: SharedSnapshot;
  /** Rows of live campaigns written while the SUT ran (given a horizon), one line each. */
  outside?: string[];
}

/**
 * Seeds and tears down scratch campaigns on one database, keeping what does not change between reps (the
 * catalog, each fixture's plan, its template database) so that a rep costs only its writes. `close()` drops the
 * templates.
 */
export class ScratchSession {
  private catalog: Catalog | undefined;
  private readonly plans = new WeakMap<Fixture, { plan: SeedPlan; sha256: string }>();
  private readonly templates: TemplatePool;
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
    this.templates = new TemplatePool(db, (message) => {
      this.warnings.push(message);
      options.onWarning?.(message);
    });
  }

  /** Seeds the fixture as a new scratch campaign. */
  async seed(fixture: Fixture, source: FixtureSource = {}): Promise<ScratchCampaign> {
    return this.seedCampaign(fixture, source);
  }

  private async seedCampaign(fixture: Fixture, source: FixtureSource): Promise<ScratchCampaign> {
    const game = this.options.game;
    if (!game) throw new TurnkitError('USAGE', 'seeding needs the game config (ScratchOptions.game)');
    const { plan, sha256 } = await this.prepare(fixture, source);
    this.graph ??= resolveGameGraph({ game, file: this.options.configFile }, this.catalog!);
    checkPlanAgainstGame(plan, this.graph);
    if (!this.indexesChecked) {
      this.indexesChecked = true;
      for (const message of describeUnindexed(await unindexedForeignKeys(this.db.pool, this.graph))) {
        this.warnings.push(message);
        this.options.onWarning?.(message);
      }
    }
    const owner = this.options.owner === undefined ? currentProcess() : this.options.owner;
    const who = { game, runId: this.options.runId ?? null, owner, fixtureSha256: sha256 };
    // A fixture that a remap cannot copy (a key with no column to freshen) goes to a database of its own under auto.
    const strategy = this.chooser.next(fixture, plan.keyProblems.length === 0);
    // A template is built once per run: not part of what a rep costs, so not part of what auto compares.
    if (strategy === 'database') await this.templates.templateFor(fixture, plan, who);
    const started = performance.now();
    let entry: RegistryEntry;
    let databaseUrl = this.db.url;
    let keyMap: SerializedKeyMap = {};
    if (strategy === 'remap') ({ entry, keyMap } = await seedRemap(this.db, plan, who));
    // A spare for the next rep only when that rep will clone too.
    else
      ({ entry, databaseUrl } = await this.templates.clone(
        fixture,
        plan,
        who,
        this.chooser.next(fixture) === strategy,
      ));
    const seedMs = performance.now() - started;
    const campaign: ScratchCampaign = {
      id: entry.id,
      key: entry.rootKey,
      databaseUrl,
      strategy,
      fixture: entry.fixture,
      keyMap,
      teardown: async (options: { effects?: boolean; horizon?: string | undefined } = {}) => {
        const begun = performance.now();
        let effects: CampaignEffects | undefined;
        let report: TeardownReport;
        if (options.effects && strategy === 'remap') {
          // Read in the teardown's own transaction, from its own walk: a rep's effects cost no extra round trips.
          const inspect = async (client: Queryable, collected: CollectedRows): Promise<void> => {
            await client.query(CAPTURE_SETTINGS);
            effects = { tables: effectsOf(collected, plan, keyMap), shared: await readSharedRows(client, plan) };
            if (options.horizon !== undefined)
              effects.outside = await outsideWrites(client, this.graph!, entry.rootKey, options.horizon, fixture);
          };
          report = await this.teardownById(entry.id, entry.id, inspect);
        } else {
          // Read first (the database goes with the teardown), but the teardown runs whatever the reading did.
          try {
            if (options.effects) effects = await this.effects(campaign, fixture);
          } finally {
            // A clone of this session's is dropped behind the rep, without reading its entry back.
            report = strategy === 'database' ? await this.templates.release(entry) : await this.teardown(entry.id);
          }
        }
        this.chooser.record(fixture, strategy, seedMs + performance.now() - begun);
        return effects ? { ...report, effects } : report;
      },
    };
    return campaign;
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

  private async teardownById(
    id: string,
    asked: string,
    inspect?: (client: Queryable, collected: CollectedRows) => Promise<void>,
  ): Promise<TeardownReport> {
    // A lock a SUT's leftover transaction holds is waited for only so long: then the error names the campaign and
    // the backend holding it, instead of a teardown (or gc) that never ends.
    const lockMs = Math.max(1, Math.round(this.options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
    let blockers: Blocker[] = [];
    let fixture = asked;
    const attempt = (combined: boolean, everyKey = false) =>
      inScratchTransaction(
        this.db,
        scratchBegin(['SET CONSTRAINTS ALL DEFERRED', `SET LOCAL lock_timeout = ${lockMs}`]),
        async (client) => {
          const watch = await watchLockWaits(this.db, client, (found) =>
            this.options.onLockWait?.(
              `waiting for a lock on scratch campaign ${id} held by ${describeBlockers(found)} (up to ${lockMs / 1_000} s)`,
            ),
          );
          try {
            const entry = await takeRemapEntry(client, id);
            if (!entry) return undefined;
            fixture = entry.fixture;
            // Triggers of the game's own could see the tables of one statement in any order: delete table by table.
            const graph = resolveGameGraph({ game: entry.game, file: undefined }, this.catalog!);
            const oneStatement = combined && !(await this.triggersOn(graph, client));
            // The graph's catalog: with the declared references of the game the campaign was seeded with.
            return await teardownRemap(client, entry, graph.catalog, entry.sharedUses, oneStatement, inspect, everyKey);
          } finally {
            watch.stop();
            blockers = watch.blockers();
          }
        },
      ).catch((error: unknown) => {
        if (isLockTimeout(error)) throw lockTimeoutError(id, fixture, lockMs, blockers);
        throw error;
      });
    // One statement for every table; if the server refuses it, everything rolled back, and table by table the same
    // failure names its table.
    const report = await attempt(true)
      .catch((error: unknown) => {
        if (error instanceof CombinedWriteFailed && error.refused) return attempt(false);
        throw error instanceof CombinedWriteFailed ? error.cause : error;
      })
      .catch((error: unknown) => {
        // A delete that ran into a foreign key: a row of the campaign's own tables that is not the campaign's (a live
        // character the SUT pointed at a scratch location). Looked for only now, so a teardown costs nothing more;
        // the second attempt refuses, naming those rows, or fails as the first did.
        if ((error as { code?: unknown })?.code !== FOREIGN_KEY_VIOLATION) throw error;
        return attempt(false, true);
      });
    if (report) return report;
    const entry = await getEntry(this.db.pool, id);
    if (!entry)
      throw new TurnkitError('NOT_FOUND', `no scratch campaign "${asked}" in the registry (torn down already?)`);
    // A database of its own goes as a whole, outside any transaction; the entry goes last, so gc retries a failed drop.
    if (entry.databaseName) await dropOrphanDatabase(this.db.pool, entry.databaseName);
    await deleteEntry(this.db.pool, entry.id);
    return databaseTeardownReport(entry);
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
    return this.readScratch(scratch, (client) => checkScratch(client, plan, game, entry, catalog));
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
    const entry = { rootKey: scratch.key, keyMap: scratch.keyMap };
    return this.readScratch(scratch, async (client) => ({
      tables: await scratchEffects(client, plan, game, entry, catalog),
      shared: await readSharedRows(client, plan),
    }));
  }

  /**
   * What a rep reads before its SUT runs, in one snapshot: the shared rows the campaign stands on (to compare with
   * after) and, for a campaign in the shared database (remap), the write horizon that tells the rows written since.
   */
  async beforeSut(scratch: ScratchCampaign, fixture: Fixture): Promise<{ shared: SharedSnapshot; horizon?: string }> {
    const { plan } = await this.prepare(fixture);
    if (scratch.strategy === 'database') {
      // Every clone of a template starts the same: read once, not through a new connection per rep.
      const shared = await this.templates.sameInEveryClone(fixture, () =>
        this.readScratch(scratch, (client) => readSharedRows(client, plan)),
      );
      return { shared: structuredClone(shared) };
    }
    // The horizon is read by the BEGIN's own simple query (one round trip fewer before the SUT); REPEATABLE READ takes
    // the snapshot at that first read, so the shared rows after it are read in the same snapshot as before.
    return this.readScratch(
      scratch,
      async (client, opened) => ({ horizon: horizonFrom(opened), shared: await readSharedRows(client, plan) }),
      WRITE_HORIZON_SQL,
    );
  }

  /** The shared rows a scratch campaign stands on, as they are now (before the SUT, to compare with after). */
  async sharedRows(scratch: ScratchCampaign, fixture: Fixture): Promise<SharedSnapshot> {
    const { plan } = await this.prepare(fixture);
    return this.readScratch(scratch, (client) => readSharedRows(client, plan));
  }

  /**
   * A question's facts as the scratch campaign holds them now, in one read-only snapshot, each under a time limit
   * (read-facts.ts): before the SUT, for the case file and the checks, and after it, to see what it changed.
   */
  async readFacts(
    scratch: ScratchCampaign,
    facts: Readonly<Record<string, FactQuery>>,
  ): Promise<Record<string, FactValue>> {
    return this.readScratch(scratch, (client) => readFacts(client, facts, scratch.key));
  }

  // Reads a scratch campaign in one snapshot the way capture reads (the codec parses Postgres's text output in fixed
  // settings); a clone of the database strategy is read through a connection of its own.
  // `first`: a statement without parameters sent with the BEGIN (one round trip), its result given to `read`.
  private async readScratch<T>(
    scratch: ScratchCampaign,
    read: (client: Queryable, opened: BeginResult) => Promise<T>,
    first?: string,
  ): Promise<T> {
    const begin = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${CAPTURE_SETTINGS}${first ? `; ${first}` : ''}`;
    if (scratch.databaseUrl === this.db.url) return inScratchTransaction(this.db, begin, read);
    let client = scratch.strategy === 'database' ? await this.templates.takeReader(scratch.id) : undefined;
    if (!client) {
      client = new pg.Client({ connectionString: scratch.databaseUrl });
      client.on('error', () => {});
      await client.connect();
    }
    try {
      const opened = (await client.query(begin)) as BeginResult;
      return await read(client, opened);
    } finally {
      await client.end();
    }
  }

  /**
   * Drops the template databases this session built and the clones it made ahead, waits for the drops of torn-down
   * clones (a run calls it once at its end, every rep settled).
   */
  async close(): Promise<void> {
    await this.templates.close();
  }

  /**
   * Resolves once the database strategy's work behind the reps has ended: the clones made ahead for the next reps,
   * and the drops of torn-down ones (a campaign's `teardown()` returns before its database is gone).
   */
  async idle(): Promise<void> {
    await this.templates.idle();
  }

  private readonly triggerChecks = new Map<string, Promise<boolean>>();

  /** Whether the game's owned tables carry triggers of their own (asked once per game config). */
  private triggersOn(graph: GameGraph, client: pg.PoolClient): Promise<boolean> {
    const key = [...graph.owned].sort().join('\u0000');
    let found = this.triggerChecks.get(key);
    if (!found) {
      // On the connection of the running transaction: the embedded pool has no second one.
      found = hasGameTriggers(
        client,
        [...graph.owned].map((name) => graph.catalog.tables.get(name)!),
      );
      this.triggerChecks.set(key, found);
      found.catch(() => this.triggerChecks.delete(key));
    }
    return found;
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
    const advice = await staleAdvice(db.pool, { game }, [{ file, fixture }]).catch(() => []);
    if (advice.length === 0) throw error;
    throw new TurnkitError('FIXTURE', `${advice[0]}; ${advice[1]!.replace(/^upgrade it with: /, 'run: ')}`, [
      ...advice,
      ...error.problems,
    ]);
  }
}
