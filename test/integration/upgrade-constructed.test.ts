import { cp, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { readConstructed } from '../../src/fixture/constructed/read-constructed.js';
import { readFixture } from '../../src/fixture/read-fixture.js';
import { projectPaths } from '../../src/project/open-project.js';
import type { ProjectContext } from '../../src/project/project-context.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { seed, teardown } from '../../src/scratch/scratch-operations.js';
import { upgrade } from '../../src/upgrade/upgrade-fixtures.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';

const TEST_MIGRATIONS = fileURLToPath(new URL('../helpers/upgrade-migrations', import.meta.url));

// A fifth migration, this test's own: it drops a column a constructed fixture changes.
const DROP_TOKENS = `import { sql, type Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await sql\`ALTER TABLE turns DROP COLUMN tokens_used\`.execute(db);
}
export async function down(db: Kysely<any>): Promise<void> {
  await sql\`ALTER TABLE turns ADD COLUMN tokens_used bigint\`.execute(db);
}
`;

describe.each(BACKENDS)('turnkit upgrade of constructed fixtures on %s', (backend) => {
  let t: TestDb;
  let project: ProjectContext;
  const now = new Date('2026-12-10T12:00:00Z');
  const fixed = 'You ride the lift to the mess hall on deck 2 and back down to deck 3.';

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    const campaign = await createSampleCampaign(t.db, { turns: 30 });
    await mkdir(join(t.dir, 'migrations'));
    await symlink(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(t.dir, 'node_modules'), 'dir');
    await cp(SAMPLE_MIGRATIONS_DIR, join(t.dir, 'migrations'), { recursive: true });
    project = {
      config: { ...t.config, migrations: 'migrations' },
      paths: projectPaths(t.config),
      db: t.db,
    };
    await capture(project, { campaign, turns: { turn: 23 }, name: 'turn-23', scrubKey: TEST_SCRUB_KEY });
    const base = await readFixture(join(t.dir, 'fixtures', 'turn-23.json'));
    // Two edited copies of turn 19's row: its narration, and a column the fifth migration drops.
    const edited = (column: string, value: unknown): Fixture => ({
      ...base,
      tables: {
        ...base.tables,
        turns: {
          ...base.tables.turns!,
          rows: base.tables.turns!.rows.map((row) => (row.turn_number === 19 ? { ...row, [column]: value } : row)),
        },
      },
    });
    await mkdir(join(t.dir, 'edits'));
    await writeFile(join(t.dir, 'edits/narration.json'), serializeDocument(edited('narration', fixed)));
    await writeFile(join(t.dir, 'edits/tokens.json'), serializeDocument(edited('tokens_used', '123456')));
    for (const [name, from] of [
      ['narration-fixed', 'edits/narration.json'],
      ['tokens-changed', 'edits/tokens.json'],
    ] as const)
      await construct(project, { fixture: 'fixtures/turn-23.json', turn: 19, from, name, why: `test ${name}` });
    for (const name of await readdir(TEST_MIGRATIONS))
      await cp(join(TEST_MIGRATIONS, name), join(t.dir, 'migrations', name));
    await writeFile(join(t.dir, 'migrations', '20261210040000_drop_tokens_used.ts'), DROP_TOKENS);
    await migrate(t.db, join(t.dir, 'migrations'));
    // The players' emails the migrations add need a rule before an upgrade captures them.
    project = {
      ...project,
      config: { ...project.config, scrub: { ...project.config.scrub, 'users.contact_email': 'email' } },
    };
  }, 240_000);
  afterAll(async () => t?.cleanup());

  it('writes nothing while one constructed fixture cannot follow; re-records the other once it is moved aside', async () => {
    const baseFile = join(t.dir, 'fixtures', 'turn-23.json');
    const narrationFile = join(t.dir, 'constructed', 'narration-fixed.json');
    const tokensFile = join(t.dir, 'constructed', 'tokens-changed.json');
    const before = new Map<string, string>();
    for (const file of [baseFile, narrationFile, tokensFile]) before.set(file, await readFile(file, 'utf8'));
    // The one whose column the migrations drop would no longer materialize on the upgraded base: all or none.
    const refused = await upgrade(project, { scrubKey: TEST_SCRUB_KEY, now });
    const refusedBy = new Map(refused.fixtures.map((entry) => [entry.file, entry]));
    expect(refusedBy.get(baseFile)).toMatchObject({ status: 'held' });
    expect(refusedBy.get(narrationFile)).toMatchObject({ status: 'held' });
    const tokens = refusedBy.get(tokensFile)!;
    expect(tokens.status).toBe('failed');
    expect(tokens.why).toContain('dropped');
    expect(tokens.why).toContain('tokens_used');
    for (const [file, text] of before) expect(await readFile(file, 'utf8'), file).toBe(text);

    // The author sets it aside; the base and the other follower are upgraded together.
    await mkdir(join(t.dir, 'aside'));
    await rename(tokensFile, join(t.dir, 'aside', 'tokens-changed.json'));
    const result = await upgrade(project, { scrubKey: TEST_SCRUB_KEY, now });
    const byFile = new Map(result.fixtures.map((entry) => [entry.file, entry]));
    expect(byFile.get(baseFile)).toMatchObject({ status: 'upgraded' });
    expect(byFile.get(narrationFile)).toMatchObject({ status: 'upgraded', written: narrationFile });
    expect(byFile.get(narrationFile)!.migrations).toHaveLength(5);

    // The follower is one change of turn 19 on the upgraded base, and it materializes and seeds.
    const upgradedBase = await readFixture(join(t.dir, 'fixtures', 'turn-23.json'));
    expect(upgradedBase.tables.turns!.columns.map((column) => column.name)).not.toContain('tokens_used');
    const file = await readConstructed(narrationFile);
    expect(file.document.turn).toBe(19);
    expect(file.changes.map(({ table, column, value }) => ({ table, column, value }))).toEqual([
      { table: 'turns', column: 'narration', value: fixed },
    ]);
    const loaded = await loadFixture(narrationFile);
    const row = loaded.fixture.tables.turns!.rows.find((candidate) => candidate.turn_number === 19)!;
    expect(row.narration).toBe(fixed);
    expect(row).toHaveProperty('word_count');
    const seeded = await seed(project, { fixture: narrationFile });
    await teardown(project, { key: seeded.id });
  }, 240_000);
});
