// What a rollout rep's own time per turn was cut by (bench:rollout) leaves its output as it was: the seed's plan is
// the one every later step of the rep uses, and the turn row turnkit writes without waiting for a WAL flush is the
// same row, there for the next statement at once, with the connection's settings as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { resolveGameGraph } from '../../src/fixture/game-graph.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { TurnEffectsReader } from '../../src/scratch/turn-effects.js';

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
});
