import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

// A rep's statements go named from their second use (scratch-transaction.ts): the server keeps them planned. The
// same campaign seeded, read and torn down whether a rep's statements are sent named or not, and a server that lost
// the names (a SUT's DEALLOCATE ALL in the embedded server's one session) costs a retry, not a failed rep.
describe.each(BACKENDS)('named statements of a rep on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 12, turn: 8, otherTurns: 4 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => t?.cleanup());

  // Turnkit's statements kept on the server; the pool hands back its last-used connection, whose session they are in.
  const prepared = async (): Promise<number> =>
    (await t.db.pool.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'tk\\_%'`)).rows[0].n;

  // One rep as `turnkit run` makes it, with a SUT that renames the campaign: what it saw and what teardown found.
  const rep = async () => {
    const scratch = await session.seed(fixture);
    const check = await session.check(scratch, fixture);
    const before = await session.beforeSut(scratch, fixture);
    const sut = new pg.Client({ connectionString: scratch.databaseUrl });
    await sut.connect();
    try {
      await sut.query(`UPDATE campaigns SET title = 'it''s "renamed"' WHERE id = $1`, [scratch.key]);
    } finally {
      await sut.end();
    }
    const report = await scratch.teardown({ effects: true, horizon: before.horizon });
    return {
      differences: check.differences,
      shared: [...before.shared].map(([table, rows]) => [table, [...rows]]),
      effects: report.effects,
      deleted: report.deleted,
      addedBySut: report.addedBySut,
    };
  };

  it('seeds, reads and tears down the same campaign with its statements named as unnamed', async () => {
    const checksums = await tableChecksums(t.db);
    const first = await rep();
    expect(first.differences).toEqual([]);
    expect(first.effects?.tables.some((table) => table.updated > 0)).toBe(true);
    // From the second rep on, the statements the first one sent go named.
    for (let i = 0; i < 3; i++) expect(await rep()).toEqual(first);
    expect(await prepared()).toBeGreaterThan(5);
    expect(await tableChecksums(t.db)).toEqual(checksums);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('keeps its names with the connections that made them after the session closes; a later session names again', async () => {
    const own = new ScratchSession(t.db, { game: t.config.game });
    const before = await prepared();
    for (let i = 0; i < 3; i++) {
      const scratch = await own.seed(fixture);
      await own.beforeSut(scratch, fixture);
      await scratch.teardown({ effects: true });
    }
    expect(await prepared()).toBeGreaterThan(before);
    await own.close();
    // The names go with the connection that made them (a session of its own), and stay until then.
    expect(await prepared()).toBeGreaterThan(before);
    // A later session of the same process names its statements again.
    const later = new ScratchSession(t.db, { game: t.config.game });
    for (let i = 0; i < 2; i++) await (await later.seed(fixture)).teardown();
    expect(await prepared()).toBeGreaterThan(0);
    await later.close();
  });

  it('runs a rep again unnamed when the server lost the statements its connection prepared', async () => {
    const checksums = await tableChecksums(t.db);
    const first = await rep();
    await rep();
    expect(await prepared()).toBeGreaterThan(5);
    // Lost as a pooler that moves a connection to another session would lose them: on turnkit's own connection.
    await t.db.pool.query('DEALLOCATE ALL');
    expect(await prepared()).toBe(0);
    for (let i = 0; i < 2; i++) expect(await rep()).toEqual(first);
    // That connection sends its statements unnamed from then on.
    expect(await prepared()).toBe(0);
    expect(await tableChecksums(t.db)).toEqual(checksums);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
