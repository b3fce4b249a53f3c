import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { scratchBegin } from '../../src/scratch/scratch-begin.js';

describe('scratchBegin', () => {
  it('adds synchronous_commit = off after the given settings', () => {
    expect(scratchBegin(['SET CONSTRAINTS ALL DEFERRED'])).toBe(
      'BEGIN; SET CONSTRAINTS ALL DEFERRED; SET LOCAL synchronous_commit = off',
    );
    expect(scratchBegin()).toBe('BEGIN; SET LOCAL synchronous_commit = off');
  });
});

describe.each(BACKENDS)("a rep's transactions and their commit on %s", (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 12, turn: 8, otherTurns: 4 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => t?.cleanup());

  it("seeds and tears down with the server's own commit setting left as it was, the seed seen at once by a new connection", async () => {
    const before = await tableChecksums(t.db);
    // What turnkit's own connections send, and what synchronous_commit is as each of the rep's transactions commits.
    const sent: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      if (typeof first === 'string') sent.push(first);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    let scratch: Awaited<ReturnType<ScratchSession['seed']>>;
    try {
      scratch = await session.seed(fixture);
      // A connection of the SUT's kind (the server's URL, not turnkit's pool) sees the campaign the moment seed returns.
      const sut = new pg.Client({ connectionString: scratch.databaseUrl });
      await sut.connect();
      try {
        const { rows } = await sut.query('SELECT count(*)::int AS n FROM campaigns WHERE id = $1', [scratch.key]);
        expect(rows[0].n).toBe(1);
        const { rows: setting } = await sut.query('SHOW synchronous_commit');
        expect(setting[0].synchronous_commit).toBe('on');
      } finally {
        await sut.end();
      }
      await scratch.teardown({ effects: true });
    } finally {
      pg.Client.prototype.query = original;
    }
    const begins = sent.filter((text) => /^BEGIN;/.test(text) && text.includes('SET CONSTRAINTS ALL DEFERRED'));
    expect(begins).toHaveLength(2); // the seed's and the teardown's
    for (const begin of begins) expect(begin.endsWith('; SET LOCAL synchronous_commit = off')).toBe(true);
    // Outside those transactions the pool's connections keep the server's setting.
    const { rows } = await t.db.pool.query('SHOW synchronous_commit');
    expect(rows[0].synchronous_commit).toBe('on');
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
