import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts } from '../helpers/table-checksums.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { loadQuestion } from '../../src/question/load-question.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { TurnkitError } from '../../src/errors.js';
import type { SutAdapter } from '../../src/sut/sut-adapter.js';
import { sutMaxOutput, sutTimeout } from '../../src/sut/sut-fields.js';
import { registerSutKind } from '../../src/sut/sut-kinds.js';

// The test suite's own SUT kind, written as a built-in one is (sut/sut-*.ts): its schema and its adapter, then its
// entry in the map. It answers from its settings, holds a token it must never let reach a rep's files, and is
// priced by its model as the http kind is.
const echoSutSchema = z
  .object({
    type: z.literal('echo'),
    prefix: z.string().min(1),
    model: z.string().min(1),
    tokenEnv: z.string().min(1),
    timeout: sutTimeout,
    maxOutput: sutMaxOutput,
  })
  .strict();
type EchoSut = z.output<typeof echoSutSchema>;

const prepared: string[] = [];
const echoSutAdapter: SutAdapter<EchoSut> = {
  type: 'echo',
  schema: echoSutSchema,
  inFiles: true,
  check(sut, place) {
    if (place.env[sut.tokenEnv] === undefined)
      throw new TurnkitError('BAD_INPUT', `${place.at(['sut', 'tokenEnv'])}: ${sut.tokenEnv} is not set`);
  },
  prepare(sut, place) {
    prepared.push(sut.prefix);
    const token = place.env[sut.tokenEnv]!;
    return async (context) => ({
      response: `${sut.prefix} campaign ${context.request.campaign} turn ${context.request.turn} token ${token}`,
      usage: { inputTokens: 1_000_000, outputTokens: 0 },
      ms: 1,
    });
  },
  secrets: (sut, env) => ({ values: [env[sut.tokenEnv] ?? ''].filter((value) => value !== '') }),
  describe: (sut) => ({ type: 'echo', prefix: sut.prefix, model: sut.model }),
  label: (sut) => `echo SUT "${sut.prefix}"`,
  pricedModel: (sut) => sut.model,
};
registerSutKind(echoSutAdapter);

const TOKEN = 'echo-token-5f3a9c1e77';

describe.each(BACKENDS)('a SUT kind registered in the map runs through the real run path on %s', (backend) => {
  let t: TestDb;
  let project: Project;

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 30, turn: 20, otherTurns: 5 });
    t = made.t;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...made.fixture, name: 'base' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it echoes\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    project = await openProject({
      cwd: t.dir,
      config: { ...sampleGameConfig, prices: { 'echo-1': { input: 2, output: 0 } } },
      db: t.db,
    });
  });
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const question = (id: string, sut: Record<string, unknown>): QuestionInput => ({
    id,
    question: 'Does the echo SUT answer?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.8,
    reps: 2,
    fixtures: ['fixtures/base.json'],
    sut: sut as unknown as QuestionInput['sut'],
    caseFile: 'questions/case.md',
  });
  const echo = { type: 'echo', prefix: 'echoed', model: 'echo-1', tokenEnv: 'ECHO_TOKEN' };

  it('is prepared, called, described in the manifest, priced by its model, and kept from leaking its secret', async () => {
    const result = await run(project, {
      question: question('echo-kind', echo),
      env: { ECHO_TOKEN: TOKEN },
      maxCost: 100,
    });
    expect(result).toMatchObject({ status: 'complete', total: 2, ran: 2, errors: 0, failures: [] });
    expect(prepared).toContain('echoed');
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.sut).toEqual({ type: 'echo', prefix: 'echoed', model: 'echo-1' });
    // 1M input tokens at 2 per million, per rep.
    expect(manifest.spend?.sut).toMatchObject({ calls: 2, inputTokens: 2_000_000, cost: 4 });
    for (const rep of [1, 2]) {
      const record = JSON.parse(await readFile(join(result.dir, `reps/base/rep-0${rep}.json`), 'utf8')) as RepRecord;
      expect(record.error).toBeNull();
      expect(record.response).toMatch(/^echoed campaign \S+ turn 20 token /);
      expect(record.response).not.toContain(TOKEN);
    }
    for (const file of await readdir(result.dir, { recursive: true })) {
      const path = join(result.dir, String(file));
      const text = await readFile(path, 'utf8').catch(() => '');
      expect(text, String(file)).not.toContain(TOKEN);
    }
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it("refuses a run before any rep when the kind's check fails, naming the place", async () => {
    await expect(run(project, { question: question('echo-unset', echo), env: {} })).rejects.toThrow(
      /\$\.sut\.tokenEnv: ECHO_TOKEN is not set/,
    );
  });

  it('is a kind a question file may name, and its settings are checked by its schema', async () => {
    await writeFile(
      join(t.dir, 'questions/echo.yaml'),
      [
        'id: echo-file',
        'question: Does it echo?',
        'rubric: { path: questions/rubric.md, version: 1 }',
        'target: 0.8',
        'reps: 1',
        'fixtures: [fixtures/base.json]',
        'sut: { type: echo, prefix: hi, model: echo-1, tokenEnv: ECHO_TOKEN }',
        'caseFile: questions/case.md',
        '',
      ].join('\n'),
    );
    const loaded = await loadQuestion(join(t.dir, 'questions/echo.yaml'));
    expect(loaded.question.sut).toEqual({
      type: 'echo',
      prefix: 'hi',
      model: 'echo-1',
      tokenEnv: 'ECHO_TOKEN',
      timeout: 130,
      maxOutput: 131_072,
    });
    await writeFile(
      join(t.dir, 'questions/echo-bad.yaml'),
      (await readFile(join(t.dir, 'questions/echo.yaml'), 'utf8')).replace('prefix: hi', 'prefix: ""'),
    );
    await expect(loadQuestion(join(t.dir, 'questions/echo-bad.yaml'))).rejects.toThrow(/\$\.sut\.prefix/);
  });
});
