import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandWords, runBounded } from '../../src/util/process/bounded-process.js';
import { commandPlayer } from '../../src/rollout/simulated-player.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-bounded-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Running: it exists and is not a zombie (a killed orphan waits for a reaper that a container's init may not be).
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
};

// Waits (bounded) for a process to be gone: a killed process is reaped by the system, not at once.
async function goneSoon(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 50 && alive(pid); tries++) await sleep(100);
  return !alive(pid);
}

// A player that starts a grandchild (in its own process group), writes the grandchild's pid, then answers or hangs.
async function playerScript(name: string, answer: boolean): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('node:fs').writeFileSync(${JSON.stringify(`${path}.pid`)}, String(child.pid));
${answer ? "process.stdout.write('I open the hatch.'); process.exit(0);" : 'setInterval(() => {}, 1000);'}
`,
  );
  return path;
}

const where = { projectDir: '/', env: { PATH: process.env.PATH }, fixture: { name: 'f' }, rep: 1 };

describe('the bounded child-process runner', () => {
  it('splits a command string into words as a shell would, quotes keeping spaces, without expanding anything', () => {
    expect(commandWords('node "my player.js" --name \'A B\' plain\\ word $HOME')).toEqual([
      'node',
      'my player.js',
      '--name',
      'A B',
      'plain word',
      '$HOME',
    ]);
    expect(commandWords(['node', 'a b'])).toEqual(['node', 'a b']);
    expect(commandWords('node  x  ')).toEqual(['node', 'x']);
  });

  it('gives the command player an argument with a space as one argument, in both forms', async () => {
    const script = join(dir, 'echo-arg.js');
    await writeFile(script, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));');
    const asArray = commandPlayer(
      { type: 'command', command: [process.execPath, script, 'a b', 'c'], timeout: 10 },
      ['player_input'],
      where,
    );
    expect(await asArray.next(2, 1, [])).toMatchObject({ values: { player_input: '["a b","c"]' } });
    const asString = commandPlayer(
      { type: 'command', command: `${process.execPath} ${script} "a b" c`, timeout: 10 },
      ['player_input'],
      where,
    );
    expect(await asString.next(2, 1, [])).toMatchObject({ values: { player_input: '["a b","c"]' } });
  });

  it('kills the command player with the grandchild it started when it times out', async () => {
    const script = await playerScript('hang.js', false);
    const player = commandPlayer(
      { type: 'command', command: [process.execPath, script], timeout: 1 },
      ['player_input'],
      where,
    );
    const move = await player.next(2, 1, []);
    expect(move).toMatchObject({
      error: { cause: 'player', message: expect.stringMatching(/gave no input within 1 s/) },
    });
    const grandchild = Number(await readFile(`${script}.pid`, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await goneSoon(grandchild)).toBe(true);
  });

  it('kills what a command player left running once it has answered', async () => {
    const script = await playerScript('answer.js', true);
    const player = commandPlayer(
      { type: 'command', command: [process.execPath, script], timeout: 10 },
      ['player_input'],
      where,
    );
    expect(await player.next(2, 1, [])).toMatchObject({ values: { player_input: 'I open the hatch.' } });
    expect(await goneSoon(Number(await readFile(`${script}.pid`, 'utf8')))).toBe(true);
  });

  it('ends a grandchild that left the process group with setsid once the run has answered', async () => {
    const path = join(dir, 'setsid.js');
    // detached: true makes the grandchild call setsid(): a session and a process group of its own.
    await writeFile(
      path,
      `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });
child.unref();
require('node:fs').writeFileSync(${JSON.stringify(`${path}.pid`)}, String(child.pid));
process.stdout.write('done');
`,
    );
    const result = await runBounded({
      argv: [process.execPath, path],
      cwd: dir,
      env: { PATH: process.env.PATH },
      stdin: '',
      timeoutMs: 10_000,
      maxStdout: 1_000,
      stdoutOverflow: 'stop',
      maxStderr: 1_000,
      killGraceMs: 0,
    });
    expect(result).toMatchObject({ stdout: 'done', code: 0 });
    const grandchild = Number(await readFile(`${path}.pid`, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await goneSoon(grandchild)).toBe(true);
  });

  it('bounds stdout: stop is an error, cut keeps the first bytes; stderr keeps its end', async () => {
    const noisy = [
      process.execPath,
      '-e',
      "process.stdout.write('x'.repeat(5000)); process.stderr.write('a'.repeat(50) + 'END')",
    ];
    const base = {
      cwd: dir,
      env: { PATH: process.env.PATH },
      stdin: '',
      timeoutMs: 10_000,
      maxStderr: 10,
      killGraceMs: 0,
    };
    const cut = await runBounded({ ...base, argv: noisy, maxStdout: 100, stdoutOverflow: 'cut' });
    expect(cut).toMatchObject({ code: 0, stdout: 'x'.repeat(100), stderr: 'aaaaaaaEND' });
    expect(cut.stopped).toBeUndefined();
    const stopped = await runBounded({ ...base, argv: noisy, maxStdout: 100, stdoutOverflow: 'stop' });
    expect(stopped.stopped).toBe('output-too-large');
    const missing = await runBounded({
      ...base,
      argv: ['no-such-program-turnkit'],
      maxStdout: 100,
      stdoutOverflow: 'stop',
    });
    expect(missing.spawnError?.code).toBe('ENOENT');
  });

  it('kills the run at once when its signal aborts', async () => {
    const stop = new AbortController();
    const running = runBounded({
      argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'],
      cwd: dir,
      env: { PATH: process.env.PATH },
      stdin: '',
      timeoutMs: 60_000,
      maxStdout: 100,
      stdoutOverflow: 'stop',
      maxStderr: 100,
      killGraceMs: 2_000,
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 200);
    expect(await running).toMatchObject({ stopped: 'aborted', signal: 'SIGKILL' });
  });
});
