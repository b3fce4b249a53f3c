import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import type { Manifest } from '../../src/run-dir/manifest.js';

/** Whether a pid runs (a zombie waiting to be reaped does not). */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

// Signals reach only a process: the built binary, on the embedded database (a guest of this test's server).
describe('a double Ctrl-C during turnkit run', () => {
  let p: FaultProject;
  beforeAll(async () => {
    p = await faultProject('embedded');
  });
  afterAll(async () => p?.t.cleanup());

  it('kills every SUT process, leaves the manifest interrupted and the database as it was; --resume completes the run', async () => {
    // Each SUT and the child it starts write their pids, then wait a minute.
    const question = await p.question(
      'slow',
      '#!/bin/sh\ncat > /dev/null\necho $$ >> pids\nsleep 60 &\necho $! >> pids\nwait\necho late\n',
      { reps: 2 },
    );
    const before = await tableChecksums(p.t.db);
    const child = spawn(process.execPath, [BIN, 'run', question, '--concurrency', '2'], {
      cwd: p.t.dir,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let pids: number[] = [];
    while (pids.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pids = (await readFile(join(p.t.dir, 'pids'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
    }
    // One SUT with its child at least: the first rep's (the second may be seeding still, or running too).
    child.kill('SIGINT');
    // The second Ctrl-C only once the first was heard: two signals sent before the process runs again are one.
    while (!stderr.includes('stopping: no new reps') && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    pids = (await readFile(join(p.t.dir, 'pids'), 'utf8')).split('\n').filter(Boolean).map(Number);
    const alive: number[] = [];
    for (const pid of pids) if (await running(pid)) alive.push(pid);
    for (const pid of alive) process.kill(pid, 'SIGKILL');
    expect(alive, `still running: ${alive.join(', ')}`).toEqual([]);
    expect(stdout).not.toContain('late');

    const runs = `runs/slow/${(await readdir(join(p.t.dir, 'runs/slow')))[0]}`;
    const manifest = JSON.parse(await readFile(join(p.t.dir, runs, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.status).toBe('interrupted');
    // The killed SUTs' campaigns were torn down before the exit.
    expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    expect(await tableChecksums(p.t.db)).toEqual(before);

    // The reps cut short are not run (not errors): --resume runs them, with a SUT that answers now.
    await p.question('slow', '#!/bin/sh\ncat > /dev/null\necho fine\n', { reps: 2 });
    const resumed = await runCli(['run', question, '--resume', runs], { cwd: p.t.dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${runs}: complete, 2 rep(s) run, 0 error(s)`);
    expect(await tableChecksums(p.t.db)).toEqual(before);
  });
});
