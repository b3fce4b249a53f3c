import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { serializeDocument, type Fixture, type FixtureRow } from '../../src/fixture/format.js';
import { MISLEADING_NARRATION, MISLEADING_TURN } from '../../src/sample/turn-script.js';

describe.each(BACKENDS)('capture of the sample game on %s', (backend) => {
  let t: TestDb;
  let campaign: string;
  let other: string;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    // A second campaign first, so the captured one's rows are not simply "all rows".
    other = await createSampleCampaign(t.db, { turns: 12, seed: 3 });
    campaign = await createSampleCampaign(t.db, { turns: 40 });
    fixture = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 23 } })).fixtures[0]!;
  });
  afterAll(async () => t?.cleanup());

  const rows = (table: string): FixtureRow[] => fixture.tables[table]!.rows;

  it('keeps every value of every column type exactly as the database holds it', async () => {
    const { rows: expected } = await t.db.pool.query(
      `
      SELECT c.rng_seed::text AS seed, c.settings::text AS settings, to_char(c.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS started,
             (SELECT string_agg(encode(portrait, 'base64'), ',' ORDER BY id) FROM characters WHERE campaign_id = c.id) AS portraits,
             (SELECT string_agg(health_ratio::text, ',' ORDER BY id) FROM characters WHERE campaign_id = c.id) AS ratios,
             (SELECT string_agg(travel_minutes::text, ',' ORDER BY from_location_id, to_location_id) FROM location_connections lc
                JOIN locations l ON l.id = lc.from_location_id WHERE l.campaign_id = c.id) AS minutes
      FROM campaigns c WHERE c.id = $1`,
      [campaign],
    );
    const want = expected[0];
    const root = rows('campaigns')[0]!;
    expect(root.rng_seed).toBe(want.seed);
    expect(root.rng_seed).toBe('9007199254741000');
    expect(root.settings).toEqual(JSON.parse(want.settings));
    expect(root.started_at).toBe(`${want.started}+00:00`);
    const portraits = rows('characters').map((row) => (row.portrait as { $bytea: string } | null)?.$bytea ?? null);
    expect(portraits.filter((value) => value !== null).join(',')).toBe(want.portraits);
    expect(portraits.some((value) => value !== null && Buffer.from(value, 'base64')[0] === 0)).toBe(true);
    expect(
      rows('characters')
        .map((row) => row.health_ratio)
        .join(','),
    ).toBe(want.ratios);
    expect(
      rows('location_connections')
        .map((row) => row.travel_minutes)
        .join(','),
    ).toBe(want.minutes);
    expect(rows('location_connections')[0]!.travel_minutes).toMatch(/^\d+\.\d\d$/);
  });

  it('writes timestamps with microseconds and offset, arrays as arrays, and NULL as null (never a missing key)', () => {
    const turn3 = rows('turns').find((row) => row.turn_number === 3)!;
    expect(turn3.played_at).toBe('2026-03-14T19:34:09.75+00:00');
    const withDice = rows('turns').filter((row) => Array.isArray(row.dice_rolls));
    const withoutDice = rows('turns').filter((row) => row.dice_rolls === null);
    expect(withDice.length).toBeGreaterThan(0);
    expect(withoutDice.length).toBeGreaterThan(0);
    for (const row of withDice)
      expect((row.dice_rolls as number[]).every((die) => Number.isInteger(die) && die >= 1 && die <= 6)).toBe(true);
    for (const row of rows('turns'))
      expect(Object.keys(row)).toEqual(fixture.tables.turns!.columns.map((column) => column.name));
    expect(rows('locations').find((row) => row.name === 'Bridge')!.tags).toEqual(['command', 'viewport']);
    expect(typeof rows('turns')[0]!.tokens_used).toBe('string');
  });

  it('keeps a JSON string scalar a string and distinguishes jsonb null from SQL NULL', () => {
    const details = rows('world_facts').map((row) => row.details);
    expect(details).toContain('sealed by captain');
    expect(details).toContainEqual({ deck: 2 });
    expect(details).toContain(null);
    expect(details).toContain(3);
  });

  it('captures the foreign-key cycle and the self-reference whole, with every reference resolved', () => {
    const locationIds = new Set(rows('locations').map((row) => row.id));
    expect(rows('locations')).toHaveLength(13);
    expect(locationIds.has(rows('campaigns')[0]!.current_location_id)).toBe(true);
    const children = rows('locations').filter((row) => row.parent_location_id !== null);
    expect(children.map((row) => row.name).sort()).toEqual(['Comms Alcove', 'Reactor Core', 'Ready Room']);
    for (const child of children) expect(locationIds.has(child.parent_location_id)).toBe(true);
    expect(checkFixture(fixture)).toEqual([]);
  });

  it("owns only this campaign's rows and captures the shared user", () => {
    for (const table of ['decks', 'locations', 'characters', 'turns', 'world_facts']) {
      expect(
        rows(table).every((row) => row.campaign_id === campaign),
        table,
      ).toBe(true);
    }
    expect(rows('campaigns').map((row) => row.id)).toEqual([campaign]);
    expect(fixture.tables.users!.role).toBe('shared');
    // The handle as the sample config scrubs it: a keyed username fake, not the live 'sample-player'.
    expect(rows('users').map((row) => row.handle)).toEqual([expect.stringMatching(/^\S+_[0-9a-f]{4}$/)]);
    expect(other).not.toBe(campaign);
  });

  it('slices at the turn: turns 1..N-1 kept, turn N only as input, later facts left out', async () => {
    expect(rows('turns').map((row) => row.turn_number)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    const live = await t.db.pool.query('SELECT player_input FROM turns WHERE campaign_id = $1 AND turn_number = 23', [
      campaign,
    ]);
    expect(fixture.input).toEqual({ turn: 23, values: { player_input: live.rows[0].player_input } });
    expect(JSON.stringify(fixture)).not.toContain('nursing a cup of tea');
    expect(rows('turns').find((row) => row.turn_number === MISLEADING_TURN)!.narration).toBe(MISLEADING_NARRATION);
    const keptTurnIds = new Set(rows('turns').map((row) => row.id));
    const facts = rows('world_facts');
    expect(facts.every((row) => row.introduced_at_turn_id === null || keptTurnIds.has(row.introduced_at_turn_id))).toBe(
      true,
    );
    const { rows: all } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM world_facts f LEFT JOIN turns t ON t.id = f.introduced_at_turn_id
       WHERE f.campaign_id = $1 AND (t.turn_number IS NULL OR t.turn_number < 23)`,
      [campaign],
    );
    expect(facts).toHaveLength(all[0]!.n);
    expect(fixture.source.reflectsPresent).toEqual([
      'campaigns',
      'characters',
      'decks',
      'location_connections',
      'locations',
      // Facts introduced at no turn (their reference is NULL): standing rows the slice cannot place.
      'world_facts',
    ]);
  });

  it('captures the same state to the same bytes, apart from the capture time, whatever the physical row order', async () => {
    // Rewriting rows moves them in the heap, so the database returns them in another order than before.
    await t.db.pool.query(`UPDATE turns SET narration = narration WHERE campaign_id = $1 AND turn_number % 2 = 0`, [
      campaign,
    ]);
    await t.db.pool.query(
      `UPDATE world_facts SET fact = fact WHERE campaign_id = $1 AND introduced_at_turn_id IS NULL`,
      [campaign],
    );
    await t.db.pool.query(`UPDATE locations SET name = name WHERE campaign_id = $1 AND deck_number < 3`, [campaign]);
    const again = (
      await captureFromDb(t.db, t.config, {
        scrub: TEST_SCRUB,
        campaign,
        turns: { turn: 23 },
        now: new Date(fixture.source.capturedAt),
      })
    ).fixtures[0]!;
    expect(serializeDocument(again)).toBe(serializeDocument(fixture));
    const later = (
      await captureFromDb(t.db, t.config, {
        scrub: TEST_SCRUB,
        campaign,
        turns: { turn: 23 },
        now: new Date('2030-01-01T00:00:00Z'),
      })
    ).fixtures[0]!;
    expect(serializeDocument(later).replace(later.source.capturedAt, fixture.source.capturedAt)).toBe(
      serializeDocument(fixture),
    );
  });

  it("round-trips through its own file format and the reader's checks", () => {
    const text = serializeDocument(fixture);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseFixtureText(text, 'mem.json')).toEqual(fixture);
  });

  it('captures a range of turns as one fixture per turn, and the latest turn', async () => {
    const range = await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { from: 38, to: 40 } });
    expect(range.fixtures.map((f) => [f.name, f.source.turn, f.tables.turns!.rows.length])).toEqual([
      [`campaign-${campaign}-turn-38`, 38, 37],
      [`campaign-${campaign}-turn-39`, 39, 38],
      [`campaign-${campaign}-turn-40`, 40, 39],
    ]);
    const latest = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { latest: true } }))
      .fixtures[0]!;
    expect(latest.source.turn).toBe(40);
    // Turn 40 has been played: rows without a turn path already show its effects, even at the latest turn.
    expect(latest.source.reflectsPresent).toEqual([
      'campaigns',
      'characters',
      'decks',
      'location_connections',
      'locations',
      // Facts introduced at no turn (their reference is NULL): standing rows the slice cannot place.
      'world_facts',
    ]);
  });

  it('refuses an unknown campaign and a turn past the last one', async () => {
    await expect(
      captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: '999999', turns: { turn: 1 } }),
    ).rejects.toThrow('campaign 999999 not found: no row in "campaigns" with id = 999999');
    await expect(captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 41 } })).rejects.toThrow(
      'turn 41 is past the last turn of the campaign (40)',
    );
  });
});
