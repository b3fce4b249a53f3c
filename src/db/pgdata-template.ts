import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { pgliteVersion } from './pglite-open.js';
import { extractTarGz } from './tar-extract.js';

/*
 * Pre-initialized embedded data directories, so that a new `.turnkit/pgdata` opens without PGlite's initdb (about
 * 5 s, 10 s on a loaded machine). They are built by `npm run build` (and so by `prepare`, which `npm ci` and
 * `npm pack` run) into dist/pgdata/ and shipped in the package, rather than built once per machine into a cache:
 * a cache would still make the first open on each machine pay initdb, and needs a writable place outside the
 * project that a global or read-only install may not have. About 4.5 MB each, gzipped.
 *
 * Two templates:
 * - `empty`: initdb and nothing else; what every project's new data directory starts from. It holds no game schema:
 *   a user's project brings its own (its migrations, or its application's), and tables of the sample game in it
 *   would be wrong there.
 * - `sample`: the sample game's migrations (migrations/) applied, with kysely's bookkeeping, so `migrate` finds
 *   nothing to do. Only for data directories known to hold the sample game: `turnkit demo`'s and the tests'.
 *   Used only while the migration files hash to what the template was built from; else `empty` and migrate.
 *   It holds the `postgres` database alone (SAMPLE_RECIPE): template0 and template1 are dropped.
 */

/**
 * How the `sample` archive is made, beyond the migrations: a build whose manifest records another recipe makes it
 * again. 2: template0 and template1 dropped. They serve only CREATE DATABASE, which the embedded server never runs
 * (one backend, on `postgres`), yet they were 600 of the archive's 1,050 files and 15 of its 40 MB: extracting them
 * was most of the demo's first open (1.8-4.5 s against 0.6-1.3 s without them, measured side by side on a loaded
 * machine). `empty` keeps them: a user's project is not known to stay on the one database.
 */
export const SAMPLE_RECIPE = 2;

/** Which pre-initialized data directory to start a new one from. */
export type PgdataTemplateKind = 'empty' | 'sample';

/** What dist/pgdata/templates.json records about the archives beside it. */
export interface PgdataTemplates {
  format: 1;
  /** The PGlite version that wrote them: another version may not read its data directory. */
  pglite: string;
  empty: string;
  /** `recipe`: SAMPLE_RECIPE of the build that made it (absent: 1, every database initdb makes). */
  sample: { file: string; migrations: string; recipe?: number | undefined };
}

/** Folder of the shipped templates. */
export const PGDATA_TEMPLATE_DIR = join(PACKAGE_ROOT, 'dist', 'pgdata');

/** The sample game's migration sources (shipped in the package): what the `sample` template is checked against. */
export const SAMPLE_MIGRATION_SOURCES = join(PACKAGE_ROOT, 'migrations');

/** The file PGlite writes while running; stale in an archive taken from a live database. */
const SKIPPED = new Set(['postmaster.pid']);

/** The manifest of a template folder, or undefined when it is missing, unreadable or of another PGlite. */
export function readTemplates(dir: string = PGDATA_TEMPLATE_DIR): PgdataTemplates | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'templates.json'), 'utf8')) as PgdataTemplates;
    return manifest.format === 1 && manifest.pglite === pgliteVersion() ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The archive to start a new data directory from: the kind asked for when it is usable, else `empty` (`sample`
 * with other migration files than it was built from), else undefined (no templates: PGlite runs initdb).
 */
export function templateArchive(kind: PgdataTemplateKind, dir: string = PGDATA_TEMPLATE_DIR): string | undefined {
  const manifest = readTemplates(dir);
  if (!manifest) return undefined;
  const current = kind === 'sample' && migrationsHash(SAMPLE_MIGRATION_SOURCES) === manifest.sample.migrations;
  const pick = current ? manifest.sample.file : manifest.empty;
  const file = join(dir, pick);
  return existsSync(file) ? file : undefined;
}

/** A hash of a migrations folder's files (names and bytes), to tell whether a template holds their schema. */
export function migrationsHash(folder: string): string {
  const hash = createHash('sha256');
  try {
    for (const name of readdirSync(folder)
      .filter((entry) => /\.(m?js|m?ts)$/.test(entry))
      .sort()) {
      hash
        .update(`${name}\u0000`)
        .update(readFileSync(join(folder, name)))
        .update('\u0000');
    }
  } catch {
    return 'unreadable';
  }
  return hash.digest('hex');
}

/**
 * Fills a new data directory from a template archive; returns false (and touches nothing) when the directory
 * already holds something. Extracts beside it and renames it into place, so that a process killed meanwhile leaves
 * the data directory absent (the next open starts again), never half written. The caller holds the data
 * directory's lock, so any earlier sibling being extracted is a killed process's leftover.
 */
export async function seedDataDir(dataDir: string, archive: string): Promise<boolean> {
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) return false;
  const parent = dirname(dataDir);
  const prefix = `.${basename(dataDir)}.seeding-`;
  for (const entry of await readdir(parent))
    if (entry.startsWith(prefix)) await rm(join(parent, entry), { recursive: true, force: true });
  const temp = join(parent, `${prefix}${process.pid}`);
  try {
    await extractTarGz(archive, temp, SKIPPED);
    if (existsSync(dataDir)) await rmdir(dataDir);
    await rename(temp, dataDir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  return true;
}
