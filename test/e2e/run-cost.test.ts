import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { sampleRunProject } from '../helpers/sample-project.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import type { Report } from '../../src/report/build-report.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// Answers with usage that depends on the rep (so that sums are checked, not counts) and a cost of its own. A module
// SUT: its answer's usage and cost are read as a command SUT's are (test/unit/sut-adapters.test.ts reads a command's
// stdout), without a node process per rep.
const SPEND_SUT = `
export default function spend(request) {
  const usage = { input_tokens: 1000 + request.rep, output_tokens: 10 * request.rep };
  return { response: 'Take the lift to deck 2.', usage, cost: 0.125 };
}
`;

const question = (id: string, sut: string[], reps: number): string =>
  [
    `id: ${id}`,
    'question: Where is the mess hall?',
    'rubric: { path: questions/places-rubric.md, version: 1 }',
    'target: 0.5',
    `reps: ${reps}`,
    'fixtures:',
    '  - path: fixtures/meridian-turn-23.json',
    '    tag: dev',
    '  - path: constructed/meridian-turn-23-deck-fixed.json',
    '    tag: dev',
    'sut:',
    ...sut.map((line) => `  ${line}`),
    'caseFile: questions/case-file.md',
    '',
  ].join('\n');

describe('tokens and cost through run, judge and report', () => {
  let project: string;
  let server: FakeLlmServer;
  const cli = (args: string[]) => runInProcess(args, { cwd: project });
  const json = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project, path), 'utf8')) as T;

  beforeAll(async () => {
    project = await sampleRunProject('turnkit-cost-');
    server = await startFakeLlmServer();
    await writeFile(join(project, 'spend-sut.mjs'), SPEND_SUT);
    await writeFile(
      join(project, 'turnkit.config.json'),
      JSON.stringify({
        ...sampleGameConfig,
        prices: { 'fake-judge': { input: 2.5, output: 10 }, 'gm-fake': { input: 0.5, output: 2 } },
      }),
    );
    await writeFile(
      join(project, 'questions/spend.yaml'),
      question('spend', ['type: module', 'path: spend-sut.mjs', 'export: default'], 4),
    );
    await writeFile(
      join(project, 'questions/chat.yaml'),
      question('chat', ['type: http', `baseUrl: ${server.openaiBaseUrl}`, 'model: gm-fake', 'retries: 0'], 2),
    );
  });
  afterAll(async () => {
    await server?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  let run: string;

  it('--max-cost stops launching reps once the cost is reached; --resume completes the run', async () => {
    const first = await cli(['run', 'questions/spend.yaml', '--max-cost', '0.5', '--concurrency', '1', '--json']);
    expect(first.code).toBe(1);
    run = (JSON.parse(first.stdout) as { dir: string }).dir;
    const result = JSON.parse(first.stdout) as { ran: number; pending: number; budget: unknown };
    // 0.125 a rep: the fourth reaches 0.5; a rep already started when it did may finish too.
    expect(result.ran).toBeGreaterThanOrEqual(4);
    expect(result.ran).toBeLessThan(8);
    expect(result.pending).toBe(8 - result.ran);
    expect(result.budget).toEqual({ maxCost: 0.5, spent: result.ran * 0.125, reached: true });
    // Progress lines come first; the error is the last line.
    expect(first.stderr.trim().split('\n').at(-1)).toBe(
      `${run}: stopped at --max-cost 0.5 (this run spent ${result.ran * 0.125}) with ${8 - result.ran} rep(s) not run; finish it with: turnkit run questions/spend.yaml --resume ${run}`,
    );
    expect((await json<Manifest>(`${run}/manifest.json`)).status).toBe('interrupted');

    const resumed = await cli(['run', '--resume', run, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).ran).toBe(8 - result.ran);
    const manifest = await json<Manifest>(`${run}/manifest.json`);
    expect(manifest.status).toBe('complete');
    // Reps 1..4 of two fixtures: input 2 x (4 x 1000 + 10), output 2 x 10 x 10, cost 8 x 0.125.
    expect(manifest.spend).toEqual({
      sut: { calls: 8, inputTokens: 8_020, outputTokens: 200, cost: 1, unpriced: 0 },
    });
    const rep3 = await json<RepRecord>(`${run}/reps/meridian-turn-23/rep-03.json`);
    expect(rep3.spend).toEqual({ inputTokens: 1_003, outputTokens: 30, cost: 0.125 });
    expect(await readFile(join(project, run, 'reps/meridian-turn-23/rep-03.md'), 'utf8')).toContain(
      'SUT usage: 1003 input and 30 output tokens, cost 0.125.',
    );
  });

  it('a judge records its usage, priced from the config; the report sums SUT and judges apart, exactly', async () => {
    server.respond(() => ({ content: '{"verdict": "pass", "reason": "deck 2"}', usage: { input: 200, output: 7 } }));
    const judged = await cli(['judge', run, '--model', 'fake-judge', '--base-url', server.openaiBaseUrl]);
    expect(judged.code, judged.stderr).toBe(0);
    const verdicts = (await readFile(join(project, run, 'judge-fake-judge.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { spend: unknown });
    expect(verdicts).toHaveLength(8);
    for (const verdict of verdicts) expect(verdict.spend).toEqual({ inputTokens: 200, outputTokens: 7, cost: 0.00057 });

    const result = await cli(['report', run, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout).report as Report;
    const judges = { calls: 4, inputTokens: 800, outputTokens: 28, cost: 0.00228, unpriced: 0 };
    for (const fixture of report.fixtures)
      expect(fixture.spend).toEqual({
        sut: { calls: 4, inputTokens: 4_010, outputTokens: 100, cost: 0.5, unpriced: 0 },
        judges,
      });
    expect(report.spend).toEqual({
      sut: { calls: 8, inputTokens: 8_020, outputTokens: 200, cost: 1, unpriced: 0 },
      judges: { calls: 8, inputTokens: 1_600, outputTokens: 56, cost: 0.00456, unpriced: 0 },
      total: { calls: 16, inputTokens: 9_620, outputTokens: 256, cost: 1.00456, unpriced: 0 },
    });
    // Judging again takes every verdict from the cache: no request, and the marks keep what they cost once.
    const requests = server.requests.length;
    const again = await cli(['judge', run, '--model', 'fake-judge', '--base-url', server.openaiBaseUrl]);
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(requests);
    const rejudged = JSON.parse((await cli(['report', run, '--json'])).stdout).report as Report;
    expect(rejudged.spend).toEqual(report.spend);
    const text = await cli(['report', run, '--full']);
    expect(text.stdout).toMatch(/\ntotal\s+8020\/200\s+1\s+1600\/56\s+0\.00456\n/);
  });

  it("the http SUT's usage is priced from the config's price of its model", async () => {
    server.reset();
    server.respond(() => ({ content: 'Take the lift to deck 2.', usage: { input: 1_000, output: 100 } }));
    const result = await cli(['run', 'questions/chat.yaml', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const dir = (JSON.parse(result.stdout) as { dir: string }).dir;
    expect(server.requests).toHaveLength(4);
    const reps = await readdir(join(project, dir, 'reps/meridian-turn-23'));
    expect(reps.filter((name) => name.endsWith('.json'))).toEqual(['rep-01.json', 'rep-02.json']);
    expect((await json<RepRecord>(`${dir}/reps/meridian-turn-23/rep-01.json`)).spend).toEqual({
      inputTokens: 1_000,
      outputTokens: 100,
      cost: 0.0007,
    });
    expect((await json<Manifest>(`${dir}/manifest.json`)).spend).toEqual({
      sut: { calls: 4, inputTokens: 4_000, outputTokens: 400, cost: 0.0028, unpriced: 0 },
    });
  });
});
