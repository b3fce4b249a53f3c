import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPgdataTemplates } from '../../src/db/pgdata-build.js';
import { PGDATA_TEMPLATE_DIR, seedDataDir, templateArchive } from '../../src/db/pgdata-template.js';

// Every embedded test starts from a copy of a pre-initialized data directory: the ones `npm run build` ships in
// dist/pgdata/ (no initdb, no migrations per file), or, when those are missing or stale, ones built here once.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = join(tmpdir(), `turnkit-test-template-${process.pid}`);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  let archives = PGDATA_TEMPLATE_DIR;
  if (templateArchive('sample', archives) === templateArchive('empty', archives)) {
    archives = join(root, 'archives');
    await buildPgdataTemplates(archives);
  }
  const empty = join(root, 'empty', 'pgdata');
  const sample = join(root, 'sample', 'pgdata');
  await mkdir(join(root, 'empty'));
  await mkdir(join(root, 'sample'));
  await seedDataDir(empty, templateArchive('empty', archives)!);
  await seedDataDir(sample, templateArchive('sample', archives)!);
  project.provide('pgdataTemplate', empty);
  project.provide('pgdataSampleTemplate', sample);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory of the embedded database with nothing in it yet (no initdb to wait for). */
    pgdataTemplate: string;
    /** The same with the sample game's migrations applied. */
    pgdataSampleTemplate: string;
  }
}
