import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BoundedResult, type BoundedRun, runBounded } from '../../src/util/bounded-process.js';
import { openSpawnHelper, type SpawnHelper } from '../../src/util/spawn-helper.js';

let dir: string;
let helper: SpawnHelper;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-spawn-helper-'));
  helper = openSpawnHelper();
});
afterAll(async () => {
  await helper.close();
  await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function goneSoon(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 50 && alive(pid); tries++) await sleep(100);
  return !alive(pid);
}

const base = {
  cwd: '/',
  env: { PATH: process.env.PATH, TURNKIT_X: 'from the env' },
  stdin: 'the request: ünïcödé\n',
  timeoutMs: 10_000,
  maxStdout: 10_000,
  stdoutOverflow: 'stop' as const,
  maxStderr: 20,
  killGraceMs: 0,
};
const node = (code: string): string[] => [process.execPath, '-e', code];

// What a run shows of itself, comparable between two spawners (an error's stack and message differ by who spawned).
const seen = (result: BoundedResult) => ({ ...result, spawnError: result.spawnError?.code });

describe('the spawn helper', () => {
  // Each case runs once from this process and once through the helper: the results must be the same.
  const cases: [string, Partial<BoundedRun>][] = [
    [
      'stdin, env, cwd and a multibyte character split across chunks',
      {
        argv: node(
          "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(s+process.env.TURNKIT_X+process.cwd());const b=Buffer.from('é');process.stdout.write(b.subarray(0,1));setTimeout(()=>process.stdout.write(b.subarray(1)),50)})",
        ),
      },
    ],
    [
      'an exit code and the end of stderr',
      { argv: node("process.stderr.write('x'.repeat(30)+'END');process.exit(3)") },
    ],
    ['a signal', { argv: node("process.kill(process.pid,'SIGTERM')") }],
    [
      'stdout cut at its bound',
      { argv: node("process.stdout.write('y'.repeat(50000))"), maxStdout: 1000, stdoutOverflow: 'cut' },
    ],
    // Writing until it is stopped: a program that ended by itself first would race the kill, from here as from there.
    [
      'stdout past its bound stopped',
      { argv: node("setInterval(()=>process.stdout.write('y'.repeat(5000)),1)"), maxStdout: 1000 },
    ],
    ['a program that does not exist', { argv: ['no-such-program-turnkit'] }],
    ['a timeout', { argv: node('setInterval(()=>{},1000)'), timeoutMs: 300 }],
    ['an abort before it starts', { argv: node('setInterval(()=>{},1000)'), signal: AbortSignal.abort() }],
  ];
  for (const [name, run] of cases)
    it(`gives the result of a spawn from this process: ${name}`, async () => {
      const here = await runBounded({ ...base, ...run } as BoundedRun);
      const there = await runBounded({ ...base, ...run, spawner: helper.spawner } as BoundedRun);
      expect(seen(there)).toEqual(seen(here));
      // Not a vacuous comparison: each case shows what it is about.
      expect(JSON.stringify(seen(here))).not.toBe(
        JSON.stringify(seen({ stdout: '', stderr: '', code: 0, signal: null })),
      );
    });

  it('runs many programs at once, each answer its own', async () => {
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runBounded({
          ...base,
          argv: node(`setTimeout(()=>process.stdout.write('answer ${i}'),${(12 - i) * 10})`),
          spawner: helper.spawner,
        }),
      ),
    );
    expect(runs.map((run) => run.stdout)).toEqual(Array.from({ length: 12 }, (_, i) => `answer ${i}`));
  });

  it('kills a program and the grandchild it started when its run times out', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const result = await runBounded({
      ...base,
      argv: node(
        `const c=require('node:child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('node:fs').writeFileSync(${JSON.stringify(pidFile)},String(c.pid));setInterval(()=>{},1000)`,
      ),
      timeoutMs: 1_000,
      spawner: helper.spawner,
    });
    expect(result.stopped).toBe('timeout');
    expect(await goneSoon(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('ends a run whose helper died, kills its program, and starts a new helper for the next', async () => {
    const own = openSpawnHelper();
    try {
      const pidFile = join(dir, 'orphan.pid');
      const running = runBounded({
        ...base,
        argv: node(
          `require('node:fs').writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setInterval(()=>{},1000)`,
        ),
        timeoutMs: 60_000,
        spawner: own.spawner,
      });
      let program = 0;
      for (let tries = 0; tries < 100 && !program; tries++) {
        await sleep(50);
        program = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
      }
      const first = own.pid!;
      process.kill(first, 'SIGKILL');
      const result = await running;
      expect(result.spawnError?.message).toBe('the spawn helper stopped');
      expect(await goneSoon(program)).toBe(true);
      const next = await runBounded({ ...base, argv: node("process.stdout.write('again')"), spawner: own.spawner });
      expect(next.stdout).toBe('again');
      expect(own.pid).not.toBe(first);
    } finally {
      await own.close();
    }
  });

  it('kills what it started when it is closed', async () => {
    const own = openSpawnHelper();
    const pidFile = join(dir, 'closed.pid');
    const running = runBounded({
      ...base,
      argv: node(
        `require('node:fs').writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setInterval(()=>{},1000)`,
      ),
      timeoutMs: 60_000,
      spawner: own.spawner,
    });
    let program = 0;
    for (let tries = 0; tries < 100 && !program; tries++) {
      await sleep(50);
      program = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
    }
    const helperPid = own.pid!;
    await own.close();
    expect(alive(helperPid)).toBe(false);
    expect(await goneSoon(program)).toBe(true);
    // Its run ends now, not at its timeout a minute later.
    expect((await running).spawnError?.message).toBe('the spawn helper stopped');
  });
});
