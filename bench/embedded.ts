// npm run bench:embedded — how fast the embedded database opens, and what the demo costs beyond its own work.
//  1. A whole process that opens the embedded database, asks SELECT 1 and closes it: on a new data directory (from
//     the shipped template, dist/pgdata/) against a reopen of the same directory, alternated, medians of ROUNDS.
//     Goal: first open within 2x a reopen. Also printed once: a new directory with initdb (no template), as before.
//  2. `turnkit demo` as a user runs it: wall time against the time of its own work (the sample step, the capture
//     step, and the reps of its run and of its rollout, each from the first one's start to the last one's end).
//     Goal: at most 1.3x. Where the rest goes is printed beside it. And its peak RSS
//     (from /usr/bin/time -v when it is there). With BENCH_BIN, that build's demo and this one's in interleaved
//     pairs, ROUNDS of each, and both ratios' medians and ranges.
//  3. Many runs on one data directory against a fresh one, and its size (bench/embedded-aging.ts). BENCH_AGING=only
//     runs this part alone, BENCH_AGING=0 skips it.
// Runs the built package (dist/): `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchAging } from './embedded-aging.js';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
if (!existsSync(join(ROOT, 'dist/pgdata/templates.json')))
  throw new Error('no dist/pgdata/templates.json: run npm run build first');

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: { ...process.env, DATABASE_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

// One process: open (template or initdb), SELECT 1, close; what `turnkit db migrate` or a first `sample` pays.
const OPEN = `
const { connectEmbedded } = await import(${JSON.stringify(join(ROOT, 'dist/src/db/connect.js'))});
const { templateArchive } = await import(${JSON.stringify(join(ROOT, 'dist/src/db/pgdata-template.js'))});
const db = await connectEmbedded({ dataDir: process.argv[1], port: 0, handleSignals: false, template: process.argv[2] === 'initdb' ? undefined : templateArchive('empty') });
await db.pool.query('SELECT 1');
await db.close();
`;

async function openOnce(dataDir: string, mode: 'template' | 'initdb'): Promise<number> {
  const result = await run(process.execPath, ['--input-type=module', '-e', OPEN, dataDir, mode], ROOT);
  if (result.code !== 0) throw new Error(`opening ${dataDir} failed: ${result.stderr.trim().split('\n').at(-1)}`);
  return result.ms;
}

const work = await mkdtemp(join(tmpdir(), 'turnkit-bench-embedded-'));
const aging = process.env.BENCH_AGING ?? '1';
try {
  if (aging !== 'only') await openAndDemo();
  // BENCH_BIN measures another build (an earlier commit's) with the same figures.
  if (aging !== '0') await benchAging(resolve(process.env.BENCH_BIN ?? join(ROOT, 'dist/src/cli/bin.js')), work);
} finally {
  await rm(work, { recursive: true, force: true });
}

// Parts 1 and 2: opening the embedded database, and the demo.
async function openAndDemo(): Promise<void> {
  const first: number[] = [];
  const reopen: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = join(work, `open-${round}`, 'pgdata');
    first.push(await openOnce(dataDir, 'template'));
    reopen.push(await openOnce(dataDir, 'template'));
  }
  const initdb = await openOnce(join(work, 'initdb', 'pgdata'), 'initdb');
  const f = median(first);
  const r = median(reopen);
  console.log(
    `embedded first open / reopen (whole process, median of ${ROUNDS}): ${f.toFixed(0)} / ${r.toFixed(0)} ms = ${(f / r).toFixed(2)}x (goal: within 2x)`,
  );
  console.log(
    `  a new data directory with initdb instead (no template), once: ${initdb.toFixed(0)} ms = ${(initdb / r).toFixed(2)}x a reopen`,
  );

  // BENCH_BIN: that build's demo and this one's, in interleaved pairs (the order alternating), ROUNDS of each.
  const other = process.env.BENCH_BIN;
  if (other) {
    const ratios: Record<'before' | 'after', number[]> = { before: [], after: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const which of order) {
        const bin = which === 'before' ? resolve(other) : join(ROOT, 'dist/src/cli/bin.js');
        ratios[which].push(await demoOnce(bin, join(work, `demo-${which}-${round}`)));
      }
    }
    const shown = (values: number[]): string =>
      `median ${median(values).toFixed(2)}x (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
    console.log(
      `demo wall / own work, ${ROUNDS} interleaved pairs: BENCH_BIN ${shown(ratios.before)}, this build ${shown(ratios.after)}`,
    );
    return;
  }
  await demoOnce(join(ROOT, 'dist/src/cli/bin.js'), join(work, 'demo'));
}

// One `turnkit demo` of a build, its figures printed; returns its wall time over its own work.
async function demoOnce(bin: string, demoDir: string): Promise<number> {
  const time = existsSync('/usr/bin/time');
  const demoArgs = [bin, 'demo', '--dir', demoDir, '--json'];
  const demo = time
    ? await run('/usr/bin/time', ['-v', process.execPath, ...demoArgs], work)
    : await run(process.execPath, demoArgs, work);
  if (demo.code !== 0) throw new Error(`turnkit demo exited ${demo.code}: ${demo.stderr.trim().split('\n').at(-1)}`);
  const result = JSON.parse(demo.stdout) as {
    run: { dir: string };
    rollout: { run: { dir: string } };
    timings: { sampleMs: number; captureMs: number; runMs: number; rolloutMs: number };
  };
  // Its reps are the run's and the rollout's (each rollout rep plays several turns): both are the demo's own work.
  const main = await repSpan(resolve(work, result.run.dir));
  const rolled = await repSpan(resolve(work, result.rollout.run.dir));
  const reps = { ms: main.ms + rolled.ms, count: main.count + rolled.count };
  const own = result.timings.sampleMs + result.timings.captureMs + reps.ms;
  console.log(
    `turnkit demo: ${(demo.ms / 1000).toFixed(2)} s wall against its own work ${(own / 1000).toFixed(2)} s = ${(demo.ms / own).toFixed(2)}x (goal: at most 1.3x)`,
  );
  console.log(
    `  own work: sample ${result.timings.sampleMs.toFixed(0)} ms, capture ${result.timings.captureMs.toFixed(0)} ms, ${main.count} reps ${main.ms.toFixed(0)} ms and ${rolled.count} rollout reps ${rolled.ms.toFixed(0)} ms (each first start to last end)`,
  );
  const { runMs, rolloutMs, sampleMs, captureMs } = result.timings;
  console.log(
    `  fixed costs: the run's own beyond its reps ${(runMs - main.ms).toFixed(0)} ms, the rollout's (run, checks, report) beyond its reps ${(rolloutMs - rolled.ms).toFixed(0)} ms, the rest (process start, database open, construct, checks, report, HTML, close) ${(demo.ms - sampleMs - captureMs - runMs - rolloutMs).toFixed(0)} ms`,
  );
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(demo.stderr)?.[1];
  console.log(
    `  peak RSS of the demo process: ${rss ? `${(Number(rss) / 1024).toFixed(0)} MB` : 'not measured (no /usr/bin/time)'}`,
  );
  return demo.ms / own;
}

// The reps' own time: from the earliest start to the latest end among the run's rep records.
async function repSpan(runDir: string): Promise<{ ms: number; count: number }> {
  let start = Infinity;
  let end = -Infinity;
  let count = 0;
  for (const fixture of await readdir(join(runDir, 'reps'))) {
    for (const name of await readdir(join(runDir, 'reps', fixture))) {
      if (!name.endsWith('.json')) continue;
      const record = JSON.parse(await readFile(join(runDir, 'reps', fixture, name), 'utf8')) as {
        startedAt: string;
        timings: { totalMs: number };
      };
      const begun = Date.parse(record.startedAt);
      start = Math.min(start, begun);
      end = Math.max(end, begun + record.timings.totalMs);
      count++;
    }
  }
  return { ms: end - start, count };
}
