import pg from 'pg';
import type { Db } from '../../db/connect.js';
import { urlForDatabase } from '../../db/dump-schema.js';
import type { Queryable } from '../../db/introspect.js';
import type { BeginResult } from '../../db/transaction.js';
import type { Fixture } from '../../fixture/format.js';
import { currentProcess } from '../../util/process/process-identity.js';
import { readSharedRows, type SharedSnapshot } from '../effects/shared-snapshot.js';
import { snapshotBegin } from '../scratch-begin.js';
import { deleteEntry, insertEntry, notInRegistry, type RegistryEntry } from '../registry.js';
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
import type { SeedPlan } from '../seed-plan.js';
import { newScratchId, type SeedOwner } from '../remap/seed-remap.js';
import type { TeardownReport } from '../remap/teardown-remap.js';
import { BackgroundDrops } from './background-drops.js';
import {
  buildTemplate,
  cloneDatabase,
  type DatabaseSetting,
  dropDatabase,
  dropOrphanDatabase,
  readDatabaseSettings,
  scratchDatabaseName,
} from './template-database.js';

/** A template database, its registry entry, and the source's settings every clone gets. */
interface Template {
  name: string;
  id: string;
  settings: DatabaseSetting[];
}

/** Drops that overlap share the checkpoint each forces (background-drops.ts); more would only queue on the server. */
const DROPS_AT_ONCE = 4;

/**
 * The `database` strategy: one template database per fixture, built on first use, and a clone of it per rep, the
 * fixture's keys as they are. Every database is registered before it exists, so a crash in between leaves an entry
 * gc can act on, never a database nobody knows about.
 *
 * What a rep waits for is cut to the clone itself, and in a run not even that: from a fixture's second clone on,
 * the next one is made while the rep runs (a spare, one per rep in flight), and a torn-down clone is dropped behind
 * the rep, its entry deleted after the drop. The creates, drops and registry writes go through connections of the
 * pool's own, so they never hold the session's pool (sized for the reps) while the server works.
 */
export class DatabaseStrategy implements ScratchStrategy {
  private readonly templates = new Map<Fixture, Promise<Template>>();
  private readonly spares = new Map<Fixture, Promise<SeededCampaign | undefined>[]>();
  private readonly cloned = new Map<Fixture, number>();
  private readonly released = new Set<string>();
  private readonly before = new Map<Fixture, Promise<SharedSnapshot>>();
  private readonly readers = new Map<string, Promise<pg.Client | undefined>>();
  private readonly drops: BackgroundDrops;
  private adminPool: pg.Pool | undefined;

  /** Keeps templates of one database; `onWarning` hears a background drop that failed (gc removes what it left). */
  constructor(
    private readonly db: Db,
    onWarning: (message: string) => void,
  ) {
    this.drops = new BackgroundDrops(DROPS_AT_ONCE, (error) =>
      onWarning(
        `dropping a scratch database failed, its registry entry is kept for turnkit gc: ${(error as Error)?.message ?? String(error)}`,
      ),
    );
  }

