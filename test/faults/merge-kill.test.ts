import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { runQuestion } from '../../src/app/run-question.js';
import { merge } from '../../src/shard/merge-runs.js';
import { buildReport } from '../../src/report/build-report.js';
import { commandContext } from '../../src/app/command-context.js';
import { gc as collect } from '../../src/scratch/scratch-operations.js';

// Merging is file work only: the shards are made once on the embedded database.
describe('a merge killed part-way', () => {
  let p: FaultProject;
  let shards: string[];

  beforeAll(async () => {
    p = await faultProject('embedded');
    const question = await p.question('merged', '#!/bin/sh\ncat > /dev/null\necho ok\n', { reps: 3 });
    shards = [];
    for (const index of [1, 2, 3]) {
      const result = await runQuestion({ question, cwd: p.t.dir, shard: { index, count: 3 } });
      expect(result).toMatchObject({ status: 'complete', errors: 0 });
      shards.push(result.dir);
      // Files a merge copies but never reads: enough of them that the merge takes a while, and can be caught mid-way.
      const pad = join(result.dir, 'reps', 'base');
      await mkdir(pad, { recursive: true });
      await Promise.all(
        Array.from({ length: 1500 }, (_, i) => writeFile(join(pad, `pad-${index}-${i}.txt`), 'x'.repeat(2048))),
      );
    }
  });
  afterAll(async () => p?.t.cleanup());

  it('leaves no directory behind when killed (SIGINT or SIGKILL) while it writes; the next merge succeeds and clears the leftover', async () => {
    const out = join(dirname(shards[0]!), 'out');
    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      const child = spawn(process.execPath, [BIN, 'merge', ...shards, '--out', out], {
        cwd: p.t.dir,
        stdio: 'ignore',
        env: { ...process.env, DATABASE_URL: '' },
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      // Killed as soon as anything of the merge shows in the folder: the moment the old code had a half-written run.
      let seen = false;
      while (!seen) {
        const names = await readdir(dirname(out));
        seen = names.some((name) => name === 'out' || name.startsWith('.out.'));
        if (!seen) await new Promise((resolve) => setImmediate(resolve));
      }
      child.kill(signal);
      await exited;
      expect(existsSync(out), `after ${signal}`).toBe(false);
      const leftovers = (await readdir(dirname(out))).filter((name) => name.startsWith('.out.'));
      expect(leftovers).toHaveLength(1);
      // The first leftover goes with gc; the second with the next merge into the folder.
      if (signal === 'SIGINT') {
        const gc = await collect(await commandContext({ cwd: p.t.dir }));
        expect(gc.temps).toEqual([join(dirname(out), leftovers[0]!)]);
      }
    }

    const result = await merge({ cwd: p.t.dir, paths: { baseDir: p.t.dir } }, { dirs: shards, out });
    expect(result).toMatchObject({ dir: out, shards: 3, reps: 3 });
    expect((await readdir(dirname(out))).filter((name) => name.startsWith('.out.'))).toEqual([]);
    const report = await buildReport(out);
    expect(report.fixtures.map((fixture) => [fixture.fixture, fixture.reps])).toEqual([['base', 3]]);
    expect(basename(result.dir)).toBe('out');
  });
});
