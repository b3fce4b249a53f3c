import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import {
  PRISMA_STYLE_CONFIG,
  PRISMA_STYLE_GAME,
  cuid,
  prismaStyleProject,
  type PrismaStyleProject,
} from '../helpers/prisma-style-schema.js';
import { run } from '../../src/pipeline/run.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';

// The Prisma-style game keeps its narration two foreign keys below the room (an entry's sessionId, the session's
// roomId): a SUT that only answers still gets its turn rows written, under the campaign's own session.
const CONFIG: TurnkitConfigInput = {
  ...PRISMA_STYLE_CONFIG,
  game: { ...PRISMA_STYLE_GAME, turns: { ...PRISMA_STYLE_GAME.turns, output: ['content'] } },
};

describe.each(BACKENDS)('rollouts of a game whose turns are not directly below the root on %s', (backend) => {
  let p: PrismaStyleProject;

  beforeAll(async () => {
    p = await prismaStyleProject(backend, CONFIG, 'pass when the GM answers\n');
  }, 120_000);
  afterAll(async () => p?.close());

  it("writes the player's row and the answer's under the scratch room's session, turn by turn", async () => {
    const { t, project } = p;
    const before = await tableChecksums(t.db);
    const sessions: unknown[] = [];
    const answers: SutFunction = async (request, { db }) => {
      // The player's row turnkit wrote is in the scratch room's session when the SUT plays the turn.
      const { rows } = await db.query<{ sessionId: string; content: string }>(
        `SELECT e."sessionId", e.content FROM "NarrativeEntry" e JOIN "GameSession" s ON s.id = e."sessionId"
          WHERE s."roomId" = $1 AND e.type = 'ACTION' ORDER BY e."createdAt" DESC LIMIT 1`,
        [request.campaign],
      );
      sessions.push(rows[0]?.sessionId);
      return { response: `GM ${request.turn} after [${rows[0]?.content}]` };
    };
    const result = await run(project, {
      question: {
        id: 'nested',
        question: 'Does the GM answer each turn?',
        ...p.files,
        target: 0.9,
        reps: 1,
        sut: answers as never,
        turns: 3,
        players: { type: 'script', inputs: ['I go north.', 'I go south.'] },
      },
    });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/keep/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toBeNull();
    expect(record.turns!.map((turn) => turn.response)).toEqual([
      'GM 3 after [I search room 3.]',
      'GM 4 after [I go north.]',
      'GM 5 after [I go south.]',
    ]);
    expect(record.turns!.map((turn) => turn.turnRow)).toEqual(['turnkit', 'turnkit', 'turnkit']);
    const written = record.turns![1]!.effects!.insertedRows.NarrativeEntry!;
    expect(written.map((row) => [row.turn, row.type, row.content])).toEqual([
      [4, 'ACTION', 'I go north.'],
      [4, 'NARRATION', 'GM 4 after [I go north.]'],
    ]);
    // The record shows the rows in the fixture's keys, as a single-turn rep's effects do: the session is the fixture's.
    expect(written.map((row) => row.sessionId)).toEqual([cuid('sessiona'), cuid('sessiona')]);
    // In the database every row went into one session: the scratch room's, never the live room's.
    expect(new Set(sessions.slice(1)).size).toBe(1);
    expect(sessions[1]).toMatch(/^c[a-z0-9]{24}$/);
    expect(sessions[1]).not.toBe(cuid('sessiona'));
    // The new rows keep their own new ids (the fixture never had them).
    for (const row of written) expect(String(row.id)).toMatch(/^c(?!entrya)[a-z0-9]{24}$/);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
