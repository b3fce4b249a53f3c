import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { configSchema, type TurnkitConfigInput } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { openDb, type Db } from '../../src/db/connect.js';

/** The backends every database test runs on: embedded always, real Postgres when TEST_DATABASE_URL is set. */
export const BACKENDS: ('embedded' | 'postgres')[] = ['embedded', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/** A database of its own for one test file, and a project folder around it. */
export interface TestDb {
  db: Db;
  config: LoadedConfig;
  dir: string;
  /** The real-Postgres URL of this test's database (undefined on embedded). */
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * Creates a fresh database on the backend: a copied PGlite data dir (the sample game's schema in it already when
 * `game` is the sample's), or a uniquely named, empty Postgres database.
 */
export async function createTestDb(backend: 'embedded' | 'postgres', game: TurnkitConfigInput = sampleGameConfig): Promise<TestDb> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async (): Promise<void> => {};
  if (backend === 'embedded') {
    // The sample game's schema comes migrated in its template; another game starts from an empty database.
    const template = game === sampleGameConfig ? inject('pgdataSampleTemplate') : inject('pgdataTemplate');
    await cp(template, join(dir, '.turnkit', 'pgdata'), { recursive: true });
  } else {
    const admin = process.env.TEST_DATABASE_URL!;
    const name = `turnkit_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(admin, `CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
  }
  const config: LoadedConfig = { ...configSchema.parse({ ...game, database: { url: databaseUrl } }), baseDir: dir, file: undefined };
  const db = await openDb(config);
  return {
    db,
    config,
    dir,
    databaseUrl,
    async cleanup() {
      await db.close();
      await dropDatabase();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on a separate connection (for CREATE/DROP DATABASE and concurrent writers). */
export async function adminQuery(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
