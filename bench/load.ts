// npm run bench:load — many reps of a SUT that answers at once, as a load test of the rep loop: on real Postgres
// (DATABASE_URL) 1,000 reps at concurrency 16, on the embedded database 200 (its default concurrency, 1). Prints
// reps/s; per rep the medians of seed, SUT and teardown; turnkit's own cost per rep (wall time x concurrency / reps,
// minus the SUT's median) against seed + teardown; rows leaked (tables whose checksum changed, registry rows left)
// and reps lost (neither complete nor errored on disk). BENCH_REPS and BENCH_CONCURRENCY override.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import { serializeDocument } from '../src/fixture/format.js';
import { runQuestion } from '../src/app/run-question.js';
import { readRunState } from '../src/run-dir/run-state.js';
import { registryCounts, tableChecksums } from '../test/helpers/table-checksums.js';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

await withBenchDatabase(async (db, config) => {
  const postgres = db.backend === 'postgres';
  const reps = Number(process.env.BENCH_REPS ?? (postgres ? 1000 : 200));
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? (postgres ? 16 : 1));
  console.log(
    `load benchmark on ${postgres ? db.displayUrl : 'the embedded database'}: ${reps} reps at concurrency ${concurrency}`,
  );
  await createSampleCampaign(db, { turns: 200, seed: 3 });
  const campaign = await createSampleCampaign(db, { turns: 40 });
  const fixture = (await captureFromDb(db, config, { campaign, turns: { turn: 23 } })).fixtures[0]!;
  const dir = config.baseDir;
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await writeFile(join(dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
  await writeFile(join(dir, 'rubric.md'), 'r\n');
  await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n');
  await writeFile(join(dir, 'instant.sh'), '#!/bin/sh\ncat > /dev/null\necho ok\n');
  await chmod(join(dir, 'instant.sh'), 0o755);
  await writeFile(
    join(dir, 'load.yaml'),
    `id: load\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${reps}\nfixtures: [fixtures/base.json]\nsut: { type: command, command: [./instant.sh] }\ncaseFile: case.md\n`,
  );

  const before = await tableChecksums(db);
  const started = performance.now();
  const result = await runQuestion({
    question: 'load.yaml',
    cwd: dir,
    databaseUrl: postgres ? db.url : undefined,
    concurrency,
  });
  const elapsed = performance.now() - started;
  const after = await tableChecksums(db);
  const leakedTables = Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
  const registry = await registryCounts(db);

  const state = await readRunState(result.dir);
  const records = [...state.records.values()];
  const lost = reps - state.completed.size - state.errored.size;
  const seed = median(records.map((record) => record.timings.seedMs));
  const sut = median(records.map((record) => record.timings.sutMs));
  const teardown = median(records.map((record) => record.timings.teardownMs));
  const own = (elapsed * concurrency) / reps - sut;
  console.log(
    `${result.status}: ${reps} reps in ${(elapsed / 1000).toFixed(1)} s = ${((reps * 1000) / elapsed).toFixed(1)} reps/s; ${result.errors} error(s)`,
  );
  console.log(
    `a rep (medians): seed ${seed.toFixed(1)} ms, SUT ${sut.toFixed(1)} ms, teardown with effects ${teardown.toFixed(1)} ms`,
  );
  console.log(
    `turnkit's own time per rep (wall x concurrency / reps - SUT): ${own.toFixed(1)} ms = ${(own / (seed + teardown)).toFixed(2)}x seed + teardown`,
  );
  console.log(
    `leaked: ${leakedTables.length} table(s) changed${leakedTables.length ? ` (${leakedTables.join(', ')})` : ''}, registry ${JSON.stringify(registry)}; lost reps: ${lost}`,
  );
  const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) as { status: string };
  if (leakedTables.length > 0 || (registry.campaigns ?? 0) > 0 || lost > 0 || manifest.status !== 'complete')
    process.exitCode = 1;
});
