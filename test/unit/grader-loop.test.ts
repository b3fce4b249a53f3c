import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeRun, type Grader } from '../../src/judge/grader.js';
import { applyRolloutScreens } from '../../src/judge/rollout-checks.js';
import { screensOf } from '../../src/question/check-screens.js';
import { checksSchema } from '../../src/question/checks-format.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { readRun } from '../../src/run-dir/read-run.js';
import { makeJudgeRun } from '../helpers/judge-run.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-grader-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('gradeRun: the one loop that writes a grader marks file', () => {
  const spec = (dir: string) => ({
    dir,
    fixtures: [{ name: 'alpha', reps: ['deck 2', { error: 'sut' as const }, { notRun: true as const }] }],
  });

  it('grades every planned rep, stamps graded rows, leaves a rep not run blank, and writes after finish', async () => {
    const dir = await makeJudgeRun(spec(join(root, 'ok')));
    const seen: string[] = [];
    const grader: Grader = {
      marksFile: 'marks.length.csv',
      stamp: { grader: 'length', markedAt: '2026-01-01T00:00:00.000Z', rubricVersion: '1' },
      grade: async (key, record) => {
        seen.push(`${key.fixture}/${key.rep}`);
        return record.error
          ? { mark: 'error', note: 'errored' }
          : { mark: 'pass', note: `${record.response!.length} chars` };
      },
      finish: async (rows) => {
        // The marks file is written after the grader's own files.
        expect(existsSync(join(dir, 'marks.length.csv'))).toBe(false);
        expect(rows.map((row) => row.mark)).toEqual(['pass', 'error', '']);
      },
    };
    const graded = await gradeRun(await readRun(dir), grader);
    expect(seen).toEqual(['alpha/1', 'alpha/2']);
    expect(graded).toMatchObject({ pass: 1, fail: 0, na: 0, error: 1, notRun: 1 });
    expect(await readFile(join(dir, 'marks.length.csv'), 'utf8')).toBe(
      [
        'fixture,rep,mark,note,grader,marked_at,rubric_version',
        'alpha,1,pass,6 chars,length,2026-01-01T00:00:00.000Z,1',
        'alpha,2,error,errored,length,2026-01-01T00:00:00.000Z,1',
        'alpha,3,,not run,,,',
        '',
      ].join('\n'),
    );
  });

  it('writes no marks file when the grader refuses in finish', async () => {
    const dir = await makeJudgeRun(spec(join(root, 'refused')));
    const grader: Grader = {
      marksFile: 'marks.refused.csv',
      grade: async () => ({ mark: 'fail', note: 'no' }),
      finish: async () => {
        throw new Error('the endpoint refused the key');
      },
    };
    await expect(gradeRun(await readRun(dir), grader)).rejects.toThrow('the endpoint refused the key');
    expect(existsSync(join(dir, 'marks.refused.csv'))).toBe(false);
  });
});

describe('a rollout screens over its turns', () => {
  const turn = (n: number, response: string) => ({
    turn: n,
    input: {},
    response,
    error: null,
    effects: { inserted: {}, updated: {}, deleted: {}, insertedRows: {} },
    timings: { sutMs: 1, turnkitMs: 1 },
  });
  const record = (responses: string[]): RepRecord =>
    ({
      fixture: 'base',
      rep: 1,
      attempt: 1,
      startedAt: '',
      request: { campaign: 'c', turn: 1, input: {}, caseFile: '', fixture: 'base', rep: 1 },
      response: responses.join('\n'),
      error: null,
      exit: null,
      timings: { seedMs: 0, sutMs: 0, teardownMs: 0, totalMs: 0 },
      scratch: null,
      effects: null,
      turns: responses.map((response, i) => turn(23 + i, response)),
    }) as unknown as RepRecord;
  const checks = screensOf(checksSchema.parse({ mustNotContain: { name: 'no-deck-3', terms: ['deck 3'] } }));
  const transcript = screensOf(checksSchema.parse({ mustContain: ['farewell'] }), 'transcript-', ['transcriptChecks']);

  it('fails a turn screen on the turn that failed it and keeps the transcript screen apart', () => {
    const verdict = applyRolloutScreens(checks, transcript, record(['deck 2', 'deck 3', 'farewell']));
    expect(verdict.mark).toBe('fail');
    expect(verdict.reason).toBe('turn 24: contains "deck 3"');
    expect(verdict.screens).toEqual([
      { screen: 'no-deck-3', mark: 'fail', reason: 'turn 24: contains "deck 3"' },
      { screen: 'transcript-must-contain', mark: 'pass', reason: '1 check(s) passed' },
    ]);
  });

  it('is na when no screen applies to the fixture', () => {
    const verdict = applyRolloutScreens(checks, transcript, record(['deck 2']), [
      'no-deck-3',
      'transcript-must-contain',
    ]);
    expect(verdict.mark).toBe('na');
    expect(verdict.screens.map((result) => result.mark)).toEqual(['unscored', 'unscored']);
  });
});
