// A rollout's records against an oracle that knows nothing of how turnkit reads them: at each SUT call the test walks
// the scratch campaign's rows (key, xmin, row) and the next call's walk tells what the turn before changed (inserted,
// updated, deleted per table; the turn's row and who wrote it). What a turn costs turnkit may change (bench:rollout);
// what it records may not: turns, effects, labels, case files and the transcript stay as this test spells them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { resolveGameGraph } from '../../src/fixture/graph/game-graph.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { runRep } from '../../src/pipeline/run-rep.js';
import type { SutCaller } from '../../src/sut/call-sut.js';
import type { RolloutSpec } from '../../src/rollout/run-rollout.js';
import { checksSchema } from '../../src/question/checks-format.js';

/** Every campaign row of the sample game's owned tables: `table key` -> xmin, with the rows themselves. */
type Walk = Map<string, { xmin: string; row: Record<string, unknown> }>;

const WALK = `
  SELECT 'campaigns' AS tbl, t.id::text AS k, t.xmin::text AS x, to_jsonb(t) AS r FROM campaigns t WHERE t.id = $1
  UNION ALL SELECT 'characters', t.id::text, t.xmin::text, to_jsonb(t) FROM characters t WHERE t.campaign_id = $1
  UNION ALL SELECT 'decks', t.campaign_id || ',' || t.deck_number, t.xmin::text, to_jsonb(t) FROM decks t WHERE t.campaign_id = $1
  UNION ALL SELECT 'locations', t.id::text, t.xmin::text, to_jsonb(t) FROM locations t WHERE t.campaign_id = $1
  UNION ALL SELECT 'location_connections', t.from_location_id || ',' || t.to_location_id, t.xmin::text, to_jsonb(t)
    FROM location_connections t WHERE t.from_location_id IN (SELECT id FROM locations WHERE campaign_id = $1)
  UNION ALL SELECT 'turns', t.id::text, t.xmin::text, to_jsonb(t) FROM turns t WHERE t.campaign_id = $1
  UNION ALL SELECT 'world_facts', t.id::text, t.xmin::text, to_jsonb(t) FROM world_facts t WHERE t.campaign_id = $1`;

/** What changed from one walk to the next, as a turn's effects count it (a row written again is updated). */
function changes(before: Walk, after: Walk) {
  const inserted: Record<string, number> = {};
  const updated: Record<string, number> = {};
  const deleted: Record<string, number> = {};
  const rows: Record<string, Record<string, unknown>[]> = {};
  const add = (into: Record<string, number>, key: string) => {
    const table = key.split(' ')[0]!;
    into[table] = (into[table] ?? 0) + 1;
  };
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) {
      add(inserted, key);
      (rows[key.split(' ')[0]!] ??= []).push(now.row);
    } else if (was.xmin !== now.xmin) add(updated, key);
  }
  for (const key of before.keys()) if (!after.has(key)) add(deleted, key);
  return { inserted, updated, deleted, rows };
}

