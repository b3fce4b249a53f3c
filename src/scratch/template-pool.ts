import type { Db } from '../db/connect.js';
import type { Fixture } from '../fixture/format.js';
import { currentProcess } from './process-identity.js';
import { deleteEntry, insertEntry, type RegistryEntry } from './registry.js';
import type { SeedPlan } from './seed-plan.js';
import { newScratchId, type SeedOwner } from './seed-remap.js';
import { buildTemplate, cloneDatabase, scratchDatabaseName } from './template-database.js';

/** A template database and its registry entry. */
export interface Template {
  name: string;
  id: string;
}

/**
 * The `database` strategy's side of a session: one template database per fixture, built on first use, and a clone
 * of it per rep. Every database is registered before it exists, so a crash in between leaves an entry gc can act
 * on, never a database nobody knows about.
 */
export class TemplatePool {
  private readonly templates = new Map<Fixture, Promise<Template>>();

  /** Keeps templates of one database. */
  constructor(private readonly db: Db) {}

  /** The fixture's template, built once. */
  templateFor(fixture: Fixture, plan: SeedPlan, who: SeedOwner): Promise<Template> {
    let pending = this.templates.get(fixture);
    if (!pending) {
      pending = this.build(plan, who);
      this.templates.set(fixture, pending);
      pending.catch(() => this.templates.delete(fixture));
    }
    return pending;
  }

  /** A new database cloned from the fixture's template, registered as a scratch campaign. */
  async clone(
    fixture: Fixture,
    plan: SeedPlan,
    who: SeedOwner,
  ): Promise<{ entry: RegistryEntry; databaseUrl: string }> {
    const template = await this.templateFor(fixture, plan, who);
    const id = newScratchId();
    const name = scratchDatabaseName('scratch', id.slice('scratch-'.length));
    const entry = databaseEntry(id, 'database', name, plan, who);
    await insertEntry(this.db.pool, entry);
    try {
      return {
        entry: { ...entry, createdAt: new Date() },
        databaseUrl: await cloneDatabase(this.db, template.name, name),
      };
    } catch (error) {
      await deleteEntry(this.db.pool, id).catch(() => {});
      throw error;
    }
  }

  /** Hands over every template built so far (for dropping) and forgets them. */
  async drain(): Promise<Template[]> {
    const pending = [...this.templates.values()];
    this.templates.clear();
    const built = await Promise.all(pending.map((template) => template.catch(() => undefined)));
    return built.filter((template): template is Template => template !== undefined);
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
    } catch (error) {
      await deleteEntry(this.db.pool, id).catch(() => {});
      throw error;
    }
    return { name, id };
  }
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
