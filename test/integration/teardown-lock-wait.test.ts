import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts } from '../helpers/table-checksums.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { runRep } from '../../src/pipeline/run-rep.js';
import type { SutCaller } from '../../src/sut/sut-adapter.js';

// A SUT's leftover process holding a row of its campaign in an open transaction: teardown and gc wait a bounded
// time, then say which campaign and which backend.
describe.each(BACKENDS)('teardown and gc under a lock a leftover session holds on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 12, turn: 8 }));
  });
  afterAll(async () => t?.cleanup());

  /** A session of its own that locks the scratch campaign's root row and stays idle in its transaction. */
  async function holdLock(key: string): Promise<{ pid: number; client: pg.Client }> {
    const client = new pg.Client({ connectionString: t.db.url, application_name: 'leftover-sut' });
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

  it("a rep whose SUT timed out while its leftover holds a lock says both in the rep's error, not only the timeout", async () => {
    const session = new ScratchSession(t.db, { game: t.config.game, lockTimeoutMs: 1_500 });
    let leftover: { pid: number; client: pg.Client } | undefined;
    // The SUT leaves a session holding its campaign's row, then is stopped for its time.
    const callSut: SutCaller = async ({ request }) => {
      leftover = await holdLock(request.campaign);
      return { error: { cause: 'timeout', message: 'no answer within 1 s' }, ms: 1_000 };
    };
    try {
      const record = await runRep(session, callSut, {
        fixture,
        fixtureFile: 'fixtures/f.json',
        caseFile: 'case',
        rep: 1,
        attempt: 1,
      });
      expect(record.error).toEqual({
        stage: 'sut',
        cause: 'timeout',
        message: expect.stringMatching(
          new RegExp(
            `^no answer within 1 s; then the teardown failed: scratch campaign \\S+ \\(${fixture.name}\\): teardown waited 1\\.5 s for a lock held by backend pid ${leftover!.pid} \\(leftover-sut, idle in transaction\\)`,
          ),
        ),
      });
    } finally {
      await leftover?.client.query('ROLLBACK');
      await leftover?.client.end();
    }
    expect((await collectGarbage(t.db, { all: true })).failed).toEqual([]);
    await session.close();
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
