import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openDb } from '../../src/db/connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';

const run = promisify(execFile);

// Every embedded test starts from a copy of an embedded server's folder made here once (initdb, and the sample
// game's migrations for the sample one), stopped: a test file copies it and starts its own server on the copy, rather
// than running initdb and the migrations again.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'turnkit-test-template-'));
  // As root the server runs as another account, which must reach the copies (see test/helpers/embedded-copy.ts).
  await chmod(root, 0o755);
  const empty = join(root, 'empty');
  const sample = join(root, 'sample');
  await startAndStop(root, empty, async () => {});
  await run('cp', ['-a', empty, sample]);
  await startAndStop(root, sample, async (db) => {
    await migrate(db, SAMPLE_MIGRATIONS_DIR);
  });
  project.provide('embeddedTemplate', empty);
  project.provide('embeddedSampleTemplate', sample);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}

async function startAndStop(
  baseDir: string,
  stateDir: string,
  work: (db: Awaited<ReturnType<typeof openDb>>) => Promise<void>,
): Promise<void> {
  const config = {
    ...configSchema.parse({ ...sampleGameConfig, database: { embedded: { dataDir: stateDir, port: 0 } } }),
    baseDir,
    file: undefined,
  };
  const db = await openDb(config);
  try {
    await work(db);
  } finally {
    // The last user out: the server stops, and the folder can be copied whole.
    await db.close();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** An embedded server's folder (stopped) with an empty database: copy it with copyEmbedded. */
    embeddedTemplate: string;
    /** The same with the sample game's migrations applied. */
    embeddedSampleTemplate: string;
  }
}
