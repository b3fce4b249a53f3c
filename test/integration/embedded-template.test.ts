import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openDb, type Db } from '../../src/db/connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { PGDATA_TEMPLATE_DIR, seedDataDir, templateArchive } from '../../src/db/pgdata-template.js';
import { buildPgdataTemplates } from '../../src/db/pgdata-build.js';
import { extractTarGz } from '../../src/db/tar-extract.js';

// The shipped templates (npm run build), or ones built here when those are stale, as the global setup does.
async function archives(): Promise<string> {
  if (templateArchive('sample') !== templateArchive('empty')) return PGDATA_TEMPLATE_DIR;
  const dir = join(await scratchDir(), 'archives');
  await buildPgdataTemplates(dir);
  return dir;
}

const dirs: string[] = [];
async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-template-'));
  dirs.push(dir);
  return dir;
}

async function openProject(options: { migrations?: string; template?: 'empty' | 'sample' } = {}): Promise<Db> {
  const baseDir = await scratchDir();
  const config = {
    ...configSchema.parse({ ...sampleGameConfig, ...(options.migrations ? { migrations: options.migrations } : {}) }),
    baseDir,
    file: undefined,
  };
  return openDb(config, { embedded: true, leaveSignals: true, template: options.template });
}

async function systemIdentifier(db: Db): Promise<string> {
  return (await db.pool.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]!
    .id;
}

async function publicTables(db: Db): Promise<string[]> {
  const { rows } = await db.pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe('a new embedded data directory', () => {
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('starts from the shipped template, not initdb: two new ones are the same cluster, with no game schema', async () => {
    await archives();
    const a = await openProject();
    const b = await openProject();
    try {
      // initdb draws a new system identifier each time; a copy of one template keeps the template's.
      expect(await systemIdentifier(a)).toBe(await systemIdentifier(b));
      expect(await publicTables(a)).toEqual([]);
      // The contrib extensions turnkit loads are there to create.
      await a.pool.query('CREATE EXTENSION citext; CREATE EXTENSION pgcrypto; CREATE EXTENSION "uuid-ossp"');
      const { rows } = await a.pool.query(
        `SELECT 'A'::citext = 'a'::citext AS same, length(gen_random_bytes(4)) AS bytes, uuid_generate_v4() IS NOT NULL AS uuid`,
      );
      expect(rows).toEqual([{ same: true, bytes: 4, uuid: true }]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('has the sample game migrated when asked for the sample template, and not when the project has its own migrations', async () => {
    await archives();
    const sample = await openProject({ template: 'sample' });
    try {
      expect(await publicTables(sample)).toContain('campaigns');
      expect((await migrate(sample, SAMPLE_MIGRATIONS_DIR)).applied).toEqual([]);
      // The one database the embedded server serves: template0 and template1 are not in it (SAMPLE_RECIPE).
      const { rows } = await sample.pool.query<{ name: string }>('SELECT datname::text AS name FROM pg_database');
      expect(rows.map((row) => row.name)).toEqual(['postgres']);
    } finally {
      await sample.close();
    }
    const own = await openProject({ template: 'sample', migrations: 'db/migrations' });
    try {
      expect(await publicTables(own)).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("is absent, never half written, when the archive is cut short; a killed extraction's leftover goes", async () => {
    const dir = await scratchDir();
    const whole = templateArchive('empty', await archives())!;
    const cut = join(dir, 'cut.tar.gz');
    await writeFile(
      cut,
      gzipSync((await import('node:zlib')).gunzipSync(await readFile(whole)).subarray(0, 1_000_000)),
    );
    const dataDir = join(dir, 'pgdata');
    await mkdir(join(dir, '.pgdata.seeding-4194305'));
    await expect(seedDataDir(dataDir, cut)).rejects.toThrow(/cut\.tar\.gz: the archive ends without its end blocks/);
    expect(await readdir(dir)).toEqual(['cut.tar.gz']);
    expect(await seedDataDir(dataDir, whole)).toBe(true);
    expect((await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim()).toMatch(/^\d+$/);
    // A data directory with something in it is never overwritten.
    expect(await seedDataDir(dataDir, whole)).toBe(false);
    expect(existsSync(join(dataDir, 'postmaster.pid'))).toBe(false);
  });

  it('refuses an archive entry that points outside the folder', async () => {
    const dir = await scratchDir();
    const header = Buffer.alloc(512);
    header.write('../escape', 0);
    header.write('0000000', 124);
    header.write('0', 156);
    const archive = join(dir, 'bad.tar.gz');
    await writeFile(archive, gzipSync(Buffer.concat([header, Buffer.alloc(1024)])));
    await expect(extractTarGz(archive, join(dir, 'out'))).rejects.toThrow(
      'bad.tar.gz: entry "../escape" points outside the folder',
    );
    expect(existsSync(join(dir, 'escape'))).toBe(false);
  });
});
