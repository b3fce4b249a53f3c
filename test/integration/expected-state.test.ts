import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { applyScreens } from '../../src/checks/run-checks.js';
import { screensOf } from '../../src/question/check-screens.js';
import { checksSchema } from '../../src/question/checks-format.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// The game master plays its turn (a turn row), wounds the captain (hit_points, and the generated health_ratio with
// it), and touches the campaign's timestamp as some games do on every write: a volatile column.
const gameMaster: SutFunction = async (request, { db }) => {
  await db.query(
    `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
     VALUES ($1, $2, 'I follow the captain.', 'You take the lift to deck 2.', now(), 0)`,
    [request.campaign, request.turn],
  );
  await db.query(`UPDATE characters SET hit_points = hit_points - 1 WHERE campaign_id = $1 AND role = 'captain'`, [
    request.campaign,
  ]);
  await db.query('UPDATE campaigns SET started_at = now() WHERE id = $1', [request.campaign]);
  return { response: 'You take the lift to deck 2.' };
};

describe.each(BACKENDS)('expected state (checks.state) on the sample game on %s', (backend) => {
  let t: TestDb;
  let project: Project;
  let fixture: Fixture;
  let captain: { id: string; hit_points: number };

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 30, turn: 23 });
    t = made.t;
    fixture = { ...made.fixture, name: 'base' };
    const row = fixture.tables.characters!.rows.find((r) => r.role === 'captain')!;
    captain = { id: String(row.id), hit_points: Number(row.hit_points) };
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument(fixture));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the state is right\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n');
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  }, 120_000);
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const state = () => ({
    volatile: ['played_at', 'campaigns.started_at'],
    tables: {
      turns: {
        inserted: 1,
        rows: [
          {
            turn_number: 23,
            campaign_id: fixture.source.root.value,
            ship_minute: 0,
            narration: { matches: 'deck 2' },
          },
        ],
      },
      characters: { updated: 1, rows: [{ key: { id: captain.id }, hit_points: captain.hit_points - 1 }] },
      campaigns: 'unchanged' as const,
    },
    onlyChanges: true,
  });

  it('100 reps: every expected-state screen passes, none failed by a volatile column', async () => {
    const question: QuestionInput = {
      id: 'state',
      question: 'Does the SUT leave the campaign as it should?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.9,
      reps: 100,
      fixtures: ['fixtures/base.json'],
      sut: gameMaster as QuestionInput['sut'],
      caseFile: 'questions/case.md',
      checks: { state: state() } as unknown as QuestionInput['checks'],
    };
    const result = await run(project, { question, concurrency: 4 });
    expect(result).toMatchObject({ status: 'complete', ran: 100, errors: 0 });
    const marked = await judgeChecks(project, { dir: result.dir });
    expect(marked).toMatchObject({ pass: 100, fail: 0, na: 0, error: 0 });
    const screens = (await readFile(join(result.dir, 'screens.checks.jsonl'), 'utf8')).trim().split('\n');
    expect(screens).toHaveLength(100);
    const first = JSON.parse(screens[0]!) as { screens: { screen: string; mark: string }[] };
    expect(first.screens.map((s) => [s.screen, s.mark])).toEqual([
      ['state-turns', 'pass'],
      ['state-characters', 'pass'],
      ['state-campaigns', 'pass'],
      ['state-only-changes', 'pass'],
    ]);

    // Single-column mutations of a recorded rep: each is caught, named by table, row and column; a mutation of a
    // volatile column is not a failure.
    const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.effects!.updatedRows!.campaigns![0]!.changed).toHaveProperty('started_at');
    const checks = checksSchema.parse({ state: state() });
    const verdict = (mutate: (r: RepRecord) => void) => {
      const copy = structuredClone(record);
      mutate(copy);
      return applyScreens(screensOf(checks), copy);
    };
    const turn = (r: RepRecord) => r.effects!.insertedRows.turns![0]!;
    const mutations: [string, (r: RepRecord) => void, string][] = [
      ['turn_number', (r) => void (turn(r).turn_number = 24), 'turns[inserted].turn_number: expected 23, found 24'],
      ['campaign_id', (r) => void (turn(r).campaign_id = '999'), 'turns[inserted].campaign_id: expected'],
      ['ship_minute', (r) => void (turn(r).ship_minute = 5), 'turns[inserted].ship_minute: expected 0, found 5'],
      [
        'narration',
        (r) => void (turn(r).narration = 'On deck 3.'),
        'turns[inserted].narration: expected matching /deck 2/',
      ],
      [
        'hit_points',
        (r) => void (r.effects!.updatedRows!.characters![0]!.changed.hit_points!.after = captain.hit_points),
        `characters[id=${captain.id}].hit_points: expected ${captain.hit_points - 1}, found ${captain.hit_points}`,
      ],
      [
        'campaigns.title',
        (r) => void (r.effects!.updatedRows!.campaigns![0]!.changed.title = { before: 'a', after: 'b' }),
        `campaigns: 1 row(s) updated ([id=${fixture.source.root.value}] title), expected unchanged`,
      ],
      [
        'decks',
        (r) => {
          r.effects!.deleted.decks = 1;
          r.effects!.deletedRows = { decks: [{ campaign_id: fixture.source.root.value, deck_number: 2 }] };
        },
        'decks: 1 row(s) deleted',
      ],
    ];
    for (const [what, mutate, named] of mutations) {
      const caught = verdict(mutate);
      expect(caught.mark, what).toBe('fail');
      expect(caught.reason, what).toContain(named);
    }
    expect(verdict((r) => void (turn(r).played_at = '1999-01-01T00:00:00Z')).mark).toBe('pass');
    expect(
      verdict((r) => void (r.effects!.updatedRows!.campaigns![0]!.changed.started_at!.after = '1999-01-01')).mark,
    ).toBe('pass');
  }, 300_000);

  it('refuses a rule on a scrubbed column, or a table the game lacks, before any rep runs', async () => {
    const base = {
      id: 'state-bad',
      question: 'q?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.9,
      reps: 1,
      fixtures: ['fixtures/base.json'],
      sut: gameMaster as QuestionInput['sut'],
      caseFile: 'questions/case.md',
    };
    await expect(
      run(project, { question: { ...base, checks: { state: { tables: { users: { rows: [{ email: 'x' }] } } } } } }),
    ).rejects.toThrow(/users\.email is scrubbed at capture/);
    await expect(
      run(project, { question: { ...base, checks: { state: { tables: { turn: 'unchanged' } } } } }),
    ).rejects.toThrow(/the game has no table turn \(its fixtures have /);
    await expect(
      run(project, {
        question: { ...base, checks: { state: { volatile: ['playd_at'], tables: { turns: 'unchanged' } } } },
      }),
    ).rejects.toThrow(/volatile\[0\]: no table of the game has a column playd_at/);
  });
});
