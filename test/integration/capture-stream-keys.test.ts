import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';

// A streamed capture reads each table's rows again by their integer key in key order (stream-rows.ts): one range
// scan where the keys fill most of their range, skipping the rows of the range that are another campaign's, and a
// probe per key (= ANY) where they are sparse. Two campaigns played at once interleave their turns' keys so that
// one takes each path; the files must hold the in-memory path's bytes either way.
const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

describe.each(BACKENDS)('a streamed capture reading keys again on %s', (backend) => {
  let t: TestDb;
  let dir: string;
  let sparse: string;
  let dense: string;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    dir = await mkdtemp(join(tmpdir(), 'turnkit-stream-keys-'));
    sparse = await createSampleCampaign(t.db, { turns: 20, seed: 11 });
    dense = await createSampleCampaign(t.db, { turns: 20, seed: 12 });
    // Turns 21 on played in one statement, in key order: one of `sparse`'s to two of `dense`'s, 400 rounds.
    await t.db.pool.query(
      `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
       SELECT c, n, 'look around ' || n || ' ' || k, 'Deck ' || k || ' hums, turn ' || n || E'.\\n"Quiet" — ünïcode',
              timestamptz '2026-03-14 19:30:00+00' + make_interval(mins => n), n
       FROM generate_series(1, 400) AS r,
            LATERAL (VALUES ($1::bigint, 20 + r, 1), ($2::bigint, 19 + 2 * r, 2), ($2::bigint, 20 + 2 * r, 3)) AS v(c, n, k)
       ORDER BY r, k`,
      [sparse, dense],
    );
  });
  afterAll(async () => {
    await t?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the in-memory bytes whether the keys are read by range (rows skipped) or one by one', async () => {
    // What makes each campaign take its path: the spread of its turns' keys against their count.
    const spread = await t.db.pool.query<{ campaign: string; span: number; n: number }>(
      `SELECT campaign_id::text AS campaign, (max(id) - min(id) + 1)::int AS span, count(*)::int AS n
       FROM turns WHERE campaign_id = ANY($1::bigint[]) AND turn_number > 20 GROUP BY campaign_id`,
      [[sparse, dense]],
    );
    const of = (campaign: string) => spread.rows.find((row) => row.campaign === campaign)!;
    expect(of(sparse).span / of(sparse).n).toBeGreaterThan(2.5);
    expect(of(dense).span / of(dense).n).toBeLessThan(1.6);
    const scrubbed = {
      ...t.config,
      scrub: { ...t.config.scrub, 'turns.narration': { redact: ['email', 'phone'] } },
    } as typeof t.config;
    for (const campaign of [sparse, dense]) {
      for (const config of [t.config, scrubbed]) {
        const request = { campaign, turns: { latest: true as const }, scrub: TEST_SCRUB, now: new Date(0) };
        const { fixtures } = await captureFromDb(t.db, config, request);
        const file = join(dir, `${campaign}.json`);
        await captureFromDb(t.db, config, { ...request, streamTo: async () => file });
        expect(fixtures[0]!.tables.turns!.rows.length).toBeGreaterThan(400);
        expect(sha(await readFile(file)), `campaign ${campaign}`).toBe(sha(serializeDocument(fixtures[0]!)));
      }
    }
  });
});
