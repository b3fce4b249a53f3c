import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { runQuestion } from '../../src/pipeline/run-question.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import type { RepRecord } from '../../src/pipeline/rep-record.js';

const CHECKS = 'checks:\n  effects:\n    noOutsideChanges: true';

describe.each(BACKENDS)('a SUT that writes outside its campaign, on %s', (backend) => {
  let p: FaultProject;
  const rep = async (dir: string): Promise<RepRecord> => JSON.parse(await readFile(join(dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;

  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('points a live character at a scratch location: the teardown refuses naming the rows, the rep records it, gc skips it and removes the rest', async () => {
    const live = (await p.t.db.pool.query<{ id: string; location_id: string }>('SELECT id, location_id::text FROM characters WHERE campaign_id = $1 ORDER BY id LIMIT 1', [p.campaign])).rows[0]!;
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
    expect((await collectGarbage(p.t.db, { all: true })).removed.map((entry) => entry.id)).toEqual([record.scratch!.id]);
    expect(await tableChecksums(p.t.db)).toEqual(before);
  });
});
