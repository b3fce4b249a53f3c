// npm run bench:run — turnkit's own cost per rep of `turnkit run`, measured against what it cannot avoid.
//  1. With a SUT that answers at once: turnkit's own time per rep (time per rep at steady state, files written and
//     progress reported, minus the SUT's time) / the rep's seed + teardown (medians of the reps' own timings; the
//     teardown includes reading what the SUT changed). Goal: at most 1.5. Also printed: the same overhead against a
//     bare ScratchSession's seed + teardown of the fixture (no effects, no SUT between), measured in the same run.
//  2. Real Postgres only: a SUT that sleeps 200 ms, 100 reps at concurrency 8, against the ideal 100 x 0.2 / 8 s.
//     Goal: within 1.2x.
//  5. `turnkit run` as a whole process (the built binary: npm run build first), 200 reps against BENCH_MEMORY_REPS
//     (default 2,000; the goal is stated for 10,000) at concurrency 8, peak RSS from /usr/bin/time -v, the two sizes
//     alternated over BENCH_MEMORY_ROUNDS (default 1): the KB per rep beyond 200. Goal: flat in reps beyond the plan.
//  4. A 10-turn rollout, and a 5,000-turn campaign's per-turn effects read against a walk of it (bench/rollout.ts).
//  3. Embedded only: a SUT that sleeps 1 s (a model call), 40 reps with the default options against the ideal
//     40 x 1 s / the default concurrency, and at concurrency 8 against 5 s. Goal: within 1.5x both, and a default
//     concurrency of at least 4. Each rep's database work takes turns on the one connection; the SUT calls overlap.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import { serializeDocument } from '../src/fixture/format.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { defaultConcurrency, runQuestion } from '../src/app/run-question.js';
import { benchRollout } from './rollout.js';

const REPS = Number(process.env.BENCH_REPS ?? 30);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

