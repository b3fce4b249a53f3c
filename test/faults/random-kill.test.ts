import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { mulberry32 } from '../../src/util/seeded-random.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { runQuestion } from '../../src/app/run-question.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

// Replay a failure with TURNKIT_FAULT_SEED=<the seed in its message>.
const SEED = Number(process.env.TURNKIT_FAULT_SEED ?? Date.now() % 2 ** 31);
const REPS = 6;

// Its SUTs are shell scripts that read and write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(psql.found ? BACKENDS : [])(`turnkit run killed at a random moment (seed ${SEED}), on %s`, (backend) => {
  let p: FaultProject;
  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('leaves the database as it was once gc has run, and the run resumes to every rep', async () => {
    const random = mulberry32(SEED + (backend === 'postgres' ? 1 : 0));
    const say = (what: string): string => `seed ${SEED} (TURNKIT_FAULT_SEED=${SEED} to replay): ${what}`;
    const question = await p.question(
      'killed',
      '#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -qc "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, \'x\', \'y\', now(), 0)"\necho ok\n',
      { reps: REPS },
    );
    const before = await tableChecksums(p.t.db);
    for (let round = 0; round < 3; round++) {
      // The moment: after a random number of finished reps, then a random delay; the signal: one of three.
      const after = Math.floor(random() * REPS);
      const delay = Math.floor(random() * 300);
      const signal = (['SIGKILL', 'SIGTERM', 'SIGINT'] as const)[Math.floor(random() * 3)]!;
      const args = [
        BIN,
        'run',
        question,
        '--concurrency',
        '2',
        ...(p.t.databaseUrl ? ['--database-url', p.t.databaseUrl] : []),
      ];
      const child = spawn(process.execPath, args, {
        cwd: p.t.dir,
        env: { ...process.env, DATABASE_URL: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
      let done = 0;
      child.stderr.on('data', (chunk: Buffer) => (done += (String(chunk).match(/^\[\d+\/\d+\]/gm) ?? []).length));
      while (done < after && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill(signal);
      if (signal === 'SIGINT') setTimeout(() => child.kill('SIGINT'), 100);
      await exited;

      // gc removes what a killed run left; the database is as it was.
      await collectGarbage(p.t.db);
      expect(
        await registryCounts(p.t.db),
        say(`round ${round}: ${signal} after ${after} rep(s) + ${delay} ms`),
      ).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db), say(`round ${round}: ${signal}`)).toEqual(before);
    }
    // Every run directory that got a manifest resumes to the same reps, all of them.
    const runs = join(p.t.dir, 'runs', 'killed');
    for (const name of existsSync(runs) ? await readdir(runs) : []) {
      if (!existsSync(join(runs, name, 'manifest.json'))) continue;
      const resumed = await runQuestion({
        question,
        cwd: p.t.dir,
        databaseUrl: p.t.databaseUrl,
        resume: join('runs', 'killed', name),
      });
      expect(resumed, say(`resuming ${name}`)).toMatchObject({ status: 'complete', pending: 0, errors: 0 });
      const marks = parseMarks(await readFile(join(runs, name, 'marks.csv'), 'utf8'));
      expect(
        marks.map((row) => row.rep),
        say(name),
      ).toEqual([1, 2, 3, 4, 5, 6]);
    }
    expect(await tableChecksums(p.t.db), say('after the resumes')).toEqual(before);
  });
});
