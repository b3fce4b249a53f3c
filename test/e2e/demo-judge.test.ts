import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import {
  startFakeLlmServer,
  userMessageOf,
  type FakeLlmServer,
  type RecordedRequest,
  type Responder,
} from '../helpers/fake-llm-server.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';

const MODEL = 'fake-judge';
const GRADER = `judge-${MODEL}`;
// Neither a key nor a developer's DATABASE_URL: the demo's judge on a base URL needs no key, and the demo the embedded database.
const env = { DATABASE_URL: '', OPENAI_API_KEY: '' };

/** The response under judgement: what follows '# Response to grade' in the judge's user message. */
function responseToGrade(request: RecordedRequest): string {
  const user = userMessageOf(request);
  const at = user.indexOf('# Response to grade');
  return at < 0 ? '' : user.slice(at + '# Response to grade'.length);
}

const verdict = (mark: 'pass' | 'fail', reason: string) => ({ content: JSON.stringify({ verdict: mark, reason }) });

/** Passes a response that names deck 2, fails any other: the demo's checks in a judge's words. */
const deckTwoJudge: Responder = (request) =>
  responseToGrade(request).includes('deck 2')
    ? verdict('pass', 'Names deck 2.')
    : verdict('fail', 'Does not name deck 2.');

/** The one run directory a demo folder holds. */
async function runDirOf(demoDir: string): Promise<string> {
  const runs = await readdir(join(demoDir, 'runs', 'places'));
  expect(runs).toHaveLength(1);
  return join(demoDir, 'runs', 'places', runs[0]!);
}

describe('turnkit demo --model --base-url: the demo with an OpenAI-compatible judge', () => {
  let server: FakeLlmServer;
  let folder: string;

  beforeAll(async () => {
    server = await startFakeLlmServer();
    folder = await mkdtemp(join(tmpdir(), 'turnkit-e2e-demo-judge-'));
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('a judge that passes "deck 2" agrees with the checks on all 20 reps and leaves its files in the run', async () => {
    server.reset();
    server.respond(deckTwoJudge);
    const result = await runCli(['demo', '--dir', 'D', '--model', MODEL, '--base-url', server.openaiBaseUrl], {
      cwd: folder,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`The judge ${GRADER} against the checks`);
    expect(result.stdout).toMatch(/^ {2}agreement 20\/20 = 1\.000; Cohen's kappa 1\.000$/m);
    expect(result.stderr).toContain(`- marking every rep with the judge ${MODEL}\n`);

    const run = await runDirOf(join(folder, 'D'));
    const files = await readdir(run);
    expect(files).toEqual(
      expect.arrayContaining([`marks.${GRADER}.csv`, `${GRADER}.jsonl`, 'marks.checks.csv', 'marks.csv']),
    );
    // The judge's marks are the checks' marks, rep by rep.
    const checks = parseMarks(await readFile(join(run, 'marks.checks.csv'), 'utf8'));
    const judged = parseMarks(await readFile(join(run, `marks.${GRADER}.csv`), 'utf8'));
    expect(judged).toHaveLength(20);
    expect(judged.map((row) => `${row.fixture},${row.rep},${row.mark}`)).toEqual(
      checks.map((row) => `${row.fixture},${row.rep},${row.mark}`),
    );
    expect(judged.every((row) => row.note === (row.mark === 'pass' ? 'Names deck 2.' : 'Does not name deck 2.'))).toBe(
      true,
    );
    // Both marks occur, so the 20/20 above is not one mark given to every rep.
    expect(new Set(checks.map((row) => row.mark))).toEqual(new Set(['pass', 'fail']));
    const verdicts = (await readFile(join(run, `${GRADER}.jsonl`), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { mark: string; model: string; cached: boolean });
    expect(verdicts).toHaveLength(20);
    expect(verdicts.every((entry) => entry.model === MODEL && entry.cached === false)).toBe(true);

    // One request per rep, each an OpenAI chat completion for the judge's model.
    expect(server.requests).toHaveLength(20);
    expect(
      server.requests.every(
        (request) =>
          request.method === 'POST' && request.path === '/v1/chat/completions' && request.body?.model === MODEL,
      ),
    ).toBe(true);
    expect(server.requests.filter((request) => responseToGrade(request).includes('deck 2'))).toHaveLength(
      checks.filter((row) => row.mark === 'pass').length,
    );
  }, 240_000);

  it('a judge that fails everything agrees with the checks on exactly their fail marks', async () => {
    server.reset();
    server.respond(() => verdict('fail', 'Fails everything.'));
    const result = await runCli(['demo', '--dir', 'E', '--model', MODEL, '--base-url', server.openaiBaseUrl], {
      cwd: folder,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`The judge ${GRADER} against the checks`);

    const run = await runDirOf(join(folder, 'E'));
    expect(existsSync(join(run, `marks.${GRADER}.csv`))).toBe(true);
    const checks = parseMarks(await readFile(join(run, 'marks.checks.csv'), 'utf8'));
    expect(checks).toHaveLength(20);
    const fails = checks.filter((row) => row.mark === 'fail').length;
    expect(checks.filter((row) => row.mark === 'pass')).toHaveLength(20 - fails);
    expect(fails).toBeGreaterThan(0);
    expect(fails).toBeLessThan(20);
    const line = result.stdout.split('\n').find((entry) => entry.startsWith('  agreement '));
    expect(line, result.stdout).toBeDefined();
    expect(line!.startsWith(`  agreement ${fails}/20 = ${(fails / 20).toFixed(3)}; Cohen's kappa `)).toBe(true);
    // The judge gave one mark only: chance agreement is the checks' fail rate, fails/20, the same as observed → kappa 0.
    expect(Number(line!.split("Cohen's kappa ")[1])).toBeCloseTo(0, 12);
    expect(server.requests).toHaveLength(20);
  }, 240_000);
});
