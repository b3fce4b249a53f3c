import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { connectEmbedded, type Db } from './connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from './migrate.js';
import { openPglite, pgliteVersion } from './pglite-open.js';
import {
  migrationsHash,
  PGDATA_TEMPLATE_DIR,
  readTemplates,
  SAMPLE_MIGRATION_SOURCES,
  SAMPLE_RECIPE,
  seedDataDir,
  type PgdataTemplates,
} from './pgdata-template.js';

/** What `buildPgdataTemplates` did. */
export interface PgdataBuildResult {
  dir: string;
  /** The archives written; empty when those there were current. */
  built: string[];
}

/**
 * Builds the pre-initialized data directories (pgdata-template.ts) into `dir` unless the ones there are current
 * (same PGlite, same sample migrations), so that a rebuild costs nothing: `npm run build` runs this every time.
 */
export async function buildPgdataTemplates(dir: string = PGDATA_TEMPLATE_DIR): Promise<PgdataBuildResult> {
  const current = readTemplates(dir);
  const migrations = migrationsHash(SAMPLE_MIGRATION_SOURCES);
  const have = (file: string | undefined): boolean => file !== undefined && existsSync(join(dir, file));
  const emptyCurrent = have(current?.empty);
  if (
    emptyCurrent &&
    have(current?.sample.file) &&
    current?.sample.migrations === migrations &&
    current.sample.recipe === SAMPLE_RECIPE
  )
    return { dir, built: [] };
  const work = await mkdtemp(join(tmpdir(), 'turnkit-pgdata-'));
  const built: string[] = [];
  try {
    const empty = 'empty.tar.gz';
    if (!emptyCurrent) {
      // initdb, once, here: what every new data directory is spared.
      await dump(join(work, 'empty'), join(dir, empty));
      built.push(empty);
    }
    const sample = `sample-${migrations.slice(0, 12)}.tar.gz`;
    const sampleDir = join(work, 'sample');
    await seedDataDir(sampleDir, join(dir, empty));
    const db = await connectEmbedded({ dataDir: sampleDir, port: 0, handleSignals: false });
    try {
      await migrate(db, SAMPLE_MIGRATIONS_DIR);
      await dropTemplateDatabases(db);
    } finally {
      await db.close();
    }
    await dump(sampleDir, join(dir, sample));
    built.push(sample);
    const manifest: PgdataTemplates = {
      format: 1,
      pglite: pgliteVersion(),
      empty,
      sample: { file: sample, migrations, recipe: SAMPLE_RECIPE },
    };
    // Written last: until then readers keep using the previous manifest's archives, which are left in place.
    await writeFileAtomic(join(dir, 'templates.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const name of await readdir(dir)) {
      if (/^sample-.*\.tar\.gz$/.test(name) && name !== sample) await rm(join(dir, name), { force: true });
    }
    return { dir, built };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// The sample template's recipe (SAMPLE_RECIPE): only the database the embedded server serves. One statement at a
// time: DROP DATABASE cannot run in a transaction block, and a template database cannot be dropped.
async function dropTemplateDatabases(db: Db): Promise<void> {
  for (const name of ['template1', 'template0']) {
    await db.pool.query(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await db.pool.query(`DROP DATABASE ${name}`);
  }
}

// Opens the data directory (initdb when it is new), flushes every page to disk, and writes its archive.
async function dump(dataDir: string, file: string): Promise<void> {
  const db = await openPglite(dataDir);
  try {
    // The archive is read from the files: a checkpoint first, so that no change sits only in shared buffers.
    await db.exec('CHECKPOINT');
    const archive = await db.dumpDataDir('gzip');
    await writeFileAtomic(file, new Uint8Array(await archive.arrayBuffer()));
  } finally {
    await db.close();
  }
}
