import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, type CliResult } from '../helpers/cli.js';
import { sampleProject } from '../helpers/sample-project.js';
import { registryCounts } from '../helpers/table-checksums.js';
import { loadConfig } from '../../src/config/load.js';
import { openDb } from '../../src/db/connect.js';
import { readLock } from '../../src/db/server-lock.js';
import { parseMarks } from '../../src/run-dir/read-marks.js';

// Two `turnkit run` processes on one embedded data directory (issue 12, item 3): the first owns the PGlite server,
// the second joins it as a guest. The SUTs are the sample SUT behind a shell line that orders the two runs without
// any timing: the owner's SUT waits until a guest's SUT has started, and the guest's then sleeps 5 s before it
// connects, so the owner finishes while the guest's reps are in flight.
describe('two turnkit processes on one embedded database', () => {
  let project: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    project = await sampleProject('turnkit-guest-');
    const flag = join(project, 'guest-started');
    const question = async (name: string, shell: string): Promise<void> => {
      const text = (await readFile(join(project, 'questions/places.yaml'), 'utf8')).replace(
        /^id: places$/m,
        `id: ${name}`,
      );
      await writeFile(
        join(project, `questions/${name}.yaml`),
        text.replace('command: [node, examples/sample-sut.mjs]', `command: [sh, -c, '${shell}']`),
      );
    };
    await question('owner', `while [ ! -e ${flag} ]; do sleep 0.1; done; exec node examples/sample-sut.mjs`);
    await question('guest', `touch ${flag}; sleep 5; exec node examples/sample-sut.mjs`);
  });
  afterEach(async () => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(project, { recursive: true, force: true });
  });

  function start(args: string[]): { child: ChildProcess; done: Promise<CliResult> } {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: project,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const done = new Promise<CliResult>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    return { child, done };
  }

  // The owner has the lock and its server listens: a second process started now is its guest.
  async function ownerListening(): Promise<void> {
    const lock = join(project, '.turnkit/pgdata.lock');
    for (let waited = 0; waited < 120_000; waited += 100) {
      // readLock, as a guest reads it: a lock the owner is still writing reads as none yet, not as an error.
      if ((await readLock(lock))?.port) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the first run never published its port');
  }

  async function leftOver(): Promise<Record<string, number>> {
    const db = await openDb(await loadConfig({ cwd: project }), { leaveSignals: true });
    try {
      return await registryCounts(db);
    } finally {
      await db.close();
    }
  }

  it('keeps the server up until the guest is done: both runs complete with no error and nothing left behind', async () => {
    const owner = start(['run', 'questions/owner.yaml', '--reps', '1', '--json']);
    await ownerListening();
    const guest = start(['run', 'questions/guest.yaml', '--reps', '2', '--json']);
    const [first, second] = await Promise.all([owner.done, guest.done]);
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'complete', total: 4, ran: 4, errors: 0, failures: [] });
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'complete', total: 2, errors: 0 });
    // The owner said why it stayed.
    expect(first.stderr).toMatch(/warning: the embedded database stays up until \d+ other connection\(s\) to it close/);
    expect(existsSync(join(project, '.turnkit/pgdata.lock'))).toBe(false);
    expect(await leftOver()).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('fails the guest run (exit 1, a database error) when the owner is killed under it, and records no SUT error', async () => {
    const owner = start(['run', 'questions/owner.yaml', '--reps', '1']);
    await ownerListening();
    const guest = start(['run', 'questions/guest.yaml', '--reps', '2', '--json']);
    const flag = join(project, 'guest-started');
    for (let waited = 0; !existsSync(flag) && waited < 120_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    owner.child.kill('SIGKILL');
    await owner.done;
    const second = await guest.done;
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^reps\/meridian-turn-23[\w-]*\/rep-0\d: the database went away during the rep \(connect ECONNREFUSED [\d.:]+\); the rep is not recorded/m,
    );
    const result = JSON.parse(second.stdout) as { dir: string; status: string; errors: number };
    expect(result).toMatchObject({ status: 'interrupted', errors: 0 });
    // Every rep in flight lost its database: none is marked as the SUT's error, all are still to run (--resume).
    const marks = parseMarks(await readFile(join(project, result.dir, 'marks.csv'), 'utf8'));
    expect(marks.filter((row) => row.mark === 'error')).toEqual([]);
    expect(marks.filter((row) => row.note.startsWith('not run yet')).length).toBeGreaterThan(0);
  });
});
