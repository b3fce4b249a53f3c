// The database a benchmark runs on: a scratch database created on DATABASE_URL's server and dropped afterwards,
// or a fresh embedded database in a temporary folder; the sample game's schema applied either way.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { configSchema } from '../src/config/schema.js';
import { sampleGameConfig } from '../src/config/sample-config.js';
import type { LoadedConfig } from '../src/config/load.js';
import { openDb, type Db } from '../src/db/connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../src/db/migrate.js';

async function admin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The scrub key benchmarks capture with (the sample config's rules need one). */
export const BENCH_SCRUB_KEY = 'turnkit-bench-scrub-key: not a secret';

/** Runs `fn` on a new, migrated benchmark database and removes it afterwards. */
export async function withBenchDatabase(fn: (db: Db, config: LoadedConfig) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-bench-'));
  const baseUrl = process.env.DATABASE_URL;
  const scratchName = `turnkit_bench_${randomBytes(4).toString('hex')}`;
  let scratchUrl: string | undefined;
  if (baseUrl) {
    await admin(baseUrl, `CREATE DATABASE ${scratchName}`);
    const url = new URL(baseUrl);
    url.pathname = `/${scratchName}`;
    scratchUrl = url.toString();
  }
  const config = {
    ...configSchema.parse({ ...sampleGameConfig, database: { url: scratchUrl } }),
    baseDir: dir,
    file: undefined,
  };
  try {
    // The scratch database, not DATABASE_URL itself (which openDb would otherwise prefer over the config).
    const db = await openDb(config, { databaseUrl: scratchUrl });
    try {
      await migrate(db, SAMPLE_MIGRATIONS_DIR);
      await fn(db, config);
    } finally {
      await db.close();
    }
  } finally {
    if (baseUrl) await admin(baseUrl, `DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`);
    await rm(dir, { recursive: true, force: true });
  }
}
