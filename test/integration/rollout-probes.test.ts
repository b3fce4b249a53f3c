import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { buildReport } from '../../src/report/build-report.js';
import { formatSurvival } from '../../src/report/format-survival.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

const CORRUPTED_AT = 25;

// A game master that remembers where the captain is from its first turn and narrates that. At turn 25 it moves the
// captain in the game's database (the planted corruption) without updating what it remembers: from turn 26 on the
// narration and the world disagree, and before that they agree.
function rememberingGameMaster(): SutFunction {
  const remembered = new Map<string, string>();
  return async (request, { db }) => {
    let place = remembered.get(request.campaign);
    if (place === undefined) {
      const { rows } = await db.query<{ name: string }>(
        `SELECT l.name FROM characters c JOIN locations l ON l.id = c.location_id
         WHERE c.campaign_id = $1 AND c.role = 'captain'`,
        [request.campaign],
      );
      place = rows[0]!.name;
      remembered.set(request.campaign, place);
    }
    if (request.turn === CORRUPTED_AT)
      await db.query(
        `UPDATE characters SET location_id = (SELECT id FROM locations WHERE campaign_id = $1 AND name <> $2 ORDER BY name LIMIT 1)
         WHERE campaign_id = $1 AND role = 'captain'`,
        [request.campaign, place],
      );
    return { response: `The captain waits in the ${place}.` };
  };
}

describe.each(BACKENDS)('state tracking over a rollout (probes) on %s', (backend) => {
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    const campaign = await createSampleCampaign(t.db, { turns: 40 });
    const fixture = (
      await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 23 }, ahead: 6 })
    ).fixtures[0]!;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the narration keeps track of the captain\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: the captain is in the {{fact:captain_at}}.\n');
    const game = sampleGameConfig.game!;
    project = await openProject({
      cwd: t.dir,
      config: { ...sampleGameConfig, game: { ...game, turns: { ...game.turns, output: ['narration'] } } },
      db: t.db,
    });
  }, 120_000);
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  it('the probe accuracy stays whole before the planted corruption and drops after it', async () => {
    const question: QuestionInput = {
      id: 'probes',
      question: 'Does the narration keep track of the captain?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.9,
      reps: 4,
      fixtures: ['fixtures/base.json'],
      sut: rememberingGameMaster() as QuestionInput['sut'],
      caseFile: 'questions/case.md',
      turns: 6,
      facts: {
        captain_at: {
          sql: `SELECT l.name FROM characters c JOIN locations l ON l.id = c.location_id
                WHERE c.campaign_id = $1 AND c.role = 'captain'`,
          alternatives: 'SELECT name FROM locations WHERE campaign_id = $1',
        },
      },
      probes: [{ fact: 'captain_at' }],
    };
    const result = await run(project, { question, concurrency: 2 });
    expect(result).toMatchObject({ status: 'complete', ran: 4, errors: 0 });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.turns!.map((turn) => [turn.turn, turn.probes?.[0]?.mark])).toEqual([
      [23, 'agree'],
      [24, 'agree'],
      [25, 'agree'],
      [26, 'disagree'],
      [27, 'disagree'],
      [28, 'disagree'],
    ]);
    // Each turn's case file showed the fact as the campaign held it then.
    const place = record.turns![0]!.probes![0]!.value!;
    expect(record.turns![0]!.caseFile).toBe(`Turn 23: the captain is in the ${place}.\n`);
    expect(record.turns![3]!.caseFile).not.toContain(place);
    expect(record.turns![3]!.probes![0]!.reason).toMatch(
      /^contradicts captain_at: names "[^"]+" where the campaign has "[^"]+"$/,
    );

    const report = await buildReport(result.dir);
    expect(report.rollout!.probes).toEqual([
      {
        fixture: 'base',
        steps: [23, 24, 25, 26, 27, 28].map((turn) => ({ turn, probed: 4, agree: turn <= CORRUPTED_AT ? 4 : 0 })),
      },
    ]);
    const lines = formatSurvival(report.rollout!, 'text');
    const at = lines.indexOf("State tracking: probes the narration agreed with (the campaign's facts at each turn)");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 3]!.split(/\s+/)).toEqual(['base', '4/4', '4/4', '4/4', '0/4', '0/4', '0/4']);
  }, 300_000);

  it('refuses probes on a question of one turn, and a probe naming no fact', async () => {
    const base: QuestionInput = {
      id: 'probes-bad',
      question: 'q?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.9,
      reps: 1,
      fixtures: ['fixtures/base.json'],
      sut: rememberingGameMaster() as QuestionInput['sut'],
      caseFile: 'questions/case.md',
      facts: { captain_at: 'SELECT 1' },
    };
    await expect(run(project, { question: { ...base, probes: [{ fact: 'captain_at' }] } })).rejects.toThrow(
      /probes follow a rollout's turns/,
    );
    await expect(run(project, { question: { ...base, turns: 3, probes: [{ fact: 'nope' }] } })).rejects.toThrow(
      /probes\[0\]\.fact: no fact is named "nope"/,
    );
  });
});
