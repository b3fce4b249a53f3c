import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import { encodeValue } from '../../src/fixture/value-codec.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { Fixture } from '../../src/fixture/format.js';

// Shapes third-party schemas have that the sample game does not: tables without a primary key (the turns table
// among them, with NULLs and json), exact duplicate rows, nested domains, big numbers inside jsonb, arrays with
// explicit bounds or a ";" delimiter, a bytea key, intervals, enums, and table inheritance.
const SCHEMA = `
  CREATE SCHEMA odd;
  CREATE TYPE odd.mood AS ENUM ('calm', 'tense');
  CREATE DOMAIN odd.doc AS jsonb;
  CREATE DOMAIN odd.state AS odd.doc;
  CREATE DOMAIN odd.small AS integer;
  CREATE DOMAIN odd.level AS odd.small;
  CREATE DOMAIN odd.levels AS integer[];
  CREATE TABLE odd.games (id integer PRIMARY KEY, state odd.state, level odd.level, levels odd.levels, mood odd.mood,
    pause interval, bounds integer[], boxes box[]);
  CREATE TABLE odd.turns (game_id integer NOT NULL REFERENCES odd.games, at timestamptz NOT NULL, said text NOT NULL,
    reply text, meta json);
  CREATE TABLE odd.log (game_id integer NOT NULL REFERENCES odd.games, line text NOT NULL, meta json);
  CREATE TABLE odd.blobs (key bytea PRIMARY KEY, game_id integer REFERENCES odd.games, note text);
  CREATE TABLE odd.entity (id integer PRIMARY KEY, game_id integer NOT NULL REFERENCES odd.games, name text NOT NULL);
  CREATE TABLE odd.npc (role text NOT NULL) INHERITS (odd.entity);
  -- Foreign keys are not inherited: the child declares its own.
  ALTER TABLE odd.npc ADD FOREIGN KEY (game_id) REFERENCES odd.games;
`;

const DATA = `
  INSERT INTO odd.games VALUES
    (1, '{"seed": 12345678901234567890123, "ratio": 1.50, "plain": 7, "label": "x"}', 5, '{1,2}', 'tense',
     '1 day 02:03:04', '[0:1]={7,8}', ARRAY[box '((1,1),(0,0))', box '((3,3),(2,2))']),
    (2, '{}', 1, NULL, 'calm', NULL, NULL, NULL);
  INSERT INTO odd.turns VALUES
    (1, '2025-01-01 10:00:00+00', 'one', 'first reply', '{"n": 1}'),
    (1, '2025-01-01 10:01:00+00', 'two', 'second reply', '{"n": 2}'),
    (1, '2025-01-01 10:02:00+00', 'three', NULL, NULL),
    (2, '2025-01-01 09:00:00+00', 'other', NULL, NULL);
  INSERT INTO odd.log VALUES (1, 'same line', '{"a": 1}'), (1, 'same line', '{"a": 1}'), (2, 'other game', NULL);
  INSERT INTO odd.blobs VALUES ('\\x00ff', 1, 'kept'), ('\\x0001', 1, 'also kept');
  INSERT INTO odd.entity VALUES (1, 1, 'door');
  INSERT INTO odd.npc VALUES (2, 1, 'hale', 'medic');
`;

const CONFIG: TurnkitConfigInput = {
  game: { root: { table: 'odd.games', key: 'id' }, turns: { table: 'odd.turns', order: 'at', input: ['said'] } },
};

describe.each(BACKENDS)('capture of unusual shapes and types on %s', (backend) => {
  let t: TestDb;
  let latest: Fixture;

  beforeAll(async () => {
    t = await createTestDb(backend, CONFIG);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
    latest = (await captureFromDb(t.db, t.config, { campaign: '1', turns: { latest: true } })).fixtures[0]!;
  });
  afterAll(async () => t?.cleanup());

  it('orders a turns table without a primary key, NULLs included, and never leaks the input turn', () => {
    expect(latest.source.latestTurn).toBe(3);
    expect(latest.input.values).toEqual({ said: 'three' });
    expect(latest.tables['odd.turns']!.rows.map((row) => row.said)).toEqual(['one', 'two']);
    expect(latest.tables['odd.turns']!.rows[0]!.meta).toEqual({ n: 1 });
  });

  it("keeps exact duplicate rows of a table without a key, and only this game's", () => {
    expect(latest.tables['odd.log']!.rows).toEqual([
      { game_id: 1, line: 'same line', meta: { a: 1 } },
      { game_id: 1, line: 'same line', meta: { a: 1 } },
    ]);
  });

  it('keeps every digit of numbers inside jsonb and writes them back exactly', () => {
    const state = latest.tables['odd.games']!.rows[0]!.state as Record<string, unknown>;
    expect(state).toEqual({ seed: { $number: '12345678901234567890123' }, ratio: 1.5, plain: 7, label: 'x' });
    // jsonb orders keys by length, then bytes.
    expect(encodeValue(state as never, { kind: 'json' })).toBe(
      '{"seed":12345678901234567890123,"label":"x","plain":7,"ratio":1.5}',
    );
  });

  it('resolves nested domains, and keeps arrays with bounds or a ";" delimiter as Postgres prints them', () => {
    const game = latest.tables['odd.games']!.rows[0]!;
    expect(game.level).toBe(5);
    expect(game.levels).toEqual([1, 2]);
    expect(game.mood).toBe('tense');
    expect(game.pause).toBe('1 day 02:03:04');
    expect(game.bounds).toBe('[0:1]={7,8}');
    expect(game.boxes).toBe('{(1,1),(0,0);(3,3),(2,2)}');
  });

  it('captures a bytea-keyed table that verify accepts', () => {
    expect(latest.tables['odd.blobs']!.rows.map((row) => row.note)).toEqual(['also kept', 'kept']);
    expect(checkFixture(latest)).toEqual([]);
  });

  it('reads an inheritance parent and its child as two tables, each row once', () => {
    expect(latest.tables['odd.entity']!.rows).toEqual([{ id: 1, game_id: 1, name: 'door' }]);
    expect(latest.tables['odd.npc']!.rows).toEqual([{ id: 2, game_id: 1, name: 'hale', role: 'medic' }]);
  });

  it('refuses a text turn order column', async () => {
    const bad = { ...t.config, game: { ...t.config.game, turns: { ...t.config.game.turns, order: 'said' } } };
    await expect(captureFromDb(t.db, bad, { campaign: '1', turns: { latest: true } })).rejects.toThrow(
      'game.turns.order: "said" is text; use an integer or timestamp column',
    );
  });
});
