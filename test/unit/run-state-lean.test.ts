import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun } from '../helpers/mark-run.js';
import { readRunState } from '../../src/run-dir/run-state.js';
import { runSpend } from '../../src/pipeline/run-spend.js';

// A run's end reads every record at once: lean, it keeps what finishing needs and drops what grows with the reps.
describe('readRunState lean', () => {
  let folder: string;
  let dir: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-lean-'));
    dir = await makeMarkRun({
      dir: join(folder, 'run'),
      fixtures: [
        { name: 'alpha', reps: ['ok one', 'ok two'] },
        { name: 'beta', reps: [{ error: 'seed', message: 'relation "turns" does not exist' }, { notRun: true }] },
      ],
    });
  });
  afterAll(async () => folder && rm(folder, { recursive: true, force: true }));

  it('gives the same outcome and spend as the whole records, without case files or responses', async () => {
    const whole = await readRunState(dir);
    const lean = await readRunState(dir, undefined, undefined, { lean: true });
    expect(lean.completed).toEqual(whole.completed);
    expect(lean.errored).toEqual(whole.errored);
    expect([...lean.records.keys()]).toEqual([...whole.records.keys()]);
    const keys = [...whole.records.values()].map((record) => ({ fixture: record.fixture, rep: record.rep }));
    expect(runSpend(keys, lean)).toEqual(runSpend(keys, whole));
    const [id] = [...whole.completed];
    expect(whole.records.get(id!)!.response).toBe('ok one');
    expect(whole.records.get(id!)!.request.caseFile).not.toBe('');
    expect(lean.records.get(id!)).toMatchObject({ response: null, effects: null, request: { caseFile: '' } });
    expect(lean.records.get(id!)!.timings).toEqual(whole.records.get(id!)!.timings);
    const seedFailed = [...lean.records.values()].filter((record) => record.error?.stage === 'seed');
    expect(seedFailed.map((record) => [record.fixture, record.rep, record.error!.message])).toEqual([
      ['beta', 1, 'relation "turns" does not exist'],
    ]);
  });
});
