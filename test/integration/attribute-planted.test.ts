import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts } from '../helpers/table-checksums.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { attribute } from '../../src/attribution/attribute.js';
import { readAttributionState } from '../../src/attribution/attribution-state.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import { MISLEADING_TURN } from '../../src/sample/turn-script.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// A game master that believes recent narration over the world facts, as the sample SUT does: when one of the last
// eight turns puts the mess hall on deck 3 (the sample's turn 19 does) it gives the wrong route 80% of the time,
// otherwise 10% (or `plain` of the time, for trials with no cause). Its draws are seeded by the trial, the fixture,
// the rep and the look (the how-many-th call for that rep), so every trial is exact, whatever the scheduling.
function gameMaster(trial: number, plain?: number): SutFunction {
  const calls = new Map<string, number>();
  return async (request, { db }) => {
    const key = `${request.fixture}/${request.rep}`;
    const look = (calls.get(key) ?? 0) + 1;
    calls.set(key, look);
    const { rows } = await db.query<{ narration: string | null }>(
      'SELECT narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 8',
      [request.campaign],
    );
    const misled = rows.some((row) => /mess hall[^.]*deck 3/i.test(row.narration ?? ''));
    const random = mulberry32(hash(`${trial}/${key}/${look}`));
    const wrong = random() < (plain ?? (misled ? 0.8 : 0.1));
    return {
      response: wrong ? 'The mess hall is right here on deck 3.' : 'Take the lift to deck 2 for the mess hall.',
    };
  };
}

function hash(text: string): number {
  let state = 0;
  for (const char of text) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return state >>> 0;
}

describe.each(BACKENDS)('turnkit attribute on planted causes on %s', (backend) => {
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 30, turn: 23 });
    t = made.t;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...made.fixture, name: 'base' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the route names deck 2\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  }, 120_000);
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const question = (sut: SutFunction): QuestionInput => ({
    id: 'places',
    question: 'Does the route name the deck the world facts give?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.8,
    reps: 10,
    fixtures: ['fixtures/base.json'],
    sut: sut as QuestionInput['sut'],
    caseFile: 'questions/case.md',
    checks: { mustContain: ['deck 2'], mustNotContain: ['deck 3'] },
  });

  it('writes each variant as a constructed fixture that drops only its turn, and ranks the planted turn 19 first', async () => {
    const result = await attribute(project, {
      fixture: 'fixtures/base.json',
      question: question(gameMaster(1)),
      turns: '17-21',
      repsPerLook: 10,
      looks: 3,
      concurrency: 2,
      saveTo: 'constructed',
    });
    expect(result.variants.map((v) => v.name)).toEqual([
      'base-no-t17',
      'base-no-t18',
      'base-no-t19',
      'base-no-t20',
      'base-no-t21',
    ]);
    const variant = await loadFixture(result.variants[2]!.file);
    const changed = variant.constructed!.changes;
    expect(changed.map((c) => [c.table, c.column, c.value])).toEqual([['turns', 'narration', '']]);
    expect(variant.fixture.tables.turns!.rows.find((r) => r.turn_number === MISLEADING_TURN)!.narration).toBe('');
    expect(result.outcome.ranking[0]!.label).toBe('turn 19');
    expect(result.outcome.significant).toEqual(['turn 19']);
    // Saved where the author asked, as a constructed fixture on the base itself.
    expect(result.saved).toEqual([join(t.dir, 'constructed/base-no-t19.json')]);
    const saved = JSON.parse(await readFile(result.saved[0]!, 'utf8'));
    expect(saved).toMatchObject({ format: 'turnkit.constructed/1', turn: 19, base: { path: '../fixtures/base.json' } });
    const state = await readAttributionState(result.dir);
    expect(state.looks.length).toBe(result.outcome.looks);
    expect(state.outcome).toMatchObject({ significant: ['turn 19'] });
    const html = await readFile(result.html, 'utf8');
    expect(html).toContain('<tr class="significant"><td>1</td><td>turn 19</td>');
    // Every scratch campaign went.
    expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0, shared_uses: 0 });
  }, 300_000);

  it('a window of turns is a chain of constructed fixtures, one turn each', async () => {
    const result = await attribute(project, {
      fixture: 'fixtures/base.json',
      question: question(gameMaster(2)),
      turns: '18-20',
      window: 3,
      repsPerLook: 5,
      looks: 1,
      concurrency: 2,
    });
    expect(result.variants.map((v) => [v.label, v.name])).toEqual([['turns 18-20', 'base-no-t18-20']]);
    expect(existsSync(join(result.dir, 'variants/base-no-t18-20.step-18.json'))).toBe(true);
    const chained = await loadFixture(result.variants[0]!.file);
    const narrations = chained.fixture.tables
      .turns!.rows.filter((r) => Number(r.turn_number) >= 18 && Number(r.turn_number) <= 20)
      .map((r) => r.narration);
    expect(narrations).toEqual(['', '', '']);
  }, 300_000);

  it('seeded trials: the planted turn first in 90%+ of them; with no cause, significance at no more than the nominal rate', async () => {
    const design = { repsPerLook: 10, looks: 3, alpha: 0.05 };
    const planted = 10;
    let first = 0;
    let spent = 0;
    for (let trial = 1; trial <= planted; trial++) {
      const result = await attribute(project, {
        fixture: 'fixtures/base.json',
        question: question(gameMaster(100 + trial)),
        turns: '17-21',
        repsPerLook: design.repsPerLook,
        looks: design.looks,
        alpha: design.alpha,
        concurrency: 4,
      });
      if (result.outcome.ranking[0]!.label === 'turn 19' && result.outcome.significant.includes('turn 19')) first++;
      spent += result.outcome.repsSpent;
    }
    const quiet = 20;
    let alarms = 0;
    let quietSpent = 0;
    for (let trial = 1; trial <= quiet; trial++) {
      const result = await attribute(project, {
        fixture: 'fixtures/base.json',
        question: question(gameMaster(500 + trial, 0.5)),
        turns: '19-20',
        repsPerLook: 5,
        looks: 2,
        alpha: design.alpha,
        concurrency: 4,
      });
      if (result.outcome.significant.length > 0) alarms++;
      quietSpent += result.outcome.repsSpent;
    }
    console.log(
      `${backend}: planted turn 19 ranked first and significant in ${first}/${planted} trials (mean budget ${spent / planted} reps of at most ${design.repsPerLook * design.looks * 6}); ` +
        `no cause: significant in ${alarms}/${quiet} trials (nominal ${design.alpha}; mean budget ${quietSpent / quiet} reps)`,
    );
    expect(first / planted).toBeGreaterThanOrEqual(0.9);
    expect(alarms / quiet).toBeLessThanOrEqual(design.alpha);
  }, 900_000);
});
