import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts } from '../helpers/table-checksums.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { collectGarbage } from '../../src/scratch/gc.js';

// A SUT's leftover process holding a row of its campaign in an open transaction: teardown and gc wait a bounded
// time, then say which campaign and which backend. Real Postgres: the embedded server has one backend, no lock waits.
describe.runIf(BACKENDS.includes('postgres'))('teardown and gc under a lock a leftover session holds', () => {
  let t: TestDb;
  let fixture: Fixture;
  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture('postgres', { turns: 12, turn: 8 }));
  });
  afterAll(async () => t?.cleanup());

  /** A session of its own that locks the scratch campaign's root row and stays idle in its transaction. */
  async function holdLock(key: string): Promise<{ pid: number; client: pg.Client }> {
    const client = new pg.Client({ connectionString: t.databaseUrl, application_name: 'leftover-sut' });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT id FROM campaigns WHERE id = $1 FOR UPDATE', [key]);
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    return { pid, client };
  }

  it('teardown gives up after lock_timeout, naming the campaign and the blocking backend; it succeeds once that ends', async () => {
    const session = new ScratchSession(t.db, { game: t.config.game });
    const scratch = await session.seed(fixture);
    const { pid, client } = await holdLock(scratch.key);
    const heard: string[] = [];
    const bounded = new ScratchSession(t.db, { lockTimeoutMs: 1_500, onLockWait: (message) => heard.push(message) });
    try {
      await expect(bounded.teardown(scratch.id)).rejects.toThrow(
        `scratch campaign ${scratch.id} (${fixture.name}): teardown waited 1.5 s for a lock held by backend pid ${pid} (leftover-sut, idle in transaction); end that session (SELECT pg_terminate_backend(${pid})), then run turnkit gc`,
      );
      expect(heard).toEqual([
        `waiting for a lock on scratch campaign ${scratch.id} held by backend pid ${pid} (leftover-sut, idle in transaction) (up to 1.5 s)`,
      ]);
      // gc says what it waits for, reports the campaign failed with the same reason, and goes on.
      const waits: string[] = [];
      const report = await collectGarbage(t.db, { all: true, lockTimeoutMs: 1_500, onLockWait: (m) => waits.push(m) });
      expect(waits).toEqual([heard[0]]);
      expect(report.failed).toEqual([{ id: scratch.id, error: expect.stringContaining(`backend pid ${pid}`) }]);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
    await bounded.teardown(scratch.id);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
