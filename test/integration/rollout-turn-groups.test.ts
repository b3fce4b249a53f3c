import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { runQuestion } from '../../src/app/run-question.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import {
  CHAT_CONFIG,
  CHAT_DATA,
  CHAT_SCHEMA,
  keyOf,
  NARRATIVE_CONFIG,
  narrativeData,
  narrativeSchema,
  ROOM,
} from '../helpers/narrative-schema.js';

// A SUT that only answers. It says which ACTION is the campaign's last (the player's row must be in the database
// when it is called) and the roles of the previous turn's rows, in order.
const ANSWERER = `#!/bin/sh
cat > /dev/null
last=$(psql "$DATABASE_URL" -Atc "SELECT turn || ':' || content FROM \\"NarrativeEntry\\" WHERE \\"roomId\\" = '$TURNKIT_CAMPAIGN' AND type = 'ACTION' ORDER BY \\"createdAt\\" DESC LIMIT 1")
before=$(psql "$DATABASE_URL" -Atc "SELECT string_agg(type::text, ',' ORDER BY \\"createdAt\\") FROM \\"NarrativeEntry\\" WHERE \\"roomId\\" = '$TURNKIT_CAMPAIGN' AND turn = $TURNKIT_TURN - 1")
echo "GM $TURNKIT_TURN [$last] after [$before]"
`;

// Its SUT is a shell script that reads its campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(psql.found ? BACKENDS : [])('rollouts of a game whose turns are several rows on %s', (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb(backend, NARRATIVE_CONFIG);
    // uuid ids, which remap renews today (client-made text ids are the remap work of issue 24 item 1).
    await t.db.pool.query(narrativeSchema('uuid'));
    await t.db.pool.query(narrativeData('uuid'));
    const [fixture] = (
      await captureFromDb(t.db, t.config, {
        scrub: TEST_SCRUB,
        campaign: keyOf(ROOM, 'uuid'),
        turns: { turn: 3 },
        now: new Date(0),
      })
    ).fixtures;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/crypt.json'), serializeDocument({ ...fixture!, name: 'crypt' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the GM answers\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n\n{{recent_turns:1}}\n');
    await writeFile(join(t.dir, 'answer.sh'), ANSWERER);
    await chmod(join(t.dir, 'answer.sh'), 0o755);
    const turns = { ...NARRATIVE_CONFIG.game!.turns, output: ['content'] };
    turns.role = { ...turns.role!, output: 'NARRATION' };
    await writeFile(
      join(t.dir, 'turnkit.config.json'),
      JSON.stringify({ game: { ...NARRATIVE_CONFIG.game, turns } }, null, 2),
    );
    await writeFile(
      join(t.dir, 'questions/crypt.yaml'),
      [
        'id: crypt',
        'question: Does the GM answer each turn?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 1',
        'fixtures: [fixtures/crypt.json]',
        'caseFile: questions/case.md',
        'turns: 3',
        'sut: { type: command, command: ["./answer.sh"] }',
        'players: { type: script, inputs: [go left, go right] }',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => t?.cleanup());

  it("writes the player's row before each next turn and the answer's row with role.output, one SUT call a turn", async () => {
    const before = await tableChecksums(t.db);
    const result = await runQuestion({
      question: 'questions/crypt.yaml',
      cwd: t.dir,
      databaseUrl: t.databaseUrl,
      configPath: 'turnkit.config.json',
    });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/crypt/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toBeNull();
    expect(result).toMatchObject({ status: 'complete', total: 1, errors: 0 });
    // Game turn numbers, one entry (one call) per turn however many rows it writes.
    expect(record.turns!.map((turn) => turn.turn)).toEqual([3, 4, 5]);
    expect(record.turns!.map((turn) => turn.response)).toEqual([
      'GM 3 [3:I light a torch.] after [ACTION,NARRATION,SYSTEM]',
      'GM 4 [4:go left] after [ACTION,NARRATION]',
      'GM 5 [5:go right] after [ACTION,NARRATION]',
    ]);
    expect(record.turns!.map((turn) => turn.turnRow)).toEqual(['turnkit', 'turnkit', 'turnkit']);
    // Turn 3's ACTION came seeded; later turns count the player's row turnkit wrote and the answer's.
    expect(record.turns!.map((turn) => turn.effects!.inserted)).toEqual([
      { NarrativeEntry: 1 },
      { NarrativeEntry: 2 },
      { NarrativeEntry: 2 },
    ]);
    const written = record.turns![1]!.effects!.insertedRows.NarrativeEntry!;
    expect(written.map((row) => [row.turn, row.type, row.content])).toEqual([
      [4, 'ACTION', 'go left'],
      [4, 'NARRATION', 'GM 4 [4:go left] after [ACTION,NARRATION]'],
    ]);
    // The case file of turn 5 shows turn 4 as played, the GM's row labelled from its role.
    expect(record.turns![2]!.caseFile).toBe(
      'Turn 5: go right\n\n**Turn 4.** Player: go left\n\nGM: GM 4 [4:go left] after [ACTION,NARRATION]\n',
    );
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it.runIf(backend === 'postgres')(
    'seeds the fixture with the database strategy: the scratch copy holds exactly its rows',
    async () => {
      const [fixture] = (
        await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: keyOf(ROOM, 'uuid'), turns: { turn: 4 } })
      ).fixtures;
      const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
      try {
        const scratch = await session.seed(fixture!);
        expect((await session.check(scratch, fixture!)).differences).toEqual([]);
        const clone = new pg.Client({ connectionString: scratch.databaseUrl });
        clone.on('error', () => {});
        await clone.connect();
        try {
          const { rows } = await clone.query<{ id: string }>(
            'SELECT id FROM "NarrativeEntry" WHERE "roomId" = $1 ORDER BY id',
            [scratch.key],
          );
          expect(rows.map((row) => row.id)).toEqual(fixture!.tables.NarrativeEntry!.rows.map((row) => row.id));
          // Hand-counted: turns 1-3 (9 rows) and turn 4's ACTION.
          expect(rows).toHaveLength(10);
        } finally {
          await clone.end().catch(() => {});
        }
        await scratch.teardown();
      } finally {
        await session.close();
      }
    },
  );
});

