import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { configSchema, type TurnkitConfigInput } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { openDb, type Db } from '../../src/db/connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { copyEmbedded } from './embedded-copy.js';

/**
 * The backends a database test runs on: embedded always, real Postgres when TEST_DATABASE_URL is set; one of them
 * when the vitest project is that backend's tier (TURNKIT_TEST_BACKEND, see vitest.config.ts).
 */
export const BACKENDS: ('embedded' | 'postgres')[] = backendsOfThisRun();

function backendsOfThisRun(): ('embedded' | 'postgres')[] {
  const all: ('embedded' | 'postgres')[] = [
    'embedded',
    ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
  ];
  const tier = process.env.TURNKIT_TEST_BACKEND;
  return tier === 'embedded' || tier === 'postgres' ? all.filter((backend) => backend === tier) : all;
}

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
 * Creates a fresh database on the backend: a copied embedded server folder (the sample game's schema in it already when
 * `game` is the sample's), or a uniquely named Postgres database (empty, or a clone of `template`).
 */
export async function createTestDb(
  backend: 'embedded' | 'postgres',
  game: TurnkitConfigInput = sampleGameConfig,
  options: { template?: string; admin?: string } = {},
): Promise<TestDb> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async (): Promise<void> => {};
  if (backend === 'embedded') {
    // The sample game's schema comes migrated in its template; another game starts from an empty database.
    await copyEmbedded(dir, game === sampleGameConfig ? 'sample' : 'empty');
  } else {
    const admin = options.admin ?? process.env.TEST_DATABASE_URL!;
    const name = `turnkit_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(
      admin,
      options.template ? `CREATE DATABASE ${name} TEMPLATE ${options.template}` : `CREATE DATABASE ${name}`,
    );
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
  }
  const config: LoadedConfig = {
    ...configSchema.parse({ ...game, database: { url: databaseUrl } }),
    baseDir: dir,
    file: undefined,
  };
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

/**
 * A fresh database holding the sample game's schema. On real Postgres it is a clone of a template database migrated
 * once and kept, named by a hash of the migration files (pgtestdb's approach): a file's database costs one
 * CREATE DATABASE, not a migration. On the embedded database the data directory is copied from the migrated
 * sample template (migrating it again finds nothing to do).
 */
export async function createSampleTestDb(
  backend: 'embedded' | 'postgres',
  options: { admin?: string } = {},
): Promise<TestDb> {
  if (backend === 'embedded') {
    const t = await createTestDb(backend);
    await migrate(t.db, SAMPLE_MIGRATIONS_DIR);
    return t;
  }
  // `admin`: another server than TEST_DATABASE_URL's (a test's private cluster).
  const admin = options.admin ?? process.env.TEST_DATABASE_URL!;
  return createTestDb(backend, sampleGameConfig, { template: await sampleTemplate(admin), admin });
}

async function sampleTemplate(admin: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(SAMPLE_MIGRATIONS_DIR)).sort())
    hash.update(name).update(await readFile(join(SAMPLE_MIGRATIONS_DIR, name)));
  const template = `turnkit_tpl_${hash.digest('hex').slice(0, 16)}`;
  const exists = async (): Promise<boolean> =>
    (await adminQuery(admin, 'SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount === 1;
  if (await exists()) return template;
  // Built under another name and renamed when complete, so a file never clones a half-migrated template; two
  // files building at once both finish, and the second rename finds the first's template there.
  const building = `${template}_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${building}`);
  const url = new URL(admin);
  url.pathname = `/${building}`;
  const config: LoadedConfig = {
    ...configSchema.parse({ ...sampleGameConfig, database: { url: url.toString() } }),
    baseDir: tmpdir(),
    file: undefined,
  };
  const db = await openDb(config);
  try {
    await migrate(db, SAMPLE_MIGRATIONS_DIR);
  } finally {
    await db.close();
  }
  try {
    await adminQuery(admin, `ALTER DATABASE ${building} RENAME TO ${template}`);
  } catch (error) {
    await adminQuery(admin, `DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    if (!(await exists())) throw error;
  }
  return template;
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
