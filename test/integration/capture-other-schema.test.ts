import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import { A, CONFIG, DATA, move, OWNER, SCHEMA } from '../helpers/saga-schema.js';
import type { Fixture } from '../../src/fixture/format.js';

describe.each(BACKENDS)('capture of a differently shaped schema on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createTestDb(backend, CONFIG);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
    fixture = (await captureFromDb(t.db, t.config, { campaign: A, turns: { turn: 3 } })).fixtures[0]!;
  });
  afterAll(async () => t?.cleanup());

  it("orders turns by the timestamp column and takes turn 3's input", () => {
    expect(fixture.source.latestTurn).toBe(4);
    expect(fixture.input).toEqual({ turn: 3, values: { said: 'I light a torch.' } });
    // Rows are sorted by primary key in the file, so compare as sets of what was said.
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.said).sort()).toEqual([
      'I open the door.',
      'I step inside.',
    ]);
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.move_id)).toEqual([move(1), move(9)]);
  });

  it('keeps floats as numbers, quotes the odd table name, and cuts rows that point at later turns', () => {
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.mood)).toEqual([-1.25, 0.5]);
    const odd = fixture.tables['saga.Odd Name']!;
    expect(odd.role).toBe('owned');
    expect(odd.primaryKey).toEqual(['Story Ref', 'Note Text']);
    expect(odd.rows).toEqual([
      { 'Story Ref': A, 'Move Ref': null, 'Note Text': 'campaign note', When: null },
      { 'Story Ref': A, 'Move Ref': move(9), 'Note Text': 'first note', When: '2025-01-01T10:00:30' },
    ]);
  });

  it('captures the shared account, leaves other stories and excluded tables out', () => {
    expect(Object.keys(fixture.tables).sort()).toEqual([
      'saga.Odd Name',
      'saga.accounts',
      'saga.moves',
      'saga.stories',
    ]);
    expect(fixture.tables['saga.accounts']).toMatchObject({
      role: 'shared',
      rows: [{ id: OWNER, email: 'Ada@Example.org' }],
    });
    expect(fixture.tables['saga.stories']!.rows).toEqual([{ story_id: A, owner: OWNER, title: 'Story A' }]);
    expect(JSON.stringify(fixture)).not.toContain('secret audit line');
    expect(JSON.stringify(fixture)).not.toContain('Other story.');
    expect(checkFixture(fixture)).toEqual([]);
  });

  it('names the config path of a table or column the database does not have', async () => {
    const bad = { ...t.config, game: { ...t.config.game, turns: { ...t.config.game.turns, order: 'turn_number' } } };
    await expect(captureFromDb(t.db, bad, { campaign: A, turns: { turn: 1 } })).rejects.toThrow(
      '<sample game config>: $.game.turns.order: table "saga.moves" has no column "turn_number"',
    );
    const missing = { ...t.config, game: { ...t.config.game, shared: ['saga.players'] } };
    await expect(captureFromDb(t.db, missing, { campaign: A, turns: { turn: 1 } })).rejects.toThrow(
      'game.shared[0]: no table "saga.players" in the database',
    );
  });
});
