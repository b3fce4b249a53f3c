import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import { runQuestion } from '../../src/app/run-question.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { turnInputs, turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { renderCaseFile } from '../../src/question/case-file.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// A party game: every player's move, then one narration. Ten messages of conversation 1 in time order (ids in that
// order): a prologue, then three rounds of Ann's move, Bo's move and the GM's narration.
const SCHEMA = `
  CREATE TABLE conversations (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE messages (
    id serial PRIMARY KEY, conversation_id integer NOT NULL REFERENCES conversations ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('user', 'assistant', 'system')), player text, content text NOT NULL,
    created_at timestamptz NOT NULL);
`;
const MESSAGES: [string, string | null, string][] = [
  ['system', null, 'The party meets.'],
  ['user', 'ann', 'I draw my sword.'],
  ['user', 'bo', 'I cast light.'],
  ['assistant', null, 'A goblin appears.'],
  ['user', 'ann', 'I attack.'],
  ['user', 'bo', 'I heal Ann.'],
  ['assistant', null, 'The goblin flees.'],
  ['user', 'ann', 'I chase it.'],
  ['user', 'bo', 'I follow.'],
  ['assistant', null, 'You find a cave.'],
];
const DATA = `
  INSERT INTO conversations VALUES (1, 'Party'), (2, 'Other');
  INSERT INTO messages VALUES
    ${MESSAGES.map(([role, player, content], i) => `(${i + 1}, 1, '${role}', ${player ? `'${player}'` : 'NULL'}, '${content}', '2025-01-01 10:00:0${i}+00')`).join(',\n    ')},
    (11, 2, 'user', 'cy', 'Elsewhere.', '2025-01-01 09:00:00+00');
  SELECT setval('messages_id_seq', 11);
  SELECT setval('conversations_id_seq', 2);
`;

const GAME: TurnkitConfigInput = {
  game: {
    root: { table: 'conversations', key: 'id' },
    turns: {
      table: 'messages',
      order: 'created_at',
      input: ['content'],
      role: { column: 'role', input: ['user'], labels: { assistant: 'GM' }, endsTurn: ['assistant'] },
    },
  },
};

const ids = (fixture: Fixture): number[] => fixture.tables.messages!.rows.map((row) => Number(row.id));

