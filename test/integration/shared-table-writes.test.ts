import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import {
  PRISMA_STYLE_CONFIG,
  ROOM_A,
  cuid,
  prismaStyleProject,
  type PrismaStyleProject,
} from '../helpers/prisma-style-schema.js';
import type { Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// A SUT that signs a new user up writes a row of a shared table: teardown deletes only the campaign's rows, so the
// user stays in the database, and the rep says so rather than leaving it unreported.
const NEW_USER = cuid('usernewcomer');

describe.each(BACKENDS)('rows a SUT writes in a shared table on %s', (backend) => {
  let p: PrismaStyleProject;
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    p = await prismaStyleProject(backend, PRISMA_STYLE_CONFIG, 'pass when it plays\n');
    ({ t, project } = p);
  }, 120_000);
  afterAll(async () => p?.close());

  const question = (id: string, sut: SutFunction) => ({
    id,
    question: 'Does the SUT play?',
    ...p.files,
    target: 0.9,
    reps: 1,
    sut: sut as never,
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
