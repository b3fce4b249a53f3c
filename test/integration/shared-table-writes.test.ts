import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { PRISMA_DATA, PRISMA_SCHEMA, ROOM_A, cuid } from '../helpers/prisma-style-schema.js';
import { captureFromDb } from '../../src/fixture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';

// A SUT that signs a new user up writes a row of a shared table: teardown deletes only the campaign's rows, so the
// user stays in the database, and the rep says so rather than leaving it unreported.
const CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'rooms', key: 'id' },
    turns: {
      table: 'NarrativeEntry',
      order: 'createdAt',
      turn: 'turn',
      role: { column: 'type', input: ['ACTION'], output: 'NARRATION' },
      input: ['content'],
    },
    shared: ['User'],
    exclude: ['_prisma_migrations'],
    references: { 'votes.roomId': 'rooms' },
    turnColumns: { votes: 'turn' },
  },
  scrub: { 'User.username': 'keep', 'User.email': 'email' },
};
const NEW_USER = cuid('usernewcomer');

describe.each(BACKENDS)('rows a SUT writes in a shared table on %s', (backend) => {
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    t = await createTestDb(backend, CONFIG);
    await t.db.pool.query(PRISMA_SCHEMA);
    await t.db.pool.query(PRISMA_DATA);
    project = await openProject({ cwd: t.dir, config: CONFIG, db: t.db });
    const [fixture] = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: ROOM_A, turns: { turn: 3 } }))
      .fixtures;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/keep.json'), serializeDocument({ ...fixture!, name: 'keep' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it plays\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
  }, 120_000);
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const question = (id: string, sut: SutFunction) => ({
    id,
    question: 'Does the SUT play?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.9,
    reps: 1,
    fixtures: ['fixtures/keep.json'],
    sut: sut as never,
    caseFile: 'questions/case.md',
  });

  it('reports the new shared row in the rep, which teardown leaves in place', async () => {
    const signsUp: SutFunction = async (_request, { db }) => {
      await db.query(`INSERT INTO "User" ("id", "username", "email") VALUES ($1, 'zed', 'zed@example.org')`, [
        NEW_USER,
      ]);
      return { response: 'signed up' };
    };
    const result = await run(project, { question: question('signs-up', signsUp) });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/keep/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toBeNull();
    expect(record.outside).toEqual([
      `User[${NEW_USER}]: written during the rep (a shared row the fixture does not hold; teardown leaves it in place)`,
    ]);
    const { rows } = await t.db.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM "User" WHERE id = $1', [
      NEW_USER,
    ]);
    expect(rows[0]!.n).toBe('1');
    await t.db.pool.query('DELETE FROM "User" WHERE id = $1', [NEW_USER]);
  });

  it("reports nothing outside for a SUT that writes only its campaign; its rows read with the fixture's keys", async () => {
    const before = await tableChecksums(t.db);
    let scratchRoom = '';
    const plays: SutFunction = async (request, { db }) => {
      scratchRoom = request.campaign;
      await db.query(`INSERT INTO "votes" ("id", "roomId", "turn", "choice") VALUES ($1, $2, 3, 'up')`, [
        cuid('votenew'),
        request.campaign,
      ]);
      return { response: 'played' };
    };
    const result = await run(project, { question: question('plays', plays) });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/keep/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toBeNull();
    expect(record.outside ?? []).toEqual([]);
    // The vote names the scratch room in the database; the record names the fixture's room, as the fixture does.
    expect(scratchRoom).not.toBe(ROOM_A);
    expect(record.effects!.insertedRows.votes).toEqual([
      { id: cuid('votenew'), roomId: ROOM_A, turn: 3, choice: 'up' },
    ]);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
