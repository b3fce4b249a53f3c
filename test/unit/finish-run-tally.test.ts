import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun } from '../helpers/mark-run.js';
import { finishRunDir, runResult } from '../../src/pipeline/finish-run.js';
import type { OpenedRun } from '../../src/pipeline/opened-run.js';
import { distinctModels } from '../../src/pipeline/run-provenance.js';
import { repSpend } from '../../src/pipeline/run-spend.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import { planReps } from '../../src/run-dir/rep-order.js';
import { marksFor, previousMarks } from '../../src/run-dir/marks/run-marks.js';
import { readManifest, readRunState, repId } from '../../src/run-dir/run-state.js';
import { sumSpend } from '../../src/model/spend.js';
import { serializeDocument } from '../../src/fixture/format.js';

// A run's end tallies its records one at a time (RepTally) rather than reading them all into a map: its manifest,
// marks.csv and result must be exactly what the whole-state reading gave. The reference below is that reading.
async function reference(dir: string, manifest: Manifest, all: ReturnType<typeof planReps>) {
  const state = await readRunState(dir, manifest);
  const missing = all.filter((key) => !state.completed.has(repId(key)) && !state.errored.has(repId(key)));
  const spends = all.flatMap((key) => {
    const spend = repSpend(state.records.get(repId(key)));
    return spend ? [spend] : [];
  });
  const sut = distinctModels([manifest.models?.sut, ...all.map((key) => state.records.get(repId(key))?.models)]);
  const models = { ...manifest.models, ...(sut.length > 0 ? { sut } : {}) };
  const finished: Manifest = {
    ...manifest,
    status: missing.length > 0 ? 'interrupted' : 'complete',
    finishedAt: 'T',
    ...(spends.length > 0 ? { spend: { sut: sumSpend(spends) } } : {}),
    ...(Object.keys(models).length > 0 ? { models } : {}),
  };
  const seedFailed = all.map((key) => state.records.get(repId(key))).filter((r) => r?.error?.stage === 'seed');
  const firstErrored = all.find((key) => state.errored.has(repId(key)));
  return {
    manifest: serializeDocument(finished),
    marks: formatMarks(marksFor(all, state, await previousMarks(dir, manifest)).rows),
    result: {
      errors: state.errored.size,
      pending: missing.length,
      seedErrors: {
        count: seedFailed.length,
        ...(seedFailed[0]
          ? { first: `${seedFailed[0].fixture} rep ${seedFailed[0].rep}: ${seedFailed[0].error!.message}` }
          : {}),
      },
      ...(firstErrored
        ? { firstError: `${firstErrored.fixture} rep ${firstErrored.rep}: ${state.errored.get(repId(firstErrored))}` }
        : {}),
    },
  };
}

describe('finishRunDir tallies the records one at a time', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-tally-'));
  });
  afterAll(async () => folder && rm(folder, { recursive: true, force: true }));

  // 40 reps over two fixtures: completed, sut and seed errors, reps not run, a torn record, spends and models.
  async function madeRun(name: string, options: { marked?: boolean; recordedModels?: boolean } = {}) {
    const reps = 20;
    const dir = await makeMarkRun({
      dir: join(folder, name),
      fixtures: ['alpha', 'beta'].map((fixture, f) => ({
        name: fixture,
        reps: Array.from({ length: reps }, (_, i) =>
          i % 7 === 3
            ? { error: f === 0 ? ('seed' as const) : ('sut' as const), message: `BOOM ${fixture} ${i + 1}` }
            : i % 9 === 8
              ? { notRun: true as const }
              : `answer ${fixture} ${i + 1}`,
        ),
      })),
    });
    const all = planReps(['alpha', 'beta'], reps);
    for (const [i, key] of all.entries()) {
      const file = join(dir, 'reps', key.fixture, `rep-${String(key.rep).padStart(2, '0')}.json`);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      if (i === 5) {
        await writeFile(file, text.slice(0, 40)); // torn by a crash: not run
        continue;
      }
      const record = JSON.parse(text);
      // Costs that do not add up exactly in floating point, some unknown, some reps without usage; models in turns.
      if (i % 3 !== 0)
        record.spend = { inputTokens: 100 + i, outputTokens: 7 * i, cost: i % 4 === 0 ? null : 0.1 + i * 0.01 };
      if (i % 5 !== 4) record.models = [i % 2 === 0 ? 'model-a' : 'model-b', ...(i > 30 ? ['model-c'] : [])];
      await writeFile(file, serializeDocument(record));
    }
    const manifestFile = join(dir, 'manifest.json');
    const manifest = await readManifest(dir);
    if (options.recordedModels) manifest.models = { sut: ['model-z', 'model-b'], judges: { j: ['judge-1'] } };
    manifest.status = 'running';
    await writeFile(manifestFile, serializeDocument(manifest));
    if (options.marked) {
      // A person's marks from before (a resume): kept over the fresh rows.
      const marks = await readFile(join(dir, 'marks.csv'), 'utf8').catch(() => 'fixture,rep,mark,note\n');
      await writeFile(join(dir, 'marks.csv'), `${marks.split('\n')[0]}\nalpha,1,pass,by hand\nbeta,2,fail,\n`);
    }
    const opened: OpenedRun = { dir, manifest, all, pending: [], attempt: 1, warnings: [] };
    return { dir, manifest, all, opened };
  }

  for (const options of [{}, { marked: true, recordedModels: true }]) {
    it(`writes the manifest and marks.csv byte for byte as the whole-state reading did ${JSON.stringify(options)}`, async () => {
      const { dir, manifest, all, opened } = await madeRun(`run-${Object.keys(options).length}`, options);
      const expected = await reference(dir, manifest, all);
      const tally = await finishRunDir(opened);
      const written = (await readFile(join(dir, 'manifest.json'), 'utf8')).replace(
        /"finishedAt": "[^"]*"/,
        '"finishedAt": "T"',
      );
      expect(written).toBe(expected.manifest);
      expect(await readFile(join(dir, 'marks.csv'), 'utf8')).toBe(expected.marks);
      expect(runResult(opened, tally, 3, [])).toMatchObject({ ...expected.result, total: all.length, ran: 3 });
      // The fixture has every kind of rep, so that the comparison covers each branch.
      expect(expected.result.errors).toBeGreaterThan(0);
      expect(expected.result.pending).toBeGreaterThan(1);
      expect(expected.result.seedErrors.count).toBeGreaterThan(0);
      expect(expected.manifest).toMatch(/"spend"/);
      expect(expected.manifest).toMatch(/model-c/);
    });
  }

  it('holds by rep only the reps that did not complete', async () => {
    const { opened } = await madeRun('held');
    const tally = await finishRunDir(opened);
    expect(tally.notRun.size + tally.errored.size + tally.completedCount).toBe(opened.all.length);
    expect(tally.notRun.size + tally.errored.size).toBeLessThan(opened.all.length / 2);
  });
});
