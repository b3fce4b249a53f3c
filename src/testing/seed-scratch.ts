import { resolve } from 'node:path';
import type pg from 'pg';
import { loadFixture } from '../fixture/load-fixture.js';
import type { Db } from '../db/connect.js';
import type { Fixture } from '../fixture/format.js';
import type { Project } from '../project/open-project.js';
import { ScratchSession, type ScratchCampaign } from '../scratch/scratch-session.js';
import type { TeardownReport } from '../scratch/remap/teardown-remap.js';

/** A scratch campaign for one test: point the code under test at `databaseUrl` and `key`, or query `db`. */
export interface TestCampaign extends AsyncDisposable {
  /** Registry id (`scratch-...`), for `turnkit teardown` should a test process die. */
  id: string;
  /** The campaign's root key. */
  key: string;
  /** Where a game in another process connects; may hold a password: never print it. */
  databaseUrl: string;
  /** The project's open database, for queries of the test itself: `db.query(text, values)` is its pool's. */
  db: TestDb;
  /** The fixture as it was seeded (a constructed fixture materialized). */
  fixture: Fixture;
  /** Removes the campaign and every row the test added under it; safe to call twice. */
  teardown(): Promise<TeardownReport | undefined>;
}

/** The project's database as a test queries it: `query` is the pool's (`db.query(sql, values)`), the rest the Db. */
export interface TestDb extends Db {
  /** `pool.query`, bound to the pool: a query of the test's own, on a connection of the pool. */
  query: pg.Pool['query'];
}

/**
 * Seeds a fixture file (captured or constructed, relative to the project folder) as a scratch campaign of this
 * process: `gc` removes it should the process die before `teardown`.
 * @example
 * await using campaign = await seedScratch(project, 'fixtures/meridian-turn-23.json');
 */
export async function seedScratch(project: Project, fixturePath: string): Promise<TestCampaign> {
  // A constructed fixture is materialized first: its base's hash and every old value are checked.
  const { fixture, shown, sha256 } = await loadFixture(resolve(project.paths.baseDir, fixturePath));
  const session = new ScratchSession(project.db, {
    game: project.config.game,
    configFile: project.config.file,
    onWarning: project.onWarning,
  });
  let scratch: ScratchCampaign;
  try {
    scratch = await session.seed(fixture, { file: shown, sha256 });
  } catch (error) {
    await session.close();
    throw error;
  }
  let report: Promise<TeardownReport | undefined> | undefined;
  const teardown = (): Promise<TeardownReport | undefined> => {
    report ??= scratch.teardown().finally(() => session.close());
    return report;
  };
  return {
    id: scratch.id,
    key: scratch.key,
    databaseUrl: scratch.databaseUrl,
    db: testDb(project.db),
    fixture,
    teardown,
    [Symbol.asyncDispose]: async () => {
      await teardown();
    },
  };
}

/**
 * Runs `fn` with a fresh scratch campaign of the fixture and tears it down afterwards, whatever `fn` does.
 * @example
 * await withScratchCampaign(project, 'fixtures/meridian-turn-23.json', async (campaign) => { ... });
 */
export async function withScratchCampaign<T>(
  project: Project,
  fixturePath: string,
  fn: (campaign: TestCampaign) => Promise<T>,
): Promise<T> {
  const campaign = await seedScratch(project, fixturePath);
  try {
    return await fn(campaign);
  } finally {
    await campaign.teardown();
  }
}

/** The project's Db with the pool's `query` beside it, as the guide calls it (`campaign.db.query(...)`). */
function testDb(db: Db): TestDb {
  const query = db.pool.query.bind(db.pool) as pg.Pool['query'];
  return { ...db, query };
}