// A SUT that only answers: the moves since the last narration, and how many messages the conversation holds.
const PARTY_GM = `#!/bin/sh
cat > /dev/null
moves=$(psql "$DATABASE_URL" -Atc "SELECT string_agg(content, ' | ' ORDER BY created_at, id) FROM messages WHERE conversation_id = $TURNKIT_CAMPAIGN AND role = 'user' AND created_at > coalesce((SELECT max(created_at) FROM messages WHERE conversation_id = $TURNKIT_CAMPAIGN AND role = 'assistant'), '-infinity')")
count=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM messages WHERE conversation_id = $TURNKIT_CAMPAIGN")
echo "turn $TURNKIT_TURN: [$moves] of $count"
`;
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(BACKENDS)('turns of several players (role.endsTurn) on %s', (backend) => {
  let t: TestDb;
  const capture = async (turns: { turn: number } | { latest: true }, ahead?: number): Promise<Fixture> =>
    (
      await captureFromDb(t.db, t.config, {
        scrub: TEST_SCRUB,
        campaign: '1',
        turns,
        now: new Date(0),
        ...(ahead ? { ahead } : {}),
      })
    ).fixtures[0]!;

  beforeAll(async () => {
    t = await createTestDb(backend, GAME);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
  });
  afterAll(async () => t?.cleanup());

  it('makes one turn of every move up to the narration: slice, --latest and --ahead, hand-counted', async () => {
    const fixture = await capture({ turn: 2 });
    // Prologue and round 1 (1..4), and both moves of round 2 (5, 6); its narration (7) and round 3 are left out.
    expect(ids(fixture)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fixture.input).toEqual({ turn: 2, values: { content: 'I attack.' } });
    expect(fixture.source.latestTurn).toBe(3);
    expect(fixture.source.turns.role).toEqual({
      column: 'role',
      input: ['user'],
      labels: { assistant: 'GM' },
      endsTurn: ['assistant'],
    });
    expect(turnInputs(fixture)).toEqual([{ content: 'I attack.' }, { content: 'I heal Ann.' }]);
    expect(turnsInOrder(fixture).map((entry) => [entry.turn, entry.input.length, entry.others.length])).toEqual([
      [0, 0, 1],
      [1, 2, 1],
    ]);
    expect((await capture({ latest: true })).input).toEqual({ turn: 3, values: { content: 'I chase it.' } });
    const ahead = await capture({ turn: 1 }, 3);
    expect(ahead.ahead).toEqual([
      { turn: 2, values: { content: 'I attack.' }, more: [{ content: 'I heal Ann.' }] },
      { turn: 3, values: { content: 'I chase it.' }, more: [{ content: 'I follow.' }] },
    ]);
  });

  it('puts every move into the case file', async () => {
    const fixture = await capture({ turn: 2 });
    expect(renderCaseFile('{{turn}}: {{input}}\n\n{{recent_turns:1}}', fixture, 'case.md')).toBe(
      '2: - I attack.\n- I heal Ann.\n\n**Turn 1.** Player: I draw my sword.\n\nPlayer: I cast light.\n\nGM: A goblin appears.',
    );
    expect(renderCaseFile('{{input.content}}', fixture, 'case.md')).toBe('- I attack.\n- I heal Ann.');
  });

  it.runIf(psql.found)(
    "plays a rollout whose recorded turns write every player's row before the SUT's call",
    async () => {
      const fixture = await capture({ turn: 1 }, 3);
      await mkdir(join(t.dir, 'fixtures'), { recursive: true });
      await mkdir(join(t.dir, 'questions'), { recursive: true });
      await writeFile(join(t.dir, 'fixtures/party.json'), serializeDocument({ ...fixture, name: 'party' }));
      await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the GM answers\n');
      await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
      await writeFile(join(t.dir, 'gm.sh'), PARTY_GM);
      await chmod(join(t.dir, 'gm.sh'), 0o755);
      const turns = { ...GAME.game!.turns, output: ['content'] };
      turns.role = { ...turns.role!, output: 'assistant' };
      await writeFile(join(t.dir, 'turnkit.config.json'), JSON.stringify({ game: { ...GAME.game, turns } }, null, 2));
      await writeFile(
        join(t.dir, 'questions/party.yaml'),
        [
          'id: party',
          'question: Does the GM answer the whole party?',
          'rubric: { path: questions/rubric.md, version: "1" }',
          'target: 0.9',
          'reps: 1',
          'fixtures: [fixtures/party.json]',
          'caseFile: questions/case.md',
          'turns: 3',
          'sut: { type: command, command: ["./gm.sh"] }',
          'players: { type: recorded }',
          '',
        ].join('\n'),
      );
      const before = await tableChecksums(t.db);
      const result = await runQuestion({
        question: 'questions/party.yaml',
        cwd: t.dir,
        databaseUrl: t.databaseUrl,
        configPath: 'turnkit.config.json',
      });
      const record = JSON.parse(await readFile(join(result.dir, 'reps/party/rep-01.json'), 'utf8')) as RepRecord;
      expect(record.error).toBeNull();
      expect(record.turns!.map((turn) => [turn.turn, turn.response])).toEqual([
        [1, 'turn 1: [I draw my sword. | I cast light.] of 3'],
        [2, 'turn 2: [I attack. | I heal Ann.] of 6'],
        [3, 'turn 3: [I chase it. | I follow.] of 9'],
      ]);
      expect(record.turns!.map((turn) => turn.inputs?.map((input) => input.content))).toEqual([
        ['I draw my sword.', 'I cast light.'],
        ['I attack.', 'I heal Ann.'],
        ['I chase it.', 'I follow.'],
      ]);
      expect(record.turns![1]!.caseFile).toBe('Turn 2: - I attack.\n- I heal Ann.\n');
      expect(await tableChecksums(t.db)).toEqual(before);
    },
  );
});
