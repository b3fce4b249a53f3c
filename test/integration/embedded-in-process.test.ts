import { afterEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { connectEmbedded, type Db } from '../../src/db/connect.js';

// The owner of the embedded server reaches it in memory (db/in-process-stream.ts), its SUTs over TCP: the same
// answers either way, and one queue for both, so that a transaction of turnkit's holds a SUT's statements off.
describe('the embedded owner in process', () => {
  let dir: string | undefined;
  let db: Db | undefined;
  let sut: pg.Client | undefined;
  afterEach(async () => {
    await sut?.end().catch(() => {});
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    sut = db = dir = undefined;
  });

  const open = async (): Promise<Db> => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-in-process-'));
    const dataDir = join(dir, 'pgdata');
    await cp(inject('pgdataTemplate'), dataDir, { recursive: true });
    db = await connectEmbedded({ dataDir, port: 0, handleSignals: false });
    sut = new pg.Client({ connectionString: db.url });
    await sut.connect();
    return db;
  };

  it('answers as the socket does, types and errors included', async () => {
    const own = await open();
    expect(own.embedded?.connectInProcess).toBeTypeOf('function');
    expect(own.embedded?.owner).toBe(true);
    const queries: [string, unknown[]][] = [
      [
        "SELECT $1::int + 1 AS n, $2::text AS t, now() > '2000-01-01' AS later, 12345678901234::bigint AS big",
        [41, 'é'],
      ],
      ["SELECT ARRAY['a', 'b']::text[] AS list, '{\"k\": [1, 2]}'::jsonb AS doc, '\\x00ff'::bytea AS bytes", []],
      ['SELECT generate_series(1, 500) AS i', []],
    ];
    for (const [text, values] of queries) {
      const here = await own.pool.query(text, values);
      const there = await sut!.query(text, values);
      expect(here.rows).toEqual(there.rows);
      expect(here.fields.map((field) => field.dataTypeID)).toEqual(there.fields.map((field) => field.dataTypeID));
    }
    const refused = (client: { query(text: string): Promise<unknown> }) =>
      client.query('SELECT 1 / 0').then(
        () => undefined,
        (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
      );
    expect(await refused(own.pool)).toBe('22012: division by zero');
    expect(await refused(sut!)).toBe('22012: division by zero');
  });

  it("holds a SUT's statement off while turnkit's own transaction is open, as one queue", async () => {
    const own = await open();
    await own.pool.query('CREATE TABLE queued (n int)');
    const client = await own.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO queued VALUES (1)');
      const order: string[] = [];
      // The SUT's statement waits for the commit: it sees the row, and is answered after turnkit's last statement.
      const seen = sut!.query('SELECT count(*)::int AS n FROM queued').then((result) => {
        order.push('sut');
        return result.rows[0].n as number;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.query('INSERT INTO queued VALUES (2)');
      order.push('turnkit');
      await client.query('COMMIT');
      expect(await seen).toBe(2);
      expect(order).toEqual(['turnkit', 'sut']);
    } finally {
      client.release();
    }
  });

  it('rolls back what an in-process connection left open when it goes away', async () => {
    const own = await open();
    await own.pool.query('CREATE TABLE left_open (n int)');
    const client = await own.pool.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO left_open VALUES (1)');
    // Discarded, not returned: its stream is destroyed, as a socket that closed.
    client.release(true);
    const result = await sut!.query('SELECT count(*)::int AS n FROM left_open');
    expect(result.rows[0].n).toBe(0);
  });
});
