import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { runCli } from '../helpers/cli.js';
import { runQuestion } from '../../src/app/run-question.js';
import { runFailure } from '../../src/pipeline/run-outcome.js';
import { shownPath } from '../../src/util/shown-path.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

// SUTs that fail on every rep in each way a SUT can: the run must not pass for a finished one.
const FAILING = {
  exits: {
    script: '#!/bin/sh\ncat > /dev/null\necho broken >&2\nexit 3\n',
    first: 'base rep 1: sut: exit: exited with 3: broken',
  },
  hangs: {
    script: '#!/bin/sh\ncat > /dev/null\nexec sleep 60\n',
    first: 'base rep 1: sut: timeout: no answer within 1 s',
  },
  floods: {
    script: '#!/bin/sh\ncat > /dev/null\nexec yes flood\n',
    first: 'base rep 1: sut: output-too-large: stdout passed 131072 bytes',
  },
} as const;

// Some of its SUTs are shell scripts that read or write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(BACKENDS)('SUT faults on %s', (backend) => {
  let p: FaultProject;
  const databaseUrl = (): string | undefined => p.t.databaseUrl;

  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it.each(Object.keys(FAILING) as (keyof typeof FAILING)[])(
    'a SUT that %s on every rep: the run fails with the count and the first cause',
    async (kind) => {
      const question = await p.question(kind, FAILING[kind].script, { reps: 2, timeout: 1 });
      const before = await tableChecksums(p.t.db);
      const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl() });
      expect(result).toMatchObject({
        status: 'complete',
        total: 2,
        errors: 2,
        pending: 0,
        firstError: FAILING[kind].first,
      });
      const failure = runFailure(result, question);
      expect(failure?.message).toBe(
        `${shownPath(result.dir)}: all 2 rep(s) errored, so there is nothing to mark (first: ${FAILING[kind].first}); fix the SUT, then: turnkit run ${question} --resume ${shownPath(result.dir)}`,
      );
      expect(await tableChecksums(p.t.db)).toEqual(before);
      expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    },
  );

  it.runIf(psql.found)(
    'a SUT that deletes its own campaign: the rep is ok with the deletions recorded, the teardown neither fails nor leaks',
    async () => {
      // Every row of the scratch campaign, children first, in one transaction (the sample game has no ON DELETE CASCADE).
      const where = 'campaign_id = $TURNKIT_CAMPAIGN';
      const question = await p.question(
        'suicide',
        `#!/bin/sh
cat > /dev/null
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -q <<SQL
BEGIN;
DELETE FROM world_facts WHERE ${where};
DELETE FROM turns WHERE ${where};
DELETE FROM characters WHERE ${where};
DELETE FROM location_connections WHERE from_location_id IN (SELECT id FROM locations WHERE ${where})
  OR to_location_id IN (SELECT id FROM locations WHERE ${where});
DELETE FROM locations WHERE ${where};
DELETE FROM decks WHERE ${where};
DELETE FROM campaigns WHERE id = $TURNKIT_CAMPAIGN;
COMMIT;
SQL
echo gone
`,
        { reps: 2, checks: 'checks:\n  effects:\n    noOutsideChanges: true' },
      );
      const before = await tableChecksums(p.t.db);
      const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl(), concurrency: 1 });
      expect(result).toMatchObject({ status: 'complete', total: 2, errors: 0, pending: 0, failures: [] });
      const seeded = Object.fromEntries(Object.entries(p.fixture.tables).map(([name, t]) => [name, t.rows.length]));
      for (const rep of ['rep-01', 'rep-02']) {
        const record = JSON.parse(await readFile(join(result.dir, `reps/base/${rep}.json`), 'utf8')) as RepRecord;
        expect(record.error, rep).toBeNull();
        expect(record.response).toBe('gone');
        expect(record.outside ?? [], rep).toEqual([]);
        // What the SUT removed is what the seed wrote of the campaign's own tables; the shared users stay.
        const { users: _shared, ...owned } = seeded;
        expect(record.effects?.deleted, rep).toEqual(
          Object.fromEntries(Object.entries(owned).filter(([, count]) => count > 0)),
        );
      }
      expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db)).toEqual(before);
      if (backend !== 'postgres') return;
      // In a database of its own (real Postgres only), the campaign deleted inside it goes with the dropped database.
      // One rep: the clone is what is new here, and each clone is a CREATE DATABASE.
      const cloned = await runQuestion({
        question,
        cwd: p.t.dir,
        databaseUrl: databaseUrl(),
        strategy: 'database',
        reps: 1,
      });
      expect(cloned, cloned.firstError).toMatchObject({ status: 'complete', total: 1, errors: 0, failures: [] });
      const record = JSON.parse(await readFile(join(cloned.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
      expect(record.scratch?.strategy).toBe('database');
      expect(record.effects?.deleted.campaigns).toBe(1);
      expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db)).toEqual(before);
    },
  );

  // A database of its own exists on real Postgres only.
  if (backend === 'postgres')
    it.runIf(psql.found)(
      'a SUT that drops a table of its own database (--strategy database): the rep says so, the database is dropped all the same',
      async () => {
        const question = await p.question(
          'dropper',
          '#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -qc "DROP TABLE world_facts"\necho dropped\n',
          { reps: 1 },
        );
        const before = await tableChecksums(p.t.db);
        const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl(), strategy: 'database' });
        expect(result).toMatchObject({ status: 'complete', total: 1, errors: 1, failures: [] });
        // What it changed cannot be read from a database that lost a table; the teardown drops the database anyway.
        expect(result.firstError).toMatch(/^base rep 1: teardown: teardown: .*world_facts/);
        expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
        const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
        const { rows } = await p.t.db.pool.query('SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE $1', [
          `turnkit_scratch_${record.scratch!.id.slice('scratch-'.length)}%`,
        ]);
        expect(rows[0].n).toBe(0);
        expect(await tableChecksums(p.t.db)).toEqual(before);
      },
    );

  it('a SUT that fails on some reps only: the run succeeds, the errors are marked', async () => {
    const question = await p.question(
      'some',
      '#!/bin/sh\ncat > /dev/null\n[ "$TURNKIT_REP" = 1 ] && exit 3\necho fine\n',
      { reps: 2 },
    );
    const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl() });
    expect(result).toMatchObject({ total: 2, errors: 1, firstError: 'base rep 1: sut: exit: exited with 3' });
    expect(runFailure(result, question)).toBeUndefined();
  });

  // The exit code is what only a process shows: once, on the embedded database (in its project, not one of its own).
  if (backend === 'embedded')
    it('turnkit run exits 1 with one line when every rep errored', async () => {
      const question = await p.question('cli', FAILING.exits.script, { reps: 2 });
      const cli = await runCli(['run', question], { cwd: p.t.dir });
      expect(cli.code).toBe(1);
      const lines = cli.stderr.trimEnd().split('\n');
      expect(lines.at(-1)).toMatch(
        /^runs\/cli\/\S+: all 2 rep\(s\) errored, so there is nothing to mark \(first: base rep 1: sut: exit: exited with 3: broken\); fix the SUT, then: turnkit run questions\/cli.yaml --resume runs\/cli\/\S+$/,
      );
      expect(cli.stdout).not.toContain('mark the reps');
    });
});
