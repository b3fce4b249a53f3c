import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { projectPaths } from '../../src/project/open-project.js';
import { seed, teardown } from '../../src/scratch/scratch-operations.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// Ids kept in jsonb, as a Django game master keeps them: an event's metadata names an NPC (a Django model's table,
// `adventures_npcentry`) and the history row it came from. Hand-counted: turn 1 is history rows 2-3, turn 2 rows 4-5.
const SCHEMA = `
  CREATE TABLE adventures (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE history (
    id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, role text NOT NULL,
    text text NOT NULL, created_at timestamptz NOT NULL);
  CREATE TABLE adventures_npcentry (id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, name text NOT NULL);
  CREATE TABLE events (id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, metadata jsonb NOT NULL);
`;
const DATA = `
  INSERT INTO adventures VALUES (1, 'Keep');
  INSERT INTO history VALUES
    (1, 1, 'system', 'A keep.', '2025-01-01 10:00:00+00'),
    (2, 1, 'user', 'I talk to the guard.', '2025-01-01 10:00:01+00'),
    (3, 1, 'assistant', 'The guard nods.', '2025-01-01 10:00:02+00'),
    (4, 1, 'user', 'I follow the thief.', '2025-01-01 10:00:03+00'),
    (5, 1, 'assistant', 'The thief runs.', '2025-01-01 10:00:04+00');
  INSERT INTO adventures_npcentry VALUES (1, 1, 'Guard'), (2, 1, 'Thief');
  INSERT INTO events VALUES
    (1, 1, '{"npc_entry_id": 1, "history_id": 3}'),
    (2, 1, '{"npc_entry_id": 2, "history_id": 5}'),
    (3, 1, '{"npc_entry_id": 2, "note": "seen at the gate"}');
  SELECT setval(s, 100) FROM unnest(ARRAY['adventures_id_seq', 'history_id_seq', 'adventures_npcentry_id_seq',
    'events_id_seq']) AS s;
`;

const GAME: TurnkitConfigInput = {
  game: {
    root: { table: 'adventures', key: 'id' },
    turns: { table: 'history', order: 'created_at', input: ['text'], role: { column: 'role', input: ['user'] } },
    references: {
      'events.metadata->npc_entry_id': 'adventures_npcentry',
      'events.metadata->history_id': 'history',
    },
  },
};

describe.each(BACKENDS)('keys inside JSON columns (declared table.column->path) on %s', (backend) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(backend, GAME);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
  });
  afterAll(async () => t?.cleanup());

  const capture = (config: LoadedConfig = t.config) =>
    captureFromDb(t.db, config, { scrub: TEST_SCRUB, campaign: '1', turns: { turn: 2 }, now: new Date(0) });

  it('proposes the declaration of a key kept in JSON whose values are all keys of the fixture', async () => {
    const { references: _declared, ...game } = t.config.game;
    const { warnings } = await capture({ ...t.config, game });
    expect(warnings.filter((line) => line.includes('keeps keys'))).toEqual([
      expect.stringMatching(
        /: "events"\."metadata" keeps keys of "adventures_npcentry" rows at npc_entry_id: add to game\.references: "events\.metadata->npc_entry_id": "adventures_npcentry"$/,
      ),
    ]);
  });

  it('slices by a key in JSON: an event naming a left-out history row is left out with it', async () => {
    const fixture = (await capture()).fixtures[0]!;
    const ids = (table: string): number[] => fixture.tables[table]!.rows.map((row) => Number(row.id));
    expect(ids('history')).toEqual([1, 2, 3, 4]);
    expect(ids('events')).toEqual([1, 3]);
  });

  it('remaps a key in JSON to the scratch copy’s row, keeps its JSON type, and seed --check maps it back', async () => {
    const fixture: Fixture = (await capture()).fixtures[0]!;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    const file = join(t.dir, 'fixtures', 'keep.json');
    await writeFile(file, `${JSON.stringify(fixture, null, 2)}\n`);
    const project = { config: t.config, paths: projectPaths(t.config), db: t.db };
    const before = await tableChecksums(t.db);
    const seeded = await seed(project, { fixture: file, strategy: 'remap', check: true });
    try {
      expect(seeded.check?.differences).toEqual([]);
      const { rows } = await t.db.pool.query(
        `SELECT e.metadata, jsonb_typeof(e.metadata->'npc_entry_id') AS kind, n.name, h.text
         FROM events e
         JOIN adventures_npcentry n ON n.id = (e.metadata->>'npc_entry_id')::int AND n.adventure_id = e.adventure_id
         LEFT JOIN history h ON h.id = (e.metadata->>'history_id')::int AND h.adventure_id = e.adventure_id
         WHERE e.adventure_id = $1 ORDER BY n.name`,
        [seeded.key],
      );
      // Each event names the copy's own NPC (and history row), not the live campaign's ids 1 and 2.
      expect(rows.map((row) => [row.name, row.kind, row.text])).toEqual([
        ['Guard', 'number', 'The guard nods.'],
        ['Thief', 'number', null],
      ]);
      expect(rows.every((row) => ![1, 2].includes(row.metadata.npc_entry_id))).toBe(true);
      expect(rows.find((row) => row.name === 'Thief').metadata.note).toBe('seen at the gate');
    } finally {
      await teardown(project, { key: seeded.id });
    }
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('refuses a path into a column that holds no JSON, naming the config place', async () => {
    const game = { ...t.config.game, references: { 'adventures_npcentry.name->x': 'history' } };
    await expect(capture({ ...t.config, game })).rejects.toThrow(
      /"adventures_npcentry"\."name" is text: a path \(->\) names a key inside a json or jsonb column/,
    );
  });
});
