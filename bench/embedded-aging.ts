// Part of npm run bench:embedded — what many runs leave in the embedded database. PGlite has no autovacuum, so every
// row a rep seeds and tears down stays as a dead tuple until something vacuums the table: the data directory grows
// and every later rep scans the dead pages. Measured with the built binary, whole `turnkit run` processes:
//  1. one project (a 40-turn sample campaign captured at turn 23) aged by AGE_RUNS (default 10) runs of REPS
//     (default 200) reps at concurrency 1, printing the data directory's size after each (goal: bounded);
//  2. then ROUNDS pairs, interleaved: a run of REPS reps on the aged directory against one on a fresh copy of the same
//     project; per pair, the median of the reps' own seed + teardown and the run's wall time per rep, aged / fresh
//     (goal: within 1.05x).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function turnkit(
  bin: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; ms: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? done({ stdout, ms: performance.now() - started })
        : fail(new Error(`turnkit ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1)}`)),
    );
  });
}

/** Bytes under a folder. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Ages a project by many runs and compares a rep on it with a rep on a fresh copy; prints the figures. */
export async function benchAging(bin: string, work: string): Promise<void> {
  const ageRuns = Number(process.env.BENCH_AGE_RUNS ?? 10);
  const reps = Number(process.env.BENCH_AGE_REPS ?? 200);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const template = join(work, 'aging-template');
  await mkdir(template);
  const sampled = await turnkit(bin, ['sample', '--turns', '40'], template);
  const campaign = sampled.stdout.trim().split('\n').at(-1)!;
  await turnkit(bin, ['capture', '--campaign', campaign, '--turn', '23', '--name', 'base'], template, {
    TURNKIT_SCRUB_KEY: randomBytes(32).toString('hex'),
  });
  await writeFile(join(template, 'ok.sh'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
  await writeFile(join(template, 'rubric.md'), 'r\n');
  await writeFile(join(template, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n');
  await writeFile(
    join(template, 'q.yaml'),
    `id: q\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${reps}\nfixtures: [fixtures/base.json]\nsut: { type: command, command: [./ok.sh] }\ncaseFile: case.md\n`,
  );
  const pgdata = (dir: string): string => join(dir, '.turnkit', 'pgdata');
  const freshBytes = await folderBytes(pgdata(template));

  // One run: its wall time per rep and the median of its reps' own seed + teardown.
  const oneRun = async (dir: string): Promise<{ wall: number; repMs: number }> => {
    const ran = await turnkit(bin, ['run', 'q.yaml', '--concurrency', '1', '--json'], dir);
    const runDir = join(dir, (JSON.parse(ran.stdout) as { dir: string }).dir);
    const own: number[] = [];
    for (const name of await readdir(join(runDir, 'reps', 'base')))
      if (name.endsWith('.json')) {
        const record = JSON.parse(await readFile(join(runDir, 'reps', 'base', name), 'utf8')) as {
          timings: { seedMs: number; teardownMs: number };
        };
        own.push(record.timings.seedMs + record.timings.teardownMs);
      }
    return { wall: ran.ms / reps, repMs: median(own) };
  };

  const aged = join(work, 'aging-aged');
  await cp(template, aged, { recursive: true });
  const sizes: string[] = [];
  for (let i = 0; i < ageRuns; i++) {
    await oneRun(aged);
    sizes.push(mb(await folderBytes(pgdata(aged))));
  }
  console.log(
    `embedded data directory, fresh ${mb(freshBytes)}; after each of ${ageRuns} runs of ${reps} reps: ${sizes.join(', ')}`,
  );
  const ratios = { rep: [] as number[], wall: [] as number[] };
  const seen = { aged: [] as number[], fresh: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const fresh = join(work, `aging-fresh-${round}`);
    await cp(template, fresh, { recursive: true });
    // Alternate which goes first, so that a busy moment of the machine does not always fall on the same side.
    const [a, f] =
      round % 2 === 0
        ? [await oneRun(aged), await oneRun(fresh)]
        : await (async () => {
            const f = await oneRun(fresh);
            return [await oneRun(aged), f] as const;
          })();
    ratios.rep.push(a.repMs / f.repMs);
    ratios.wall.push(a.wall / f.wall);
    seen.aged.push(a.repMs);
    seen.fresh.push(f.repMs);
  }
  const range = (values: number[]): string =>
    `${median(values).toFixed(2)}x (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
  console.log(
    `  a rep after ${ageRuns}+ runs against a fresh data directory (${rounds} pairs): seed + teardown ${median(seen.aged).toFixed(1)} / ${median(seen.fresh).toFixed(1)} ms = ${range(ratios.rep)}, wall per rep ${range(ratios.wall)} (goal: within 1.05x); aged directory now ${mb(await folderBytes(pgdata(aged)))}`,
  );
}
