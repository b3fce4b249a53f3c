import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';

// Reps are isolated: every client of the server has a backend (a session) of its own, so what one rep's SUT does to
// its session (search_path, a timeout, a temporary table, a prepared statement) reaches neither the next rep's SUT
// nor turnkit's own connections; and several reps' SUTs run at once on as many backends (both cores).
describe.each(BACKENDS)('rep sessions on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 8, turn: 6 }));
  });
  afterAll(async () => t?.cleanup());

  it("leaves nothing of one rep's SUT session to the next rep or to turnkit", async () => {
    const before = await tableChecksums(t.db);
    const session = new ScratchSession(t.db, { game: t.config.game });
    try {
      const first = await session.seed(fixture);
      const sut = await connect(first.databaseUrl);
      const sutPid = (await sut.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await sut.query("SET search_path = ''");
      await sut.query('CREATE TEMPORARY TABLE sut_scratch (x int)');
      await sut.query('PREPARE sut_statement AS SELECT 1');
      await sut.query("SET statement_timeout = '1ms'");
      // The SUT keeps its connection open while turnkit tears its rep down and seeds the next: the worst case.
      await first.teardown();
      const second = await session.seed(fixture);
      const next = await connect(second.databaseUrl);
      try {
        for (const client of [next, t.db.pool]) {
          const { rows } = await client.query(
            `SELECT current_setting('search_path') AS path, current_setting('statement_timeout') AS timeout,
                    to_regclass('sut_scratch') AS temp,
                    (SELECT count(*)::int FROM pg_prepared_statements WHERE name = 'sut_statement') AS prepared,
                    pg_backend_pid() AS pid`,
          );
          expect(rows[0]).toMatchObject({ path: '"$user", public', timeout: '0', temp: null, prepared: 0 });
          expect(rows[0].pid).not.toBe(sutPid);
        }
        // The game's tables are found by their plain names again, and a statement may take its time.
        const turns = await next.query('SELECT count(*)::int AS n, pg_sleep(0.01) IS NULL AS slept FROM turns');
        expect(turns.rows[0].n).toBeGreaterThan(0);
      } finally {
        await next.end();
        await sut.end();
      }
      await second.teardown();
    } finally {
      await session.close();
    }
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('runs 8 reps at once, each SUT on a backend of its own working at the same time', async () => {
    const before = await tableChecksums(t.db);
    const session = new ScratchSession(t.db, { game: t.config.game });
    const campaigns = await Promise.all(Array.from({ length: 8 }, () => session.seed(fixture)));
    const suts = await Promise.all(campaigns.map((campaign) => connect(campaign.databaseUrl)));
    try {
      const tag = `turnkit-rep-sessions-${process.pid}`;
      // Every SUT works (a CPU-bound query) at once; an observer sees all eight active together, on eight backends.
      const working = suts.map((sut, i) =>
        sut
          .query(`SET application_name = '${tag}-${i}'`)
          .then(() =>
            sut.query(
              `SELECT count(*) FROM generate_series(1, 2000000) AS g WHERE g % 7 = 3 AND pg_sleep(0) IS NOT NULL`,
            ),
          ),
      );
      let seen: { pid: number }[] = [];
      for (let attempt = 0; attempt < 600 && seen.length < 8; attempt++) {
        seen = (
          await t.db.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1 AND state = 'active'`,
            [`${tag}-%`],
          )
        ).rows;
        if (seen.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(new Set(seen.map((row) => row.pid)).size).toBe(8);
      await Promise.all(working);
    } finally {
      await Promise.all(suts.map((sut) => sut.end()));
      await Promise.all(campaigns.map((campaign) => campaign.teardown()));
      await session.close();
    }
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}
