import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';

// `seed --check` of the sample project's committed fixture in a fresh copy: the copy's `turnkit sample` made its own
// sample player (created now), so the fixture's users row is not the database's. seed leaves a shared row that is
// already there as it is, and the check says so, naming the row and the column, never their values.
describe.each(BACKENDS)('checking a scratch campaign against its shared rows on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 12 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => t?.cleanup());

  it('agrees with a fixture of this database: its scrubbed email and password hash are not compared', async () => {
    expect(fixture.source.scrub?.rules).toMatchObject({ 'users.email': 'email', 'users.password_hash': 'hash' });
    const live = await t.db.pool.query('SELECT email FROM users WHERE id = $1', [fixture.tables.users!.rows[0]!.id]);
    expect(live.rows[0].email).not.toBe(fixture.tables.users!.rows[0]!.email);
    const scratch = await session.seed(fixture);
    try {
      expect(await session.check(scratch, fixture)).toEqual({ equal: true, differences: [] });
    } finally {
      await scratch.teardown();
    }
  });

  it('names the shared row the database holds with other values, its column and why, without the values', async () => {
    // The same fixture as captured from another database, where the sample player was created at another time.
    const elsewhere = structuredClone(fixture);
    elsewhere.tables.users!.rows[0]!.created_at = '2020-01-02T03:04:05.678+00:00';
    const scratch = await session.seed(elsewhere);
    try {
      const check = await session.check(scratch, elsewhere);
      expect(check.equal).toBe(false);
      expect(check.differences).toEqual([
        "$.tables.users: 1 shared row(s) the database holds with other values: rows[0] (created_at); seed uses a shared row already in the database as it is, so the scratch campaign stands on the database's row, not the fixture's (a fixture captured from another database, or the row changed since)",
      ]);
      const live = await t.db.pool.query('SELECT created_at::text AS at, display_name FROM users');
      for (const value of [live.rows[0].at, live.rows[0].display_name, '2020-01-02'])
        expect(check.differences.join('\n')).not.toContain(value);
      // seed did not overwrite the database's row with the fixture's.
      expect(live.rows[0].at).not.toContain('2020-01-02');
    } finally {
      await scratch.teardown();
    }
  });

  it('lists every column that differs', async () => {
    const elsewhere = structuredClone(fixture);
    elsewhere.tables.users!.rows[0]!.created_at = '2020-01-02T03:04:05.678+00:00';
    elsewhere.tables.users!.rows[0]!.display_name = 'Someone Else';
    // The sample config scrubs display_name (not compared): here it stands for a column captured without a rule.
    delete elsewhere.source.scrub!.rules['users.display_name'];
    const scratch = await session.seed(elsewhere);
    try {
      const [line] = (await session.check(scratch, elsewhere)).differences;
      expect(line).toContain('rows[0] (display_name, created_at)');
      expect(line).not.toContain('Someone Else');
    } finally {
      await scratch.teardown();
    }
  });
});
