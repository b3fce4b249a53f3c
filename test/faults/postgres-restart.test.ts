import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { adminQuery } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { systemProgram } from '../helpers/system-programs.js';
import { mulberry32 } from '../../src/util/seeded-random.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { Manifest } from '../../src/run-dir/manifest.js';

// A restart cuts every connection of the server, other agents' and CI's too: never the shared one at 5432, a cluster
// of this file's own. It needs PostgreSQL's server binaries, not TEST_DATABASE_URL; .ci/run makes them required.
const missing = privatePostgresMissing();
const server = systemProgram('postgres-server', missing === undefined, missing);
// Its SUT writes a turn with psql.
const psql = systemProgram('psql');
const here = server.found && psql.found;
const required = server.required || psql.required;

// Replay a failure with TURNKIT_FAULT_SEED=<the seed in its message>.
const SEED = Number(process.env.TURNKIT_FAULT_SEED ?? Date.now() % 2 ** 31);
const REPS = 4;

describe(`a Postgres restart during turnkit run (seed ${SEED})`, () => {
  let server: PrivatePostgres | undefined;
  let p: FaultProject;
  beforeAll(async () => {
    if (!here && !required) return;
    server = await startPrivatePostgres();
    p = await faultProject('postgres', { admin: server.url });
  });
  afterAll(async () => {
    await p?.t.cleanup();
    await server?.destroy();
  });

  it.runIf(here || required)(
    'fails the run with one line, --resume completes it to the same reps, and gc leaves the database as it was',
    async () => {
      const say = (what: string): string => `seed ${SEED} (TURNKIT_FAULT_SEED=${SEED} to replay): ${what}`;
      const random = mulberry32(SEED);
      // Each SUT thinks inside its connection, then writes a turn of its campaign. The restart cuts it; it fails only once
      // the server is back (as after a restart faster than its SUT's exit), so turnkit finds a database that answers
      // and must still not blame the SUT. Other reps may be cut in their seeds or teardowns.
      const question = await p.question(
        'restarted',
        '#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qc "SELECT pg_sleep(0.6); INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, \'x\', \'y\', now(), 0)" > /dev/null || { until psql "$DATABASE_URL" -qc "SELECT 1" > /dev/null 2>&1; do sleep 0.1; done; exit 2; }\necho ok\n',
        { reps: REPS },
      );
      const before = await tableChecksums(p.t.db);
      // The CLI in this process (the same exit code and lines as the binary): it is the server that restarts.
      const cli = { cwd: p.t.dir, env: { DATABASE_URL: '' } };
      let finished = false;
      const running = runInProcess(['run', question, '--concurrency', '2', '--database-url', p.t.databaseUrl!], cli);
      const end = (): void => {
        finished = true;
      };
      running.then(end, end);
      // The moment: a SUT in its query (so the restart surely cuts a rep), then a random delay within that query.
      const thinking = async (): Promise<number> =>
        (
          await adminQuery(
            server!.url,
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()",
          )
        ).rows[0].n;
      while ((await thinking()) < 1 && !finished) await new Promise((resolve) => setTimeout(resolve, 10));
      const delay = Math.floor(random() * 300);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await server!.restart();
      const { code, stderr } = await running;
      const moment = `restart ${delay} ms after a SUT began its query`;

      // The run fails: exit 1, its last words one line, no stack trace.
      expect(code, say(`${moment}: ${stderr}`)).toBe(1);
      expect(stderr, say(moment)).not.toMatch(/^\s+at /m);
      const last = stderr.trimEnd().split('\n').at(-1)!;
      expect(last, say(moment)).toMatch(
        /^reps\/base\/rep-0\d: the database went away during the rep \([^)]+\); the rep is not recorded and its scratch campaign is left to turnkit gc; when the database is back, finish the run with --resume$/,
      );
      const name = (await readdir(join(p.t.dir, 'runs/restarted')))[0]!;
      const dir = join(p.t.dir, 'runs/restarted', name);
      const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.status, say(moment)).toBe('interrupted');

      // Resumed (the server is back), the run has every rep, none errored; gc leaves the database as it was.
      const resumed = await runInProcess(
        ['run', question, '--resume', `runs/restarted/${name}`, '--database-url', p.t.databaseUrl!],
        cli,
      );
      expect(resumed.code, say(`resume: ${resumed.stderr}`)).toBe(0);
      expect(resumed.stdout).toContain(`runs/restarted/${name}: complete`);
      const marks = parseMarks(await readFile(join(dir, 'marks.csv'), 'utf8'));
      expect(
        marks.map((row) => [row.rep, row.mark]),
        say(moment),
      ).toEqual([1, 2, 3, 4].map((rep) => [rep, '']));
      await collectGarbage(p.t.db);
      expect(await registryCounts(p.t.db), say(moment)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);
    },
  );
});
