// Once per test run: a database with the game's schema (a fresh database on the server named by
// TEST_DATABASE_URL on postgres, else an embedded one in a folder of its own), held open for
// every worker, and a checksum of every table, compared at the end: the suite must leave the database as it found it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  createSampleCampaign,
  migrate,
  openProject,
  SAMPLE_MIGRATIONS_DIR,
  sampleGameConfig,
  type Project,
} from 'turnkit';

declare module 'vitest' {
  export interface ProvidedContext {
    gameDatabase: { databaseUrl?: string; dataDir?: string };
  }
}

/** Makes the database on one backend and returns the teardown that checks it was left as found. */
export async function setupGameDatabase(
  vitest: TestProject,
  backend: 'embedded' | 'postgres',
): Promise<() => Promise<void>> {
  const admin = backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const folder = await mkdtemp(join(tmpdir(), 'turnkit-game-tests-'));
  let project: Project;
  let dropDatabase = async (): Promise<void> => {};
  if (admin) {
    const name = `turnkit_game_tests_${randomBytes(6).toString('hex')}`;
    await adminQuery(admin, `CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    project = await openProject({ cwd: folder, config: sampleGameConfig, databaseUrl: url.toString() });
    vitest.provide('gameDatabase', { databaseUrl: url.toString() });
    dropDatabase = () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {});
  } else {
    // This process owns the embedded database for the whole run; the workers join it.
    const dataDir = join(folder, 'postgres');
    project = await openProject({ cwd: folder, config: { ...sampleGameConfig, database: { embedded: { dataDir } } } });
    vitest.provide('gameDatabase', { dataDir });
  }
  await migrate(project.db, SAMPLE_MIGRATIONS_DIR);
  // A live campaign the tests must not touch, as a developer's database holds.
  await createSampleCampaign(project.db, { turns: 30 });
  const before = await checksums(project);
  return async () => {
    try {
      const after = await checksums(project);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        throw new Error(`the game tests left the database changed: ${JSON.stringify({ before, after })}`);
      }
    } finally {
      await project.close();
      await dropDatabase();
      await rm(folder, { recursive: true, force: true });
    }
  };
}

async function checksums(project: Project): Promise<Record<string, string>> {
  const { rows } = await project.db.pool.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'turnkit') ORDER BY 1`,
  );
  const sums: Record<string, string> = {};
  for (const { name } of rows) {
    const result = await project.db.pool.query(
      `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS sum FROM ${name} t`,
    );
    sums[name] = result.rows[0].sum;
  }
  return sums;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
