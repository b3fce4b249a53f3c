// npm run bench:embedded — the embedded PostgreSQL server: how fast it is ready, what the demo costs, and what the
// server holds in memory after many reps. Whole processes of the built binary (npm run build first).
//  1. `turnkit db start` to ready (the command returns once the server accepts connections): on a project folder
//     with no cluster yet (initdb included) and on one whose server is stopped (the usual case); medians of ROUNDS,
//     against `node -e 0` in the same rounds. Goal: under 1.5 s.
//  2. `turnkit demo`, wall time: with BENCH_BASE_BIN (an earlier build's dist/src/cli/bin.js: the PGlite one) in
//     interleaved pairs with this build's, ROUNDS pairs, the ratio this / base per pair. Goal: 0.6x or less.
//  3. The server's memory after BENCH_REPS (default 1,000) reps: `turnkit run` of the sample question, 200 reps a run
//     at concurrency 8, on a server kept by `db start`; then the resident memory of all of its processes (the
//     postmaster and every backend and worker it started), as the sum of their RSS (which counts the shared buffers
//     once per process that touched them) and of their PSS (shared pages divided among the processes that map
//     them: what the server really holds). Goal: under 250 MB.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const BASE_BIN = process.env.BENCH_BASE_BIN ? resolve(process.env.BENCH_BASE_BIN) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REPS = Number(process.env.BENCH_REPS ?? 1000);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'start,demo,memory').split(','));
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const range = (values: number[]): string => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
if (!existsSync(BIN)) throw new Error('no dist/src/cli/bin.js: run npm run build first');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, DATABASE_URL: '', TURNKIT_SCRUB_KEY: 'bench-embedded: not a secret key at all' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

async function turnkit(bin: string, args: string[], cwd: string): Promise<Ran> {
  const result = await run(process.execPath, [bin, ...args], cwd);
  if (result.code !== 0)
    throw new Error(`turnkit ${args.join(' ')} failed (${result.code}): ${result.stderr.trim().split('\n').at(-1)}`);
  return result;
}

const work = await mkdtemp(join(tmpdir(), 'turnkit-bench-embedded-'));
try {
  if (PARTS.has('start')) await startToReady();
  if (PARTS.has('demo')) await demoWall();
  if (PARTS.has('memory')) await memoryAfterReps();
} finally {
  await rm(work, { recursive: true, force: true });
}

async function startToReady(): Promise<void> {
  const fresh: number[] = [];
  const again: number[] = [];
  const node: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const project = join(work, `start-${round}`);
    await cp(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
    node.push((await run(process.execPath, ['-e', '0'], project)).ms);
    fresh.push((await turnkit(BIN, ['db', 'start'], project)).ms);
    await turnkit(BIN, ['db', 'stop'], project);
    again.push((await turnkit(BIN, ['db', 'start'], project)).ms);
    await turnkit(BIN, ['db', 'stop'], project);
  }
  console.log(`db start to ready, medians of ${ROUNDS} (node -e 0: ${median(node).toFixed(0)} ms):`);
  console.log(
    `  a stopped server:        ${(median(again) / 1000).toFixed(2)} s (${range(again.map((ms) => ms / 1000))} s), ${(median(again) / median(node)).toFixed(1)}x node -e 0; goal under 1.5 s`,
  );
  console.log(
    `  a new project (initdb):  ${(median(fresh) / 1000).toFixed(2)} s (${range(fresh.map((ms) => ms / 1000))} s), ${(median(fresh) / median(node)).toFixed(1)}x node -e 0`,
  );
}

async function demoWall(): Promise<void> {
  const mine: number[] = [];
  const base: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order: ('mine' | 'base')[] = round % 2 === 0 ? ['mine', 'base'] : ['base', 'mine'];
    const seen: Record<string, number> = {};
    for (const which of order) {
      if (which === 'base' && !BASE_BIN) continue;
      const cwd = join(work, `demo-${which}-${round}`);
      await cp(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
      await symlink(join(ROOT, 'node_modules'), join(cwd, 'node_modules'), 'dir');
      seen[which] = (await turnkit(which === 'mine' ? BIN : BASE_BIN!, ['demo', '--dir', 'd'], cwd)).ms;
    }
    mine.push(seen.mine!);
    if (seen.base !== undefined) {
      base.push(seen.base);
      ratios.push(seen.mine! / seen.base);
    }
  }
  console.log(`turnkit demo, wall time, ${ROUNDS} rounds: ${(median(mine) / 1000).toFixed(1)} s`);
  if (BASE_BIN)
    console.log(
      `  against ${BASE_BIN}: ${(median(base) / 1000).toFixed(1)} s; this / base ${median(ratios).toFixed(2)}x (${range(ratios)}); goal 0.6x or less`,
    );
}

async function memoryAfterReps(): Promise<void> {
  const project = join(work, 'memory');
  await cp(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  await turnkit(BIN, ['db', 'start'], project);
  try {
    const key = (await turnkit(BIN, ['sample', '--turns', '40'], project)).stdout.trim();
    await turnkit(BIN, ['capture', '--campaign', key, '--turn', '23', '--name', 'probe'], project);
    const question = (await readFile(join(ROOT, 'questions/places.yaml'), 'utf8'))
      .replace(/^fixtures:[\s\S]*?(?=^\w)/m, 'fixtures:\n  - fixtures/probe.json\n')
      .replace(/^reps: .*$/m, 'reps: 200');
    await cp(join(ROOT, 'questions'), join(project, 'questions'), { recursive: true });
    await writeFile(join(project, 'questions/memory.yaml'), question);
    const before = await serverMemory(project);
    let reps = 0;
    while (reps < REPS) {
      const ran = await turnkit(BIN, ['run', 'questions/memory.yaml', '--concurrency', '8', '--json'], project);
      reps += (JSON.parse(ran.stdout) as { ran: number }).ran;
    }
    const after = await serverMemory(project);
    console.log(`embedded server's memory, all ${after.processes} of its processes (postmaster, backends, workers):`);
    console.log(`  at start:        RSS ${mb(before.rss)} MB summed, PSS ${mb(before.pss)} MB`);
    console.log(
      `  after ${reps} reps: RSS ${mb(after.rss)} MB summed, PSS ${mb(after.pss)} MB; goal under 250 MB (${(after.pss / (250 * 1024 * 1024)).toFixed(2)}x of it by PSS, ${(after.rss / (250 * 1024 * 1024)).toFixed(2)}x by RSS)`,
    );
  } finally {
    await turnkit(BIN, ['db', 'stop', '--force'], project).catch(() => {});
  }
}

/** RSS and PSS (bytes) of the server's postmaster and every process whose parent it is. */
async function serverMemory(project: string): Promise<{ rss: number; pss: number; processes: number }> {
  const status = JSON.parse((await turnkit(BIN, ['db', 'status', '--json'], project)).stdout) as { pid: number };
  const pids = [status.pid];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === status.pid) pids.push(Number(name));
  }
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    rss += kb(rollup, 'Rss') * 1024;
    pss += kb(rollup, 'Pss') * 1024;
  }
  return { rss, pss, processes: pids.length };
}

function kb(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}
