import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbLoad } from '../../src/app/db-commands.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { itHasProgram, onPath, systemProgram } from '../helpers/system-programs.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { BACKENDS, createSampleTestDb, createTestDb, type TestDb } from '../helpers/test-db.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';

const run = promisify(execFile);

// A game's schema from `pg_dump --schema-only` (its preamble empties search_path for its session), loaded with
// `turnkit db load` (no psql), then used: a campaign, a capture, a seed and a teardown, each on a normal session.
// The dump is taken from the sample game on the real server (TEST_DATABASE_URL), with the machine's pg_dump (it
// comes with psql's package).
const psql = systemProgram('psql', onPath('pg_dump'), 'pg_dump is not on the PATH');
const source = process.env.TEST_DATABASE_URL;

describe.each(BACKENDS)('turnkit db load of a pg_dump schema on %s', (backend) => {
  let t: TestDb;
  let dump: string;
  beforeAll(async () => {
    if (!psql.found || !source) return;
    const from = await createSampleTestDb('postgres');
    try {
      const { stdout } = await run('pg_dump', ['--schema-only', '--no-owner', '--no-privileges', from.databaseUrl!]);
      dump = stdout;
    } finally {
      await from.cleanup();
    }
    // The same game, with an empty database: its schema comes from the dump alone.
    t = await createTestDb(backend, { ...sampleGameConfig });
  });
  afterAll(async () => t?.cleanup());

  itHasProgram('psql', psql);

  it.runIf(psql.found && source)('loads it, and the game then seeds and runs on sessions of its own', async () => {
    expect(dump).toMatch(/set_config\('search_path', '', false\)/);
    const file = join(t.dir, 'schema.sql');
    await writeFile(file, dump);
    const loaded = await dbLoad({ cwd: t.dir, file: 'schema.sql', databaseUrl: t.databaseUrl, env: {} });
    expect(loaded.file).toBe('schema.sql');
    expect(loaded.statements).toBeGreaterThan(20);
    // The dump's search_path died with the loader's session: turnkit's pool and a new client find the tables.
    for (const client of [t.db.pool, new pg.Client({ connectionString: t.db.url })]) {
      if (client instanceof pg.Client) await client.connect();
      const { rows } = await client.query(
        `SELECT current_setting('search_path') AS path, to_regclass('campaigns') IS NOT NULL AS found`,
      );
      expect(rows[0]).toEqual({ path: '"$user", public', found: true });
      if (client instanceof pg.Client) await client.end();
    }
    const campaign = await createSampleCampaign(t.db, { turns: 6 });
    const before = await tableChecksums(t.db);
    const fixture = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 5 } }))
      .fixtures[0]!;
    const session = new ScratchSession(t.db, { game: t.config.game });
    const scratch = await session.seed(fixture);
    expect((await session.check(scratch, fixture)).differences).toEqual([]);
    await scratch.teardown();
    await session.close();
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it.runIf(psql.found && source)('rolls a failing file back whole and names the line', async () => {
    await writeFile(
      join(t.dir, 'broken.sql'),
      ['-- a broken file', 'CREATE TABLE loaded_then_gone (id int);', '', "SET search_path = '';", 'SELEC 1;', ''].join(
        '\n',
      ),
    );
    await expect(dbLoad({ cwd: t.dir, file: 'broken.sql', databaseUrl: t.databaseUrl, env: {} })).rejects.toThrow(
      /^broken\.sql:5: syntax error at or near "SELEC"$/,
    );
    const { rows } = await t.db.pool.query(`SELECT to_regclass('public.loaded_then_gone') AS gone`);
    expect(rows[0].gone).toBeNull();
  });
});
