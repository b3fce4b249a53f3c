import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { PRISMA_CONFIG, prismaWithFixture } from '../helpers/prisma-schema.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { runQuestion } from '../../src/app/run-question.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// A SUT that only answers, in a game whose turn ids the client makes (Prisma's cuid): turnkit writes each turn's
// row itself, and its key must be a fresh one of the same shape, not the turn before's.
const ANSWERER = '#!/bin/sh\ncat > /dev/null\necho "GM $TURNKIT_TURN"\n';

describe.each(BACKENDS)('a rollout of a game with client-made turn ids on %s', (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    const made = await prismaWithFixture(backend);
    t = made.t;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/keep.json'), serializeDocument({ ...made.fixture, name: 'keep' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the GM answers\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
    await writeFile(join(t.dir, 'answer.sh'), ANSWERER);
    await chmod(join(t.dir, 'answer.sh'), 0o755);
    const game = { ...PRISMA_CONFIG.game!, turns: { ...PRISMA_CONFIG.game!.turns, output: ['narration'] } };
    await writeFile(join(t.dir, 'turnkit.config.json'), JSON.stringify({ ...PRISMA_CONFIG, game }, null, 2));
    await writeFile(
      join(t.dir, 'questions/keep.yaml'),
      [
        'id: keep',
        'question: Does the GM answer each turn?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 2',
        'fixtures: [fixtures/keep.json]',
        'caseFile: questions/case.md',
        'turns: 3',
        'sut: { type: command, command: ["./answer.sh"] }',
        'players: { type: script, inputs: [I wait, I leave] }',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => t?.cleanup());

  it("writes each played turn's row under a fresh cuid-shaped id and leaves every table as it was", async () => {
    const before = await tableChecksums(t.db);
    const result = await runQuestion({
      question: 'questions/keep.yaml',
      cwd: t.dir,
      databaseUrl: t.databaseUrl,
      configPath: 'turnkit.config.json',
    });
    expect(result).toMatchObject({ status: 'complete', total: 2, errors: 0 });
    const ids: string[] = [];
    for (const rep of ['rep-01', 'rep-02']) {
      const record = JSON.parse(await readFile(join(result.dir, `reps/keep/${rep}.json`), 'utf8')) as RepRecord;
      expect(record.error).toBeNull();
      expect(record.turns!.map((turn) => turn.response)).toEqual(['GM 4', 'GM 5', 'GM 6']);
      for (const turn of record.turns!) {
        const [row] = turn.effects!.insertedRows.Turn!;
        expect(row!.narration).toBe(`GM ${turn.turn}`);
        ids.push(String(row!.id));
      }
    }
    for (const id of ids) expect(id).toMatch(/^c[a-z0-9]{24}$/);
    expect(new Set(ids).size).toBe(6);
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
