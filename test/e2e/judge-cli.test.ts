import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli-in-process.js';
import {
  RETRY_NOW,
  startFakeLlmServer,
  userMessageOf,
  type FakeLlmServer,
  type Reply,
  type Responder,
} from '../helpers/fake-llm-server.js';
import { folderBytes, folderText, makeJudgeRun } from '../helpers/judge-run.js';

const KEY_VAR = 'TURNKIT_E2E_JUDGE_KEY';
const KEY = 'sk-e2e-judge-5b0c44d9e1f2a3';

let server: FakeLlmServer;
let project: string;
let count = 0;

const verdict = (mark: 'pass' | 'fail' | 'na', reason: string): Reply => ({
  content: JSON.stringify({ verdict: mark, reason }),
});

/** Answers by the marker the SUT's response carries. */
function byMarker(plan: Record<string, Reply>): Responder {
  return (request) => {
    const user = userMessageOf(request);
    const marker = Object.keys(plan).find((candidate) => user.includes(candidate));
    return marker ? plan[marker]! : { status: 400 };
  };
}

const PLAN = {
  '[a-1]': verdict('pass', 'Deck 2.'),
  '[a-2]': verdict('fail', 'Deck 3.'),
  '[a-3]': verdict('na', 'No place asked.'),
  '[b-3]': verdict('pass', 'Deck 2, past the galley.'),
};

async function newRun(sut?: Record<string, unknown>): Promise<string> {
  const name = `run-${++count}`;
  await makeJudgeRun({
    dir: join(project, name),
    ...(sut ? { sut } : {}),
    fixtures: [
      { name: 'alpha', reps: ['[a-1] deck 2', '[a-2] deck 3', '[a-3] the lift'] },
      { name: 'beta', reps: [{ error: 'sut' }, { notRun: true }, '[b-3] deck 2, past the galley'] },
    ],
  });
  return name;
}

