import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { runQuestion } from '../../src/app/run-question.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

// The operations' files context: relative paths of their input are this process's folder's, as before.
const HERE = { cwd: process.cwd(), paths: { baseDir: process.cwd() } };

const CHECKS = 'checks:\n  effects:\n    noOutsideChanges: true';

// Its SUTs are shell scripts that read and write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(psql.found ? BACKENDS : [])('a SUT that writes outside its campaign, on %s', (backend) => {
  let p: FaultProject;
  const rep = async (dir: string): Promise<RepRecord> =>
    JSON.parse(await readFile(join(dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;

  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('points a live character at a scratch location: the teardown refuses naming the rows, the rep records it, gc skips it and removes the rest', async () => {
    const live = (
      await p.t.db.pool.query<{ id: string; location_id: string }>(
        'SELECT id, location_id::text FROM characters WHERE campaign_id = $1 ORDER BY id LIMIT 1',
        [p.campaign],
      )
    ).rows[0]!;
    const before = await tableChecksums(p.t.db);
    const question = await p.question(
      'repoint',
      `#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -qc "UPDATE characters SET location_id = (SELECT min(id) FROM locations WHERE campaign_id = $TURNKIT_CAMPAIGN) WHERE id = '${live.id}'"\necho done\n`,
      { reps: 1, checks: CHECKS },
    );
    const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl });
    const record = await rep(result.dir);
    expect(record.error).toMatchObject({ stage: 'teardown', cause: 'teardown' });
    const refusal = `teardown of ${record.scratch!.id} refused: rows outside the campaign reference it: 1 row(s) of "characters" (characters_location_id_fkey) point at "locations".`;
    expect(record.error!.message.startsWith(refusal), record.error!.message).toBe(true);
    expect(record.outside).toEqual([expect.stringContaining(refusal)]);
    expect(await registryCounts(p.t.db)).toMatchObject({ campaigns: 1 });

    // Another orphan beside it: gc removes that one, and reports the refused one without failing.
    const session = new ScratchSession(p.t.db, { game: p.t.config.game, owner: null });
    const other = await session.seed(p.fixture);
    const gc = await collectGarbage(p.t.db, { all: true });
    expect(gc.removed.map((entry) => entry.id)).toEqual([other.id]);
    expect(gc.failed).toEqual([]);
    expect(gc.refused).toEqual([{ id: record.scratch!.id, fixture: 'base', reason: expect.stringContaining(refusal) }]);

    // Once the live row is put back, gc removes the campaign and the database is as it was.
    await p.t.db.pool.query('UPDATE characters SET location_id = $2 WHERE id = $1', [live.id, live.location_id]);
    expect((await collectGarbage(p.t.db, { all: true })).removed.map((entry) => entry.id)).toEqual([
      record.scratch!.id,
    ]);
    expect(await tableChecksums(p.t.db)).toEqual(before);
  });

  it('appends to a turn of a live campaign: the rep records the row as an outside change and noOutsideChanges fails', async () => {
    const turn = (
      await p.t.db.pool.query<{ id: string; narration: string }>(
        'SELECT id::text, narration FROM turns WHERE campaign_id = $1 AND turn_number = 5',
        [p.campaign],
      )
    ).rows[0]!;
    const question = await p.question(
      'append',
      `#!/bin/sh
cat > /dev/null
psql "$DATABASE_URL" -qc "UPDATE turns SET narration = narration || ' (appended)' WHERE campaign_id = ${p.campaign} AND turn_number = 5"
echo done
`,
      { reps: 1, checks: CHECKS },
    );
    const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl });
    const record = await rep(result.dir);
    expect(record.error).toBeNull();
    expect(record.outside).toEqual([
      `turns[${turn.id}]: written during the rep (a row of campaign ${p.campaign}, outside the scratch campaign)`,
    ]);
    await judgeChecks(HERE, { dir: result.dir });
    const marks = parseMarks(await readFile(join(result.dir, 'marks.checks.csv'), 'utf8'));
    expect(marks.map((row) => [row.mark, row.note])).toEqual([
      ['fail', `changed rows outside its campaign (${record.outside![0]})`],
    ]);
    await p.t.db.pool.query('UPDATE turns SET narration = $2 WHERE id = $1', [turn.id, turn.narration]);
  });

  it("a SUT that writes only its own campaign, reps side by side: no rep sees another rep's writes as outside changes", async () => {
    const question = await p.question(
      'own',
      `#!/bin/sh
cat > /dev/null
psql "$DATABASE_URL" -qc "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, 'x', 'own turn', now(), 0); UPDATE characters SET hit_points = 1 WHERE campaign_id = $TURNKIT_CAMPAIGN"
echo done
`,
      { reps: 6, checks: CHECKS },
    );
    const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: p.t.databaseUrl, concurrency: 3 });
    expect(result).toMatchObject({ errors: 0, total: 6 });
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const record = JSON.parse(await readFile(join(result.dir, `reps/base/rep-0${n}.json`), 'utf8')) as RepRecord;
      expect(record.outside ?? [], `rep ${n}`).toEqual([]);
      expect(record.effects?.inserted).toEqual({ turns: 1 });
    }
  });
});
