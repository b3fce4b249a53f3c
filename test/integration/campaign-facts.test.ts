import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { applyScreens } from '../../src/checks/run-checks.js';
import { screensOf } from '../../src/question/check-screens.js';
import { checksSchema } from '../../src/question/checks-format.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { CORRECTED_NARRATION, MISLEADING_TURN } from '../../src/sample/turn-script.js';

const SAMPLE_SUT = fileURLToPath(new URL('../../examples/sample-sut.mjs', import.meta.url));

// Where the world puts the mess hall, read from the campaign; the decks it could have named instead.
const FACTS = {
  mess_hall_deck: {
    sql: "SELECT 'deck ' || deck_number FROM locations WHERE campaign_id = $1 AND name = 'Mess Hall'",
    alternatives: "SELECT DISTINCT 'deck ' || deck_number FROM locations WHERE campaign_id = $1",
  },
};

describe.each(BACKENDS)('facts from the campaign on %s', (backend) => {
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 30, turn: 23 });
    t = made.t;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...made.fixture, name: 'meridian' }));
    // The same with turn 19's narration corrected: the sample SUT is then right most of the time.
    const fixed = structuredClone({ ...made.fixture, name: 'meridian-fixed' });
    fixed.tables.turns!.rows.find((row) => row.turn_number === MISLEADING_TURN)!.narration = CORRECTED_NARRATION;
    await writeFile(join(t.dir, 'fixtures/fixed.json'), serializeDocument(fixed));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the route names the deck the world gives\n');
    await writeFile(
      join(t.dir, 'questions/case.md'),
      '# {{fixture.name}}\n\nThe mess hall is on {{fact:mess_hall_deck}}.\n',
    );
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  }, 120_000);
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const question = (extra: Partial<QuestionInput> = {}): QuestionInput => ({
    id: 'facts',
    question: 'Does the route name the deck the world facts give?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.9,
    reps: 12,
    fixtures: ['fixtures/base.json', 'fixtures/fixed.json'],
    sut: { type: 'command', command: [process.execPath, SAMPLE_SUT] },
    caseFile: 'questions/case.md',
    facts: FACTS,
    checks: { facts: [{ fact: 'mess_hall_deck', mustState: true }] },
    ...extra,
  });

  it("marks the sample SUT's wrong-deck reps failed and the right ones passed, with no term list", async () => {
    const result = await run(project, { question: question(), concurrency: 4, env: { PATH: process.env.PATH } });
    expect(result).toMatchObject({ status: 'complete', ran: 24, errors: 0 });
    const facts = checksSchema.parse({ facts: [{ fact: 'mess_hall_deck', mustState: true }] });
    // The hand-kept term lists the sample question uses, to compare with.
    const terms = checksSchema.parse({ mustContain: ['deck 2'], mustNotContain: ['deck 3'] });
    let wrong = 0;
    const reps = ['meridian', 'meridian-fixed'].flatMap((fixture) =>
      Array.from({ length: 12 }, (_, i) => `reps/${fixture}/rep-${String(i + 1).padStart(2, '0')}.json`),
    );
    for (const file of reps) {
      const record = JSON.parse(await readFile(join(result.dir, file), 'utf8')) as RepRecord;
      expect(record.facts!.mess_hall_deck!.before).toEqual({
        value: 'deck 2',
        alternatives: expect.arrayContaining(['deck 1', 'deck 2', 'deck 3', 'deck 4']),
      });
      // The SUT played its turn; the world did not move the mess hall.
      expect(record.facts!.mess_hall_deck!.after!.value).toBe('deck 2');
      expect(record.request.caseFile).toContain('The mess hall is on deck 2.');
      const byFact = applyScreens(screensOf(facts), record);
      const byTerms = applyScreens(screensOf(terms), record);
      expect(byFact.mark, record.response!).toBe(byTerms.mark);
      if (record.response!.includes('deck 3')) {
        wrong++;
        expect(byFact.reason).toBe(
          'does not state mess_hall_deck ("deck 2"); contradicts mess_hall_deck: names "deck 3" where the campaign has "deck 2"',
        );
      } else expect(byFact.mark).toBe('pass');
    }
    // The sample SUT is misled most of the time on the base (turn 19 says deck 3), seldom on the fixed one.
    expect(wrong).toBeGreaterThan(6);
    expect(wrong).toBeLessThan(18);
  }, 300_000);

  it("a fact that returns several rows is the rep's error, named, and the SUT is not called", async () => {
    const result = await run(project, {
      question: question({
        id: 'facts-bad',
        reps: 1,
        facts: { ...FACTS, rooms: 'SELECT name FROM locations WHERE campaign_id = $1' },
      }),
      env: { PATH: process.env.PATH },
    });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/meridian/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toEqual({
      stage: 'facts',
      cause: 'query',
      message: 'fact "rooms": returned 13 rows; a fact is one row',
    });
    expect(record.response).toBeNull();
  });

  it("a NULL fact is the rep's error too; SQL that writes or does not parse is refused before any rep", async () => {
    const nullFact = await run(project, {
      question: question({ id: 'facts-null', reps: 1, facts: { ...FACTS, nothing: 'SELECT NULL::text' } }),
      env: { PATH: process.env.PATH },
    });
    const record = JSON.parse(await readFile(join(nullFact.dir, 'reps/meridian/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toMatchObject({ stage: 'facts', message: 'fact "nothing": is NULL; a fact is a value' });
    await expect(
      run(project, {
        question: question({
          id: 'facts-writes',
          facts: { ...FACTS, gone: 'DELETE FROM turns WHERE campaign_id = $1 RETURNING 1' },
        }),
      }),
    ).rejects.toThrow(/\$\.facts\.gone: cannot execute DELETE in a read-only transaction$/);
    await expect(
      run(project, { question: question({ id: 'facts-typo', facts: { ...FACTS, typo: 'SELECT nam FROM decks' } }) }),
    ).rejects.toThrow(/\$\.facts\.typo: column "nam" does not exist/);
    expect(existsSync(join(t.dir, 'runs/facts-writes'))).toBe(false);
  });

  it('refuses a fact rule or a {{fact:NAME}} naming no fact, before any rep runs', async () => {
    await expect(
      run(project, { question: question({ id: 'facts-x', checks: { facts: [{ fact: 'nope' }] } }) }),
    ).rejects.toThrow(/checks\.facts\[0\]\.fact: no fact is named "nope" \(the question's facts: mess_hall_deck\)/);
    await expect(
      run(project, { question: question({ id: 'facts-y', facts: {}, checks: { mustContain: ['x'] } }) }),
    ).rejects.toThrow(/\{\{fact:mess_hall_deck\}\}: the question has no fact "mess_hall_deck"/);
  });
});
