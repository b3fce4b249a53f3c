import { asCommand } from '../helpers/as-command.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { show } from '../../src/fixture/show-fixture.js';
import { verifyFixtures } from '../../src/fixture/verify-fixtures.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';

describe.each(BACKENDS)('capture --ahead on %s', (backend) => {
  let t: TestDb;
  let campaign: string;
  let plain: Fixture;
  let ahead: Fixture;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    campaign = await createSampleCampaign(t.db, { turns: 30 });
    const capture = async (extra: { ahead?: number }) =>
      (
        await captureFromDb(t.db, t.config, {
          scrub: TEST_SCRUB,
          campaign,
          turns: { turn: 23 },
          now: new Date(0),
          ...extra,
        })
      ).fixtures[0]!;
    plain = await capture({});
    ahead = await capture({ ahead: 4 });
  });
  afterAll(async () => t?.cleanup());

  it("records turns 24..26's input columns and nothing else of them", async () => {
    const { rows } = await t.db.pool.query<{ turn_number: number; player_input: string }>(
      'SELECT turn_number, player_input FROM turns WHERE campaign_id = $1 AND turn_number BETWEEN 24 AND 26 ORDER BY turn_number',
      [campaign],
    );
    expect(ahead.ahead).toEqual(
      rows.map((row) => ({ turn: row.turn_number, values: { player_input: row.player_input } })),
    );
    // The state is the same as without --ahead: the future stays out of it.
    expect(ahead.tables).toEqual(plain.tables);
    expect(Object.keys(ahead)).toEqual(['$schema', 'format', 'name', 'source', 'input', 'ahead', 'tables']);
    // Without --ahead the file is as it always was.
    expect(Object.keys(plain)).not.toContain('ahead');
  });

  it('refuses to look past the last turn', async () => {
    await expect(
      captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 28 }, ahead: 4 }),
    ).rejects.toThrow(
      '--ahead 4: turn 28 plus 3 turn(s) ahead reaches turn 31, past the last turn of the campaign (30)',
    );
  });

  it('is shown, verified, and kept by a constructed fixture', async () => {
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/ahead.json'), serializeDocument({ ...ahead, name: 'ahead' }));
    const summary = await show({ cwd: t.dir, paths: { baseDir: t.dir } }, { fixture: 'fixtures/ahead.json' });
    expect(summary.ahead.map((entry) => entry.turn)).toEqual([24, 25, 26]);
    const turn22 = ahead.tables.turns!.rows.find((row) => row.turn_number === 22)!;
    await writeFile(join(t.dir, 'patch.json'), JSON.stringify({ turns: [{ id: turn22.id, narration: 'fixed' }] }));
    await asCommand(construct, {
      fixture: 'fixtures/ahead.json',
      turn: 22,
      patch: 'patch.json',
      name: 'ahead-fixed',
      why: 'w',
      cwd: t.dir,
      out: 'constructed',
    });
    const materialized = await loadFixture(join(t.dir, 'constructed/ahead-fixed.json'));
    expect(materialized.fixture.ahead).toEqual(ahead.ahead);
    expect(
      await asCommand(verifyFixtures, { cwd: t.dir, paths: ['fixtures/ahead.json', 'constructed/ahead-fixed.json'] }),
    ).toMatchObject({
      problems: [],
    });
    // A gap in the turns ahead is named with its place.
    const broken = { ...ahead, name: 'broken', ahead: [ahead.ahead![0]!, ahead.ahead![2]!] };
    await writeFile(join(t.dir, 'fixtures/broken.json'), serializeDocument(broken));
    const result = await asCommand(verifyFixtures, { cwd: t.dir, paths: ['fixtures/broken.json'] });
    // (In-process the loader names the file from the test's own folder too: the CLI's cwd is one.)
    expect(result.problems).toContain(
      'fixtures/broken.json: $.ahead[1].turn: is 26 but the turn after the one before is 25',
    );
  });
});