// A chat SUT that only answers: it says the last user message and how many messages the conversation holds.
const CHATTER = `#!/bin/sh
cat > /dev/null
last=$(psql "$DATABASE_URL" -Atc "SELECT content FROM messages WHERE conversation_id = $TURNKIT_CAMPAIGN AND role = 'user' ORDER BY created_at DESC, id DESC LIMIT 1")
count=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM messages WHERE conversation_id = $TURNKIT_CAMPAIGN")
echo "reply to [$last] of $count"
`;

describe.each(psql.found ? BACKENDS : [])('rollouts of a chat game (a turn per user message) on %s', (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb(backend, CHAT_CONFIG);
    await t.db.pool.query(CHAT_SCHEMA);
    await t.db.pool.query(CHAT_DATA);
    const [fixture] = (
      await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: '1', turns: { turn: 2 }, now: new Date(0) })
    ).fixtures;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/chat.json'), serializeDocument({ ...fixture!, name: 'chat' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the GM answers\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n\n{{recent_turns:1}}\n');
    await writeFile(join(t.dir, 'chat.sh'), CHATTER);
    await chmod(join(t.dir, 'chat.sh'), 0o755);
    const turns = { ...CHAT_CONFIG.game!.turns, output: ['content'] };
    turns.role = { ...turns.role!, output: 'assistant' };
    await writeFile(
      join(t.dir, 'turnkit.config.json'),
      JSON.stringify({ game: { ...CHAT_CONFIG.game, turns } }, null, 2),
    );
    await writeFile(
      join(t.dir, 'questions/chat.yaml'),
      [
        'id: chat',
        'question: Does the GM answer each message?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 1',
        'fixtures: [fixtures/chat.json]',
        'caseFile: questions/case.md',
        'turns: 2',
        'sut: { type: command, command: ["./chat.sh"] }',
        'players: { type: script, inputs: [I wave.] }',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => t?.cleanup());

  it("writes the user's message before the next call and the reply as an assistant message", async () => {
    const before = await tableChecksums(t.db);
    const result = await runQuestion({
      question: 'questions/chat.yaml',
      cwd: t.dir,
      databaseUrl: t.databaseUrl,
      configPath: 'turnkit.config.json',
    });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/chat/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toBeNull();
    // The fixture of turn 2 holds 4 messages (prologue, turn 1's two, turn 2's user message).
    expect(record.turns!.map((turn) => [turn.turn, turn.response])).toEqual([
      [2, 'reply to [Who is there?] of 4'],
      [3, 'reply to [I wave.] of 6'],
    ]);
    const rows = record.turns![1]!.effects!.insertedRows.messages!;
    expect(rows.map((row) => [row.role, row.content])).toEqual([
      ['user', 'I wave.'],
      ['assistant', 'reply to [I wave.] of 6'],
    ]);
    expect(record.turns![1]!.caseFile).toBe(
      'Turn 3: I wave.\n\n**Turn 2.** Player: Who is there?\n\nGM: reply to [Who is there?] of 4\n',
    );
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
