import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { runQuestion } from '../../src/app/run-question.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { merge } from '../../src/shard/merge-runs.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { buildReport } from '../../src/report/build-report.js';
import { formatReport } from '../../src/report/format-report.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

// A game master that plays its own turns: it reads the campaign's last turn, writes this one, and answers with both.
// At turn $FAIL_AT it fails; it says "deck 3" at turn $WRONG_AT.
const GAME_MASTER = `#!/bin/sh
set -e
request=$(cat)
[ "$TURNKIT_TURN" = "\${FAIL_AT:-0}" ] && { echo "broke at $TURNKIT_TURN" >&2; exit 4; }
last=$(psql "$DATABASE_URL" -Atc "SELECT turn_number || ':' || narration FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN ORDER BY turn_number DESC LIMIT 1")
deck=2; [ "$TURNKIT_TURN" = "\${WRONG_AT:-0}" ] && [ -z "$WRONG_REP" -o "$TURNKIT_REP" = "$WRONG_REP" ] && deck=3
psql "$DATABASE_URL" -qc "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, 'typed', 'gm turn $TURNKIT_TURN on deck $deck', now(), 0)"
echo "turn $TURNKIT_TURN after [$last] deck $deck"
`;

// A SUT that only answers: it writes nothing, and reads the campaign's last turn (turnkit writes the turns).
const ANSWERER = `#!/bin/sh
cat > /dev/null
last=$(psql "$DATABASE_URL" -Atc "SELECT turn_number || ':' || coalesce(narration, '') FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN ORDER BY turn_number DESC LIMIT 1")
echo "answer $TURNKIT_TURN after [$last]"
`;

// A SUT that only answers, but touches an earlier turn's row on the way (as a trigger might): turnkit still writes
// the turn's row.
const TOUCHER = `#!/bin/sh
cat > /dev/null
psql "$DATABASE_URL" -qc "UPDATE turns SET ship_minute = ship_minute + 1 WHERE campaign_id = $TURNKIT_CAMPAIGN AND turn_number = (SELECT min(turn_number) FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN)"
last=$(psql "$DATABASE_URL" -Atc "SELECT turn_number || ':' || coalesce(narration, '') FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN ORDER BY turn_number DESC LIMIT 1")
echo "answer $TURNKIT_TURN after [$last]"
`;

// A SUT that answers with its usage and cost, as a command SUT may: 10 + turn input tokens, 3 output, 0.25 a call.
const SPENDER = `#!/bin/sh
cat > /dev/null
echo "{\\"response\\": \\"answer $TURNKIT_TURN\\", \\"usage\\": {\\"input_tokens\\": $((10 + TURNKIT_TURN)), \\"output_tokens\\": 3}, \\"cost\\": 0.25}"
`;

// A player played by a command: the transcript on stdin, the next input on stdout.
const PLAYER = `#!/usr/bin/env node
let text = '';
process.stdin.on('data', (c) => (text += c)).on('end', () => {
  const { turn, transcript } = JSON.parse(text);
  process.stdout.write(JSON.stringify({ player_input: 'cmd ' + turn + ' saw ' + transcript.length }));
});
`;

const TEMPLATE = 'Turn {{turn}}: {{input}}\n\n{{recent_turns:2}}\n';

