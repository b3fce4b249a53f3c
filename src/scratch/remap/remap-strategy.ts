import type pg from 'pg';
import type { Catalog } from '../../db/catalog-types.js';
import type { Db } from '../../db/connect.js';
import type { Queryable } from '../../db/introspect.js';
import type { Fixture } from '../../fixture/format.js';
import { resolveGameGraph, type GameGraph } from '../../fixture/graph/game-graph.js';
import { CAPTURE_SETTINGS } from '../../fixture/value-codec.js';
import type { CollectedRows } from '../../fixture/capture/collect-owned.js';
import { CombinedWriteFailed } from '../combined-write.js';
import { effectsOf } from '../effects/scratch-effects.js';
import { readSharedRows } from '../effects/shared-snapshot.js';
import { outsideWrites } from '../effects/outside-writes.js';
import { horizonFrom, WRITE_HORIZON_SQL } from '../effects/write-horizon.js';
import { describeBlockers, isLockTimeout, lockTimeoutError, watchLockWaits, type Blocker } from '../lock-wait.js';
import { notInRegistry, takeRemapEntry } from '../registry.js';
import { scratchBegin, snapshotBegin } from '../scratch-begin.js';
import type {
  BeforeSut,
  CampaignAddress,
  CampaignContext,
  CampaignEffects,
  ScratchStrategy,
  SeededCampaign,
  SnapshotRead,
  TeardownOptions,
} from '../scratch-strategy.js';
import { inScratchTransaction } from '../scratch-transaction.js';
import { hasGameTriggers, type SeedPlan } from '../seed-plan.js';
import { seedRemap, type SeedOwner } from './seed-remap.js';
import { teardownRemap, type TeardownReport } from './teardown-remap.js';

/** SQLSTATE of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/** Reads a campaign as a teardown's walk found it, before anything is deleted, in the teardown's transaction. */
type Inspect = (client: Queryable, collected: CollectedRows) => Promise<void>;

/** The `remap` strategy: each campaign is the fixture's rows under new keys, in the session's own database. */
export class RemapStrategy implements ScratchStrategy {
  private readonly triggerChecks = new Map<string, Promise<boolean>>();

  /** Works on `db`; a teardown waits `lockMs` for a lock, telling `onLockWait` once that it waits. */
  constructor(
    private readonly db: Db,
    private readonly lockMs: number,
    private readonly onLockWait: ((message: string) => void) | undefined,
  ) {}

  /** Seeds the campaign and its registry entry in one transaction. */
  async seed(_fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<SeededCampaign> {
    const { entry, keyMap } = await seedRemap(this.db, plan, who);
    return { id: entry.id, databaseUrl: this.db.url, entry, keyMap };
  }

  /** Reads the campaign on the session's pool. */
  read<T>(_campaign: CampaignAddress, read: SnapshotRead<T>, first?: string): Promise<T> {
    return inScratchTransaction(this.db, snapshotBegin(first), read);
  }

  /**
   * The horizon is read by the BEGIN's own simple query (one round trip fewer before the SUT); REPEATABLE READ takes
   * the snapshot at that first read, so the shared rows after it are read in the same snapshot.
   */
  beforeSut(campaign: CampaignAddress, _fixture: Fixture, plan: SeedPlan): Promise<BeforeSut> {
    return this.read(
      campaign,
      async (client, opened) => ({ horizon: horizonFrom(opened), shared: await readSharedRows(client, plan) }),
      WRITE_HORIZON_SQL,
    );
  }

  /** Deletes the campaign; its effects are read in the teardown's own transaction, from its own walk. */
  async teardown(
    campaign: SeededCampaign,
    context: CampaignContext,
    options: TeardownOptions,
  ): Promise<TeardownReport & { effects?: CampaignEffects }> {
    const { entry, keyMap } = campaign;
    const { fixture, plan, graph } = context;
    let effects: CampaignEffects | undefined;
    // A rep's effects cost no extra round trips: the teardown walks the campaign anyway.
    const inspect = async (client: Queryable, collected: CollectedRows): Promise<void> => {
      await client.query(CAPTURE_SETTINGS);
      effects = { tables: effectsOf(collected, plan, keyMap), shared: await readSharedRows(client, plan) };
      if (options.horizon !== undefined)
        effects.outside = await outsideWrites(client, graph, entry.rootKey, options.horizon, fixture);
    };
    const report = await this.teardownEntry(entry.id, entry.id, context.catalog, options.effects ? inspect : undefined);
    if (!report) throw notInRegistry(entry.id);
    return effects ? { ...report, effects } : report;
  }

  /**
   * Deletes the remap campaign of registry id `id` (undefined: there is none), `asked` for by that id or its key.
   * A lock a SUT's leftover transaction holds is waited for only so long: then the error names the campaign and the
   * backend holding it, instead of a teardown (or gc) that never ends.
   */
  async teardownEntry(
    id: string,
    asked: string,
    catalog: Catalog,
    inspect?: Inspect,
  ): Promise<TeardownReport | undefined> {
    const lockMs = this.lockMs;
    let blockers: Blocker[] = [];
    let fixture = asked;
    const attempt = (combined: boolean, everyKey = false) =>
      inScratchTransaction(
        this.db,
        scratchBegin(['SET CONSTRAINTS ALL DEFERRED', `SET LOCAL lock_timeout = ${lockMs}`]),
        async (client) => {
          const watch = await watchLockWaits(this.db, client, (found) =>
            this.onLockWait?.(
              `waiting for a lock on scratch campaign ${id} held by ${describeBlockers(found)} (up to ${lockMs / 1_000} s)`,
            ),
          );
          try {
            const entry = await takeRemapEntry(client, id);
            if (!entry) return undefined;
            fixture = entry.fixture;
            // Triggers of the game's own could see the tables of one statement in any order: delete table by table.
            const graph = resolveGameGraph({ game: entry.game, file: undefined }, catalog);
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
    return attempt(true)
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
  }

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
}
