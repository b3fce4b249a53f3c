// What a rollout rep's own time per turn was cut by (bench:rollout) leaves its output as it was: the seed's plan is
// the one every later step of the rep uses, and the turn row turnkit writes without waiting for a WAL flush is the
// same row, there for the next statement at once, with the connection's settings as they were; the reader's named
// statements (PostgreSQL) read what its unnamed ones read, and a server that lost or clashes with a name gets them
// unnamed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { resolveGameGraph } from '../../src/fixture/graph/game-graph.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { TurnEffectsReader } from '../../src/scratch/effects/turn-effects.js';
import { namedStatement, queryNamed } from '../../src/db/named-statement.js';
import type { Queryable } from '../../src/db/introspect.js';
import type { PoolClient } from 'pg';

describe.each(BACKENDS)('a rollout turn’s own cost on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 23 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => {
    await session?.close();
    await t?.cleanup();
  });

  it("plans a rep's fixture once: the read before the SUT and the rollout's reader take the seed's plan", async () => {
    const file = 'fixtures/rollout.json';
    const scratch = await session.seed(fixture, { file });
    try {
      const seeded = await session.prepare(fixture, { file });
      expect(seeded.plan.file).toBe(file);
      // beforeSut names no file: it once re-planned under `<name>.json`, and the rep's next steps planned again.
      await session.beforeSut(scratch, fixture);
      expect(await session.prepare(fixture)).toBe(seeded);
      expect(await session.prepare(fixture, { file })).toBe(seeded);
      // Another file named is still planned afresh (its name is in the seed's error messages).
      const other = await session.prepare(fixture, { file: 'fixtures/other.json' });
      expect(other).not.toBe(seeded);
      expect(other.plan.file).toBe('fixtures/other.json');
    } finally {
      await scratch.teardown();
    }
  });

  it('writes the turn row of a SUT that only answers as before, seen at once, the connection left as it was', async () => {
    const scratch = await session.seed(fixture);
    const client = await t.db.pool.connect();
    try {
      const graph = resolveGameGraph(t.config, await session.currentCatalog());
      const { rows: last } = await client.query<{ n: number }>(
        'SELECT max(turn_number) AS n FROM turns WHERE campaign_id = $1',
        [scratch.key],
      );
      const reader = await TurnEffectsReader.open(client, graph, scratch.key);
      const delta = await reader.read(client, {
        input: fixture.input.values,
        response: 'the mess hall is on deck 2',
        output: ['narration'],
      });
      expect(delta.turnRows).toEqual([]);
      expect(delta.written).toMatchObject({
        campaign_id: Number(scratch.key),
        turn_number: last[0]!.n + 1,
        narration: 'the mess hall is on deck 2',
        ...fixture.input.values,
      });
      expect(delta.effects.inserted).toEqual({ turns: 1 });
      // The row is committed and there for the next statement, and the setting was the transaction's alone.
      const { rows } = await client.query<{ narration: string }>(
        'SELECT narration FROM turns WHERE campaign_id = $1 AND turn_number = $2',
        [scratch.key, last[0]!.n + 1],
      );
      expect(rows).toEqual([{ narration: 'the mess hall is on deck 2' }]);
      const { rows: setting } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
      expect(setting[0]!.synchronous_commit).toBe('on');
      // The next read sees no change but the ones after the written row.
      const next = await reader.read(client);
      expect(next.effects).toEqual({ inserted: {}, updated: {}, deleted: {}, insertedRows: {} });
    } finally {
      client.release();
      await scratch.teardown();
    }
  });

  it('reads the same turns named as unnamed, past the point the server plans the statement once for all', async () => {
    const scratch = await session.seed(fixture);
    const client = await t.db.pool.connect();
    try {
      const graph = resolveGameGraph(t.config, await session.currentCatalog());
      const named = await TurnEffectsReader.open(client, graph, scratch.key, undefined, {
        named: true,
      });
      const unnamed = await TurnEffectsReader.open(client, graph, scratch.key);
      const sut = (sql: string) => client.query(sql, [scratch.key]);
      // Eight turns (a named statement's first five executions are planned each time, then a generic plan is kept):
      // a turn row the SUT writes, an update, a deletion; then turnkit's own turn row, written by one reader and seen
      // by the other as the turn's insert.
      for (let turn = 0; turn < 8; turn++) {
        await sut(
          "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) SELECT $1, max(turn_number) + 1, 'x', 'y', now(), 0 FROM turns WHERE campaign_id = $1",
        );
        if (turn % 2 === 1) await sut(`UPDATE characters SET name = name || '!' WHERE campaign_id = $1`);
        if (turn === 5)
          await sut('DELETE FROM world_facts WHERE id = (SELECT min(id) FROM world_facts WHERE campaign_id = $1)');
        const a = await named.read(client);
        const b = await unnamed.read(client);
        expect(a).toEqual(b);
        expect(a.effects.inserted).toEqual({ turns: 1 });
        expect(a.turnRows).toHaveLength(1);
        if (turn % 2 === 1) expect(a.effects.updated.characters).toBeGreaterThan(0);
        if (turn === 5) expect(a.effects.deleted).toEqual({ world_facts: 1 });
        const write = { input: fixture.input.values, response: `turn ${turn}`, output: ['narration'] };
        const [writer, watcher] = turn % 2 === 0 ? [named, unnamed] : [unnamed, named];
        const wrote = await writer.read(client, write);
        const saw = await watcher.read(client);
        expect(wrote.written).toMatchObject({ narration: `turn ${turn}` });
        expect(saw.turnRows).toEqual([wrote.written]);
        expect(saw.effects).toEqual(wrote.effects);
      }
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'turnkit\\_%'",
      );
      // Named on this connection's session (the seed's and teardown's statements, named as tk_..., are
      // scratch-transaction.ts's and not counted).
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      client.release();
      await scratch.teardown();
    }
  });

  it('runs a statement unnamed again when the server lost its name or holds it from elsewhere', async () => {
    const client = await t.db.pool.connect();
    // Once a client falls back, its later statements stay unnamed: each case is a client of its own to queryNamed
    // (one connection underneath: the embedded pool has one).
    const lost: Queryable = { query: client.query.bind(client) as PoolClient['query'] };
    const clash: Queryable = { query: client.query.bind(client) as PoolClient['query'] };
    const text = 'SELECT $1::int + 1 AS x';
    const other = 'SELECT $1::int + 2 AS x';
    const names = [text, other].map((statement) => namedStatement(statement, []).name!);
    // This test's statements (the connection may hold the reader's of the tests before).
    const prepared = async () =>
      (
        await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = ANY($1)',
          [names],
        )
      ).rows[0]!.n;
    try {
      expect((await queryNamed<{ x: number }>(lost, true, text, [1])).rows).toEqual([{ x: 2 }]);
      expect(await prepared()).toBe(1);
      // The connection thinks the statement parsed; the server no longer has it (as behind a pooler, or DEALLOCATE).
      await client.query('DEALLOCATE ALL');
      expect((await queryNamed<{ x: number }>(lost, true, text, [2])).rows).toEqual([{ x: 3 }]);
      expect((await queryNamed<{ x: number }>(lost, true, text, [3])).rows).toEqual([{ x: 4 }]);
      expect(await prepared()).toBe(0);
      // The name is taken on the server by another statement: refused at the name, run unnamed, its own result.
      await client.query(`PREPARE ${names[1]} AS SELECT 0 AS x`);
      expect((await queryNamed<{ x: number }>(clash, true, other, [4])).rows).toEqual([{ x: 6 }]);
      expect((await queryNamed<{ x: number }>(clash, true, other, [5])).rows).toEqual([{ x: 7 }]);
      expect(await prepared()).toBe(1);
    } finally {
      for (const name of names) await client.query(`DEALLOCATE ${name}`).catch(() => {});
      client.release();
    }
  });
});
