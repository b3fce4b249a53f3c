import { createHash } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { Catalog } from '../db/catalog-types.js';
import { introspect } from '../db/introspect.js';
import { inTransaction } from '../db/transaction.js';
import type { GameConfig } from '../config/schema.js';
import { TurnkitError } from '../errors.js';
import { serializeDocument, type Fixture } from '../fixture/format.js';
import { currentProcess, type ProcessIdentity } from './process-identity.js';
import { deleteEntry, ensureRegistry, lockEntry, type RegistryEntry, type ScratchStrategy } from './registry.js';
import { planSeed, type SeedPlan } from './seed-plan.js';
import { seedRemap } from './seed-remap.js';
import { teardownRemap, type TeardownReport } from './teardown-remap.js';

/** How scratch campaigns are made and whose they are. */
export interface ScratchOptions {
  /** The game config (root, turns, shared, excluded), required to seed: teardown walks the campaign with it. */
  game?: GameConfig;
  /** `remap` (default): new keys in the same database. */
  strategy?: ScratchStrategy;
  /** The run the campaigns belong to (recorded in the registry). */
  runId?: string | null;
  /** The owning process; null for a campaign seeded by hand that must outlive its process. Default: this process. */
  owner?: ProcessIdentity | null;
}

/** Where a fixture came from, for error messages and the registry. */
export interface FixtureSource {
  /** The file path shown in errors. */
  file?: string;
  /** sha256 of the file's bytes; computed from the fixture when absent. */
  sha256?: string;
}

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
  keyMap: RegistryEntry['keyMap'];
  teardown(): Promise<TeardownReport>;
}

/**
 * Seeds and tears down scratch campaigns on one database, keeping what does not change between reps (the
 * catalog, each fixture's plan) so that a rep costs only its writes.
 */
export class ScratchSession {
  private catalog: Catalog | undefined;
  private readonly plans = new WeakMap<Fixture, { plan: SeedPlan; sha256: string }>();
  private registryReady = false;

  /** Opens a session on an open database. */
  constructor(
    readonly db: Db,
    readonly options: ScratchOptions,
  ) {}

  /** Seeds the fixture as a new scratch campaign. */
  async seed(fixture: Fixture, source: FixtureSource = {}): Promise<ScratchCampaign> {
    const strategy = this.options.strategy ?? 'remap';
    if (strategy !== 'remap') throw new TurnkitError('USAGE', `strategy "${strategy}" is not available`);
    const game = this.options.game;
    if (!game) throw new TurnkitError('USAGE', 'seeding needs the game config (ScratchOptions.game)');
    const { plan, sha256 } = await this.prepare(fixture, source);
    const owner = this.options.owner === undefined ? currentProcess() : this.options.owner;
    const entry = await seedRemap(this.db, plan, { game, runId: this.options.runId ?? null, owner, fixtureSha256: sha256 });
    return {
      id: entry.id,
      key: entry.rootKey,
      databaseUrl: this.db.url,
      strategy: entry.strategy,
      fixture: entry.fixture,
      keyMap: entry.keyMap,
      teardown: () => this.teardown(entry.id),
    };
  }

  /** Checks a fixture against the database and plans its seed without writing anything. */
  async prepare(fixture: Fixture, source: FixtureSource = {}): Promise<{ plan: SeedPlan; sha256: string }> {
    const file = source.file ?? `${fixture.name}.json`;
    const cached = this.plans.get(fixture);
    if (cached && cached.plan.file === file) return cached;
    await this.ready();
    const prepared = {
      plan: planSeed(fixture, this.catalog!, file),
      sha256: source.sha256 ?? createHash('sha256').update(serializeDocument(fixture)).digest('hex'),
    };
    this.plans.set(fixture, prepared);
    return prepared;
  }

  /** Tears down a scratch campaign by registry id, or a remap campaign by its root key. */
  async teardown(idOrKey: string): Promise<TeardownReport> {
    await this.ready();
    return inTransaction(this.db, 'BEGIN', async (client) => {
      const entries = await lockEntry(client, idOrKey);
      if (entries.length === 0) throw new TurnkitError('NOT_FOUND', `no scratch campaign "${idOrKey}" in the registry (torn down already?)`);
      if (entries.length > 1) {
        throw new TurnkitError('BAD_INPUT', `"${idOrKey}" names ${entries.length} scratch campaigns (${entries.map((entry) => entry.id).join(', ')}): pass a registry id`);
      }
      const entry = entries[0]!;
      const report = await teardownRemap(client, entry, this.catalog!);
      await deleteEntry(client, entry.id);
      return report;
    });
  }

  /** The catalog as this session sees it (introspected once). */
  async currentCatalog(): Promise<Catalog> {
    await this.ready();
    return this.catalog!;
  }

  private async ready(): Promise<void> {
    if (!this.registryReady) {
      await ensureRegistry(this.db);
      this.registryReady = true;
    }
    this.catalog ??= await introspect(this.db.pool);
  }
}

/** Seeds one fixture as a scratch campaign (a one-off; a run keeps one `ScratchSession` for all its reps). */
export async function seed(db: Db, fixture: Fixture, options: ScratchOptions & FixtureSource): Promise<ScratchCampaign> {
  return new ScratchSession(db, options).seed(fixture, options);
}

/** Tears down one scratch campaign by registry id or root key. */
export async function teardown(db: Db, idOrKey: string): Promise<TeardownReport> {
  return new ScratchSession(db, {}).teardown(idOrKey);
}
