import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judge } from '../../src/judge/judge-model.js';
import { judgePromptSha256 } from '../../src/judge/judge-prompt.js';
import { judgeSettingsSchema } from '../../src/config/judge-settings.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { startFakeLlmServer, userMessageOf, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { makeJudgeRun } from '../helpers/judge-run.js';

const HERE = { cwd: process.cwd(), paths: { baseDir: process.cwd() } };
const KEY_VAR = 'TURNKIT_TEST_STATE_JUDGE_KEY';

// A judge that reads the state: it fails a response that names deck 2 when the campaign's fact says deck 3.
describe('a state-grounded judge', () => {
  let server: FakeLlmServer;
  let root: string;
  let dir: string;
  beforeAll(async () => {
    server = await startFakeLlmServer();
    root = await mkdtemp(join(tmpdir(), 'turnkit-judge-state-'));
    dir = await makeJudgeRun({
      dir: join(root, 'run'),
      fixtures: [{ name: 'alpha', reps: ['Take the lift to deck 2.', 'Take the lift to deck 2.'] }],
    });
    // The reps' recorded state: rep 1's campaign puts the mess hall on deck 2, rep 2's on deck 3; the SUT wrote a
    // turn and a row of a table the question hides from the player.
    for (const [rep, deck] of [
      [1, 'deck 2'],
      [2, 'deck 3'],
    ] as const) {
      const file = join(dir, 'reps', 'alpha', `rep-0${rep}.json`);
      const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
      record.effects = {
        inserted: { turns: 1, secrets: 1 },
        updated: { characters: 1 },
        deleted: {},
        insertedRows: { turns: [{ turn_number: 23, narration: 'Take the lift.' }], secrets: [{ name: 'the traitor' }] },
        updatedRows: { characters: [{ key: { id: '7' }, changed: { location_id: { before: 3, after: 5 } } }] },
      };
      record.facts = { mess_hall_deck: { before: { value: deck, alternatives: ['deck 1', 'deck 2', 'deck 3'] } } };
      await writeFile(file, JSON.stringify(record));
    }
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    manifest.hidden = [{ name: 'secrets', table: 'secrets', where: {}, columns: ['name'], words: 5 }];
    await writeFile(manifestFile, JSON.stringify(manifest));
    process.env[KEY_VAR] = 'sk-state-test';
  });
  afterAll(async () => {
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
    delete process.env[KEY_VAR];
  });

  const settings = (state: boolean) =>
    judgeSettingsSchema.parse({
      provider: 'openai',
      model: 'gpt-test',
      baseUrl: server.openaiBaseUrl,
      apiKeyEnv: KEY_VAR,
      retries: 0,
      state,
    });

  it('sees the changes and the facts, never a hidden table; its files, prompt and cache are its own', async () => {
    server.reset();
    server.respond((request) => {
      const said = userMessageOf(request);
      const wrong = said.includes('mess_hall_deck: deck 3');
      return {
        content: JSON.stringify({ verdict: wrong ? 'fail' : 'pass', reason: wrong ? 'deck 3 in the world' : 'ok' }),
      };
    });
    const withState = await judge(HERE, { env: process.env, dir, settings: settings(true) });
    expect(withState).toMatchObject({ pass: 1, fail: 1, grader: 'judge-gpt-test+state' });
    expect(withState.file).toBe(join(dir, 'marks.judge-gpt-test-state.csv'));
    const shown = userMessageOf(server.requests[0]!);
    expect(shown).toContain("# The game's state (from its database, after the game master's turn)");
    expect(shown).toContain('- turns: inserted {"turn_number":23,"narration":"Take the lift."}');
    expect(shown).toContain('- characters [id=7]: location_id 3 -> 5');
    expect(shown).toMatch(/- mess_hall_deck: deck [23] \(the campaign's other values: deck 1, deck [23]\)/);
    expect(shown).not.toContain('secrets');
    expect(shown).not.toContain('the traitor');
    const verdicts = (await readFile(join(dir, 'judge-gpt-test-state.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(verdicts.map((v) => v.promptSha256)).toEqual([judgePromptSha256(true), judgePromptSha256(true)]);
    expect(judgePromptSha256(true)).not.toBe(judgePromptSha256(false));

    // The same reps judged on text alone: another file beside it, a prompt without state, not the cached verdicts.
    server.reset();
    const textOnly = await judge(HERE, { env: process.env, dir, settings: settings(false) });
    expect(textOnly).toMatchObject({ pass: 2, fail: 0, grader: 'judge-gpt-test' });
    expect(server.requests).toHaveLength(2);
    expect(userMessageOf(server.requests[0]!)).not.toContain("# The game's state");
    expect(await readFile(join(dir, 'marks.judge-gpt-test-state.csv'), 'utf8')).toMatch(/alpha,2,fail/);
  });
});
