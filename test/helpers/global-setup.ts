import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';

// initdb of PGlite takes seconds; do it once per test run and let every test copy the result.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = join(tmpdir(), `turnkit-test-template-${process.pid}`);
  await rm(template, { recursive: true, force: true });
  await mkdir(template, { recursive: true });
  const dataDir = join(template, 'pgdata');
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const db = await PGlite.create({ dataDir });
    await db.close();
  }
  project.provide('pgdataTemplate', dataDir);
  return async () => {
    await rm(template, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgdataTemplate: string;
  }
}
