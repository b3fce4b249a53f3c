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

// Two `turnkit run` processes on one embedded server (issue 12, item 3): the first starts the server, the second
// joins it. The SUTs are the sample SUT behind a shell line that orders the two runs without
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

  // The first run's server is up (its postmaster.pid names a live process): a second run started now joins it.
  async function ownerListening(): Promise<void> {
    const pidFile = join(project, '.turnkit/postgres/data/postmaster.pid');
    for (let waited = 0; waited < 120_000; waited += 100) {
      if (existsSync(pidFile) && /\bready\b/.test(await readFile(pidFile, 'utf8').catch(() => ''))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the first run never started the server');
  }

  async function leftOver(): Promise<Record<string, number>> {
    const db = await openDb(await loadConfig({ cwd: project }));
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
    expect(await leftOver()).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    // The last one out stopped the server it did not start (leftOver's own open started it again and stopped it).
    expect(existsSync(join(project, '.turnkit/postgres/data/postmaster.pid'))).toBe(false);
  });

  it('keeps the server when the run that started it is killed: the other run completes and stops it', async () => {
    const owner = start(['run', 'questions/owner.yaml', '--reps', '1']);
    await ownerListening();
    const guest = start(['run', 'questions/guest.yaml', '--reps', '2', '--json']);
    const flag = join(project, 'guest-started');
    for (let waited = 0; !existsSync(flag) && waited < 120_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    owner.child.kill('SIGKILL');
    await owner.done;
    const second = await guest.done;
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'complete', total: 4, ran: 4, errors: 0 });
    // The killed run's registration (a dead pid) does not keep the server up.
    expect(existsSync(join(project, '.turnkit/postgres/data/postmaster.pid'))).toBe(false);
  });
});
