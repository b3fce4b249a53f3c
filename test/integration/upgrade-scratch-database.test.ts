import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/db/quote.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import type { Fixture } from '../../src/fixture/format.js';
import { readFixture } from '../../src/fixture/read-fixture.js';
import { readSchemaSnapshot, type SchemaSnapshot } from '../../src/fixture/capture/schema-snapshot.js';
import { projectPaths } from '../../src/project/open-project.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { rebuildSchema } from '../../src/upgrade/rebuild-schema.js';
import { openUpgradeDatabase, type UpgradeDatabase } from '../../src/upgrade/scratch-database.js';
import { seedAsCaptured } from '../../src/upgrade/seed-as-captured.js';
import { snapshotFileOf } from '../../src/upgrade/upgrade-plan.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';

// A game trigger that rewrites what is inserted: a seed that fired it would not hold the rows as captured.
const REWRITING_TRIGGER = `
  CREATE FUNCTION rename_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN NEW.name := NEW.name || ' (rewritten)'; RETURN NEW; END $$;
  CREATE TRIGGER locations_rename BEFORE INSERT ON locations FOR EACH ROW EXECUTE FUNCTION rename_on_insert();
`;

describe.each(BACKENDS)('the database an upgrade rebuilds fixtures in, on %s', (backend) => {
  let t: TestDb;
  let file: string;
  let fixture: Fixture;
  let snapshot: SchemaSnapshot;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    const campaign = await createSampleCampaign(t.db, { turns: 8 });
    await t.db.pool.query(REWRITING_TRIGGER);
    const project = { config: t.config, paths: projectPaths(t.config), db: t.db };
    await capture(project, { campaign, turns: { turn: 6 }, name: 'turn-6', scrubKey: TEST_SCRUB_KEY });
    file = join(t.dir, 'fixtures', 'turn-6.json');
    fixture = await readFixture(file);
    snapshot = await readSchemaSnapshot(snapshotFileOf(file, fixture), 'snapshot');
  }, 240_000);
  afterAll(async () => t?.cleanup());

  const rebuilt = async (scratch: UpgradeDatabase): Promise<void> => {
    await rebuildSchema(scratch.db.pool, snapshot, 'snapshot');
    expect(snapshot.statements.some((statement) => statement.includes('locations_rename'))).toBe(true);
  };
  const names = async (scratch: UpgradeDatabase): Promise<string[]> =>
    (await scratch.db.pool.query('SELECT name FROM locations ORDER BY id')).rows.map((row) => row.name as string);
  const captured = (): string[] =>
    [...fixture.tables.locations!.rows].sort((a, b) => Number(a.id) - Number(b.id)).map((row) => row.name as string);

  it('seeds the captured rows as they are: the game’s triggers do not rewrite them', async () => {
    const scratch = await openUpgradeDatabase(t.db);
    try {
      await rebuilt(scratch);
      const client = await scratch.db.pool.connect();
      try {
        await seedAsCaptured(client, t.config, [{ fixture, file }]);
      } finally {
        client.release();
      }
      expect(captured().length).toBeGreaterThan(0);
      expect(await names(scratch)).toEqual(captured());
      // The trigger is there and fires for what is written afterwards (the migrations').
      await scratch.db.pool.query(`UPDATE locations SET deck_number = deck_number`);
      await scratch.db.pool.query(
        `INSERT INTO locations (campaign_id, deck_number, name, description) SELECT campaign_id, deck_number, 'new', '' FROM locations LIMIT 1`,
      );
      expect((await scratch.db.pool.query(`SELECT name FROM locations WHERE name LIKE 'new%'`)).rows).toEqual([
        { name: 'new (rewritten)' },
      ]);
    } finally {
      await scratch.close();
    }
  });

  it.runIf(backend === 'postgres')(
    'a role that may not write as a replica still seeds (with the triggers firing, as before)',
    async () => {
      const scratch = await openUpgradeDatabase(t.db);
      const role = `turnkit_test_role_${randomBytes(4).toString('hex')}`;
      try {
        await rebuilt(scratch);
        await scratch.db.pool.query(`CREATE ROLE ${quoteIdent(role)} NOLOGIN`);
        // Everything the seed writes or reads, but not a superuser's SET of session_replication_role.
        for (const schema of ['public', 'turnkit'])
          await scratch.db.pool.query(
            `GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${quoteIdent(role)};
             GRANT ALL ON ALL TABLES IN SCHEMA ${schema} TO ${quoteIdent(role)};
             GRANT ALL ON ALL SEQUENCES IN SCHEMA ${schema} TO ${quoteIdent(role)}`,
          );
        const client = await scratch.db.pool.connect();
        try {
          await client.query(`SET ROLE ${quoteIdent(role)}`);
          await seedAsCaptured(client, t.config, [{ fixture, file }]);
          await client.query('RESET ROLE');
        } finally {
          client.release(true);
        }
        expect(await names(scratch)).toEqual(captured().map((name) => `${name} (rewritten)`));
      } finally {
        await scratch.db.pool.query(`DROP OWNED BY ${quoteIdent(role)}`).catch(() => {});
        await scratch.close();
        await t.db.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      }
    },
  );
});