describe.each(BACKENDS)("a rollout's records on %s", (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 23, otherTurns: 5 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => {
    await session?.close();
    await t?.cleanup();
  });

  it('records what each turn changed, who wrote its row, its case file and the transcript, as an outside walk sees them', async () => {
    const pool = t.db.pool;
    const walks: Walk[] = [];
    const sutWroteRow: boolean[] = [];
    const walk = async (campaign: string): Promise<Walk> => {
      const { rows } = await pool.query<{ tbl: string; k: string; x: string; r: Record<string, unknown> }>(WALK, [
        campaign,
      ]);
      return new Map(rows.map((row) => [`${row.tbl} ${row.k}`, { xmin: row.x, row: row.r }]));
    };
    // Each turn's SUT: writes of its own (a different mix each turn), then its answer.
    const plays: ((campaign: string, turn: number) => Promise<boolean>)[] = [
      // Its own turn row and a world fact.
      async (c, turn) => {
        await pool.query(
          "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, $2, 'in', 'sut narration 0', now(), 1)",
          [c, turn],
        );
        await pool.query("INSERT INTO world_facts (campaign_id, subject, fact) VALUES ($1, 'hull', 'breached')", [c]);
        return true;
      },
      // Only answers; updates every character (turnkit writes the turn's row).
      async (c) => {
        await pool.query("UPDATE characters SET name = name || '!' WHERE campaign_id = $1", [c]);
        return false;
      },
      // Touches an earlier turn's row but writes none of its own: turnkit still writes this turn's.
      async (c) => {
        await pool.query(
          "UPDATE turns SET narration = narration || ' (edited)' WHERE id = (SELECT min(id) FROM turns WHERE campaign_id = $1)",
          [c],
        );
        return false;
      },
      // Deletes a fact, adds a location and a connection to it (a table reached through another), and its turn row.
      async (c, turn) => {
        await pool.query(
          'DELETE FROM world_facts WHERE id = (SELECT min(id) FROM world_facts WHERE campaign_id = $1)',
          [c],
        );
        const { rows } = await pool.query<{ id: string; from: string }>(
          `WITH l AS (SELECT * FROM locations WHERE campaign_id = $1 ORDER BY id LIMIT 1)
           INSERT INTO locations (campaign_id, deck_number, name, description) SELECT $1, deck_number, 'airlock', 'cold' FROM l
           RETURNING id, (SELECT id FROM l) AS from`,
          [c],
        );
        await pool.query(
          "INSERT INTO location_connections (from_location_id, to_location_id, kind, travel_minutes) VALUES ($1, $2, 'hatch', 1.5)",
          [rows[0]!.from, rows[0]!.id],
        );
        await pool.query(
          "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, $2, 'in', 'sut narration 3', now(), 2)",
          [c, turn],
        );
        return true;
      },
      // Only answers; moves the campaign's clock, doubts the fact of turn 0, deletes the connection of the turn before.
      async (c) => {
        await pool.query('UPDATE campaigns SET settings = settings || \'{"clock": 5}\' WHERE id = $1', [c]);
        await pool.query("UPDATE world_facts SET certainty = 0.5 WHERE campaign_id = $1 AND subject = 'hull'", [c]);
        await pool.query(
          'DELETE FROM location_connections WHERE to_location_id IN (SELECT id FROM locations WHERE campaign_id = $1 AND name = $2)',
          [c, 'airlock'],
        );
        return false;
      },
      // Writes nothing: its last walk is the one the turn before is compared with.
      async () => false,
    ];
    const callSut: SutCaller = async ({ request }) => {
      const index = request.turn - fixture.input.turn;
      walks.push(await walk(request.campaign));
      sutWroteRow.push(await plays[index]!(request.campaign, request.turn));
      return { response: `answer ${index}: deck 2`, ms: 1 };
    };
    const graph = resolveGameGraph(t.config, await session.currentCatalog());
    const rollout: RolloutSpec = {
      turns: plays.length,
      player: { next: async (turn) => ({ values: { player_input: `move ${turn}` }, ms: 0 }) },
      // The played turns' narration: the case file shows what the turns before wrote, whoever wrote it.
      render: async (view) =>
        view.tables
          .turns!.rows.map((row) => `${row.turn_number}:${row.narration}`)
          .slice(-3)
          .join('|'),
      graph,
      output: ['narration'],
      checks: checksSchema.parse({ mustContain: ['deck 2'] }),
      stopOnFail: true,
    };
    const record = await runRep(session, callSut, {
      fixture,
      fixtureFile: 'fixtures/f.json',
      caseFile: 'first case',
      rep: 1,
      attempt: 1,
      rollout,
    });
    expect(record.error).toBeNull();
    expect(record.rollout).toEqual({ turns: 6, played: 6 });
    const turns = record.turns!;
    const first = fixture.input.turn;
    expect(turns.map((turn) => turn.turn)).toEqual([0, 1, 2, 3, 4, 5].map((i) => first + i));
    expect(turns.map((turn) => turn.turnRow)).toEqual(['sut', 'turnkit', 'turnkit', 'sut', 'turnkit', 'turnkit']);
    expect(sutWroteRow).toEqual([true, false, false, true, false, false]);
    expect(turns.map((turn) => turn.check?.mark)).toEqual(Array(6).fill('pass'));
    expect(turns.map((turn) => turn.input)).toEqual([
      fixture.input.values,
      ...[1, 2, 3, 4, 5].map((i) => ({ player_input: `move ${first + i}` })),
    ]);
    // Each case file shows the turns played before it, the edited one and turnkit's rows included.
    const last = fixture.tables.turns!.rows.at(-1)!;
    expect(turns[0]!.caseFile).toBe('first case');
    expect(turns[1]!.caseFile).toMatch(new RegExp(`\\|${first}:sut narration 0$`));
    expect(turns[2]!.caseFile).toMatch(new RegExp(`\\|${first}:sut narration 0\\|${first + 1}:answer 1: deck 2$`));
    expect(turns[3]!.caseFile).toBe(
      `${first}:sut narration 0|${first + 1}:answer 1: deck 2|${first + 2}:answer 2: deck 2`,
    );
    expect(turns[5]!.caseFile).toBe(
      `${first + 2}:answer 2: deck 2|${first + 3}:sut narration 3|${first + 4}:answer 4: deck 2`,
    );
    expect(last.turn_number).toBe(first - 1);
    expect(record.response).toContain('answer 5: deck 2');
    expect(record.request?.turn).toBe(first);
    // What each turn changed, against the walks the SUT calls took (the last turn's: turnkit's row alone).
    for (let i = 0; i < 5; i++) {
      const seen = changes(walks[i]!, walks[i + 1]!);
      const effects = turns[i]!.effects!;
      expect({ turn: i, inserted: effects.inserted, updated: effects.updated, deleted: effects.deleted }).toEqual({
        turn: i,
        inserted: seen.inserted,
        updated: seen.updated,
        deleted: seen.deleted,
      });
      // The rows shown: the first few inserted of each table, told here by their texts (keys show the fixture's).
      for (const [table, rows] of Object.entries(seen.rows)) {
        const text = (row: Record<string, unknown>) => JSON.stringify([row.narration, row.fact, row.name, row.kind]);
        expect(effects.insertedRows[table]!.map(text).sort()).toEqual(rows.slice(0, 3).map(text).sort());
      }
      expect(Object.keys(effects.insertedRows).sort()).toEqual(Object.keys(seen.rows).sort());
    }
    expect(turns[0]!.effects!.inserted).toEqual({ turns: 1, world_facts: 1 });
    expect(turns[1]!.effects!.updated.characters).toBeGreaterThan(0);
    expect(turns[2]!.effects!.updated).toEqual({ turns: 1 });
    expect(turns[3]!.effects!).toMatchObject({
      inserted: { turns: 1, locations: 1, location_connections: 1 },
      deleted: { world_facts: 1 },
    });
    expect(turns[4]!.effects!).toMatchObject({
      updated: { campaigns: 1, world_facts: 1 },
      deleted: { location_connections: 1 },
    });
    expect(turns[5]!.effects!).toEqual({
      inserted: { turns: 1 },
      updated: {},
      deleted: {},
      insertedRows: {
        turns: [expect.objectContaining({ narration: 'answer 5: deck 2', player_input: `move ${first + 5}` })],
      },
    });
    // The rep's teardown left the database as the seed found it.
    expect(await walk(record.request!.campaign)).toEqual(new Map());
  });
});
