import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { runQuestion } from '../../src/app/run-question.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { buildReport } from '../../src/report/build-report.js';
import { compareReports } from '../../src/report/compare-runs.js';
import { formatComparison } from '../../src/report/format-report.js';
import { sha256 } from '../../src/util/sha256.js';
import { TurnkitError } from '../../src/errors.js';

// A SUT that keeps the story on track for a player who plays along and loses it for one who refuses: the mess hall
// is on deck 2 unless the input refuses. Deterministic, so the runs' difference is the players' alone.
const SUT = `let text = '';
process.stdin.on('data', (c) => (text += c)).on('end', () => {
  const { input } = JSON.parse(text);
  const said = String(input.player_input ?? '');
  process.stdout.write(/refuse|\\bno\\b/i.test(said) ? 'You stay put; the mess hall is on deck 3.' : 'The lift takes you to the mess hall on deck 2.');
});
`;

const PERSONA = 'a cadet who always plays along';

describe.each(BACKENDS)('a simulated player measured against recorded inputs on %s', (backend) => {
  let t: TestDb;
  let llm: FakeLlmServer;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    const campaign = await createSampleCampaign(t.db, { turns: 40 });
    const fixture = (
      await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 23 }, ahead: 5 })
    ).fixtures[0]!;
    // The players of the live game refused to move on at every later turn.
    const refusing = {
      ...fixture,
      name: 'base',
      ahead: fixture.ahead!.map((entry) => ({
        ...entry,
        values: { ...entry.values, player_input: 'No. I refuse to go.' },
      })),
    };
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument(refusing));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when every turn keeps the mess hall on deck 2\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
    await writeFile(join(t.dir, 'sut.mjs'), SUT);
    const game = sampleGameConfig.game!;
    await writeFile(
      join(t.dir, 'answers.config.json'),
      JSON.stringify({ ...sampleGameConfig, game: { ...game, turns: { ...game.turns, output: ['narration'] } } }),
    );
    // The simulated player always plays along.
    llm = await startFakeLlmServer(() => ({ content: 'Yes, take me to the mess hall.' }));
  });
  afterAll(async () => {
    await llm?.close();
    await t?.cleanup();
  });

  const question = async (id: string, persona: string): Promise<string> => {
    await writeFile(
      join(t.dir, `questions/${id}.yaml`),
      [
        `id: players`,
        'question: Does the route hold over four turns?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 6',
        'fixtures: [fixtures/base.json]',
        'caseFile: questions/case.md',
        'turns: 4',
        'stopOn: fail',
        'checks: { mustContain: ["deck 2"] }',
        'sut: { type: command, command: [node, sut.mjs] }',
        `players: { type: simulated, baseUrl: "${llm.openaiBaseUrl}", model: player-1, persona: "${persona}" }`,
        '',
      ].join('\n'),
    );
    return `questions/${id}.yaml`;
  };
  const run = (file: string, extra: Record<string, unknown> = {}) =>
    runQuestion({
      question: file,
      cwd: t.dir,
      databaseUrl: t.databaseUrl,
      configPath: 'answers.config.json',
      concurrency: 2,
      env: { PATH: process.env.PATH },
      ...extra,
    });

  it('runs the same rollout with the recorded inputs, pins the player, and flags a player kinder than real ones', async () => {
    const file = await question('players', PERSONA);
    const simulated = await run(file);
    const recorded = await run(file, { players: 'recorded' });
    expect(simulated).toMatchObject({ status: 'complete', errors: 0 });
    expect(recorded).toMatchObject({ status: 'complete', errors: 0 });
    const manifest = JSON.parse(await readFile(join(simulated.dir, 'manifest.json'), 'utf8'));
    expect(manifest.rollout.player).toEqual({
      type: 'simulated',
      model: 'player-1',
      baseUrl: llm.openaiBaseUrl,
      promptSha256: sha256(PERSONA),
    });
    const recordedManifest = JSON.parse(await readFile(join(recorded.dir, 'manifest.json'), 'utf8'));
    expect(recordedManifest.rollout).toMatchObject({ players: 'recorded', player: { type: 'recorded' } });

    const comparison = compareReports(await buildReport(simulated.dir), await buildReport(recorded.dir));
    const players = comparison.players!;
    expect(players.recordedIn).toBe('there');
    // Every simulated rep survives its four turns; every recorded one fails at its second (the first refusal).
    expect(players.steps.map((step) => [step.turn, step.simulated.surviving, step.recorded.surviving])).toEqual([
      [23, 6, 6],
      [24, 6, 0],
      [25, 6, 0],
      [26, 6, 0],
    ]);
    expect(players.steps[0]!.difference).toBe(0);
    expect(players.steps[3]!.difference).toBe(1);
    expect(players.steps[3]!.p).toBeLessThan(0.01);
    expect(players.inputs.simulated).toMatchObject({ inputs: 18, questions: 0, refusals: 0 });
    expect(players.inputs.recorded).toMatchObject({ inputs: 6, refusals: 6 });
    expect(players.flag).toMatch(
      /^the simulated player's reps survive more than with the recorded inputs by turn 26 \(\+1\.00, p /,
    );
    const lines = formatComparison(comparison, 'text');
    expect(lines).toContain(`flag: ${players.flag}`);
    expect(lines.some((line) => /^Inputs, recorded: +6 inputs, .*100% refuse/.test(line))).toBe(true);
  });

  it('refuses to compare two runs of different simulated players, and refuses --players on a one-turn question', async () => {
    const first = await run(await question('players', PERSONA), { reps: 1 });
    const other = await run(await question('players-b', 'a grumpy engineer'), { reps: 1 });
    const error = await (async () => {
      try {
        compareReports(await buildReport(first.dir), await buildReport(other.dir));
      } catch (caught) {
        return caught as TurnkitError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TurnkitError);
    expect(error!.message).toMatch(/the runs' players differ \(promptSha256 [0-9a-f]{12}/);
    expect(error!.message).toMatch(/a comparison must not mix players/);
    await writeFile(
      join(t.dir, 'questions/one.yaml'),
      (await readFile(join(t.dir, 'questions/players.yaml'), 'utf8')).replace('turns: 4', 'turns: 1'),
    );
    await expect(run('questions/one.yaml', { players: 'recorded' })).rejects.toThrow(
      /--players recorded: .*questions\/one\.yaml.*: the question plays one turn per rep/,
    );
  });
});