  /** Builds the fixture's template, once. */
  async setUp(fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<void> {
    await this.templateFor(fixture, plan, who);
  }

  private templateFor(fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<Template> {
    return cachedPromise(this.templates, fixture, () => this.build(plan, who));
  }

  /**
   * A new database cloned from the fixture's template, registered as a scratch campaign: a spare made ahead when
   * one is ready or on its way, else made now. With `ahead`, and from the fixture's second clone on (a session that
   * clones a fixture twice is a run; a one-off seed makes no spare it would drop again), the next rep's is begun.
   * Spares are made only for a campaign a process owns: gc removes those whatever ends the process.
   */
  async seed(fixture: Fixture, plan: SeedPlan, who: SeedOwner, ahead: boolean): Promise<SeededCampaign> {
    const template = await this.templateFor(fixture, plan, who);
    // Registered at once: reps of one fixture cloning side by side (concurrency above the fixture's reps) must share
    // one queue, or a spare begun into a queue a later rep replaced is dropped by nobody.
    let queue = this.spares.get(fixture);
    if (!queue) {
      queue = [];
      this.spares.set(fixture, queue);
    }
    let clone: SeededCampaign | undefined;
    // A spare that failed is made again now, and its error, if it is lasting, is this rep's.
    while (!clone && queue.length > 0) clone = await queue.shift();
    clone ??= await this.make(template, plan, who);
    const count = (this.cloned.get(fixture) ?? 0) + 1;
    this.cloned.set(fixture, count);
    if (ahead && count > 1 && who.owner !== null) queue.push(this.make(template, plan, who).catch(() => undefined));
    // The connection that reads what the SUT changed, opened while the SUT runs instead of after it.
    this.readers.set(
      clone.entry.id,
      connect(clone.databaseUrl).catch(() => undefined),
    );
    return { ...clone, entry: { ...clone.entry, createdAt: new Date() } };
  }

  /** Reads a clone through the connection opened to it while its SUT ran, or a new one. */
  async read<T>(campaign: CampaignAddress, read: SnapshotRead<T>, first?: string): Promise<T> {
    const client = (await this.takeReader(campaign.id)) ?? (await connect(campaign.databaseUrl));
    try {
      return await read(client, (await client.query(snapshotBegin(first))) as BeginResult);
    } finally {
      await client.end();
    }
  }

  private takeReader(id: string): Promise<pg.Client | undefined> | undefined {
    const reader = this.readers.get(id);
    this.readers.delete(id);
    return reader;
  }

  /**
   * What every clone of the fixture's template reads the same before its SUT runs (nobody writes to a template:
   * Postgres clones only one nobody is connected to), read from the first clone and kept.
   */
  async beforeSut(campaign: CampaignAddress, fixture: Fixture, plan: SeedPlan): Promise<BeforeSut> {
    const pending = cachedPromise(this.before, fixture, () =>
      this.read(campaign, (client) => readSharedRows(client, plan)),
    );
    return { shared: structuredClone(await pending) };
  }

  /**
   * Reads what the SUT changed first (the database goes with the teardown), but the teardown runs whatever the
   * reading did; the clone is dropped behind the rep, without reading its entry back.
   */
  async teardown(
    campaign: SeededCampaign,
    context: CampaignContext,
    options: TeardownOptions,
  ): Promise<TeardownReport & { effects?: CampaignEffects }> {
    let effects: CampaignEffects | undefined;
    let report: TeardownReport;
    try {
      if (options.effects) effects = await this.read(campaign, context.walkEffects);
    } finally {
      report = await this.release(campaign.entry);
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

  /**
   * Tears a clone of this session down: the drop and then the entry's delete run behind the rep (a crash in
   * between leaves the entry, for gc); the report says what will have gone once `idle()` resolves.
   */
  private async release(entry: RegistryEntry): Promise<TeardownReport> {
    if (this.released.has(entry.id) || !entry.databaseName) throw notInRegistry(entry.id);
    this.released.add(entry.id);
    await this.drop(entry.id, entry.databaseName, this.takeReader(entry.id));
    return databaseTeardownReport(entry);
  }

  /** Resolves once the spares begun so far are made and every drop begun has ended (benchmarks, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.spares.values()].flat());
    await this.drops.idle();
  }

  /** Drops the spares and the templates (at once: their drops share checkpoints) and closes the pool's connections. */
  async close(): Promise<void> {
    const spares = [...this.spares.values()].flat();
    this.spares.clear();
    this.cloned.clear();
    this.before.clear();
    // Readers of campaigns still live (seeded by hand, torn down later by id) would keep the process alive.
    const readers = [...this.readers.values()];
    this.readers.clear();
    await Promise.all(readers.map(async (reader) => (await reader)?.end().catch(() => {})));
    for (const spare of await Promise.all(spares)) if (spare) await this.release(spare.entry);
    const pending = [...this.templates.values()];
    this.templates.clear();
    for (const template of await Promise.all(pending.map((built) => built.catch(() => undefined))))
      if (template) await this.drop(template.id, template.name);
    await this.drops.idle();
    const admin = this.adminPool;
    this.adminPool = undefined;
    await admin?.end();
  }

  private async drop(id: string, name: string, reader?: Promise<pg.Client | undefined>): Promise<void> {
    const admin = this.admin();
    await this.drops.start(async () => {
      await (await reader)?.end().catch(() => {});
      // The entry goes last, so gc retries a failed drop.
      await dropDatabase(admin, name);
      await deleteEntry(admin, id);
    });
  }

  private async make(template: Template, plan: SeedPlan, who: SeedOwner): Promise<SeededCampaign> {
    const admin = this.admin();
    const id = newScratchId();
    const name = scratchDatabaseName('scratch', id.slice('scratch-'.length));
    const entry = databaseEntry(id, 'database', name, plan, who);
    await insertEntry(admin, entry);
    try {
      await cloneDatabase(admin, template.name, name, template.settings);
    } catch (error) {
      // The CREATE may have succeeded and a setting failed: the database goes before its entry, as in a drop.
      await dropDatabase(admin, name)
        .then(() => deleteEntry(admin, id))
        .catch(() => {});
      throw error;
    }
    return {
      id,
      entry: { ...entry, createdAt: new Date() },
      databaseUrl: urlForDatabase(this.db.url, name),
      keyMap: {},
    };
  }

  private async build(plan: SeedPlan, who: SeedOwner): Promise<Template> {
    const id = newScratchId().replace('scratch-', 'template-');
    const name = scratchDatabaseName('tpl', plan.fixture.name.toLowerCase());
    // A template always belongs to this process (even when the campaigns are seeded by hand): gc removes it once the
    // process is gone, whatever killed it.
    await insertEntry(
      this.db.pool,
      databaseEntry(id, 'template', name, plan, { ...who, owner: who.owner ?? currentProcess() }),
    );
    try {
      await buildTemplate(this.db, plan, name);
      return { name, id, settings: await readDatabaseSettings(this.db.pool) };
    } catch (error) {
      await dropDatabase(this.db.pool, name).catch(() => {});
      await deleteEntry(this.db.pool, id).catch(() => {});
      throw error;
    }
  }

  // Connections of the pool's own, opened on first use: a CREATE or DROP DATABASE holds its connection for as long
  // as the server works, which must not be a connection a rep is waiting for.
  private admin(): Queryable {
    if (!this.adminPool) {
      this.adminPool = new pg.Pool({
        connectionString: this.db.url,
        max: DROPS_AT_ONCE + 2,
        idleTimeoutMillis: 60_000,
        allowExitOnIdle: true,
      });
      // An idle client losing its server must not crash the process; the next query reports it.
      this.adminPool.on('error', () => {});
    }
    return this.adminPool;
  }
}

/** A connection of its own to a clone. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // DROP DATABASE ... WITH (FORCE) ends a connection nobody took.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** What tearing down a database of its own reports: the database, no rows (they went with it). */
function databaseTeardownReport(entry: RegistryEntry): TeardownReport {
  return {
    id: entry.id,
    fixture: entry.fixture,
    key: entry.rootKey,
    deleted: {},
    addedBySut: {},
    sharedDeleted: 0,
    sharedKept: 0,
    droppedDatabase: entry.databaseName ?? undefined,
  };
}

function databaseEntry(
  id: string,
  strategy: 'database' | 'template',
  name: string,
  plan: SeedPlan,
  who: SeedOwner,
): Omit<RegistryEntry, 'createdAt'> {
  return {
    id,
    strategy,
    fixture: plan.fixture.name,
    fixtureSha256: who.fixtureSha256,
    rootTable: plan.root.table,
    rootKey: plan.root.value,
    game: who.game,
    runId: who.runId,
    databaseName: name,
    owner: who.owner,
    inserted: {},
  };
}

/** The promise cached under `key`, made by `make` on first use and forgotten if it fails (the next caller retries). */
function cachedPromise<K, V>(cache: Map<K, Promise<V>>, key: K, make: () => Promise<V>): Promise<V> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}