await withBenchDatabase(async (db, config) => {
  const url = db.backend === 'postgres' ? db.url : undefined;
  console.log(`run benchmark on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}`);
  await createSampleCampaign(db, { turns: 200, seed: 3 });
  const campaign = await createSampleCampaign(db, { turns: 40 });
  const fixture = (await captureFromDb(db, config, { scrub: { key: BENCH_SCRUB_KEY }, campaign, turns: { turn: 23 } }))
    .fixtures[0]!;
  const dir = config.baseDir;
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await writeFile(join(dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
  await writeFile(join(dir, 'rubric.md'), 'r\n');
  await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n\n{{recent_turns:5}}\n');
  await writeFile(join(dir, 'instant.sh'), '#!/bin/sh\ncat > /dev/null\necho ok\n');
  await writeFile(join(dir, 'sleepy.sh'), '#!/bin/sh\ncat > /dev/null\nsleep 0.2\necho ok\n');
  await chmod(join(dir, 'instant.sh'), 0o755);
  await writeFile(join(dir, 'slow.sh'), '#!/bin/sh\ncat > /dev/null\nsleep 1\necho ok\n');
  await chmod(join(dir, 'sleepy.sh'), 0o755);
  await chmod(join(dir, 'slow.sh'), 0o755);
  const question = (id: string, sut: string, reps: number): string =>
    `id: ${id}\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${reps}\nfixtures: [fixtures/base.json]\nsut: { type: command, command: [./${sut}] }\ncaseFile: case.md\n`;
  await writeFile(join(dir, 'instant.yaml'), question('instant', 'instant.sh', REPS));
  await writeFile(join(dir, 'sleepy.yaml'), question('sleepy', 'sleepy.sh', 100));
  await writeFile(join(dir, 'slow.yaml'), question('slow', 'slow.sh', 40));

  // The floor: seed + teardown of the same fixture by a bare session, nothing else, half before the run, half after.
  const session = new ScratchSession(db, { game: config.game });
  await (await session.seed(fixture)).teardown();
  const floor: number[] = [];
  const measureFloor = async (): Promise<void> => {
    for (let i = 0; i < REPS / 2; i++) {
      const started = performance.now();
      await (await session.seed(fixture)).teardown();
      floor.push(performance.now() - started);
    }
  };
  await measureFloor();
  // Per rep at steady state: the time from one rep's record to the next (files written, progress reported).
  const marks: number[] = [];
  const result = await runQuestion({
    question: 'instant.yaml',
    cwd: dir,
    databaseUrl: url,
    concurrency: 1,
    onProgress: () => marks.push(performance.now()),
  });
  if (result.errors > 0) throw new Error(`${result.errors} rep(s) failed in ${result.dir}`);
  await measureFloor();
  await session.close();
  const perRep = marks.slice(1).map((at, i) => at - marks[i]!);
  const phases = await repTimings(result.dir);
  const sut = median(phases.map((entry) => entry.sutMs));
  const overhead = median(perRep) - sut;
  const phase = (key: keyof Timings): string => median(phases.map((entry) => entry[key])).toFixed(1);
  console.log(
    `instant SUT, ${REPS} reps at concurrency 1: ${median(perRep).toFixed(1)} ms per rep at steady state, of which the SUT ${sut.toFixed(1)} ms`,
  );
  console.log(
    `inside a rep (median ms): seed ${phase('seedMs')}, SUT ${phase('sutMs')}, teardown with effects ${phase('teardownMs')}, total ${phase('totalMs')}`,
  );
  const seedTeardown = median(phases.map((entry) => entry.seedMs + entry.teardownMs));
  console.log(
    `overhead / (seed + teardown) = ${overhead.toFixed(1)} / ${seedTeardown.toFixed(1)} = ${(overhead / seedTeardown).toFixed(2)} (goal: at most 1.5)`,
  );
  console.log(
    `  against a bare seed + teardown (no effects, no SUT between): ${overhead.toFixed(1)} / ${median(floor).toFixed(1)} = ${(overhead / median(floor)).toFixed(2)}`,
  );

  if (db.backend === 'postgres') {
    const started = performance.now();
    const events: number[] = [];
    const result = await runQuestion({
      question: 'sleepy.yaml',
      cwd: dir,
      databaseUrl: url,
      concurrency: 8,
      onProgress: () => events.push(performance.now()),
    });
    const ended = performance.now();
    const wall = (ended - started) / 1000;
    const repTotals = (await repTimings(result.dir)).map((entry) => entry.totalMs);
    console.log(
      `  before the first rep ends: ${(events[0]! - started).toFixed(0)} ms (a rep takes ${median(repTotals).toFixed(0)} ms); after the last: ${(ended - events.at(-1)!).toFixed(0)} ms`,
    );
    const ideal = (100 * 0.2) / 8;
    console.log(
      `sleepy SUT (200 ms), 100 reps at concurrency 8: ${wall.toFixed(2)} s against the ideal ${ideal.toFixed(2)} s = ${(wall / ideal).toFixed(2)}x (goal: within 1.2x); ${result.errors} error(s)`,
    );
  } else {
    const concurrency = defaultConcurrency();
    for (const [label, given, ideal] of [
      [`default options (concurrency ${concurrency})`, undefined, 40 / concurrency],
      ['concurrency 8', 8, 5],
    ] as const) {
      const started = performance.now();
      const result = await runQuestion({ question: 'slow.yaml', cwd: dir, concurrency: given });
      const wall = (performance.now() - started) / 1000;
      const phases = await repTimings(result.dir);
      const db = median(phases.map((entry) => entry.seedMs + entry.teardownMs));
      console.log(
        `slow SUT (1 s), 40 reps, ${label}: ${wall.toFixed(2)} s against the ideal ${ideal.toFixed(2)} s = ${(wall / ideal).toFixed(2)}x (goal: within 1.5x); seed + teardown per rep ${db.toFixed(0)} ms (median); ${result.errors} error(s)`,
      );
    }
  }
  await benchMemory(dir, question, url);
  await benchRollout(db, config, url);
});

// Part 5: peak RSS of whole `turnkit run` processes, 200 reps against many (a guest of this process's embedded server).
async function benchMemory(
  dir: string,
  question: (id: string, sut: string, reps: number) => string,
  url: string | undefined,
): Promise<void> {
  // BENCH_BIN measures another build (an earlier commit's).
  const bin = resolve(process.env.BENCH_BIN ?? join(import.meta.dirname, '..', 'dist/src/cli/bin.js'));
  if (!existsSync('/usr/bin/time') || !existsSync(bin)) {
    console.log('run memory: not measured (needs /usr/bin/time and npm run build)');
    return;
  }
  const many = Number(process.env.BENCH_MEMORY_REPS ?? 2000);
  const rounds = Number(process.env.BENCH_MEMORY_ROUNDS ?? 1);
  for (const reps of [200, many])
    await writeFile(join(dir, `mem-${reps}.yaml`), question(`mem${reps}`, 'instant.sh', reps));
  const peaks = new Map<number, number[]>([
    [200, []],
    [many, []],
  ]);
  // BENCH_MEMORY_HEAP=1: the child forces a gc every 0.5 s and records the largest heap left after one (the live
  // heap, far less noisy than RSS, which is where the collector lets the heap get to); the RSS is then that of a
  // process collecting more often than it would.
  const heap = process.env.BENCH_MEMORY_HEAP === '1';
  const hook = join(dir, 'heap-hook.cjs');
  const heaps = new Map<number, number[]>([
    [200, []],
    [many, []],
  ]);
  if (heap)
    await writeFile(
      hook,
      "let max = 0; setInterval(() => { global.gc(); max = Math.max(max, process.memoryUsage().heapUsed); }, 500).unref();\nprocess.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_HEAP_OUT, String(max)));\n",
    );
  for (let round = 0; round < rounds; round++) {
    for (const reps of round % 2 === 0 ? [200, many] : [many, 200]) {
      const out = join(dir, `heap-${reps}.txt`);
      const flags = heap ? ['--expose-gc', '--require', hook] : [];
      const args = [process.execPath, ...flags, bin, 'run', `mem-${reps}.yaml`, '--concurrency', '8', '--json'];
      if (url) args.push('--database-url', url);
      const ran = spawnSync('/usr/bin/time', ['-v', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: '', BENCH_HEAP_OUT: out },
      });
      if (ran.status !== 0)
        throw new Error(
          `turnkit run mem-${reps}.yaml exited ${ran.status}: ${ran.stderr.split('\n').slice(-3).join(' ')}`,
        );
      peaks.get(reps)!.push(Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(ran.stderr)![1]) / 1024);
      if (heap) heaps.get(reps)!.push(Number(await readFile(out, 'utf8')) / 1024 / 1024);
    }
  }
  const small = median(peaks.get(200)!);
  const large = median(peaks.get(many)!);
  console.log(
    `run memory (whole process, concurrency 8): 200 reps ${small.toFixed(0)} MB, ${many} reps ${large.toFixed(0)} MB peak RSS = ${(large / small).toFixed(2)}x, ${(((large - small) * 1024) / (many - 200)).toFixed(2)} KB per rep beyond 200 (goal: flat)`,
  );
  if (heap) {
    const [a, b] = [median(heaps.get(200)!), median(heaps.get(many)!)];
    console.log(
      `  live heap (largest after a forced gc): 200 reps ${a.toFixed(1)} MB, ${many} reps ${b.toFixed(1)} MB, ${(((b - a) * 1024) / (many - 200)).toFixed(2)} KB per rep beyond 200`,
    );
  }
}

type Timings = { seedMs: number; sutMs: number; teardownMs: number; totalMs: number };

async function repTimings(dir: string): Promise<Timings[]> {
  const times: Timings[] = [];
  for (const name of await readdir(join(dir, 'reps', 'base'))) {
    if (name.endsWith('.json'))
      times.push((JSON.parse(await readFile(join(dir, 'reps', 'base', name), 'utf8')) as { timings: Timings }).timings);
  }
  return times;
}