beforeAll(async () => {
  server = await startFakeLlmServer();
  project = await mkdtemp(join(tmpdir(), 'turnkit-judge-cli-'));
});
afterAll(async () => {
  await server?.close();
  if (project) await rm(project, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.respond(byMarker(PLAN));
});

const env = { [KEY_VAR]: KEY, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' };

describe('turnkit judge --model through the binary', () => {
  it.each(['openai', 'anthropic'] as const)(
    '%s: writes the marks file and the verdicts, prints where, and never the key',
    async (provider) => {
      const run = await newRun();
      const baseUrl = provider === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
      const result = await runInProcess(
        ['judge', run, '--model', 'gpt-test', '--provider', provider, '--base-url', baseUrl, '--api-key-env', KEY_VAR],
        { cwd: project, env },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')).toEqual([
        `wrote ${run}/marks.judge-gpt-test.csv: 2 pass, 1 fail, 1 na, 1 error, 1 not run (0 from the cache); reasons in ${run}/judge-gpt-test.jsonl`,
        `report from it: turnkit report ${run} --marks marks.judge-gpt-test.csv; agreement with your marks: turnkit agree ${run}/marks.csv ${run}/marks.judge-gpt-test.csv`,
        '',
      ]);
      const marks = await readFile(join(project, run, 'marks.judge-gpt-test.csv'), 'utf8');
      expect(marks.split('\n').map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
        'fixture,rep,mark,note',
        'alpha,1,pass,Deck 2.',
        'alpha,2,fail,Deck 3.',
        'alpha,3,na,No place asked.',
        'beta,1,error,the rep errored (sut: exit); not judged',
        'beta,2,,not run',
        'beta,3,pass,"Deck 2',
        '',
      ]);
      expect(server.requests).toHaveLength(4);
      // The SDK sends the key as Authorization: Bearer (OpenAI; @anthropic-ai/sdk 1.x too) or as x-api-key.
      const sent = server.requests.map((request) =>
        typeof request.headers.authorization === 'string'
          ? request.headers.authorization.replace(/^Bearer /, '')
          : request.headers['x-api-key'],
      );
      expect(sent).toEqual([KEY, KEY, KEY, KEY]);
      expect(result.stdout + result.stderr).not.toContain(KEY);
      expect(await folderText(join(project, run))).not.toContain(KEY);

      // The judge's marks against a human's, end to end: the human agrees on alpha 1 and 2, and differs on beta 3.
      await writeFile(
        join(project, run, 'marks.csv'),
        'fixture,rep,mark,note\nalpha,1,pass,\nalpha,2,fail,\nalpha,3,pass,\nbeta,1,,\nbeta,2,,\nbeta,3,fail,deck 2 but rude\n',
      );
      const agreed = await runInProcess(['agree', `${run}/marks.csv`, `${run}/marks.judge-gpt-test.csv`, '--json'], {
        cwd: project,
      });
      expect(agreed.code).toBe(0);
      // Matched: alpha 1 (pass/pass), alpha 2 (fail/fail), beta 3 (fail/pass); alpha 3 pass vs na: unmatched.
      // [[1, 0], [1, 1]]: po = 2/3, pA = 1/3, pB = 2/3, pe = 4/9, kappa = (2/3 − 4/9)/(5/9) = 0.4.
      const json = JSON.parse(agreed.stdout);
      expect(json).toMatchObject({
        matched: 3,
        agreed: 2,
        unmatched: 1,
        disagreements: [
          {
            fixture: 'beta',
            rep: 3,
            a: 'fail',
            b: 'pass',
            noteA: 'deck 2 but rude',
            noteB: 'Deck 2, past the galley.',
          },
        ],
      });
      expect(json.kappa).toBeCloseTo(0.4, 12);
    },
  );

  it('a second run of the same command is served from the cache, and --json says so', async () => {
    const run = await newRun();
    const args = [
      'judge',
      run,
      '--model',
      'gpt-test',
      '--base-url',
      server.openaiBaseUrl,
      '--api-key-env',
      KEY_VAR,
      '--json',
    ];
    expect((await runInProcess(args, { cwd: project, env })).code).toBe(0);
    server.reset();
    const again = await runInProcess(args, { cwd: project, env });
    expect(again.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse(again.stdout).model).toMatchObject({
      pass: 2,
      fail: 1,
      na: 1,
      error: 1,
      notRun: 1,
      cached: 4,
      file: `${run}/marks.judge-gpt-test.csv`,
      grader: 'judge-gpt-test',
      rubricVersion: '1',
    });
  });

  it("warns on stderr when the judge is the SUT's own model", async () => {
    const run = await newRun({ type: 'http', baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-test' });
    const result = await runInProcess(
      ['judge', run, '--model', 'gpt-test', '--base-url', server.openaiBaseUrl, '--api-key-env', KEY_VAR],
      { cwd: project, env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "warning: the judge is the SUT's own model (gpt-test): a model tends to grade its own answers kindly\n",
    );
  });

  it('a refused key (401): exit 1, one line naming the status, the key nowhere, nothing written', async () => {
    const run = await newRun();
    await writeFile(join(project, run, 'marks.judge-gpt-test.csv'), 'fixture,rep,mark,note\nalpha,1,fail,earlier\n');
    const before = await folderBytes(join(project, run));
    server.respond(() => ({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }),
    }));
    const result = await runInProcess(
      [
        'judge',
        run,
        '--model',
        'gpt-test',
        '--base-url',
        server.openaiBaseUrl,
        '--api-key-env',
        KEY_VAR,
        '--concurrency',
        '1',
      ],
      { cwd: project, env },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^the judge at ${server.openaiBaseUrl.replace(/\./g, '\\.')} answered 401: .*; nothing written \\(verdicts already received are cached\\)$`,
      ),
    );
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(await folderBytes(join(project, run))).toEqual(before);
  });

  it('settings from --judge FILE with flags over them', async () => {
    const run = await newRun();
    await writeFile(
      join(project, 'judge.yaml'),
      `provider: openai\nmodel: from-file\nbaseUrl: ${server.openaiBaseUrl}\napiKeyEnv: ${KEY_VAR}\nretries: 0\n`,
    );
    const result = await runInProcess(['judge', run, '--judge', 'judge.yaml', '--model', 'from-flag'], {
      cwd: project,
      env,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(project, run, 'marks.judge-from-flag.csv'))).toBe(true);
    expect(existsSync(join(project, run, 'marks.judge-from-file.csv'))).toBe(false);
    expect(server.requests.map((request) => request.body.model)).toEqual([
      'from-flag',
      'from-flag',
      'from-flag',
      'from-flag',
    ]);
  });

  it('a rep the judge could not judge: the marks file is written, then exit 1 with one line starting with the count', async () => {
    const run = await newRun();
    // alpha 2 gets an answer that is not a verdict.
    server.respond(byMarker({ ...PLAN, '[a-2]': { content: 'Deck 3, so I would say it fails.' } }));
    const args = ['judge', run, '--model', 'gpt-test', '--base-url', server.openaiBaseUrl, '--api-key-env', KEY_VAR];
    const result = await runInProcess(args, { cwd: project, env });
    expect(result.code).toBe(1);
    // What was written is said first; no "report from it" line follows.
    expect(result.stdout.split('\n')).toEqual([
      `wrote ${run}/marks.judge-gpt-test.csv: 2 pass, 0 fail, 1 na, 2 error, 1 not run (0 from the cache); reasons in ${run}/judge-gpt-test.jsonl`,
      '',
    ]);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `1 rep(s) could not be judged (marked error in ${run}/marks.judge-gpt-test.csv): run the judge again to retry them; verdicts received are cached`,
    );
    const marks = await readFile(join(project, run, 'marks.judge-gpt-test.csv'), 'utf8');
    const rows = marks.split('\n').map((line) => line.split(',').slice(0, 3).join(','));
    expect(rows.slice(0, 7)).toEqual([
      'fixture,rep,mark',
      'alpha,1,pass',
      'alpha,2,error',
      'alpha,3,na',
      'beta,1,error',
      'beta,2,',
      'beta,3,pass',
    ]);
    expect(existsSync(join(project, run, 'judge-gpt-test.jsonl'))).toBe(true);

    // --json prints the result (judgeErrors 1) and still exits 1.
    const json = await runInProcess([...args, '--json'], { cwd: project, env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).model).toMatchObject({ judgeErrors: 1, error: 2, pass: 2, na: 1, cached: 3 });
    expect(json.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^1 rep\(s\) could not be judged /)]);

    // Once the judge answers alpha 2 properly, the rerun exits 0 (the verdicts it had came from the cache).
    server.reset();
    server.respond(byMarker(PLAN));
    const again = await runInProcess(args, { cwd: project, env });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(again.stdout.split('\n')[0]).toBe(
      `wrote ${run}/marks.judge-gpt-test.csv: 2 pass, 1 fail, 1 na, 1 error, 1 not run (3 from the cache); reasons in ${run}/judge-gpt-test.jsonl`,
    );
  });

  it('a rep that errored in the SUT is not a judge error: every judgeable rep got a verdict, exit 0, judgeErrors 0', async () => {
    const run = await newRun();
    const result = await runInProcess(
      ['judge', run, '--model', 'gpt-test', '--base-url', server.openaiBaseUrl, '--api-key-env', KEY_VAR, '--json'],
      { cwd: project, env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).model).toMatchObject({
      error: 1,
      judgeErrors: 0,
      notRun: 1,
      pass: 2,
      fail: 1,
      na: 1,
    });
  });

  describe('a base URL carrying secrets (a token in the query, a user and password)', () => {
    const TOKEN = 'sekrit123';
    const USER = 'tkuser';
    const PASSWORD = 'tkpass42';
    const noSecrets = (text: string): void => {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(USER);
    };

    it.each(['openai', 'anthropic'] as const)(
      '%s: a judge answering 500 (retries 0): per-rep errors naming the address without the token, nowhere the token',
      async (provider) => {
        const run = await newRun();
        await writeFile(join(project, 'no-retries.yaml'), 'retries: 0\n');
        server.respond(() => ({ status: 500, headers: RETRY_NOW }));
        const base = provider === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
        const result = await runInProcess(
          [
            'judge',
            run,
            '--judge',
            'no-retries.yaml',
            '--provider',
            provider,
            '--model',
            'gpt-test',
            '--base-url',
            `${base}?token=${TOKEN}`,
            '--api-key-env',
            KEY_VAR,
          ],
          { cwd: project, env },
        );
        expect(result.code).toBe(1);
        expect(result.stderr.trimEnd().split('\n')).toEqual([
          expect.stringMatching(/^4 rep\(s\) could not be judged /),
        ]);
        // retries 0: one request per judgeable rep.
        expect(server.requests).toHaveLength(4);
        const notes = (await readFile(join(project, run, 'marks.judge-gpt-test.csv'), 'utf8'))
          .split('\n')
          .filter((line) => line.includes('judge request failed'));
        expect(notes).toHaveLength(4);
        for (const line of notes) expect(line).toContain(`judge request failed: the judge at ${base} answered 500`);
        noSecrets(result.stdout + result.stderr);
        noSecrets(await folderText(join(project, run)));
      },
    );

    it('with a user and password as well: refused before any request, neither they nor the token printed or written', async () => {
      const run = await newRun();
      await writeFile(join(project, 'no-retries.yaml'), 'retries: 0\n');
      server.respond(() => ({ status: 500, headers: RETRY_NOW }));
      const port = new URL(server.url).port;
      const url = `http://${USER}:${PASSWORD}@127.0.0.1:${port}/v1?token=${TOKEN}`;
      const result = await runInProcess(
        [
          'judge',
          run,
          '--judge',
          'no-retries.yaml',
          '--model',
          'gpt-test',
          '--base-url',
          url,
          '--api-key-env',
          KEY_VAR,
        ],
        { cwd: project, env },
      );
      expect(result.code).toBe(1);
      // One line: the place of the judge's settings (the flag's value joins the settings file's), and where a key goes.
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toEqual([
        'no-retries.yaml: $.baseUrl: holds a user name or password: put the key in the API key variable (apiKeyEnv) instead',
      ]);
      noSecrets(result.stdout + result.stderr);
      noSecrets(await folderText(join(project, run)));
    });
  });

  it('a missing API key: exit 1 naming the variable, no request, nothing written', async () => {
    const run = await newRun();
    const before = await folderBytes(join(project, run));
    const result = await runInProcess(
      ['judge', run, '--model', 'gpt-test', '--api-key-env', 'TURNKIT_TEST_UNSET_KEY'],
      { cwd: project, env },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "the judge's API key is not set: export TURNKIT_TEST_UNSET_KEY (or name another variable with --api-key-env)\n",
    );
    expect(server.requests).toHaveLength(0);
    expect(await folderBytes(join(project, run))).toEqual(before);
  });
});