// Its SUTs are shell scripts that read and write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(psql.found ? BACKENDS : [])('rollouts on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let campaign: string;
  let llm: FakeLlmServer;
  let recorded: string[];

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    campaign = await createSampleCampaign(t.db, { turns: 40 });
    fixture = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 23 }, ahead: 5 }))
      .fixtures[0]!;
    recorded = fixture.ahead!.map((entry) => entry.values.player_input as string);
    const dir = t.dir;
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'questions'), { recursive: true });
    await writeFile(join(dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    await writeFile(join(dir, 'questions/rubric.md'), 'pass when every turn keeps the mess hall on deck 2\n');
    await writeFile(join(dir, 'questions/case.md'), TEMPLATE);
    for (const [name, text] of [
      ['gm.sh', GAME_MASTER],
      ['answer.sh', ANSWERER],
      ['touch.sh', TOUCHER],
      ['spend.sh', SPENDER],
      ['player.mjs', PLAYER],
    ] as const) {
      await writeFile(join(dir, name), text);
      await chmod(join(dir, name), 0o755);
    }
    // The same game, with the column a response fills for a SUT that only answers.
    const game = sampleGameConfig.game!;
    await writeFile(
      join(dir, 'answers.config.json'),
      JSON.stringify({
        ...sampleGameConfig,
        game: { ...game, turns: { ...game.turns, output: ['narration'] } },
      }),
    );
    llm = await startFakeLlmServer((request) => {
      const prompt = request.body.messages[1].content as string;
      return { content: `sim ${/turn (\d+)\.$/.exec(prompt)?.[1]} knows ${(prompt.match(/\*\*Turn/g) ?? []).length}` };
    });
  });
  afterAll(async () => {
    await llm?.close();
    await t?.cleanup();
  });

  const question = async (id: string, lines: string[]): Promise<string> => {
    await writeFile(
      join(t.dir, `questions/${id}.yaml`),
      [
        `id: ${id}`,
        'question: Does the route hold over five turns?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 2',
        'fixtures: [fixtures/base.json]',
        'caseFile: questions/case.md',
        ...lines,
        '',
      ].join('\n'),
    );
    return `questions/${id}.yaml`;
  };
  const run = async (file: string, extra: Record<string, unknown> = {}) =>
    runQuestion({ question: file, cwd: t.dir, databaseUrl: t.databaseUrl, concurrency: 2, ...extra });
  const rep = async (dir: string, n: number): Promise<RepRecord> =>
    JSON.parse(await readFile(join(dir, `reps/base/rep-0${n}.json`), 'utf8')) as RepRecord;

  it('plays 5 turns with recorded inputs in one campaign, the SUT writing its turns, and leaves the database as it was', async () => {
    const before = await tableChecksums(t.db);
    const result = await run(
      await question('recorded', [
        'turns: 5',
        'sut: { type: command, command: ["./gm.sh"] }',
        'checks: { mustContain: [deck 2] }',
      ]),
    );
    expect(result).toMatchObject({ status: 'complete', total: 2, errors: 0 });
    const record = await rep(result.dir, 1);
    expect(record.rollout).toEqual({ turns: 5, played: 5 });
    expect(record.turns!.map((turn) => turn.turn)).toEqual([23, 24, 25, 26, 27]);
    expect(record.turns!.map((turn) => turn.input.player_input)).toEqual([
      fixture.input.values.player_input,
      ...recorded.slice(0, 4),
    ]);
    // Each call saw the turn before it: the last one the fixture holds, then the ones it wrote itself.
    const lastKept = fixture.tables.turns!.rows.find((row) => row.turn_number === 22)!.narration;
    expect(record.turns![0]!.response).toBe(`turn 23 after [22:${lastKept}] deck 2`);
    expect(record.turns![3]!.response).toBe('turn 26 after [25:gm turn 25 on deck 2] deck 2');
    // The case file is rendered against the campaign as it stands: turn 25's shows the turns 23 and 24 played.
    expect(record.turns![2]!.caseFile).toContain(`Turn 25: ${recorded[1]}`);
    expect(record.turns![2]!.caseFile).toContain('**Turn 24.** Player: typed\n\ngm turn 24 on deck 2');
    for (const turn of record.turns!) {
      expect(turn.turnRow).toBe('sut');
      expect(turn.effects).toMatchObject({ inserted: { turns: 1 }, updated: {}, deleted: {} });
      expect(turn.check).toEqual({ mark: 'pass', reason: '1 check(s) passed' });
    }
    // The whole rep's effects: five turns written.
    expect(record.effects!.inserted).toEqual({ turns: 5 });
    expect(record.response).toContain('**Turn 27.**');
    const markdown = await readFile(join(result.dir, 'reps/base/rep-01.md'), 'utf8');
    expect(markdown).toContain('## Rollout: 5 of 5 turns played\n\n### Turn 23\n');
    expect(markdown).toContain(
      `### Turn 24\n\nPlayer: ${recorded[0]}\n\nturn 24 after \\[23:gm turn 23 on deck 2] deck 2\n\nChecks: pass`,
    );
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it("sums a rollout's usage and cost over its turns", async () => {
    const result = await run(
      await question('spent', [
        'turns: 3',
        'sut: { type: command, command: ["./spend.sh"] }',
        'players: { type: script, inputs: [go aft, go up] }',
      ]),
      { configPath: 'answers.config.json' },
    );
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir, 1);
    expect(record.turns!.map((turn) => turn.response)).toEqual(['answer 23', 'answer 24', 'answer 25']);
    // Turns 23, 24, 25: (10 + 23) + (10 + 24) + (10 + 25) input tokens, 3 output each, 0.25 each.
    expect(record.spend).toEqual({ inputTokens: 102, outputTokens: 9, cost: 0.75 });
    // Two reps of three turns are six SUT calls, in the manifest and in the report.
    const six = { calls: 6, inputTokens: 204, outputTokens: 18, cost: 1.5, unpriced: 0 };
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8'));
    expect(manifest.spend).toEqual({ sut: six });
    const report = await buildReport(result.dir);
    expect(report.spend.sut).toEqual(six);
    expect(report.fixtures[0]!.spend.sut).toEqual(six);
  });

  it('writes the turns of a SUT that only answers, so the next call sees them', async () => {
    const before = await tableChecksums(t.db);
    const result = await run(
      await question('answers', [
        'turns: 5',
        'sut: { type: command, command: ["./answer.sh"] }',
        'players: { type: script, inputs: [go aft, go up, wait, look] }',
      ]),
      { configPath: 'answers.config.json' },
    );
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir, 2);
    expect(record.turns!.map((turn) => turn.input.player_input)).toEqual([
      fixture.input.values.player_input,
      'go aft',
      'go up',
      'wait',
      'look',
    ]);
    expect(record.turns!.map((turn) => turn.turnRow)).toEqual(['turnkit', 'turnkit', 'turnkit', 'turnkit', 'turnkit']);
    expect(record.turns![1]!.response).toMatch(/^answer 24 after \[23:answer 23 after \[22:/);
    expect(record.turns![4]!.caseFile).toContain('**Turn 26.** Player: wait\n\nanswer 26 after [25:');
    expect(record.turns![0]!.effects).toMatchObject({ inserted: { turns: 1 } });
    // Each turn counts the one row turnkit wrote as inserted, and no turn counts the row before it again.
    expect(record.turns!.map((turn) => [turn.effects!.inserted, turn.effects!.updated, turn.effects!.deleted])).toEqual(
      Array.from({ length: 5 }, () => [{ turns: 1 }, {}, {}]),
    );
    expect(record.effects!.inserted).toEqual({ turns: 5 });
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('plays a rollout in a database of its own (--strategy database): its turns there, the live campaign untouched', async () => {
    const before = await tableChecksums(t.db);
    const result = await run(
      await question('answers-clone', [
        'turns: 3',
        'sut: { type: command, command: ["./answer.sh"] }',
        'players: { type: script, inputs: [go aft, go up] }',
      ]),
      { configPath: 'answers.config.json', strategy: 'database' },
    );
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir, 2);
    expect(record.scratch?.strategy).toBe('database');
    expect(record.turns!.map((turn) => turn.turnRow)).toEqual(['turnkit', 'turnkit', 'turnkit']);
    // The SUT, reading its clone, sees the turn row turnkit wrote there.
    expect(record.turns![1]!.response).toMatch(/^answer 24 after \[23:answer 23 after \[22:/);
    expect(record.turns!.map((turn) => [turn.effects!.inserted, turn.effects!.updated, turn.effects!.deleted])).toEqual(
      Array.from({ length: 3 }, () => [{ turns: 1 }, {}, {}]),
    );
    expect(record.effects!.inserted).toEqual({ turns: 3 });
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('with game.turns.output, writes no turn row for a SUT that wrote its own, and still writes one when the SUT only updated an earlier turn', async () => {
    const before = await tableChecksums(t.db);
    const own = await run(
      await question('own-turns', [
        'turns: 3',
        'sut: { type: command, command: ["./gm.sh"] }',
        'players: { type: recorded }',
      ]),
      { configPath: 'answers.config.json' },
    );
    expect(own).toMatchObject({ status: 'complete', errors: 0 });
    const played = await rep(own.dir, 1);
    expect(played.turns!.map((turn) => turn.turnRow)).toEqual(['sut', 'sut', 'sut']);
    expect(played.turns!.map((turn) => turn.effects!.inserted)).toEqual([{ turns: 1 }, { turns: 1 }, { turns: 1 }]);
    expect(played.turns![2]!.response).toBe('turn 25 after [24:gm turn 24 on deck 2] deck 2');

    const touched = await run(
      await question('touches', [
        'turns: 3',
        'sut: { type: command, command: ["./touch.sh"] }',
        'players: { type: recorded }',
      ]),
      { configPath: 'answers.config.json' },
    );
    expect(touched).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(touched.dir, 1);
    expect(record.turns!.map((turn) => turn.turnRow)).toEqual(['turnkit', 'turnkit', 'turnkit']);
    expect(record.turns!.map((turn) => [turn.effects!.inserted, turn.effects!.updated])).toEqual(
      Array.from({ length: 3 }, () => [{ turns: 1 }, { turns: 1 }]),
    );
    // The next call sees the row turnkit wrote for the turn before.
    expect(record.turns![1]!.response).toMatch(/^answer 24 after \[23:answer 23 after \[22:/);
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('asks a simulated player (a model behind an endpoint) and a command player for each next input', async () => {
    const simulated = await run(
      await question('simulated', [
        'turns: 5',
        'sut: { type: command, command: ["./gm.sh"] }',
        `players: { type: simulated, baseUrl: "${llm.openaiBaseUrl}", model: player-1, persona: "a cadet who is lost" }`,
      ]),
    );
    const played = await rep(simulated.dir, 1);
    // The model was asked for turn 24 knowing one played turn, for turn 27 knowing four.
    expect(played.turns!.map((turn) => turn.input.player_input)).toEqual([
      fixture.input.values.player_input,
      'sim 24 knows 1',
      'sim 25 knows 2',
      'sim 26 knows 3',
      'sim 27 knows 4',
    ]);
    const asked = llm.requests.filter((request) => request.body?.model === 'player-1');
    expect(asked).toHaveLength(8);
    expect(asked[0]!.body.messages[0]).toEqual({ role: 'system', content: 'a cadet who is lost' });
    const command = await run(
      await question('command-player', [
        'turns: 5',
        'sut: { type: command, command: ["./gm.sh"] }',
        'players: { type: command, command: [node, player.mjs] }',
      ]),
    );
    const byCommand = await rep(command.dir, 2);
    expect(byCommand.turns!.slice(1).map((turn) => turn.input.player_input)).toEqual([
      'cmd 24 saw 1',
      'cmd 25 saw 2',
      'cmd 26 saw 3',
      'cmd 27 saw 4',
    ]);
  });

  it('ends a rollout at a turn that errors, keeping the turns before it', async () => {
    const before = await tableChecksums(t.db);
    const result = await run(
      await question('errors', ['turns: 5', 'sut: { type: command, command: ["./gm.sh"], env: { FAIL_AT: "25" } }']),
    );
    expect(result).toMatchObject({ status: 'complete', errors: 2 });
    const record = await rep(result.dir, 1);
    expect(record.error).toMatchObject({ stage: 'sut', cause: 'exit', turn: 25 });
    expect(record.rollout).toEqual({ turns: 5, played: 3, stopped: 'error' });
    expect(record.turns!.map((turn) => [turn.turn, turn.response !== null, turn.error?.cause ?? null])).toEqual([
      [23, true, null],
      [24, true, null],
      [25, false, 'exit'],
    ]);
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('with stopOn: fail ends at the first turn that fails its checks', async () => {
    const result = await run(
      await question('stops', [
        'turns: 5',
        'sut: { type: command, command: ["./gm.sh"], env: { WRONG_AT: "24" } }',
        'checks: { mustNotContain: [deck 3] }',
        'stopOn: fail',
      ]),
    );
    const record = await rep(result.dir, 2);
    expect(record.error).toBeNull();
    expect(record.rollout).toEqual({ turns: 5, played: 2, stopped: 'fail' });
    expect(record.turns!.map((turn) => turn.check?.mark)).toEqual(['pass', 'fail']);
  });

  it('resumes an interrupted rollout run by running whole reps again', async () => {
    const before = await tableChecksums(t.db);
    const file = await question('resumed', ['turns: 5', 'sut: { type: command, command: ["./gm.sh"] }']);
    await writeFile(join(t.dir, file), (await readFile(join(t.dir, file), 'utf8')).replace('reps: 2', 'reps: 3'));
    const quit = new AbortController();
    // One worker's rep finishes while the next is in the middle of its rollout: quitting kills that one's SUT.
    const first = await run(file, { concurrency: 1, quit: quit.signal, onProgress: () => quit.abort() });
    expect(first.status).toBe('interrupted');
    const done = first.ran;
    expect(done).toBeGreaterThanOrEqual(1);
    expect(first.pending).toBe(3 - done);
    const resumed = await run(file, { resume: first.dir });
    expect(resumed).toMatchObject({ status: 'complete', ran: 3 - done, errors: 0, pending: 0 });
    const records = await Promise.all([1, 2, 3].map((n) => rep(first.dir, n)));
    // Every rep, first run's or resumed, is a whole rollout of five turns from turn 23.
    for (const record of records) {
      expect(record.turns!.map((turn) => turn.turn)).toEqual([23, 24, 25, 26, 27]);
      expect(record.rollout).toEqual({ turns: 5, played: 5 });
    }
    expect(records.filter((record) => record.attempt === 2)).toHaveLength(3 - done);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('shards a rollout run and merges the shards', async () => {
    const file = await question('sharded', ['turns: 3', 'sut: { type: command, command: ["./gm.sh"] }']);
    const shards = [];
    for (const index of [1, 2]) shards.push((await run(file, { shard: { index, count: 2 } })).dir);
    const merged = await merge({ cwd: t.dir, paths: { baseDir: t.dir } }, { dirs: shards });
    const records = await Promise.all([1, 2].map((n) => rep(merged.dir, n)));
    expect(records.map((record) => record.turns!.map((turn) => turn.turn))).toEqual([
      [23, 24, 25],
      [23, 24, 25],
    ]);
    expect(records.map((record) => record.rep)).toEqual([1, 2]);
  });

  it('judges each turn and the transcript, and reports survival per turn', async () => {
    const result = await run(
      await question('judged', [
        'turns: 4',
        'sut: { type: command, command: ["./gm.sh"], env: { WRONG_AT: "25", WRONG_REP: "2" } }',
        'checks: { mustNotContain: [deck 3] }',
        'transcriptChecks: { mustContain: [turn 26] }',
      ]),
    );
    const judged = await judgeChecks({ cwd: t.dir, paths: { baseDir: t.dir } }, { dir: result.dir });
    expect(judged).toMatchObject({ pass: 1, fail: 1, error: 0 });
    const marks = parseMarks(await readFile(join(result.dir, 'marks.checks.csv'), 'utf8'));
    expect(marks.map((row) => [row.rep, row.mark, row.note])).toEqual([
      [1, 'pass', '5 turn and transcript check set(s) passed'],
      // Turn 26 repeats turn 25's wrong deck (it read it from the campaign): the error compounds.
      [2, 'fail', 'turn 25: contains "deck 3"; turn 26: contains "deck 3"'],
    ]);
    const report = await buildReport(result.dir, { marks: 'marks.checks.csv' });
    expect(report.fixtures[0]).toMatchObject({ pass: 1, fail: 1 });
    expect(report.rollout).toEqual({
      turns: 4,
      fixtures: [
        {
          fixture: 'base',
          reps: 2,
          left: 0,
          failed: 1,
          medianFirstFailingTurn: 25,
          steps: [
            { step: 1, turn: 23, surviving: 2, share: 1 },
            { step: 2, turn: 24, surviving: 2, share: 1 },
            { step: 3, turn: 25, surviving: 1, share: 0.5 },
            { step: 4, turn: 26, surviving: 1, share: 0.5 },
          ],
        },
      ],
      // The recorded players' inputs as the player comparison reads them (the game master's narration names no
      // word of theirs, so every one leaves the narration by that rule).
      player: { type: 'recorded' },
      inputs: { inputs: 6, meanLength: 29, questions: 0, refusals: 0, derails: 6 },
      pairs: [],
      turnMarks: { marked: 0, failed: 0 },
    });
    const text = formatReport(report, 'text').join('\n');
    expect(text).toContain('Survival over 4 turns');
    expect(text).toMatch(/base\s+2\/2\s+2\/2\s+1\/2\s+1\/2\s+turn 25/);
  });

  it('judges a rollout by its transcript alone, and refuses an output column the turns table lacks', async () => {
    const result = await run(
      await question('transcript-only', [
        'turns: 3',
        'sut: { type: command, command: ["./gm.sh"], env: { WRONG_AT: "24", WRONG_REP: "1" } }',
        'transcriptChecks: { mustNotContain: [deck 3] }',
      ]),
    );
    expect(await judgeChecks({ cwd: t.dir, paths: { baseDir: t.dir } }, { dir: result.dir })).toMatchObject({
      pass: 1,
      fail: 1,
    });
    const game = sampleGameConfig.game!;
    await writeFile(
      join(t.dir, 'typo.config.json'),
      JSON.stringify({ ...sampleGameConfig, game: { ...game, turns: { ...game.turns, output: ['naration'] } } }),
    );
    await expect(
      run(
        await question('typo', [
          'turns: 2',
          'sut: { type: command, command: ["./answer.sh"] }',
          'players: { type: script, inputs: [go] }',
        ]),
        {
          configPath: 'typo.config.json',
        },
      ),
    ).rejects.toThrow(
      /typo\.config\.json:1:\d+: \$\.game\.turns\.output\[0\]: table "turns" has no column "naration" \(did you mean "narration"\?\)/,
    );
    // No rep began: the new run's folder is gone, not left looking like a run to resume, report or view.
    expect(await readdir(join(t.dir, 'runs', 'typo'))).toEqual([]);
  });

  it('refuses a rollout whose fixture has too few recorded inputs before any rep runs', async () => {
    await expect(
      run(await question('too-long', ['turns: 7', 'sut: { type: command, command: ["./gm.sh"] }'])),
    ).rejects.toThrow(
      /too-long\.yaml:\d+:\d+: \$\.turns: 7 turns need 6 recorded inputs ahead, and base has 4 \(capture it with --ahead 7\)/,
    );
  });
});
