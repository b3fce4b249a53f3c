import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { runQuestion } from '../../src/app/run-question.js';

/** A started turnkit binary: its pid, its output so far, and its exit. */
function start(args: string[], cwd: string, databaseUrl: string | undefined) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (out.stdout += chunk));
  child.stderr.on('data', (chunk) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { pid: child.pid!, out, exited, child };
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

// Each SUT call appends the pid of the turnkit process that made it (the script's parent): the calls are counted.
const TURNKIT_PID = '$PPID';
const CALLS = 'calls';
const failing = `#!/bin/sh\ncat > /dev/null\necho ${TURNKIT_PID} >> ${CALLS}\nexit 1\n`;
// Waits for the test's go-ahead, so that the first resume is surely still running when the second starts.
const waiting = `#!/bin/sh\ncat > /dev/null\necho ${TURNKIT_PID} >> ${CALLS}\nwhile [ ! -f go ]; do sleep 0.05; done\necho fine\n`;

async function calls(dir: string): Promise<number[]> {
  return (await readFile(join(dir, CALLS), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
}

describe.each(BACKENDS)('a run directory is held while a run writes it (%s)', (backend) => {
  let p: FaultProject;
  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('two `run --resume` at once: one runs, the other is refused naming the holder; the SUT runs once per rep', async () => {
    const question = await p.question('twice', failing, { reps: 3 });
    const first = await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl, concurrency: 1 });
    expect(first).toMatchObject({ total: 3, errors: 3 });
    const runDir = `runs/twice/${(await readdir(join(p.t.dir, 'runs/twice')))[0]}`;
    await writeFile(join(p.t.dir, CALLS), '');
    await p.question('twice', waiting, { reps: 3 });
    const args = ['run', question, '--resume', runDir, '--concurrency', '1'];
    const a = start(args, p.t.dir, p.t.databaseUrl);
    while ((await calls(p.t.dir)).length === 0 && a.child.exitCode === null) await pause();
    expect(await calls(p.t.dir), a.out.stderr).toEqual([a.pid]);
    const b = start(args, p.t.dir, p.t.databaseUrl);
    // Either the second is refused, or (without the lock) it calls the SUT too: neither waits on the other.
    while (b.child.exitCode === null && !(await calls(p.t.dir)).includes(b.pid)) await pause();
    await writeFile(join(p.t.dir, 'go'), '');
    const [codeA, codeB] = await Promise.all([a.exited, b.exited]);
    expect(codeB, b.out.stderr).toBe(1);
    const since = /since ([^)]+)\)/.exec(b.out.stderr)?.[1];
    expect(b.out.stderr).toBe(
      `${runDir}: turnkit run --resume is writing this run (pid ${a.pid} on ${hostname()}, since ${since}); wait for it to finish, or remove ${runDir}/run.lock if it is gone\n`,
    );
    expect(codeA, a.out.stderr).toBe(0);
    expect(a.out.stdout).toContain(`${runDir}: complete, 3 rep(s) run, 0 error(s)`);
    expect(await calls(p.t.dir)).toEqual([a.pid, a.pid, a.pid]);
    // order.jsonl holds one begun entry per rep of each attempt, none twice.
    const order = (await readFile(join(p.t.dir, runDir, 'order.jsonl'), 'utf8')).trim().split('\n');
    expect(order.length).toBe(new Set(order).size);
    expect(existsSync(join(p.t.dir, runDir, 'run.lock'))).toBe(false);
  });

  it("a lock left by a killed run's process is taken over by the resume", async () => {
    const question = await p.question('stale', failing, { reps: 1 });
    await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl });
    const runDir = `runs/stale/${(await readdir(join(p.t.dir, 'runs/stale')))[0]}`;
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('close', resolve));
    await writeFile(
      join(p.t.dir, runDir, 'run.lock'),
      `${JSON.stringify({ pid: gone.pid, host: hostname(), tool: 'turnkit run', since: '2026-01-01T00:00:00.000Z' })}\n`,
    );
    await p.question('stale', '#!/bin/sh\ncat > /dev/null\necho fine\n', { reps: 1 });
    const resumed = await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl, resume: runDir });
    expect(resumed).toMatchObject({ total: 1, errors: 0 });
    expect(existsSync(join(p.t.dir, runDir, 'run.lock'))).toBe(false);
  });
});