describe('the judge named in turnkit.config', () => {
  const SAMPLE_GAME = {
    root: { table: 'campaigns', key: 'id' },
    turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
  };

  it('is the judge `turnkit judge RUN` uses when no --model, --judge or --checks is given; flags override it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-judge-config-'));
    try {
      await writeFile(
        join(dir, 'turnkit.config.json'),
        JSON.stringify({
          game: SAMPLE_GAME,
          judge: { model: 'from-config', baseUrl: server.openaiBaseUrl, apiKeyEnv: KEY_VAR },
        }),
      );
      await makeJudgeRun({
        dir: join(dir, 'run'),
        fixtures: [{ name: 'alpha', reps: ['[a-1] deck 2', '[a-2] deck 3'] }],
      });
      const result = await runInProcess(['judge', 'run'], { cwd: dir, env });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toBe(
        'wrote run/marks.judge-from-config.csv: 1 pass, 1 fail, 0 na, 0 error (0 from the cache); reasons in run/judge-from-config.jsonl',
      );
      expect(server.requests.map((request) => (request.body as { model?: string }).model)).toEqual([
        'from-config',
        'from-config',
      ]);
      // A flag wins over the config: the model is another, the endpoint and key the config's.
      const flagged = await runInProcess(['judge', 'run', '--model', 'from-flag'], { cwd: dir, env });
      expect(flagged.code, flagged.stderr).toBe(0);
      expect(existsSync(join(dir, 'run', 'marks.judge-from-flag.csv'))).toBe(true);
      // --checks alone does not call the config's judge.
      server.reset();
      server.respond(byMarker(PLAN));
      const checksOnly = await runInProcess(['judge', 'run', '--checks'], { cwd: dir, env });
      expect(checksOnly.stderr).toBe(
        "run/manifest.json: the run's question declared no checks; add a checks: section to the question and pass --question FILE\n",
      );
      expect(server.requests).toHaveLength(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is checked with the config: a bad provider is the config file and path, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-judge-config-'));
    try {
      const text = JSON.stringify({ game: SAMPLE_GAME, judge: { provider: 'nope', model: 'm' } });
      await writeFile(join(dir, 'turnkit.config.json'), text);
      await makeJudgeRun({ dir: join(dir, 'run'), fixtures: [{ name: 'alpha', reps: ['[a-1] deck 2'] }] });
      const result = await runInProcess(['judge', 'run'], { cwd: dir, env });
      expect(result.code).toBe(1);
      // Where the value is written, as config errors say it.
      expect(result.stderr).toBe(
        `turnkit.config.json:1:${text.indexOf('"nope"') + 1}: $.judge.provider: use one of "openai", "anthropic"\n`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
