import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedFixture } from '../../src/fixture/load-fixture.js';
import type { Fixture, FixtureRow } from '../../src/fixture/format.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';

/** The committed sample fixture (campaign 1 at turn 23) that constructed fixtures are made from. */
export const SAMPLE_PATH = fileURLToPath(new URL('../../fixtures/meridian-turn-23.json', import.meta.url));
/** Its bytes as committed. */
export const SAMPLE_TEXT = readFileSync(SAMPLE_PATH, 'utf8');

/** sha256 of a file's text, hex, as constructed fixtures pin their base. */
export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A path as turnkit shows it in messages: relative to the working folder of the test process. */
export function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** A LoadedFixture for fixture text as if it were read from `path` (what buildConstructed takes as its base). */
export function loadedFromText(text: string, path: string, shownAs = shown(path)): LoadedFixture {
  return { fixture: parseFixtureText(text, shownAs), path, shown: shownAs, sha256: sha256Of(text) };
}

/** The row of a table whose single-column primary key `id` is `id`, or a failed lookup. */
export function rowById(fixture: Fixture, table: string, id: unknown): FixtureRow {
  const row = fixture.tables[table]?.rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`test setup: no ${table} row with id ${JSON.stringify(id)}`);
  return row;
}

/** Freezes a value and everything reachable from it, so that any write to it throws (tests run in strict mode). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * A small synthetic fixture where the text "1" names a row in three tables: turns and dice have integer keys
 * (the number 1), notes has a text key (the string "1", next to "01"). Every dice and notes row hangs off turn 1
 * or turn 2, so all are tied to a turn; the input turn is 3.
 */
export function keysFixture(): Fixture {
  const column = (name: string, type: string) => ({ name, type, nullable: false });
  const toTurn = (table: string) => ({
    name: `${table}_turn_id_fkey`,
    columns: ['turn_id'],
    references: { table: 'turns', columns: ['id'] },
  });
  return {
    format: 'turnkit.fixture/1',
    name: 'keys',
    source: {
      database: 'embedded',
      serverVersion: '18.6',
      root: { table: 'campaigns', key: 'id', value: '1' },
      turns: { table: 'turns', order: 'turn_number' },
      turn: 3,
      latestTurn: 3,
      capturedAt: '2026-01-01T00:00:00.000Z',
      schemaFingerprint: 'sha256:synthetic',
    },
    input: { turn: 3, values: { player_input: 'I roll again.' } },
    tables: {
      campaigns: {
        role: 'root',
        columns: [column('id', 'bigint'), column('title', 'text')],
        primaryKey: ['id'],
        foreignKeys: [],
        rows: [{ id: '1', title: 'Keys' }],
      },
      dice: {
        role: 'owned',
        columns: [column('id', 'integer'), column('turn_id', 'integer'), column('value', 'integer')],
        primaryKey: ['id'],
        foreignKeys: [toTurn('dice')],
        rows: [
          { id: 1, turn_id: 1, value: 6 },
          { id: 2, turn_id: 2, value: 1 },
        ],
      },
      notes: {
        role: 'owned',
        columns: [column('id', 'text'), column('turn_id', 'integer'), column('body', 'text')],
        primaryKey: ['id'],
        foreignKeys: [toTurn('notes')],
        rows: [
          { id: '01', turn_id: 2, body: 'note 01' },
          { id: '1', turn_id: 1, body: 'note 1' },
        ],
      },
      turns: {
        role: 'owned',
        columns: [
          column('id', 'integer'),
          column('campaign_id', 'bigint'),
          column('turn_number', 'integer'),
          column('player_input', 'text'),
          column('narration', 'text'),
        ],
        primaryKey: ['id'],
        foreignKeys: [
          {
            name: 'turns_campaign_id_fkey',
            columns: ['campaign_id'],
            references: { table: 'campaigns', columns: ['id'] },
          },
        ],
        rows: [
          { id: 1, campaign_id: '1', turn_number: 1, player_input: 'I roll.', narration: 'A six.' },
          { id: 2, campaign_id: '1', turn_number: 2, player_input: 'I roll.', narration: 'A one.' },
        ],
      },
    },
  };
}
