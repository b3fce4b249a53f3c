import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import { runFailure } from '../../src/pipeline/run-outcome.js';
import { shownPath } from '../../src/util/shown-path.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// A library caller's run: the question is an object, the SUT a function of this process, the database the project's.
describe.each(BACKENDS)('run(project, input) with a question object and a function SUT on %s', (backend) => {
  let t: TestDb;
  let project: Project;
  let lastNarration: unknown;

  beforeAll(async () => {
    const made = await sampleGameWithFixture(backend, { turns: 30, turn: 20, otherTurns: 5 });
    t = made.t;
    const fixture = made.fixture;
    lastNarration = fixture.tables.turns!.rows.find((row) => row.turn_number === 19)!.narration;
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it reads its campaign\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  });
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  const question = (id: string, sut: unknown, reps = 2): QuestionInput => ({
    id,
    question: 'Does the SUT read its own campaign?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.8,
    reps,
    fixtures: ['fixtures/base.json'],
    sut: sut as QuestionInput['sut'],
    caseFile: 'questions/case.md',
  });

  it('calls the function with its scratch campaign, records what it answered and leaves the database as it was', async () => {
    const before = await tableChecksums(t.db);
    const signals: boolean[] = [];
    const reads: SutFunction = async (request, { db, signal }) => {
      signals.push(signal.aborted);
      const { rows } = await db.query(
        'SELECT narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 1',
        [request.campaign],
      );
      await db.query(
        `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
         VALUES ($1, $2, 'from fn', 'played by fn', now(), 0)`,
        [request.campaign, request.turn],
      );
      return { response: `rep ${request.rep} read: ${rows[0]?.narration}` };
    };
    const result = await run(project, { question: question('reads-fn', reads), concurrency: 2 });
    expect(result).toMatchObject({ status: 'complete', total: 2, ran: 2, errors: 0, pending: 0, failures: [] });
    expect(signals).toEqual([false, false]);
    for (const rep of [1, 2]) {
      const record = JSON.parse(await readFile(join(result.dir, `reps/base/rep-0${rep}.json`), 'utf8')) as RepRecord;
      expect(record.error).toBeNull();
      expect(record.response).toBe(`rep ${rep} read: ${lastNarration}`);
      expect(JSON.stringify(record.effects)).toContain('played by fn');
    }
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.question.file.path).toBe('<question object>');
    expect(manifest.sut).toEqual({ type: 'function', name: 'reads', timeout: 130 });
    expect(await readFile(join(result.dir, 'marks.csv'), 'utf8')).toContain('base,1,');
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('records a throw, a non-string and a timeout (its signal aborted) as errored reps', async () => {
    let aborted: AbortSignal | undefined;
    const fails: SutFunction = async (request, { signal }) => {
      if (request.rep === 1) throw new Error('the model is down');
      if (request.rep === 2) return 42 as unknown as string;
      aborted = signal;
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('too late')));
    };
    const result = await run(project, {
      question: question('fails-fn', { type: 'function', fn: fails, timeout: 1 }, 3),
    });
    expect(result).toMatchObject({ status: 'complete', total: 3, errors: 3 });
    const causes = [];
    for (const rep of [1, 2, 3]) {
      const record = JSON.parse(await readFile(join(result.dir, `reps/base/rep-0${rep}.json`), 'utf8')) as RepRecord;
      causes.push([record.error?.cause, record.error?.message]);
    }
    expect(causes).toEqual([
      ['exception', 'the model is down'],
      ['unparseable', 'the function returned neither a string nor { response: string }'],
      ['timeout', 'no answer within 1 s'],
    ]);
    expect(aborted?.aborted).toBe(true);
  });

  it('stops before any rep on an aborted signal: the run is interrupted with every rep pending', async () => {
    const calls: number[] = [];
    const stop = new AbortController();
    stop.abort();
    const result = await run(project, {
      question: question('stopped-fn', (request: { rep: number }) => {
        calls.push(request.rep);
        return 'never';
      }),
      signal: stop.signal,
    });
    expect(result).toMatchObject({ status: 'interrupted', total: 2, ran: 0, pending: 2 });
    expect(calls).toEqual([]);
  });

  it('--max-cost stops the run at the first rep whose cost cannot be counted, naming it and what to do', async () => {
    // The usage as SutFunctionAnswer spells it (snake case, as a command SUT prints it): typed, no cast.
    const unpriced: SutFunction = () => ({ response: 'ok', usage: { input_tokens: 10, output_tokens: 2 } });
    const result = await run(project, {
      question: question('unpriced-fn', unpriced, 4),
      maxCost: 1,
      concurrency: 1,
      repsInFlight: 1,
    });
    const why =
      'base rep 1: the function SUT "unpriced" reported tokens but no cost; have it answer with its "cost" ({ "response": ..., "usage": ..., "cost": x }), as only an http SUT is priced from the config\'s "prices"';
    expect(result).toMatchObject({ status: 'interrupted', total: 4, ran: 1, pending: 3 });
    expect(result.budget).toEqual({ maxCost: 1, spent: 0, reached: true, uncounted: why });
    expect(runFailure(result, undefined)?.message).toBe(
      `${shownPath(result.dir)}: stopped: --max-cost 1 cannot count this run's cost (${why}) with 3 rep(s) not run; once it can, or without --max-cost, finish it with: turnkit run --resume ${shownPath(result.dir)}`,
    );
    // A SUT that says nothing of its cost is no different: its cost is not known to be zero.
    const silent = await run(project, {
      question: question('silent-fn', () => 'ok', 4),
      maxCost: 1,
      concurrency: 1,
      repsInFlight: 1,
    });
    expect(silent).toMatchObject({ status: 'interrupted', ran: 1, pending: 3 });
    expect(silent.budget?.uncounted).toMatch(/^base rep 1: the function SUT reported neither usage nor cost; /);
    // Known costs under the budget run to the end; a SUT that never answered is an errored rep, not a cost.
    const priced = await run(project, {
      question: question('priced-fn', () => ({ response: 'ok', cost: 0.01 }), 4),
      maxCost: 1,
      concurrency: 1,
    });
    expect(priced).toMatchObject({ status: 'complete', ran: 4, pending: 0 });
    expect(priced.budget).toEqual({ maxCost: 1, spent: 0.04, reached: false });
    const broken = await run(project, {
      question: question('broken-fn', () => Promise.reject(new Error('down')), 2),
      maxCost: 1,
    });
    expect(broken).toMatchObject({ status: 'complete', errors: 2, pending: 0 });
  });

  it('--max-cost refuses an http SUT whose model has no price before anything runs', async () => {
    const sut = { type: 'http', baseUrl: 'http://127.0.0.1:9/v1', model: 'gm-large' };
    await expect(run(project, { question: question('no-price', sut), maxCost: 2.5 })).rejects.toThrow(
      '$.sut.model: --max-cost 2.5: the SUT\'s model "gm-large" has no price, so its cost cannot be counted; add "prices": { "gm-large": { "input": IN, "output": OUT } } (per million tokens) to the config (there is none yet: turnkit init writes one), or run without --max-cost',
    );
    expect(existsSync(join(t.dir, 'runs', 'no-price'))).toBe(false);
  });

  it('says what is wrong with a question object, naming it and the place', async () => {
    await expect(run(project, { question: { ...question('bad', () => 'x'), reps: 0 } })).rejects.toThrow(
      '<question object>: $.reps: at least 1 rep',
    );
    await expect(run(project, { question: question('bad', { type: 'function' }) })).rejects.toThrow(
      '<question object>: $.sut.fn: expected a function',
    );
  });
});
