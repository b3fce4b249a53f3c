import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireMarksLock, lockFileOf } from '../../src/marking/marks-lock.js';

describe('the lock on a marks file', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-marks-lock-'));
    file = join(dir, 'marks.csv');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is held by one holder at a time and let go on release', async () => {
    const lock = await acquireMarksLock(file, 'turnkit view');
    expect(JSON.parse(await readFile(lockFileOf(file), 'utf8'))).toMatchObject({
      pid: process.pid,
      tool: 'turnkit view',
    });
    await expect(acquireMarksLock(file, 'turnkit mark')).rejects.toThrow(
      /marks\.csv: being marked by turnkit view \(pid \d+/,
    );
    await lock.release();
    expect(existsSync(lockFileOf(file))).toBe(false);
    await (await acquireMarksLock(file, 'turnkit mark')).release();
  });

  it('is taken over from a process of this host that is gone, and from a torn lock file', async () => {
    // A pid that has just exited is not running any more.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    await writeFile(lockFileOf(file), JSON.stringify({ pid: Number(gone), tool: 'turnkit mark', since: 'then' }));
    const lock = await acquireMarksLock(file, 'turnkit view');
    expect(JSON.parse(await readFile(lockFileOf(file), 'utf8')).pid).toBe(process.pid);
    await lock.release();
    await writeFile(lockFileOf(file), '{"pid": 12');
    // Just made, it may be a holder still writing its line: refused. Older, it is a crash's leftover: taken over.
    await expect(acquireMarksLock(file, 'turnkit view')).rejects.toThrow();
    const then = new Date(Date.now() - 60_000);
    await utimes(lockFileOf(file), then, then);
    await (await acquireMarksLock(file, 'turnkit view')).release();
  });

  it("is taken over after a kill -9 when the holder's pid now names another process (its start time differs)", async () => {
    // pid 1 runs, but it is not the holder that wrote this lock: its start time is not the one recorded.
    await writeFile(
      lockFileOf(file),
      JSON.stringify({ pid: 1, host: hostname(), tool: 'turnkit view', since: 'then', startTicks: '999999999999' }),
    );
    const lock = await acquireMarksLock(file, 'turnkit view');
    const written = JSON.parse(await readFile(lockFileOf(file), 'utf8'));
    expect(written.pid).toBe(process.pid);
    expect(typeof written.startTicks).toBe('string');
    // The same pid with its own start time is the holder: refused.
    await expect(acquireMarksLock(file, 'turnkit mark')).rejects.toThrow(/being marked by turnkit view/);
    await lock.release();
  });

  it('is never taken from another host (its process cannot be checked from here), nor removed by a holder it was taken from', async () => {
    await writeFile(
      lockFileOf(file),
      JSON.stringify({ pid: 1, host: 'elsewhere.example', tool: 'turnkit view', since: 'then' }),
    );
    await expect(acquireMarksLock(file, 'turnkit mark')).rejects.toThrow(
      'being marked by turnkit view (pid 1 on elsewhere.example, since then)',
    );
    await rm(lockFileOf(file));
    const mine = await acquireMarksLock(file, 'turnkit view');
    await writeFile(lockFileOf(file), JSON.stringify({ pid: 1, tool: 'turnkit mark', since: 'later' }));
    await mine.release();
    expect(JSON.parse(await readFile(lockFileOf(file), 'utf8')).since).toBe('later');
    await rm(lockFileOf(file));
  });
});
