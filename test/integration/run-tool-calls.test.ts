import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { openaiToolCallCompletion, startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { paneLines } from '../../src/tui/marker/marker-content.js';
import { buildRunView } from '../../src/view/build-run-view.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction, SutToolCallAnswer } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// A game master acting through tools on the sample game: `record_fact` stands for seed 001's `create_job` (it inserts
// a world_facts row), `search_manual` and `propose_fact` only read.
const RECORD_FACT = `INSERT INTO world_facts (campaign_id, subject, fact) VALUES ($1, $2, 'recorded by a tool')`;

describe.each(BACKENDS)('tool calls recorded and checked, on %s', (backend) => {
  let t: TestDb;
  let project: Project;
  let fixture: Fixture;
  let llm: FakeLlmServer;

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 24, turn: 20 });
    t = made.t;
    fixture = { ...made.fixture, name: 'base' };
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument(fixture));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it acts only as approved\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    // A command SUT: its answer on stdout, with the calls it made.
    await writeFile(
      join(t.dir, 'sut.mjs'),
      `process.stdin.resume(); process.stdin.on('data', () => {}).on('end', () => {
  process.stdout.write(JSON.stringify({ response: 'Inspection required.', toolCalls: [
    { name: 'search_manual', arguments: { query: 'pump ' + process.env.TURNKIT_REP }, result: { hits: 1 } },
    { name: 'create_job', arguments: '{"pump":"P-7"}', error: 'approval required' },
  ] }));
});\n`,
    );
    llm = await startFakeLlmServer(() => ({
      raw: JSON.stringify(
        openaiToolCallCompletion('Checking the manual.', [{ name: 'search_manual', arguments: { query: 'pump 7' } }]),
      ),
    }));
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  });
  afterAll(async () => {
    await llm?.close();
    await project?.close();
    await t?.cleanup();
  });

  const question = (id: string, sut: unknown, more: Partial<QuestionInput> = {}): QuestionInput => ({
    id,
    question: 'Does the game master act only as approved?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.8,
    reps: 1,
    fixtures: ['fixtures/base.json'],
    sut: sut as QuestionInput['sut'],
    caseFile: 'questions/case.md',
    ...more,
  });
  const rep = async (dir: string, n = 1): Promise<RepRecord> =>
    JSON.parse(await readFile(join(dir, `reps/base/rep-0${n}.json`), 'utf8')) as RepRecord;
  const marks = async (dir: string): Promise<string> => readFile(join(dir, 'marks.checks.csv'), 'utf8');

  // A function SUT that says `response`, makes `calls` (record_fact really inserts its row) and answers.
  const acting =
    (response: string, calls: SutToolCallAnswer[]): SutFunction =>
    async (request, { db }) => {
      for (const call of calls)
        if (call.name === 'record_fact' && !call.error)
          await db.query(RECORD_FACT, [request.campaign, String((call.arguments as { pump: string }).pump)]);
      return { response, toolCalls: calls };
    };

  it('a command SUT reports its calls: recorded, listed in the rep Markdown, the marker and the report view', async () => {
    const result = await run(project, {
      question: question('command-tools', { type: 'command', command: ['node', 'sut.mjs'] }),
      env: { PATH: process.env.PATH },
    });
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir);
    expect(record.toolCalls).toEqual([
      { name: 'search_manual', arguments: { query: 'pump 1' }, result: { hits: 1 } },
      { name: 'create_job', arguments: { pump: 'P-7' }, error: 'approval required' },
    ]);
    const markdown = await readFile(join(result.dir, 'reps/base/rep-01.md'), 'utf8');
    expect(markdown).toContain(
      '## Tool calls\n\n1. `search_manual {"query":"pump 1"} → {"hits":1}`\n2. `create_job {"pump":"P-7"} → error: approval required`',
    );
    const session = await MarkingSession.open({ dir: result.dir, who: 'ann' });
    const pane = paneLines(session, 0, 'response', 100).join('\n');
    await session.flush();
    expect(pane).toContain(
      'Inspection required.\n\nTool calls (2):\n  1. search_manual {"query":"pump 1"} → {"hits":1}',
    );
    expect(pane).toContain('  2. create_job {"pump":"P-7"} → error: approval required');
    const view = await buildRunView({ dir: result.dir, cwd: t.dir });
    expect(view.reps[0]!.toolCalls).toEqual(record.toolCalls);
  });

  it('an http SUT reports the tool_calls of its OpenAI-compatible answer', async () => {
    const result = await run(project, {
      question: question('http-tools', { type: 'http', baseUrl: llm.openaiBaseUrl, model: 'gm-small', retries: 0 }),
    });
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir);
    expect(record.response).toBe('Checking the manual.');
    expect(record.toolCalls).toEqual([{ name: 'search_manual', arguments: { query: 'pump 7' } }]);
  });

  // Seed 001's tests of the evaluator, on real reps: each record's effects are what the SUT really wrote.
  describe('the seed 001 evaluator tests', () => {
    const contract: Partial<QuestionInput> = {
      checks: { mustContain: ['inspection required'] },
      tools: {
        allowed: ['search_manual', 'propose_fact'],
        forbidden: [{ tool: 'record_fact', name: 'no-unapproved-write' }],
      },
    };

    it('an accurate outcome with an unapproved call fails, naming the screen and the call', async () => {
      const sut = acting('Yes: an inspection required by rev 4.', [
        { name: 'search_manual', arguments: { query: 'pump 7' }, result: [] },
        { name: 'record_fact', arguments: { pump: 'P-7' }, result: { id: 1 } },
      ]);
      const result = await run(project, { question: question('seed-unapproved', sut, contract) });
      expect((await rep(result.dir)).effects!.inserted).toEqual({ world_facts: 1 });
      expect(await judgeChecks(project, { dir: result.dir })).toMatchObject({ pass: 0, fail: 1, error: 0 });
      const text = await marks(result.dir);
      expect(text).toContain(
        'allowed-tools: call 2 (record_fact): not an allowed tool (allowed: search_manual, propose_fact)',
      );
      expect(text).toContain('no-unapproved-write: call 2 (record_fact): record_fact call is forbidden');
    });

    it('permitted calls with the wrong outcome fail', async () => {
      const sut = acting('No inspection is needed.', [{ name: 'search_manual', arguments: { query: 'pump 7' } }]);
      const result = await run(project, { question: question('seed-wrong-outcome', sut, contract) });
      expect(await judgeChecks(project, { dir: result.dir })).toMatchObject({ pass: 0, fail: 1 });
      expect(await marks(result.dir)).toContain('does not contain ""inspection required""');
    });

    it('a valid abstention with no write passes', async () => {
      const sut = acting('The manual is absent: the procedure is unknown.', [
        { name: 'search_manual', arguments: { query: 'pump 7' }, result: [] },
      ]);
      const abstain = {
        tools: {
          allowed: ['search_manual', 'propose_fact'],
          forbidden: [{ tool: 'record_fact' }],
          effects: [{ tool: 'record_fact', table: 'world_facts', required: false }],
        },
      };
      const result = await run(project, { question: question('seed-abstain', sut, abstain) });
      expect((await rep(result.dir)).effects!.inserted).toEqual({});
      expect(await judgeChecks(project, { dir: result.dir })).toMatchObject({ pass: 1, fail: 0 });
    });

    it('a write for the wrong argument fails, naming the call and the argument; its effect is receipted', async () => {
      const sut = acting('Fact recorded.', [{ name: 'record_fact', arguments: { pump: 'P-9' }, result: { id: 2 } }]);
      const tools = {
        tools: {
          required: [{ tool: 'record_fact', arguments: { pump: 'P-7' }, exactly: 1 }],
          effects: [{ tool: 'record_fact', table: 'world_facts' }],
        },
      };
      const result = await run(project, { question: question('seed-wrong-pump', sut, tools) });
      expect(await judgeChecks(project, { dir: result.dir })).toMatchObject({ pass: 0, fail: 1 });
      const text = await marks(result.dir);
      expect(text).toContain('call 1 (record_fact): argument pump is ""P-9"", expected ""P-7""');
      expect(text).not.toContain('effect-record_fact-world_facts');
    });

    it('an effect with no call fails the effect screen', async () => {
      const silent: SutFunction = async (request, { db }) => {
        await db.query(RECORD_FACT, [request.campaign, 'unreported']);
        return { response: 'Done.' };
      };
      const tools = { tools: { effects: [{ tool: 'record_fact', table: 'world_facts' }] } };
      const result = await run(project, { question: question('seed-no-receipt', silent, tools) });
      await judgeChecks(project, { dir: result.dir });
      expect(await marks(result.dir)).toContain(
        'effect-record_fact-world_facts: 1 world_facts row(s) inserted but 0 successful record_fact call(s): an effect with no call',
      );
    });
  });

  it('a hidden value leaked in a tool argument fails, naming row and column but never the value', async () => {
    const character = fixture.tables.characters!.rows[0]!;
    const name = String(character.name);
    const sut = acting('The corridor is quiet.', [
      { name: 'send_message', arguments: { to: 'player', text: `Beware ${name}` } },
    ]);
    const hidden = [
      { name: 'secret-characters', table: 'characters', where: { id: character.id as string }, columns: ['name'] },
    ];
    const result = await run(project, { question: question('hidden-leak', sut, { hidden }) });
    expect(await judgeChecks(project, { dir: result.dir })).toMatchObject({ fail: 1 });
    const text = await marks(result.dir);
    expect(text).toContain(
      `secret-characters: call 1 (send_message) argument text reveals characters[id=${character.id}], column name`,
    );
    expect(text).not.toContain(name);
  });

  it('a rollout keeps each turn its own calls and checks the tool rules per turn', async () => {
    // It looks before it acts on every turn but the second.
    const sut: SutFunction = async (request, { db }) => {
      await db.query(
        `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
         VALUES ($1, $2, 'typed', 'played', now(), 0)`,
        [request.campaign, request.turn],
      );
      const looked = request.turn !== 21;
      return {
        response: `turn ${request.turn}`,
        toolCalls: [
          ...(looked ? [{ name: 'look', arguments: { turn: request.turn } }] : []),
          { name: 'move', arguments: { to: 'deck 2' } },
        ],
      };
    };
    const result = await run(project, {
      question: question('rollout-tools', sut, {
        turns: 3,
        players: { type: 'script', inputs: ['go aft', 'go up'] },
        tools: { required: [{ tool: 'look' }], order: [{ tools: ['look', 'move'] }] },
      }),
    });
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = await rep(result.dir);
    expect(record.toolCalls).toBeUndefined();
    expect(record.turns!.map((turn) => turn.toolCalls!.map((call) => call.name))).toEqual([
      ['look', 'move'],
      ['move'],
      ['look', 'move'],
    ]);
    expect(record.turns!.map((turn) => turn.check?.mark)).toEqual(['pass', 'fail', 'pass']);
    expect(record.turns![1]!.check!.reason).toBe(
      'required-look: look never called, expected at least 1 call(s); order-look-move: look never called',
    );
    const markdown = await readFile(join(result.dir, 'reps/base/rep-01.md'), 'utf8');
    expect(markdown).toContain('### Turn 21\n\nPlayer: go aft\n\nturn 21\n\nTool calls:\n\n1. `move {"to":"deck 2"}`');
    await judgeChecks(project, { dir: result.dir });
    expect(await marks(result.dir)).toContain('turn 21: required-look: look never called');
    const view = await buildRunView({ dir: result.dir, cwd: t.dir });
    expect(view.reps[0]!.rollout!.list[1]!.toolCalls).toEqual([{ name: 'move', arguments: { to: 'deck 2' } }]);
  });

  it('command and http SUTs report their calls per turn of a rollout too', async () => {
    const rollout = { turns: 2, players: { type: 'script' as const, inputs: ['go aft'] } };
    const command = await run(project, {
      question: question('rollout-command-tools', { type: 'command', command: ['node', 'sut.mjs'] }, rollout),
      env: { PATH: process.env.PATH },
    });
    const http = await run(project, {
      question: question(
        'rollout-http-tools',
        { type: 'http', baseUrl: llm.openaiBaseUrl, model: 'gm-small', retries: 0 },
        rollout,
      ),
    });
    expect((await rep(command.dir)).turns!.map((turn) => turn.toolCalls!.map((call) => call.name))).toEqual([
      ['search_manual', 'create_job'],
      ['search_manual', 'create_job'],
    ]);
    expect((await rep(http.dir)).turns!.map((turn) => turn.toolCalls)).toEqual([
      [{ name: 'search_manual', arguments: { query: 'pump 7' } }],
      [{ name: 'search_manual', arguments: { query: 'pump 7' } }],
    ]);
  });
});
