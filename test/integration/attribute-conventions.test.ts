import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { CONVENTIONS } from '../helpers/conventions/index.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { attribute } from '../../src/attribution/attribute.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

const PLANTED = 'MISLEAD: the mess hall is on deck 3.';

// A SUT misled by what its case file shows (the turns table, every narration in it): wrong 80% of the time when the
// planted narration is there, 10% otherwise; seeded by the convention, fixture, rep and call, so the run is exact.
function misledByCaseFile(seed: string): SutFunction {
  const calls = new Map<string, number>();
  return async (request) => {
    const key = `${request.fixture}/${request.rep}`;
    const call = (calls.get(key) ?? 0) + 1;
    calls.set(key, call);
    let state = 0;
    for (const char of `${seed}/${key}/${call}`) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
    const wrong = mulberry32(state >>> 0)() < (request.caseFile.includes('MISLEAD') ? 0.8 : 0.1);
    return { response: wrong ? 'It is on deck 3.' : 'It is on deck 2.' };
  };
}

// The conventions matrix's games (an ORM's conventions each, a chat whose turns are several rows with a prologue):
// a cause planted in turn 2's narration is found by neutralising each upstream turn, whatever the game's shape.
describe.each(BACKENDS)('turnkit attribute over the conventions matrix on %s', (backend) => {
  describe.each(CONVENTIONS)('$name', (convention) => {
    let t: TestDb;
    let project: Project;

    beforeAll(async () => {
      t = await createTestDb(backend, convention.config);
      await t.db.pool.query(convention.schema);
      await t.db.pool.query(convention.data);
      project = await openProject({ cwd: t.dir, config: convention.config, db: t.db });
    });
    afterAll(async () => {
      await project?.close();
      await t?.cleanup();
    });

    it('ranks the turn whose narration was planted first in 90%+ of seeded trials, and leaves every table as it was', async () => {
      const fixture = (await captureFromDb(t.db, t.config, { campaign: convention.campaign, turns: { turn: 3 } }))
        .fixtures[0]!;
      // The cause: turn 2's narration (its one row, or its first row that is not the player's: a chat's reply).
      const planted = structuredClone(fixture);
      const entry = turnsInOrder(planted).find((candidate) => candidate.turn === 2)!;
      (entry.others[0] ?? entry.rows[0])![convention.narration] = PLANTED;
      await mkdir(join(t.dir, 'fixtures'), { recursive: true });
      await mkdir(join(t.dir, 'questions'), { recursive: true });
      await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...planted, name: 'base' }));
      await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the route names deck 2\n');
      await writeFile(join(t.dir, 'questions/case.md'), `{{table:${planted.source.turns.table}}}\n`);
      const question: QuestionInput = {
        id: `attribute-${convention.name}`,
        question: 'Does the route name deck 2?',
        rubric: { path: 'questions/rubric.md', version: '1' },
        target: 0.8,
        reps: 10,
        fixtures: ['fixtures/base.json'],
        sut: misledByCaseFile(convention.name) as QuestionInput['sut'],
        caseFile: 'questions/case.md',
        checks: { mustContain: ['deck 2'] },
      };
      const before = await tableChecksums(t.db);
      const kept = turnsInOrder(planted).map((e) => e.turn);
      const trials = 10;
      let first = 0;
      let spent = 0;
      for (let trial = 1; trial <= trials; trial++) {
        const result = await attribute(project, {
          fixture: 'fixtures/base.json',
          question: { ...question, sut: misledByCaseFile(`${convention.name}/${trial}`) as QuestionInput['sut'] },
          repsPerLook: 10,
          looks: 3,
          concurrency: 2,
        });
        expect(result.variants.map((v) => v.turns[0])).toEqual(kept);
        if (result.outcome.ranking[0]!.label === 'turn 2' && result.outcome.significant.includes('turn 2')) first++;
        spent += result.outcome.repsSpent;
      }
      console.log(
        `${backend} ${convention.name}: planted turn 2 first and significant in ${first}/${trials} trials over turns ${kept.join(', ')}, mean budget ${spent / trials} reps of at most ${30 * (kept.length + 1)}`,
      );
      expect(first / trials).toBeGreaterThanOrEqual(0.9);
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    }, 300_000);
  });
});
