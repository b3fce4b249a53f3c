import type { Db } from '../../db/connect.js';
import type { Fixture } from '../../fixture/format.js';
import { readCampaignEffects, type CampaignEffects } from '../campaign-effects.js';
import { readSharedRows } from '../effects/shared-snapshot.js';
import { readSnapshot } from '../read-snapshot.js';
import { deleteEntry, type RegistryEntry } from '../registry.js';
import type {
  BeforeSut,
  CampaignAddress,
  FixtureContext,
  ScratchStrategy,
  SeededCampaign,
  SnapshotRead,
  TeardownOptions,
} from '../scratch-strategy.js';
import type { SeedPlan } from '../seed-plan.js';
import type { SeedOwner } from '../remap/seed-remap.js';
import type { TeardownReport } from '../remap/teardown-remap.js';
import { dropOrphanDatabase } from './template-database.js';
import { databaseTeardownReport, TemplatePool } from './template-pool.js';

/** The `database` strategy: each campaign is a clone of the fixture's template database, the fixture's keys as they are. */
export class DatabaseStrategy implements ScratchStrategy {
  private readonly templates: TemplatePool;

  /** Clones on `db`'s server; `onWarning` hears a background drop that failed. */
  constructor(
    private readonly db: Db,
    onWarning: (message: string) => void,
  ) {
    this.templates = new TemplatePool(db, onWarning);
  }

  /** Builds the fixture's template, once. */
  async setUp(fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<void> {
    await this.templates.templateFor(fixture, plan, who);
  }

  /** Clones the template; with `ahead`, the next rep's clone is begun too. */
  async seed(fixture: Fixture, plan: SeedPlan, who: SeedOwner, ahead: boolean): Promise<SeededCampaign> {
    const { entry, databaseUrl } = await this.templates.clone(fixture, plan, who, ahead);
    return { id: entry.id, databaseUrl, entry, keyMap: {} };
  }

  /** Reads a clone through the connection opened to it while its SUT ran, or a new one. */
  async read<T>(campaign: CampaignAddress, read: SnapshotRead<T>, first?: string): Promise<T> {
    return readSnapshot(this.db, campaign, read, first, await this.templates.takeReader(campaign.id));
  }

  /** Every clone of a template starts the same: read once, not through a new connection per rep. */
  async beforeSut(campaign: CampaignAddress, fixture: Fixture, plan: SeedPlan): Promise<BeforeSut> {
    const shared = await this.templates.sameInEveryClone(fixture, () =>
      this.read(campaign, (client) => readSharedRows(client, plan)),
    );
    return { shared: structuredClone(shared) };
  }

  /**
   * Reads what the SUT changed first (the database goes with the teardown), but the teardown runs whatever the
   * reading did; the clone is dropped behind the rep, without reading its entry back.
   */
  async teardown(
    campaign: SeededCampaign,
    { plan, game, catalog }: FixtureContext,
    options: TeardownOptions,
  ): Promise<TeardownReport & { effects?: CampaignEffects }> {
    let effects: CampaignEffects | undefined;
    let report: TeardownReport;
    const { rootKey } = campaign.entry;
    try {
      if (options.effects)
        effects = await this.read(campaign, (client) =>
          readCampaignEffects(client, plan, game, { rootKey, keyMap: campaign.keyMap }, catalog),
        );
    } finally {
      report = await this.templates.release(campaign.entry);
    }
    return effects ? { ...report, effects } : report;
  }

  /**
   * Removes an entry of a database of its own that this session did not make (gc, `turnkit teardown`): the database
   * goes as a whole, outside any transaction; the entry goes last, so gc retries a failed drop.
   */
  async teardownEntry(entry: RegistryEntry): Promise<TeardownReport> {
    if (entry.databaseName) await dropOrphanDatabase(this.db.pool, entry.databaseName);
    await deleteEntry(this.db.pool, entry.id);
    return databaseTeardownReport(entry);
  }

  /** Resolves once the clones made ahead are made and the drops of torn-down ones have ended. */
  idle(): Promise<void> {
    return this.templates.idle();
  }

  /** Drops the templates and the clones made ahead. */
  close(): Promise<void> {
    return this.templates.close();
  }
}
